"""JSON text indented as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it, in about
half the time.

With ``indent`` the standard library does not use its C encoder: it builds the text with nested
Python generators, which a long conversation's report (thousands of findings, megabytes of
text) waits for after the checks are done: about 0.06 s of 100,000 messages' run, with no other
work beside it. This writer walks the same values in the same order with plain recursion and
encodes each string with the standard library's own C function, so the text is the same
(``tests/detect/test_json_text.py`` compares them on random values). Values it does not write as
the standard library does (another type, a dict key that is not a string) are written by
``json.dumps`` itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

__all__ = ["indented"]

_INDENT = "  "


class _Other(Exception):
    """A value this writer leaves to ``json.dumps``."""


def indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``: the same text."""
    parts: list[str] = []
    try:
        _write(value, 0, parts.append)
    except (_Other, RecursionError):
        # json.dumps writes it (or raises what it raises: a type it cannot write, a cycle)
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(parts)


def _write(value: Any, level: int, add: Callable[[str], None]) -> None:
    # The order of the tests is json.encoder's: a bool is an int, so it is tested first.
    if isinstance(value, str):
        add(encode_basestring(value))
    elif value is None:
        add("null")
    elif value is True:
        add("true")
    elif value is False:
        add("false")
    elif isinstance(value, int):
        add(int.__repr__(value))
    elif isinstance(value, float):
        add(_float(value))
    elif isinstance(value, list | tuple):
        if not value:
            add("[]")
            return
        inner = "\n" + _INDENT * (level + 1)
        between = "," + inner
        add("[" + inner)
        first = True
        for item in value:
            if first:
                first = False
            else:
                add(between)
            _write(item, level + 1, add)
        add("\n" + _INDENT * level + "]")
    elif isinstance(value, dict):
        if not value:
            add("{}")
            return
        inner = "\n" + _INDENT * (level + 1)
        between = "," + inner
        add("{" + inner)
        first = True
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Other
            if first:
                first = False
            else:
                add(between)
            add(encode_basestring(key) + ": ")
            _write(item, level + 1, add)
        add("\n" + _INDENT * level + "}")
    else:
        raise _Other


def _float(value: float) -> str:
    """A float as json.encoder writes it (``allow_nan``, its default)."""
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)
