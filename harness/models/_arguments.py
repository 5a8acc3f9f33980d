"""Which part of a request fills which argument of a tool: what the offline model passes.

A tool's argument is filled from the request by the argument's name, as a reader of the request
would: a count from the number before the argument's noun ("2 adults", "a child"), a month or a
day from a month's or day's name ("in March", "for Sunday", "tomorrow"), an identifier from the
token with a digit that follows the argument's noun ("scooter 40213", "order #5512") or any such
token when the name says it is one ("order_id", "ticket_number"), and a name from the word before
the argument's noun ("the Basic plan") or a capitalised name after "to" ("change it to
Premium"). The free-text arguments ("request", "query", ...) get the whole clause. Of the string
arguments left, the first gets the rest of the clause (the clause without the values taken for
the others: "scooter 7731 has a broken brake" gives ``problem`` "has a broken brake"), or the
whole clause when no value was taken; the others get nothing, so the clause is never passed
twice. A required argument found nowhere is given an empty string (a tool whose call lacks a
required argument fails); an integer count the request does not name is 0 beside a count it
names, and left out otherwise.

Everything here is English: closed classes (number words, months, days), not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness.text.words import REQUEST_STOPWORDS, stem

__all__ = ["FREE_TEXT", "fill"]

FREE_TEXT = frozenset({"request", "query", "text", "question", "message"})
"""Argument names that take the whole request (a tool that answers whatever is asked)."""

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple": 2,
}  # fmt: skip
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_DAYS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tomorrow",
        "tonight",
    ]
)
# Nouns whose plural is not the singular with "-s" (common English).
_PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman"}
_PREPOSITIONS = frozenset(["on", "of", "for", "with", "in", "at", "from"])
_PERSONAL = frozenset({"i", "i'd", "i'm", "i've", "i'll"})
_DATE_NAMES = frozenset({"date", "day", "when", "on"})
_ID_NAMES = frozenset({"id", "number", "code", "ref", "reference", "no"})
_WORD = re.compile(r"#?[\w'-]+")
# Words a reader drops from the front of what is left ("I want to report that ...", "please").
_LEAD = frozenset(
    [
        "i",
        "i'd",
        "i'm",
        "we",
        "want",
        "would",
        "like",
        "to",
        "please",
        "can",
        "could",
        "you",
        "that",
        "this",
        "the",
        "my",
        "our",
        "a",
        "an",
        "and",
        "so",
        "also",
        "just",
    ]
)


def _noun(name: str) -> str:
    """The stem of an argument name's last word ("adults" → "adult", "bike_id" → "bike")."""
    parts = [p for p in name.lower().split("_") if p and p not in _ID_NAMES]
    word = parts[-1] if parts else name.lower()
    return stem(_PLURALS.get(word, word))


def _stem_of(word: str) -> str:
    word = word.lower().strip("#")
    return stem(_PLURALS.get(word, word))


def _count(words: Sequence[str], noun: str) -> int | None:
    for index, word in enumerate(words):
        if index and _stem_of(word) == noun:
            before = words[index - 1].lower()
            if before.isdigit():
                return int(before)
            if before in _NUMBERS:
                return _NUMBERS[before]
    return None


def _is_id(word: str) -> bool:
    return any(c.isdigit() for c in word) and len(word.strip("#")) >= 3


def _identifier(words: Sequence[str], noun: str, *, by_name: bool) -> int | None:
    """The index of the identifier for an argument whose noun is ``noun``."""
    for index, word in enumerate(words):
        if not _is_id(word):
            continue
        near = [_stem_of(w) for w in words[max(0, index - 2) : index]]
        if noun in near or by_name:
            return index
    return None


def _spans(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


def fill(
    properties: Mapping[str, Mapping[str, Any]],
    required: Sequence[str],
    text: str,
    *,
    tool: str = "",
    whole: str = "",
    strict: bool = False,
) -> dict[str, Any]:
    """The arguments of the tool named ``tool`` with ``properties`` (JSON schema) and
    ``required`` names for the request clause ``text`` (see the module docstring); a count, a
    month or a day the clause does not name is read from ``whole``, the request it is part of.
    With ``strict``, only the values the request names plainly: counts, months, days and
    identifiers (no free text, no names, no rest)."""
    spans = _spans(text)
    words = [w for w, _, _ in spans]
    lower = [w.lower() for w in words]
    args: dict[str, Any] = {}
    taken: list[tuple[int, int]] = []  # word index ranges given to an argument
    counts: list[str] = []
    rest: list[str] = []
    for name, schema in properties.items():
        kind = schema.get("type", "string")
        noun = _noun(name)
        if kind in ("integer", "number"):
            counts.append(name)
            found = _count(words, noun)
            if found is None and whole:
                found = _count([w for w, _, _ in _spans(whole)], noun)
            if found is not None:
                args[name] = found
            continue
        if kind != "string":
            continue
        if name in FREE_TEXT:
            if not strict:
                args[name] = text
            continue
        if noun == "month" or noun in _DATE_NAMES or name.lower().endswith("date"):
            names = frozenset(_MONTHS) if noun == "month" else _DAYS
            index = next((i for i, w in enumerate(lower) if w in names), None)
            if index is None:
                found_in = [w for w, _, _ in _spans(whole)]
                value = next((w for w in found_in if w.lower() in names), None)
                if value is not None:
                    args[name] = value
                    continue
        else:
            named = set(name.lower().split("_")) & _ID_NAMES
            index = _identifier(words, noun, by_name=bool(named))
            if index is None and not strict:
                index = _modifier(words, noun)
            if index is None and not strict:
                index = _capitalised(words, {i for i, _ in taken})
        if index is None:
            if name in required and not strict:
                rest.append(name)
            continue
        end = index + 1
        while end < len(words) and words[index][:1].isupper() and words[end][:1].isupper():
            end += 1  # a name of several words: "Elm Street", "Mill Road"
        args[name] = " ".join(words[index:end]).strip("#")
        taken.append((index, end))
    if counts and any(n in args for n in counts) and not strict:
        for name in counts:
            if name in required:
                args.setdefault(name, 0)
    for position, name in enumerate(rest):
        if position:
            args[name] = ""
        else:
            args[name] = _rest(text, spans, taken, tool) if taken else text
            if not args[name] and whole and text in whole:
                # Nothing left in the clause: the rest of the request says it ("can you report
                # scooter 2290? the brake is loose").
                others = whole.replace(text, " ")
                args[name] = _rest(others, _spans(others), (), tool)
            args[name] = args[name] or text
    return args


def _naming(word: str, value: str) -> bool:
    """Whether ``word`` names the identifier ``value`` after it ("scooter", "number")."""
    return (_is_id(value) and word.lower() not in REQUEST_STOPWORDS) or word.lower() in _ID_NAMES


def _capitalised(words: Sequence[str], taken: set[int]) -> int | None:
    """The first capitalised word inside the clause ("scooters near Mill Road"), not its first
    word, not "I" and not one another argument took."""
    return next(
        (
            i
            for i, w in enumerate(words)
            if i and i not in taken and w[:1].isupper() and w.lower() not in _PERSONAL
        ),
        None,
    )


def _modifier(words: Sequence[str], noun: str) -> int | None:
    """The word before the argument's noun ("the Basic plan"), or a capitalised word after "to"
    following it ("change my plan to Premium")."""
    for index, word in enumerate(words):
        if _stem_of(word) != noun:
            continue
        before = words[index - 1] if index else ""
        if before and before.lower() not in REQUEST_STOPWORDS and not before[:1].isdigit():
            return index - 1
        tail = words[index + 1 : index + 3]
        if len(tail) == 2 and tail[0].lower() == "to" and tail[1][:1].isupper():
            return index + 2
    return None


def _rest(
    text: str,
    spans: Sequence[tuple[str, int, int]],
    taken: Sequence[tuple[int, int]],
    tool: str,
) -> str:
    """The clause without the words given to other arguments (and the nouns naming each, as in
    "scooter number 40213"), its leading fillers, the tool's own words ("report ...") and
    punctuation dropped."""
    drop: set[int] = set()
    for start, end in taken:
        drop.update(range(start, end))
        index = start - 1
        while index >= 0 and index >= start - 2 and _naming(spans[index][0], spans[start][0]):
            drop.add(index)  # the noun before an identifier: "scooter 40213"
            index -= 1
        if index >= 0 and index + 1 != start and spans[index][0].lower() in _PREPOSITIONS:
            drop.add(index)  # "the bell on scooter 5520 is broken": "the bell is broken"
    own = {_stem_of(w) for w in tool.split("_") if w}
    kept = [w for i, (w, _, _) in enumerate(spans) if i not in drop]
    while kept and (kept[0].lower() in _LEAD or _stem_of(kept[0]) in own):
        kept.pop(0)
    return " ".join(kept)
