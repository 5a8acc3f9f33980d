"""Safe YAML reading for configs, scenario files and everything else users hand the CLI.

A config is small, so anything unusual is refused with one clear ``ConfigError`` before any Python
objects are built, and loading stays linear in the file's size:

- files larger than ``MAX_FILE_BYTES`` are refused;
- text must be UTF-8 (a BOM is fine); UTF-16/32 and NUL bytes are named in the error;
- the event stream (libyaml's C parser through PyYAML, iterative) is checked first: nesting deeper
  than ``MAX_DEPTH`` and documents that expand (aliases included) to more than ``MAX_NODES`` nodes
  are refused at once, so a "billion laughs" file costs microseconds, not gigabytes;
- only then is the document composed and built, with the safe constructor (no Python tags).

The tree keeps line numbers: mappings are ``LinedDict`` (``lines[key]``) and sequences
``LinedList`` (``lines[index]``), 1-based, for errors that point at the right line. Those two types
and the validation of a tree live in ``subagents.config``, which reads no files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from harness._files import read_text
from harness.exceptions import ConfigError
from subagents.config import LinedDict, LinedList

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_NODES", "read_text", "read_yaml"]

MAX_FILE_BYTES = 5_000_000
"""The largest YAML file read (5 MB); real configs and scenario files are a few kilobytes."""
MAX_DEPTH = 64
"""The deepest nesting of mappings and sequences accepted."""
MAX_NODES = 1_000_000
"""The most nodes a document may expand to, aliases counted each time they are used."""

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE = "tag:yaml.org,2002:merge"


_YAML11_ONLY = frozenset(
    {"tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
)


def _is_yaml11_only(node: Any) -> bool:
    text = node.value
    if node.tag == "tag:yaml.org,2002:bool":
        return text.lower() not in ("true", "false")
    return ":" in text or "_" in text


def _check_events(text: str, file: str) -> None:
    """Refuse deep nesting and alias bombs from the event stream, before building anything."""
    sizes: dict[str, int] = {}
    frames: list[list[Any]] = []  # [anchor, size so far]
    total = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            frames.append([event.anchor, 0])
            if len(frames) > MAX_DEPTH:
                raise ConfigError(
                    f"the YAML nests deeper than {MAX_DEPTH} levels",
                    file=file,
                    line=event.start_mark.line + 1,
                )
            continue
        if isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            size = sizes.get(event.anchor or "", 1)
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            anchor, size = frames.pop()
            size += 1
            if anchor:
                sizes[anchor] = size
        else:
            continue
        if frames:
            frames[-1][1] += size
            size = frames[-1][1]
        else:
            total += size
            size = total
        if size > MAX_NODES:
            raise ConfigError(
                f"the YAML expands to more than {MAX_NODES:,} nodes (aliases counted each time "
                "they are used); refusing to load it",
                file=file,
                line=event.start_mark.line + 1,
            )


class _Builder:
    def __init__(self, file: str) -> None:
        self.file = file
        self.constructor = yaml.constructor.SafeConstructor()
        self.built: dict[int, Any] = {}

    def build(self, node: yaml.Node) -> Any:
        key = id(node)
        if key in self.built:  # an alias: the same object again (already counted as safe)
            return self.built[key]
        if isinstance(node, yaml.MappingNode):
            mapping = LinedDict()
            mapping.lines = {}
            self.built[key] = mapping
            merged: list[LinedDict] = []
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE:
                    value = self.build(value_node)
                    merged.extend(value if isinstance(value, list) else [value])
                    continue
                name = self.build(key_node)
                try:
                    hash(name)
                except TypeError:
                    raise self.error("a mapping key must be a plain value", key_node) from None
                if name in mapping:
                    raise self.error(f"duplicate key {name!r}", key_node)
                mapping[name] = self.build(value_node)
                mapping.lines[name] = key_node.start_mark.line + 1
            for source in merged:
                if not isinstance(source, dict):
                    raise self.error("'<<' must merge a mapping", node)
                for name, value in source.items():
                    if name not in mapping:
                        mapping[name] = value
                        mapping.lines[name] = getattr(source, "lines", {}).get(name, 1)
            return mapping
        if isinstance(node, yaml.SequenceNode):
            sequence = LinedList()
            sequence.lines = []
            self.built[key] = sequence
            for item in node.value:
                sequence.append(self.build(item))
                sequence.lines.append(item.start_mark.line + 1)
            return sequence
        if node.tag in _YAML11_ONLY and isinstance(node.value, str) and _is_yaml11_only(node):
            value = node.value  # YAML 1.2 reads `yes`, `off` and `1:30` as strings, as ruamel did
            self.built[key] = value
            return value
        try:
            value = self.constructor.construct_object(node)
        except yaml.YAMLError as exc:
            raise self.error(f"unsupported value: {getattr(exc, 'problem', exc)}", node) from None
        self.built[key] = value
        return value

    def error(self, message: str, node: yaml.Node) -> ConfigError:
        return ConfigError(
            f"invalid YAML: {message}", file=self.file, line=node.start_mark.line + 1
        )


def read_yaml(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """Read one YAML document safely (see the module docstring); None for an empty file.

    Raises:
        ConfigError: the file is missing, too large, not UTF-8, not valid YAML, nested too deeply,
            expands too far, or holds more than one document. It names the file and the line.
    """
    file = str(path)
    text = read_text(path, max_bytes=max_bytes)
    try:
        _check_events(text, file)
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = "; ".join(p for p in (exc.context, exc.problem) if p) or str(exc)
        raise ConfigError(f"invalid YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", file=file) from None
    if node is None:
        return None
    return _Builder(file).build(node)
