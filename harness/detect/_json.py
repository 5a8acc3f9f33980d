"""``json.dumps(document, indent=2, ensure_ascii=False)``, the same text, faster.

With ``indent`` the standard library encodes in Python, one generator per list and dictionary
and a ``yield`` per piece: for a long conversation's report (thousands of findings) that is
several times the cost of the C encoder it uses without ``indent``, on the serial end of
``harness detect`` after every worker is done. :func:`indented` writes the same pieces into one
list (strings through the same C string encoder), and hands any document it does not know how
to write (a key that is not a string, a value that is not a JSON type, a cycle) to
``json.dumps``, so its text, or its error, is the standard library's.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any

__all__: list[str] = []

_FLOAT = float.__repr__
_INT = int.__repr__


def indented(document: Any) -> str:
    """``json.dumps(document, indent=2, ensure_ascii=False)``."""
    out: list[str] = []
    try:
        _write(document, "\n", out)
    except (TypeError, RecursionError):  # a document to leave to json.dumps (:func:`_write`)
        return json.dumps(document, indent=2, ensure_ascii=False)
    return "".join(out)


def _write(value: Any, newline: str, out: list[str]) -> None:
    """``value`` at the indentation ``newline`` (a newline and the spaces before its lines)
    appended to ``out``, in the order and with the tests of the standard encoder's
    ``_iterencode``: strings (and their subclasses) first, then ``None``, ``True``, ``False``,
    integers, floats, lists and tuples, dictionaries. ``TypeError`` for what it leaves to
    ``json.dumps``."""
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(_INT(value))
    elif isinstance(value, float):
        out.append(_number(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        out.append("[" + inner)
        between = "," + inner
        first = True
        for item in value:
            if first:
                first = False
            else:
                out.append(between)
            _write(item, inner, out)
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        out.append("{" + inner)
        between = "," + inner
        first = True
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError  # json turns numbers, booleans and None into keys its own way
            if first:
                first = False
            else:
                out.append(between)
            out.append(encode_basestring(key))
            out.append(": ")
            _write(item, inner, out)
        out.append(newline + "}")
    else:
        raise TypeError  # not a JSON type: json.dumps calls its default, which raises


def _number(value: float) -> str:
    """A float as the standard encoder writes it (``allow_nan``: ``NaN``, ``Infinity``)."""
    if value != value:
        return "NaN"
    if value == math.inf:
        return "Infinity"
    if value == -math.inf:
        return "-Infinity"
    return _FLOAT(value)
