"""YAML with line numbers, fast enough to lint a thousand files in under a second.

The linter needs the line of every key and list item, which only a round-trip loader gives, and the
pure-Python ruamel.yaml round-trip loader costs about 5 ms for a 25-line config. Agent configs use a
small, regular part of YAML (block mappings and lists, plain and quoted scalars, literal and folded
block scalars, one-line flow lists and mappings), so this module parses that part itself, about
twenty times faster, and hands everything else to ruamel.yaml: anchors, tags, multi-line flow
collections, unusual numbers, and every error. A file therefore always loads exactly as ruamel.yaml
loads it (the tests compare both on every fixture), and every syntax error is ruamel.yaml's, with its
line. Nothing here constructs Python objects from tags: loading never executes anything.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["LMap", "LSeq", "YamlSyntaxError", "load_yaml", "load_yaml_slow"]


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
    """The text is not valid YAML.

    Attributes:
        line: the 1-based line of the problem, when known.
        problem: what is wrong, in ruamel.yaml's words.
    """

    def __init__(self, problem: str, *, line: int | None) -> None:
        self.problem = problem
        self.line = line
        super().__init__(f"line {line}: {problem}" if line else problem)


class _Unsupported(Exception):
    """The fast parser met something it leaves to ruamel.yaml."""


_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,17})\Z")
_FLOAT = re.compile(r"-?[0-9]+\.[0-9]+\Z")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_BAD_PLAIN_START = frozenset("#&*!|>%@`,[]{}'\"")
_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
}


def _resolve(text: str) -> Any:
    """Resolve a plain scalar as YAML 1.2's core schema (ruamel.yaml's default) does."""
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
        if _FLOAT.match(text):
            return float(text)
        if first in "-." and len(text) > 1 and not (text[1].isdigit() or text[1] in ".+-"):
            return text
        raise _Unsupported("number-like plain scalar")
    return text


def _strip_comment(rest: str) -> str:
    """Drop a trailing `` # comment`` from a plain value and trailing spaces."""
    pos = rest.find(" #")
    if pos >= 0:
        rest = rest[:pos]
    return rest.rstrip()


class _Parser:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.ends_with_newline = text.endswith("\n")
        if self.ends_with_newline:
            self.lines.pop()
        self.i = 0
        self.n = len(self.lines)

    # -- line helpers -------------------------------------------------------------------------

    def skip_blank(self) -> None:
        lines = self.lines
        while self.i < self.n:
            stripped = lines[self.i].lstrip(" ")
            if stripped and stripped[0] != "#":
                return
            self.i += 1

    def current(self) -> tuple[int, str]:
        line = self.lines[self.i]
        content = line.lstrip(" ")
        return len(line) - len(content), content

    # -- documents and blocks -----------------------------------------------------------------

    def document(self) -> Any:
        self.skip_blank()
        if self.i >= self.n:
            return None
        indent, content = self.current()
        if content.startswith(("---", "...", "%")):
            raise _Unsupported("document markers")
        node = self.block(indent)
        self.skip_blank()
        if self.i < self.n:
            raise _Unsupported("trailing content")
        return node

    def block(self, indent: int) -> Any:
        _, content = self.current()
        if content == "-" or content.startswith("- "):
            return self.sequence(indent)
        if self.key_split(content) is not None:
            return self.mapping(indent)
        line = self.i + 1
        value = self.inline_value(content, indent, line)
        return value

    def mapping(self, indent: int) -> LMap:
        node = LMap(self.i + 1)
        while True:
            self.skip_blank()
            if self.i >= self.n:
                break
            ind, content = self.current()
            if ind < indent:
                break
            if ind > indent:
                raise _Unsupported("unexpected indentation")
            split = self.key_split(content)
            if split is None:
                raise _Unsupported("not a mapping entry")
            key, rest = split
            if key in node or key == "<<":
                raise _Unsupported("duplicate or merge key")
            line = self.i + 1
            self.i += 1
            node[key] = self.after_key(rest, indent, line)
            node.key_lines[key] = line
        return node

    def sequence(self, indent: int) -> LSeq:
        node = LSeq(self.i + 1)
        while True:
            self.skip_blank()
            if self.i >= self.n:
                break
            ind, content = self.current()
            if ind < indent:
                break
            if ind > indent:
                raise _Unsupported("unexpected indentation")
            if not (content == "-" or content.startswith("- ")):
                break
            line = self.i + 1
            rest = content[1:]
            stripped = rest.lstrip(" ")
            column = ind + 1 + len(rest) - len(stripped)
            node.item_lines.append(line)
            if not stripped or stripped[0] == "#":
                self.i += 1
                value = self.nested(indent, allow_same_indent_seq=False)
                if not isinstance(value, LMap | LSeq):
                    raise _Unsupported("bare dash before a scalar")
                node.item_lines[-1] = value.line
                node.append(value)
            elif stripped == "-" or stripped.startswith("- "):
                raise _Unsupported("inline nested sequence")
            elif self.key_split(stripped) is not None:
                self.lines[self.i] = " " * column + stripped
                node.append(self.mapping(column))
            else:
                self.i += 1
                node.append(self.inline_value(stripped, indent, line))
        return node

    def nested(self, indent: int, *, allow_same_indent_seq: bool) -> Any:
        """The value of a key or dash with nothing after it: a nested block, or null."""
        self.skip_blank()
        if self.i >= self.n:
            return None
        ind, content = self.current()
        if ind > indent:
            return self.block(ind)
        if allow_same_indent_seq and ind == indent and (content == "-" or content.startswith("- ")):
            return self.sequence(indent)
        return None

    def after_key(self, rest: str, indent: int, line: int) -> Any:
        stripped = rest.strip(" ")
        if not stripped or stripped[0] == "#":
            return self.nested(indent, allow_same_indent_seq=True)
        if stripped == "-" or stripped.startswith("- "):
            raise _Unsupported("sequence after a key on one line")
        return self.inline_value(stripped, indent, line)

    # -- scalars and flow collections ---------------------------------------------------------

    def inline_value(self, text: str, indent: int, line: int) -> Any:
        """A value that starts on the current line (already consumed for block scalars' header)."""
        first = text[0]
        if first in "|>":
            return self.block_scalar(text, indent)
        if first in "[{":
            value, pos = _Flow(text, line).node(0)
            if _strip_comment(text[pos:]).strip():
                raise _Unsupported("content after a flow collection")
            return value
        if first in "\"'":
            value, pos = _quoted(text, 0)
            tail = text[pos:].strip()
            if tail and not tail.startswith("#"):
                raise _Unsupported("content after a quoted scalar")
            return value
        if first in _BAD_PLAIN_START:
            raise _Unsupported("indicator")
        value = _strip_comment(text)
        if ": " in value or value.endswith(":"):
            raise _Unsupported("colon in plain scalar")
        parts = [value]
        # A plain scalar may continue on more-indented lines (folded with spaces).
        while self.i < self.n:
            raw = self.lines[self.i]
            content = raw.lstrip(" ")
            if not content:
                parts.append("")
                self.i += 1
                continue
            if len(raw) - len(content) <= indent or content[0] == "#":
                break
            piece = content.rstrip()
            if ": " in piece or piece.endswith(":") or " #" in piece or piece[0] in "-?":
                raise _Unsupported("complex continuation")
            parts.append(piece)
            self.i += 1
        while len(parts) > 1 and parts[-1] == "":
            parts.pop()
        if len(parts) == 1:
            return _resolve(value)
        return _fold(parts)

    def block_scalar(self, header: str, indent: int) -> str:
        style = header[0]
        rest = header[1:]
        chomp = ""
        if rest[:1] in ("-", "+"):
            chomp, rest = rest[0], rest[1:]
        rest = rest.strip(" ")
        if rest and rest[0] != "#":
            raise _Unsupported("block scalar indentation indicator")
        content_indent = -1
        body: list[str] = []
        while self.i < self.n:
            raw = self.lines[self.i]
            content = raw.lstrip(" ")
            ind = len(raw) - len(content)
            if not content:
                if content_indent >= 0 and ind > content_indent:
                    raise _Unsupported("spaces on a blank line")
                if content_indent < 0 and ind > indent:
                    raise _Unsupported("leading blank line with spaces")
                body.append("")
                self.i += 1
                continue
            if content_indent < 0:
                if ind <= indent:
                    break
                content_indent = ind
            elif ind < content_indent:
                break
            body.append(raw[content_indent:])
            self.i += 1
        trailing = 0
        while body and body[-1] == "":
            body.pop()
            trailing += 1
        if self.i >= self.n and not self.ends_with_newline and (body or trailing):
            raise _Unsupported("block scalar at the end of a file without a final newline")
        if style == ">":
            if any(b.startswith(" ") for b in body):
                raise _Unsupported("more-indented lines in a folded scalar")
            text = _fold(body)
        else:
            text = "\n".join(body)
        if not body:
            return "\n" * trailing if chomp == "+" else ""
        if chomp == "-":
            return text
        if chomp == "+":
            return text + "\n" + "\n" * trailing
        return text + "\n"

    def key_split(self, content: str) -> tuple[Any, str] | None:
        """Split ``key: rest``; None when the line is not a mapping entry."""
        first = content[0]
        if first in "\"'":
            try:
                key, pos = _quoted(content, 0)
            except _Unsupported:
                return None
            tail = content[pos:]
            if tail.startswith(":") and (len(tail) == 1 or tail[1] == " "):
                return key, tail[1:]
            return None
        if first in "[{":
            return None
        pos = content.find(":")
        while pos >= 0:
            if pos + 1 == len(content) or content[pos + 1] == " ":
                key_text = content[:pos].rstrip(" ")
                if " #" in key_text or not key_text:
                    return None
                if key_text[0] in _BAD_PLAIN_START or (
                    key_text[0] in "?-" and (len(key_text) == 1 or key_text[1] == " ")
                ):
                    raise _Unsupported("complex key")
                return _resolve(key_text), content[pos + 1 :]
            pos = content.find(":", pos + 1)
        return None


def _fold(parts: list[str]) -> str:
    """Fold lines as YAML does: single breaks become spaces, each blank line a newline."""
    out: list[str] = []
    pending_blank = 0
    for part in parts:
        if part == "":
            pending_blank += 1
            continue
        if out:
            out.append("\n" * pending_blank if pending_blank else " ")
        pending_blank = 0
        out.append(part)
    return "".join(out)


def _quoted(text: str, pos: int) -> tuple[str, int]:
    """Parse a one-line quoted scalar starting at ``pos``; returns its value and the end."""
    quote = text[pos]
    end = text.find(quote, pos + 1)
    if quote == "'":
        if end > 0 and text[end + 1 : end + 2] != "'":
            return text[pos + 1 : end], end + 1
    else:
        backslash = text.find("\\", pos + 1)
        if end > 0 and (backslash < 0 or backslash > end):
            return text[pos + 1 : end], end + 1
    i = pos + 1
    out: list[str] = []
    n = len(text)
    if quote == "'":
        while i < n:
            ch = text[i]
            if ch == "'":
                if i + 1 < n and text[i + 1] == "'":
                    out.append("'")
                    i += 2
                    continue
                return "".join(out), i + 1
            out.append(ch)
            i += 1
        raise _Unsupported("multi-line quoted scalar")
    while i < n:
        ch = text[i]
        if ch == '"':
            return "".join(out), i + 1
        if ch == "\\":
            if i + 1 >= n:
                raise _Unsupported("escaped line break")
            esc = text[i + 1]
            if esc in _ESCAPES:
                out.append(_ESCAPES[esc])
                i += 2
                continue
            width = {"x": 2, "u": 4, "U": 8}.get(esc)
            digits = text[i + 2 : i + 2 + width] if width else ""
            if not width or len(digits) != width:
                raise _Unsupported("escape")
            try:
                out.append(chr(int(digits, 16)))
            except ValueError as exc:
                raise _Unsupported("escape") from exc
            i += 2 + width
            continue
        out.append(ch)
        i += 1
    raise _Unsupported("multi-line quoted scalar")


class _Flow:
    """A one-line flow collection (``[a, "b"]``, ``{name: x, description: y}``)."""

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line

    def space(self, pos: int) -> int:
        text = self.text
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text):
            raise _Unsupported("multi-line flow collection")
        return pos

    def node(self, pos: int) -> tuple[Any, int]:
        pos = self.space(pos)
        ch = self.text[pos]
        if ch == "[":
            return self.seq(pos + 1)
        if ch == "{":
            return self.map(pos + 1)
        if ch in "\"'":
            return _quoted(self.text, pos)
        return self.plain(pos)

    def plain(self, pos: int, *, key: bool = False) -> tuple[Any, int]:
        text = self.text
        end = pos
        while end < len(text) and text[end] not in ",[]{}:#":
            end += 1
        if (end < len(text) and text[end] == "#") or (
            end < len(text) and text[end] == ":" and not key
        ):
            raise _Unsupported("colon or hash in a flow plain scalar")
        value = text[pos:end].strip(" ")
        if not value or value[0] in _BAD_PLAIN_START or (value[0] in "?-" and len(value) == 1):
            raise _Unsupported("flow indicator")
        return _resolve(value), end

    def seq(self, pos: int) -> tuple[LSeq, int]:
        node = LSeq(self.line)
        while True:
            pos = self.space(pos)
            if self.text[pos] == "]":
                return node, pos + 1
            value, pos = self.node(pos)
            node.append(value)
            node.item_lines.append(self.line)
            pos = self.space(pos)
            ch = self.text[pos]
            if ch == ",":
                pos += 1
            elif ch != "]":
                raise _Unsupported("flow sequence")

    def map(self, pos: int) -> tuple[LMap, int]:
        node = LMap(self.line)
        while True:
            pos = self.space(pos)
            if self.text[pos] == "}":
                return node, pos + 1
            if self.text[pos] in "\"'":
                key, pos = _quoted(self.text, pos)
            else:
                key, pos = self.plain(pos, key=True)
            pos = self.space(pos)
            if self.text[pos] != ":":
                raise _Unsupported("flow mapping without value")
            if pos + 1 < len(self.text) and self.text[pos + 1] not in " ,}":
                raise _Unsupported("adjacent flow value")
            if key in node:
                raise _Unsupported("duplicate key")
            pos = self.space(pos + 1)
            if self.text[pos] in ",}":
                value: Any = None
            else:
                value, pos = self.node(pos)
            node[key] = value
            node.key_lines[key] = self.line
            pos = self.space(pos)
            ch = self.text[pos]
            if ch == ",":
                pos += 1
            elif ch != "}":
                raise _Unsupported("flow mapping")


def load_yaml(text: str) -> Any:
    """Load one YAML document with line numbers.

    Args:
        text: the YAML text.

    Returns:
        ``LMap`` / ``LSeq`` trees with plain scalars (str, int, float, bool, None); other scalar
        types (dates, for instance) come through as ruamel.yaml constructs them.

    Raises:
        YamlSyntaxError: the text is not valid YAML (ruamel.yaml's message and line).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\t" not in text and "\r" not in text:
        try:
            return _Parser(text).document()
        except (_Unsupported, IndexError):
            pass
    return load_yaml_slow(text)


def load_yaml_slow(text: str) -> Any:
    """Load with ruamel.yaml's round-trip loader (the reference the fast path must match)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        # For an unclosed quote or flow collection the context mark is where the broken construct
        # starts and the problem mark where the parser gave up, often much later; otherwise the
        # problem mark is the precise one (the context is the whole enclosing mapping).
        context = exc.context or ""
        unclosed = context.startswith("while scanning") or "flow" in context
        mark = exc.context_mark if unclosed and exc.context_mark else exc.problem_mark
        problem = exc.problem or "invalid YAML"
        if unclosed and exc.problem_mark is not None:
            problem = f"{context}: {problem} (line {exc.problem_mark.line + 1})"
        raise YamlSyntaxError(problem, line=mark.line + 1 if mark else None) from exc
    except YAMLError as exc:
        raise YamlSyntaxError(str(exc).strip() or "invalid YAML", line=None) from exc
    return _convert(data, 0)


def _convert(node: Any, line: int) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        start = node.lc.line + 1 if node.lc.line is not None else line
        out = LMap(start)
        for key, value in node.items():
            try:
                key_line = node.lc.key(key)[0] + 1
            except (KeyError, TypeError):
                key_line = start
            plain_key = _convert(key, key_line)
            if isinstance(plain_key, list | dict):
                plain_key = str(key)
            out[plain_key] = _convert(value, key_line)
            out.key_lines[plain_key] = key_line
        return out
    if isinstance(node, CommentedSeq):
        start = node.lc.line + 1 if node.lc.line is not None else line
        seq = LSeq(start)
        for index, value in enumerate(node):
            try:
                item_line = node.lc.item(index)[0] + 1
            except (KeyError, TypeError):
                item_line = start
            seq.append(_convert(value, item_line))
            seq.item_lines.append(item_line)
        return seq
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, str):
        return str(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node
