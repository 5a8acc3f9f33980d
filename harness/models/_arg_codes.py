"""A code written in two parts with a space between ("LS6 2QT", "SW1A 1AA", "AB 12345"): one
value, for an argument that asks for a code.

The word reader splits a code at its space, so an argument that asks for a postcode or a
reference would get half of it ("LS6"). A code's parts have one shape: upper-case letters and
digits only, short, with a digit between them. Two neighbouring words of that shape, with one
space between, are one code, but only for an argument whose name says it takes a code
(``CODE_NAMES``): "room 12 B-wing" and "size 10 UK" are two values for a room and a size.

A postal code (an argument named "postcode", "zip", "postal_code") is read by its shape alone
when no label stands before it: a UK code in two parts ("LS6 2QT", "sw1a 1aa") or a ZIP code
("94105", "94105-1234"), never a number a noun follows ("120 boxes"), a house number or half of
a code. Two postal arguments ("from_postcode", "to_postcode") each take the code after their own
word ("from LS6 2QT to EH1 1YZ"), whatever the order of the tool's parameters; an unlabelled
choice is asked for. A ZIP code's shape is any five-digit number's: one that a noun naming a
record or a unit by its number labels ("job 33120", "order 77341", "apartment 20417", "my ticket
is 48213"; a closed class), or another argument's noun, is that thing's, and the argument is
asked for; any other word before it ("my office 94105", "austin tx 78701") leaves it a ZIP
code. Several identifiers of one tool ("account_number", "sort_code") likewise each take the
value after their own noun ("sort code 200000 account 12345678").

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from harness.models._argnames import CODE_NAMES, ID_NAMES
from harness.models._argnames import stem_of as _stem_of
from harness.text.words import REQUEST_STOPWORDS, STOPWORDS, stem

__all__ = [
    "POSTAL_NAMES",
    "code_arguments",
    "code_span",
    "find_code",
    "identifiers",
    "is_id",
    "labelled_id",
    "postal_span",
    "postcodes",
    "takes_code",
    "takes_postal",
]

POSTAL_NAMES = frozenset({"postcode", "zip", "zipcode", "postal"})
"""Words that make an argument a place's postal code."""
_COMMON = STOPWORDS | REQUEST_STOPWORDS
# A UK postcode: outward code (area letters, district digit) and inward code (digit, two
# letters), with a space (either case) or without (upper case); a US ZIP code or ZIP+4.
_UK = re.compile(r"(?<![\w-])[A-Za-z]{1,2}\d[A-Za-z\d]? \d[A-Za-z]{2}(?![\w-])")
_UK_JOINED = re.compile(r"(?<![\w-])[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}(?![\w-])")
_ZIP = re.compile(r"(?<![\w-])\d{5}(?:-\d{4})?(?![\w-])")
_NEAR = 3

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
        and spans[before][0].lower() not in _COMMON
        and _spaced(text, spans, before)
    ):
        return (before, end)
    return span


def takes_postal(name: str) -> bool:
    """Whether the argument ``name`` is a place's postal code ("postcode", "zip_code")."""
    return bool(set(name.lower().split("_")) & POSTAL_NAMES)


def _words_of(
    spans: Sequence[tuple[str, int, int]], start: int, end: int
) -> tuple[int, int] | None:
    inside = [i for i, (_, s, e) in enumerate(spans) if s >= start and e <= end]
    if not inside or spans[inside[0]][1] != start or spans[inside[-1]][2] != end:
        return None
    return inside[0], inside[-1] + 1


def postcodes(
    text: str, spans: Sequence[tuple[str, int, int]], uk_only: bool = False
) -> list[tuple[int, int]]:
    """The word spans of the postal codes in ``text``, UK codes first: a ZIP code is no count a
    noun follows ("12000 boxes") and no group of a longer number ("07700 900123")."""
    found: list[tuple[int, int]] = []
    for pattern in (_UK, _UK_JOINED) if uk_only else (_UK, _UK_JOINED, _ZIP):
        for match in pattern.finditer(text):
            span = _words_of(spans, match.start(), match.end())
            if span is None:
                continue
            if pattern is _ZIP:
                after = spans[span[1]][0] if span[1] < len(spans) else ""
                before = spans[span[0] - 1][0] if span[0] else ""
                if (after.isalpha() and after.islower() and after not in _COMMON) or any(
                    w.isdigit() for w in (after, before)
                ):
                    continue
            found.append(span)
    return found


def _parts(name: str) -> set[str]:
    return set(name.lower().split("_")) - POSTAL_NAMES - {"code"}


def _label(words: Sequence[str], start: int) -> str:
    """The word before a code, past a postal noun ("to postcode EH1 1YZ": "to")."""
    index = start - 1
    while index >= 0 and words[index].lower() in POSTAL_NAMES | {"code"}:
        index -= 1
    return words[index].lower() if index >= 0 else ""


# Words between a noun and the number it labels ("my ticket is 48213", "booking number 12345").
_LINKS = frozenset({"is", "was", "s", "#"}) | ID_NAMES
# Nouns that name a record or a unit by its number ("job 33120", "order 77341", "apartment
# 20417"): a closed class of English nouns; a noun off it ("my office 94105", "the hospital
# 10029", "austin tx 78701") leaves a ZIP-shaped number to the postal argument.
_NUMBERED = frozenset(
    {"job", "order", "ticket", "invoice", "case", "claim", "booking", "reservation", "account"}
    | {"apartment", "apt", "unit", "suite", "room", "member", "membership", "customer", "item"}
    | {"locker", "box", "bay", "lot", "plot"}
)


def _named_other(words: Sequence[str], start: int, others: Collection[str]) -> bool:
    """Whether the number at ``start`` is labelled by a noun that names a record or a unit by
    its number (``_NUMBERED``) or the noun of another of the tool's arguments (``others``,
    stems), past "is" or an identifier's noun ("job 33120", "my ticket is
    48213", "booking number 12345", "apartment 20417"; not "my office 94105", "to 94105",
    "zip 94105", "Austin TX 78701")."""
    index = start - 1
    while index >= 0 and words[index].lower() in _LINKS:
        index -= 1
    if index < 0:
        return False
    word = words[index].lower()
    return word in _NUMBERED or stem(word) in others


def postal_span(
    text: str,
    spans: Sequence[tuple[str, int, int]],
    name: str,
    postal: Collection[str],
    others: Collection[str],
    blocked: Collection[int],
) -> tuple[int, int] | None:
    """The postal code for the argument ``name`` (one of the tool's ``postal`` arguments; the
    stems of its other arguments' nouns are ``others``): the code after the argument's own word
    ("from" of ``from_postcode``), or, for the one postal argument with no such word, the one
    code no other argument's noun labels ("order 55123 to 94105"). None to ask."""
    words = [w for w, _, _ in spans]
    uk = set(postcodes(text, spans, uk_only=True))
    codes = [
        c
        for c in postcodes(text, spans)
        if not any(i in blocked for i in range(*c))
        and (c in uk or not _named_other(words, c[0], others))
        and stem(_label(words, c[0])) not in others
        and _label(words, c[0]) not in ID_NAMES
    ]
    own = _parts(name) - set().union(*(_parts(o) for o in postal if o != name))
    if own:
        codes = [c for c in codes if _label(words, c[0]) in own]
    elif len(postal) > 1:
        theirs = set().union(*(_parts(o) for o in postal if o != name))
        codes = [c for c in codes if _label(words, c[0]) not in theirs]
    if len(codes) > 1:
        # "from LS6 2QT ... postcode EH1 1YZ": the code after a postal noun.
        named = [c for c in codes if c[0] and words[c[0] - 1].lower() in POSTAL_NAMES | {"code"}]
        codes = named if len(named) == 1 else codes
    return codes[0] if len(codes) == 1 else None


def labelled_id(
    words: Sequence[str], candidates: Sequence[int], noun: str, others: Collection[str]
) -> int | None:
    """Of the identifier ``candidates`` of a tool with several identifiers, the one its own
    ``noun`` labels (a stem within three words before: "sort code 200000"), else the one
    candidate no other identifier's noun labels; None to ask."""

    def near(index: int) -> set[str]:
        return {stem(w.lower()) for w in words[max(0, index - _NEAR) : index]}

    own = [i for i in candidates if noun in near(i) and not (set(others) & near(i) - {noun})]
    own = own or [i for i in candidates if noun in near(i)]
    if own:
        return own[0]
    loose = [i for i in candidates if not set(others) & near(i)]
    return loose[0] if len(loose) == 1 else None


def is_id(word: str) -> bool:
    """Whether ``word`` looks like an identifier: three characters or more with a digit."""
    return any(c.isdigit() for c in word) and len(word.strip("#")) >= 3


def identifiers(
    words: Sequence[str], noun: str, blocked: Collection[int], *, by_name: bool
) -> list[int]:
    """The indexes of the identifiers that fit an argument whose noun is ``noun``: near the noun,
    or anywhere with ``by_name`` (the argument's name says it is an identifier)."""
    found: list[int] = []
    for index, word in enumerate(words):
        if index in blocked:
            continue
        if not is_id(word) and not (
            # A short number after a word of numbering or the argument's own noun: "berth
            # no. 7", "ref 42", "berth C3"; not a count of something ("order 2 of the
            # sandwiches") nor where something starts ("from version 3 to the latest").
            index
            and any(c.isdigit() for c in word)
            and (words[index - 1].lower() in ID_NAMES or _stem_of(words[index - 1]) == noun)
            and (index + 1 == len(words) or words[index + 1].lower() != "of")
            and (index < 2 or words[index - 2].lower() != "from")
        ):
            continue
        near = [_stem_of(w) for w in words[max(0, index - _NEAR) : index]]
        if noun in near or by_name:
            found.append(index)
    return found


def code_arguments(properties: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    """The tool's postal arguments, and its other identifiers and codes (string arguments)."""
    strings = [n for n, sch in properties.items() if sch.get("type", "string") == "string"]
    postal = [n for n in strings if takes_postal(n)]
    ided = [
        n
        for n in strings
        if n not in postal and (takes_code(n) or set(n.lower().split("_")) & ID_NAMES)
    ]
    return postal, ided


def find_code(
    text: str,
    spans: Sequence[tuple[str, int, int]],
    name: str,
    nouns: Mapping[str, str],
    coded: tuple[Sequence[str], Sequence[str]],
    blocked: Collection[int],
    *,
    by_name: bool,
    widen: Callable[[int], int],
    counted: Collection[str] = (),
) -> tuple[int, int] | None:
    """The span of the identifier or code for the argument ``name`` (``nouns``: every argument's
    noun; ``coded``: ``code_arguments``); ``widen`` gives the end of a value that starts at an
    index ("12.5"); ``counted``: the nouns of the tool's counts. A postal code by its shape
    (``postal_span``) or after a postal noun; one of several identifiers by its own noun
    (``labelled_id``); else the first identifier."""
    postal, ided = coded
    words = [w for w, _, _ in spans]
    noun = nouns[name]
    skip = set(blocked)
    # A number another argument counts is no identifier ("add 150 towels to my booking").
    skip |= {
        i for i in range(len(words) - 1) if words[i].isdigit() and _stem_of(words[i + 1]) in counted
    }
    if postal and name not in postal:
        # A UK postcode is no order number ("to LS6 2QT, order 55123").
        skip |= {i for a, b in postcodes(text, spans, uk_only=True) for i in range(a, b)}
    if name in postal:
        others = {nouns[n] for n in nouns if n != name}
        span = postal_span(text, spans, name, postal, others, skip)
        if span is not None:
            return span
        # With a postal noun before it, any value ("zip 1234").
        labels = POSTAL_NAMES | {"code"}
        found = identifiers(words, noun, skip, by_name=True)
        index = next((i for i in found if i and words[i - 1].lower() in labels), None)
    elif by_name and len(ided) > 1 and name in ided:
        # Several identifiers: each takes the value after its own noun, or asks.
        found = identifiers(words, noun, skip, by_name=True)
        index = labelled_id(words, found, noun, {nouns[n] for n in ided if n != name})
    else:
        index = next(iter(identifiers(words, noun, skip, by_name=by_name)), None)
    if index is None:
        return None
    span = (index, widen(index))
    # A code in two parts is one value ("LS6 2QT", "AB 12345").
    return code_span(text, spans, span, skip) if takes_code(name) else span
