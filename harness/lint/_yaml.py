"""YAML (and JSON) with line numbers, at C speed, safely.

The linter needs the line of every key and list item. PyYAML's libyaml ``compose`` gives a node
tree with the position of every node in about 0.3 ms for a 25-line config; a small walker turns it
into plain values in :class:`LMap` / :class:`LSeq` containers that remember their lines. Nothing is
constructed from tags (a ``!!python/object`` tag is only a string here), so loading never executes
anything.

Scalars follow YAML 1.2's core schema, as Copilot Studio and ruamel.yaml do: only ``true`` /
``false`` are booleans (``yes``, ``no``, ``on`` and ``off`` stay text), dates stay text.

Hostile or broken files fail at once with one :class:`YamlSyntaxError` naming the line, never a
traceback or a hang: alias bombs ("billion laughs") stop when expanding aliases passes
:data:`MAX_NODES` values, nesting deeper than :data:`MAX_DEPTH` levels stops (recursive aliases
too), and a duplicate key is an error, as in ruamel.yaml.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

__all__ = ["MAX_DEPTH", "MAX_NODES", "LMap", "LSeq", "YamlSyntaxError", "parse_yaml"]

MAX_DEPTH = 64
"""Deepest nesting of mappings and lists accepted (agent configs need fewer than ten)."""

MAX_NODES = 100_000
"""Most values a document may expand to, aliases included (a large config has a few thousand)."""

_Base: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_PLAIN = "!plain"


class _Loader(_Base):  # type: ignore[misc]
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


class YamlSyntaxError(ValueError):
    """The text is not valid YAML, or is too deep or too large once aliases are expanded.

    Attributes:
        line: the 1-based line of the problem, when known.
        problem: what is wrong.
    """

    def __init__(self, problem: str, *, line: int | None) -> None:
        self.problem = problem
        self.line = line
        super().__init__(f"line {line}: {problem}" if line else problem)


def parse_yaml(text: str) -> Any:
    """Parse one YAML (or JSON) document into plain values with lines; None for an empty one.

    Raises:
        YamlSyntaxError: for invalid YAML, a duplicate key, an alias bomb or too deep nesting.
    """
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        # For an unclosed quote or flow collection the context mark is where the broken construct
        # starts and the problem mark where the parser gave up, often much later.
        context = exc.context or ""
        unclosed = context.startswith("while scanning") or "flow" in context
        mark = exc.context_mark if unclosed and exc.context_mark else exc.problem_mark
        problem = exc.problem or "invalid YAML"
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

    def value(self, node: yaml.Node, depth: int) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise YamlSyntaxError(
                f"aliases expand to more than {MAX_NODES:,} values (an alias bomb?)",
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
