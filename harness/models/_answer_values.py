"""The arguments the user's answer fills: each detail of it to the argument whose kind it fits.

An agent that lacked values asked for them; the user's answer (``_answer.given_value``) may give
one value with its qualifier ("next Tuesday", "Saturday afternoon", "around 2pm", "6 hrs",
"about 3 kilos") or several details at once ("two adults, Saturday the 9th", "Friday at
10am", "deluxe, on Friday"). The answer is cut into details (at commas and "and", then before "on", "at",
"for"), and each detail goes to the one argument whose kind it fits: a date, a time of day, a
count or a measure, or one of the values a ``Literal`` lists. Only when every detail fits a
different argument are they used, and only for the arguments the request lacked; otherwise
nothing is read this way. A date or a time keeps every word of it the user said ("next
Tuesday", never "Tuesday").

Identifiers, names, contacts, amounts of money and any other text ("flower", "breed") are left to
``_arguments.fill``, which reads them from the request joined with its answer as before: a
lower-case reply shows no kind, and remarks ("cheaper ones", "hang on") are not values.

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness.models._arg_counts import lone_number
from harness.models._argnames import (
    CONTACTS,
    DATE_NAMES,
    DESCRIBING,
    ID_NAMES,
    NAME_PARTS,
    TIME_NAMES,
    UNITS,
    takes_money,
)
from harness.models._asking import choices
from harness.text.facts import DATE_WORDS, extract_facts

__all__ = ["answered_args", "details"]

_WORD = re.compile(r"[\w'\u2019.-]+")
# Where two details of an answer meet: "12 windows, on Friday", "Friday and 6 players".
_BETWEEN = re.compile(r"\s*(?:,|;|\band\b)\s*", re.IGNORECASE)
# A preposition that opens a second detail inside a piece: "5 hours on Tuesday", "Friday for 6",
# "Friday at 10am", "a medium one for Saturday".
_OPENS = re.compile(r"\s+(?=(?:on|at|for)\s)", re.IGNORECASE)
_ORDINAL_DAY = re.compile(r"\b(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b", re.IGNORECASE)
_RELATIVE_DAYS = frozenset({"today", "tomorrow", "tonight", "yesterday"})
# A period named from now ("next weekend", "this coming week", "in 2 weeks"): a date.
_PERIOD = re.compile(
    r"\b(?:next|this|coming)\s+(?:coming\s+)?(?:week|weekend|month|fortnight)\b", re.IGNORECASE
)
_IN_DURATION = re.compile(r"\bin\s+(?:a|an|\d+|\w+)\s+(?:days?|weeks?|months?|fortnight)\b")
# A time of day said in words ("half past 4", "quarter to 5", "4 o'clock", "noon").
_SPOKEN_TIME = re.compile(
    r"\b(?:(?:half|quarter)\s+(?:past|to)\s+\w+|\w+\s*o'?clock|noon|midday|midnight)\b",
    re.IGNORECASE,
)
# Words a detail may open with that are none of its value ("on Friday", "at 10am", "a pen").
_LEAD = frozenset({"on", "at", "for", "by", "from", "until", "till"})
_TRAIL = frozenset({"one", "ones", "please"})


def details(value: str) -> list[list[str]]:
    """The ways to cut the answer ``value`` into details, finest first: at commas and "and",
    and before "on", "at", "for" too ("5 hours on Tuesday"); then at commas and "and" only ("a
    week on Friday" is one detail)."""
    coarse = [p.strip() for p in _BETWEEN.split(value.strip()) if p.strip()]
    fine = [q.strip() for p in coarse for q in _OPENS.split(p) if q.strip()]
    out: list[list[str]] = []
    for way in (fine, coarse):
        if way and way not in out:
            out.append(way)
    return out


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _is_time(piece: str) -> bool:
    return any(f.kind == "time" for f in extract_facts(piece)) or bool(_SPOKEN_TIME.search(piece))


def _is_date(piece: str) -> bool:
    kinds = {f.kind for f in extract_facts(piece)}
    low = [w.lower() for w in _words(piece)]
    return bool(
        kinds & {"date", "weekday", "month"}
        or _ORDINAL_DAY.search(piece)
        or set(low) & (_RELATIVE_DAYS | DATE_WORDS)
        or _PERIOD.search(piece)
        or _IN_DURATION.search(piece.lower())
    )


def _trimmed(piece: str, *, leads: frozenset[str]) -> str:
    """``piece`` without the words before its value ("on Friday", "collected on Monday") and
    the filler after it ("the medium one")."""
    words = piece.split()
    while len(words) > 1 and (
        words[0].lower() in leads or (words[0].lower().endswith("ed") and len(words[0]) > 4)
    ):
        words.pop(0)
    while len(words) > 1 and words[-1].lower().strip(".,!") in _TRAIL:
        words.pop()
    return " ".join(words).strip(" ,.!;:")


def _count(piece: str) -> float | None:
    """The one number a detail gives outside a date or a time ("12 windows", "two adults", "8
    of us", "about 4 hours", "2.5 kg"; ``_arg_counts.lone_number``); None for none or
    several."""
    if _is_date(piece) or _is_time(piece):
        return None
    return lone_number(_words(piece), measure=True)


def _kind(name: str, schema: Mapping[str, Any]) -> str:
    """What kind of value the argument ``name`` takes, as this module reads answers: ``date``,
    ``time``, ``count``, ``measure``, ``choice``, or ``""`` for one left to
    ``_arguments.fill`` (an identifier, a name, a contact, money, any other text)."""
    parts = [p for p in name.lower().split("_") if p]
    last = parts[-1] if parts else ""
    kind = schema.get("type", "string")
    if choices(schema):
        return "choice"
    if kind in ("integer", "number"):
        if takes_money(name):
            return ""
        return "measure" if kind == "number" or last in UNITS else "count"
    if kind != "string" or set(parts) & (ID_NAMES | set(CONTACTS) | {"name"} | NAME_PARTS):
        return ""
    if last in DESCRIBING or name in ("request", "query", "text", "question", "message"):
        return ""
    if last in TIME_NAMES or last == "times":
        return "time"
    if last in DATE_NAMES or last.endswith(("date", "dates", "day", "days")):
        return "date"
    # Any other text ("flower", "breed", "subject"): no kind a detail could show it fits, so a
    # remark ("cheaper ones", "hang on", "good question") never fills it; ``fill`` reads it.
    return ""


def _fit(piece: str, name: str, schema: Mapping[str, Any]) -> Any:
    """The value the detail ``piece`` gives the argument ``name``; None when it does not fit."""
    kind = _kind(name, schema)
    if kind == "date":
        return _trimmed(piece, leads=_LEAD) if _is_date(piece) and not _only_time(piece) else None
    if kind == "time":
        return _trimmed(piece, leads=_LEAD) if _is_time(piece) else None
    if kind in ("count", "measure"):
        found = _count(piece)
        if found is None:
            return None
        if schema.get("type") == "integer":
            return int(found) if found.is_integer() else None
        return found
    if kind == "choice":
        said = {w.lower() for w in _words(piece)}
        return next((c for c in choices(schema) if c.lower() in said), None)
    return None


def _only_time(piece: str) -> bool:
    """Whether ``piece`` names a time and no day ("at 10am")."""
    without = re.sub(r"\b(?:tonight)\b", "", piece, flags=re.IGNORECASE)
    return _is_time(piece) and not _is_date(_SPOKEN_TIME.sub("", without).replace("pm", ""))


def _assign(
    pieces: Sequence[str], properties: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any] | None:
    """Each detail to a different argument it fits, most particular kinds first (a listed value
    before a date or a time, those before a count); None when some detail
    fits none."""
    order = {"choice": 0, "date": 1, "time": 1, "count": 2, "measure": 2}
    names = sorted(
        (n for n in properties if _kind(n, properties[n])),
        key=lambda n: order[_kind(n, properties[n])],
    )

    def search(at: int, used: dict[str, Any]) -> dict[str, Any] | None:
        if at == len(pieces):
            return used
        for name in names:
            if name in used:
                continue
            value = _fit(pieces[at], name, properties[name])
            if value is None:
                continue
            found = search(at + 1, {**used, name: value})
            if found is not None:
                return found
        return None

    return search(0, {})


def answered_args(
    properties: Mapping[str, Mapping[str, Any]],
    lacking: Sequence[str],
    value: str,
) -> dict[str, Any]:
    """The values the user's answer ``value`` gives the arguments in ``lacking`` (those the
    request did not give), read detail by detail (module docstring); {} when the answer's
    details do not each fit a different argument of ``properties`` or fill none that lacks."""
    if not lacking:
        return {}
    for pieces in details(value):
        if len(pieces) > len(properties):
            continue
        found = _assign(pieces, properties)
        if found is None:
            continue
        filled = {n: v for n, v in found.items() if n in lacking}
        if filled:
            return filled
    return {}
