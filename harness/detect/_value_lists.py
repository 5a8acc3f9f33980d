"""A user's list of things to be told, written as noun phrases with no verb: "Swim lesson price,
lane swim times and sauna opening hours please." The segmenter keeps a list of noun phrases
together (most are one request: "salt, pepper and vinegar"), but when every item names a kind of
value ("<X> time", "<Y> price", "opening hours"), each item asks for a value of its own, and a
reply giving one of them answers the others no more than three separate questions would be."""

from __future__ import annotations

import re

from harness.text._shapes import AUX_WORDS, LEAD, VERBS

__all__ = ["value_list"]

# The head nouns of a value one asks to be told (a closed class): a time, an amount, a length, a
# place or a date, as "the bar closing time", "ticket prices", "the entry fee".
_VALUE_HEADS = frozenset(
    [
        "time",
        "times",
        "hours",
        "hour",
        "price",
        "prices",
        "cost",
        "costs",
        "fee",
        "fees",
        "charge",
        "charges",
        "rent",
        "rate",
        "rates",
        "fare",
        "fares",
        "length",
        "duration",
        "location",
        "address",
        "date",
        "dates",
        "deadline",
        "timetable",
        "schedule",
    ]
)
_NOT_NOUN = frozenset(VERBS.split("|")) | frozenset(AUX_WORDS.split("|"))
_DETERMINERS = frozenset(["the", "a", "an", "your", "our", "my", "their", "its", "this", "that"])
_ASKING = frozenset(["what", "what's", "whats", "which", "when", "where", "who", "how", "why"])
_ITEMS = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
_END = re.compile(r"[\s,]*(?:\bplease\b)?[\W_]*$", re.IGNORECASE)
_MAY_LIST = re.compile(r",| and ", re.IGNORECASE)


def value_list(request: str) -> list[str] | None:
    """The items of ``request`` when it is a list of two noun phrases or more, none opening with
    a verb or a question word, each of at most five words, each with a word naming what its
    value is of before a head noun of a kind of value (``_VALUE_HEADS``; "the bar closing time",
    not a bare "time": "date and time" ask about one thing); else None. The items are ``request``'s own text, with the "please" and the closing mark left on
    the last ("sauna opening hours please")."""
    if _MAY_LIST.search(request) is None:
        return None
    body = _END.sub("", LEAD.sub("", request))
    items = [item for item in _ITEMS.split(body) if item]
    if len(items) < 2:
        return None
    for item in items:
        words = item.lower().split()
        named = _without_qualifier([w for w in words if w not in _DETERMINERS])
        if not 2 <= len(named) <= 4 or len(words) > 8 or words[0] in _NOT_NOUN:
            return None  # "Date and time" is one thing's; "Book a table" has a verb
        if words[0] in _ASKING or (named[-1] not in _VALUE_HEADS and not _of_what(named)):
            return None
    return items


# What a value's head may be followed by that says which of its values is meant ("price per
# week", "opening hours on Sunday"), and what names the thing a value is of after its head
# ("price of a day pass"; closed classes of prepositions).
_QUALIFYING = frozenset(["per", "on", "at", "in", "each", "a"])
_OF_WHAT = frozenset(["of", "for"])


def _without_qualifier(named: list[str]) -> list[str]:
    """``named`` without a short qualifier after its value head ("residence room price per
    week" gives "residence room price"; at most three words after the head)."""
    for k in range(len(named) - 2, max(0, len(named) - 4), -1):
        if named[k] in _VALUE_HEADS and named[k + 1] in _QUALIFYING:
            return named[: k + 1]
    return named


def _of_what(named: list[str]) -> bool:
    """Whether ``named`` opens with a value's head and says what it is of ("price of day
    pass", "fee for late return")."""
    return named[0] in _VALUE_HEADS and named[1] in _OF_WHAT
