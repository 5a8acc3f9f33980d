"""The one safe YAML reader: configs and scenarios for the runtime, any YAML or JSON for the linter.

Everything YAML a user hands the SDK goes through this module, under one set of limits:

- ``MAX_FILE_BYTES`` (4 MiB): larger files are refused (real configs and scenario files are a few
  kilobytes; the linter's own file reader, ``harness.lint._files``, uses the same figure);
- ``MAX_DEPTH`` (64): deeper nesting of mappings and sequences is refused;
- ``MAX_NODES`` (100,000): a document with more nodes (every key, scalar, list and mapping counts
  one; an alias counts its whole target each time it is used) is refused, so a "billion laughs"
  file fails at once instead of eating memory. The error calls the file an alias bomb only when
  uses of aliases make up most of the count.

Two readers share those limits, because their callers need different trees:

- ``read_yaml`` (configs, scenario files): text must be UTF-8 (a BOM is fine; UTF-16/32 and NUL
  bytes are named in the error); the event stream (libyaml's C parser through PyYAML, iterative) is
  checked for depth and expansion before anything is built, then the document is built with the safe
  constructor (no Python tags). Mappings are ``LinedDict`` (``lines[key]``) and sequences
  ``LinedList`` (``lines[index]``), 1-based; those types and the validation of a tree live in
  ``subagents.config``, which reads no files. Errors are ``ConfigError``.
- ``parse_yaml`` (the linter, which needs the line of every key and list item): scalars follow YAML
  1.2's core schema, as Copilot Studio and ruamel.yaml do (only ``true`` / ``false`` are booleans,
  ``yes`` and dates stay text); nothing is constructed from tags; the tree is ``LMap`` / ``LSeq``.
  Errors are ``YamlSyntaxError`` naming the line; a duplicate key is an error, as in ruamel.yaml.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml

from harness._files import read_text
from harness.exceptions import ConfigError, UsageError
from subagents.config import LinedDict, LinedList

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "LMap",
    "LSeq",
    "YamlSyntaxError",
    "parse_yaml",
    "read_yaml",
]

MAX_FILE_BYTES = 4 * 1024 * 1024
"""The largest YAML file read (4 MiB); real configs and scenario files are a few kilobytes."""
MAX_DEPTH = 64
"""The deepest nesting of mappings and sequences accepted (agent configs need fewer than ten)."""
MAX_NODES = 100_000
"""The most nodes a document may expand to, aliases counted each time they are used (a large
config has a few thousand)."""

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
    from_aliases = 0  # how much of the total comes from uses of aliases
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
            from_aliases += size
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
                _too_many_nodes(from_aliases, size) + "; refusing to load it",
                file=file,
                line=event.start_mark.line + 1,
            )


def _too_many_nodes(from_aliases: int, counted: int) -> str:
    """Say what the node limit counts. ``from_aliases`` of the ``counted`` values came from uses
    of aliases: only when they are most of them is the file called an alias bomb (one ordinary
    anchor or merge key in a large file is not)."""
    if from_aliases * 2 > counted:
        return (
            f"the document expands to more than {MAX_NODES:,} values through aliases "
            f"({from_aliases:,} of them from aliases, counted each time they are used; "
            "an alias bomb?)"
        )
    said = f"; {from_aliases:,} of them from aliases" if from_aliases else ""
    return (
        f"the document holds more than {MAX_NODES:,} values (every key, scalar, list and "
        f"mapping counts one{said}), the safe YAML reader's limit"
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


# -- the linter's reader: YAML 1.2 scalars, every line kept ---------------------------------------

_Base: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_PLAIN = "!plain"


class _LineLoader(_Base):  # type: ignore[misc]
    """libyaml's loader that only marks plain scalars: :func:`_scalar` types them by YAML 1.2's
    core schema itself (faster, and "yes" / "no" stay text)."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode:
            return _PLAIN if implicit[0] else "tag:yaml.org,2002:str"
        return "tag:yaml.org,2002:seq" if kind is yaml.SequenceNode else "tag:yaml.org,2002:map"

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_INT = re.compile(r"[-+]?[0-9]+\Z")
_INT_BASE = re.compile(r"0o[0-7]+\Z|0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL_FLOATS = {
    ".inf": math.inf,
    ".Inf": math.inf,
    ".INF": math.inf,
    "+.inf": math.inf,
    "+.Inf": math.inf,
    "+.INF": math.inf,
    "-.inf": -math.inf,
    "-.Inf": -math.inf,
    "-.INF": -math.inf,
    ".nan": math.nan,
    ".NaN": math.nan,
    ".NAN": math.nan,
}


class LMap(dict[Any, Any]):
    """A mapping that remembers the 1-based line of itself and of each key."""

    __slots__ = ("key_lines", "line")

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line
        self.key_lines: dict[Any, int] = {}

    def line_of(self, key: Any) -> int:
        """The line of ``key``, or of the mapping when the key is absent."""
        return self.key_lines.get(key, self.line)


class LSeq(list[Any]):
    """A list that remembers the 1-based line of itself and of each item."""

    __slots__ = ("item_lines", "line")

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int:
        """The line of item ``index``."""
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class YamlSyntaxError(UsageError, ValueError):
    """The text is not valid YAML, or is too deep or too large once aliases are expanded.

    Attributes:
        line: the 1-based line of the problem, when known.
        problem: what is wrong.
    """

    def __init__(self, problem: str, *, line: int | None) -> None:
        self.problem = problem
        self.line = line
        super().__init__(f"line {line}: {problem}" if line else problem)


def _tab_in_indentation(text: str, mark: Any, context: str) -> int | None:
    """The 1-based line of a parse error that stops at a tab in a block's indentation: the
    character at ``mark`` is a tab with only blanks before it on its line. A tab inside a flow
    collection (and so in JSON) is legal and is not named, whatever the error there."""
    if mark is None or "flow" in context:
        return None
    lines = text.splitlines()
    if not 0 <= mark.line < len(lines):
        return None
    line = lines[mark.line]
    at_tab = line[mark.column : mark.column + 1] == "\t"
    return int(mark.line) + 1 if at_tab and not line[: mark.column].strip(" \t") else None


def parse_yaml(text: str) -> Any:
    """Parse one YAML (or JSON) document into plain values with lines; None for an empty one.

    Raises:
        YamlSyntaxError: for invalid YAML, a duplicate key, an alias bomb or too deep nesting.
    """
    try:
        node = yaml.compose(text, Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        # For an unclosed quote or flow collection the context mark is where the broken construct
        # starts and the problem mark where the parser gave up, often much later.
        context = exc.context or ""
        unclosed = context.startswith("while scanning") or "flow" in context
        mark = exc.context_mark if unclosed and exc.context_mark else exc.problem_mark
        problem = exc.problem or "invalid YAML"
        tab = _tab_in_indentation(text, exc.problem_mark, context)
        if tab is not None:
            # libyaml says "found character that cannot start any token": name the tab.
            raise YamlSyntaxError(
                f"a tab character in the indentation at line {tab}; YAML indents with spaces",
                line=tab,
            ) from None
        if "maximum nesting depth" in problem:
            problem = "nesting too deep"
        elif unclosed and exc.problem_mark is not None:
            problem = f"{context}: {problem} (line {exc.problem_mark.line + 1})"
        raise YamlSyntaxError(problem, line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(str(exc).strip() or "invalid YAML", line=None) from None
    except RecursionError:
        raise YamlSyntaxError("nesting too deep", line=None) from None
    if node is None:
        return None
    return _Walker().value(node, 0)


class _Walker:
    """Turns a composed node tree into values, counting what aliases expand to."""

    def __init__(self) -> None:
        self.budget = MAX_NODES
        self.seen: set[int] = set()
        self.from_aliases = 0  # visits of a node already visited: uses of an alias

    def value(self, node: yaml.Node, depth: int) -> Any:
        self.budget -= 1
        if id(node) in self.seen:
            self.from_aliases += 1
        else:
            self.seen.add(id(node))
        if self.budget < 0:
            raise YamlSyntaxError(
                _too_many_nodes(self.from_aliases, MAX_NODES - self.budget),
                line=node.start_mark.line + 1,
            )
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        if depth >= MAX_DEPTH:
            raise YamlSyntaxError(
                f"nested more than {MAX_DEPTH} levels deep (or a recursive alias)",
                line=node.start_mark.line + 1,
            )
        if isinstance(node, yaml.SequenceNode):
            seq = LSeq(node.start_mark.line + 1)
            for item in node.value:
                seq.append(self.value(item, depth + 1))
                seq.item_lines.append(item.start_mark.line + 1)
            return seq
        assert isinstance(node, yaml.MappingNode)
        out = LMap(node.start_mark.line + 1)
        merged: list[LMap] = []
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if key_node.tag == _PLAIN and key_node.value == "<<":
                merged.extend(self._merge_sources(value_node, depth))
                continue
            key = self.value(key_node, depth + 1)
            if isinstance(key, list | dict):
                key = str(key)
            if key in out.key_lines:
                raise YamlSyntaxError(
                    f"duplicate key {key!r} (first on line {out.key_lines[key]})", line=line
                )
            out[key] = self.value(value_node, depth + 1)
            out.key_lines[key] = line
        for source in merged:
            for key, value in source.items():
                if key not in out:
                    out[key] = value
                    out.key_lines[key] = source.line_of(key)
        return out

    def _merge_sources(self, node: yaml.Node, depth: int) -> list[LMap]:
        value = self.value(node, depth + 1)
        sources = value if isinstance(value, LSeq) else [value]
        return [s for s in sources if isinstance(s, LMap)]


def _scalar(node: yaml.ScalarNode) -> Any:
    text: str = node.value
    if node.tag != _PLAIN:
        return text  # quoted, block or explicitly tagged: text, never constructed
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    first = text[0]
    if first.isdigit() or first in "+-.":
        if _INT.match(text):
            return int(text)
        if _INT_BASE.match(text):
            return int(text, 0)
        if _FLOAT.match(text):
            return float(text)
        if text in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[text]
    return text
