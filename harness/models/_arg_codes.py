"""A code written in two parts with a space between ("LS6 2QT", "SW1A 1AA", "AB 12345"): one
value, for an argument that asks for a code.

The word reader splits a code at its space, so an argument that asks for a postcode or a
reference would get half of it ("LS6"). A code's parts have one shape: upper-case letters and
digits only, short, with a digit between them. Two neighbouring words of that shape, with one
space between, are one code, but only for an argument whose name says it takes a code
(``CODE_NAMES``): "room 12 B-wing" and "size 10 UK" are two values for a room and a size.

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from harness.models._argnames import CODE_NAMES, ID_NAMES

__all__ = ["code_span", "takes_code"]

_PART = re.compile(r"[A-Z0-9]{1,5}")
_LETTERS = re.compile(r"[A-Z]{1,3}")
_DIGITS = re.compile(r"\d{3,}")


def takes_code(name: str) -> bool:
    """Whether the argument ``name`` asks for a code ("postcode", "zip", "booking_reference",
    "promo_code")."""
    return bool(set(name.lower().split("_")) & CODE_NAMES)


def _spaced(text: str, spans: Sequence[tuple[str, int, int]], left: int) -> bool:
    """Whether words ``left`` and ``left + 1`` have one space between them."""
    return text[spans[left][2] : spans[left + 1][1]] == " "


def code_span(
    text: str,
    spans: Sequence[tuple[str, int, int]],
    span: tuple[int, int],
    blocked: Collection[int] = (),
) -> tuple[int, int]:
    """The code at the one-word ``span`` with its other part: the next word when both parts are
    short upper-case letters and digits and the next has a digit ("LS6 2QT"), or the word
    before when it is a few capital letters before a number ("AB 12345"). ``span`` itself when
    the code has one part."""
    start, end = span
    if end - start != 1:
        return span
    word = spans[start][0]
    if not _PART.fullmatch(word):
        return span
    after = end
    if (
        after < len(spans)
        and after not in blocked
        and _spaced(text, spans, start)
        and _PART.fullmatch(spans[after][0])
        and any(c.isdigit() for c in spans[after][0])
        and any(c.isalpha() for c in word + spans[after][0])
    ):
        return (start, after + 1)
    before = start - 1
    if (
        before >= 0
        and before not in blocked
        and _DIGITS.fullmatch(word)
        and _LETTERS.fullmatch(spans[before][0])
        and spans[before][0].lower() not in ID_NAMES
        and _spaced(text, spans, before)
    ):
        return (before, end)
    return span
