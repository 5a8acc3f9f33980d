"""The numbers a request or an answer gives a count: one reader for ``_arguments.fill`` and
``_answer_values``.

A count argument is filled from a number the user said, in any of the ways people say one:

- before the thing counted ("4 bags", "twelve adults", "a child"), the number of
  ``harness.text.spelled.count_of``, or dozens of it ("a dozen eggs", "two dozen"); a number
  with a decimal point or glued to its unit ("2.5", "6hrs", "2.5kg") where a measure is read;
- after a label, when the user writes the count as a field ("nights: 4", "copies: 4"), a group
  with "of" ("a party of 5", "a group of 11") or a size ("group size 6"), or after a word that
  says only that it is a count ("quantity 9", "qty 9");
- alone: the one number the words name outside what is blocked (dates, times, amounts,
  identifiers), for a count whose name says nothing of what it counts ("quantity").

A number bound to another noun is that noun's: "for 2 nights" gives no count of guests. Which
nouns count people (a party's size may be given as "11 guests" or "4 people" to an argument
named ``people`` or ``guests``) is read by ``person``.

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from harness.models._argnames import GENERIC_COUNTS
from harness.text.spelled import count_of
from harness.text.words import stem

__all__ = [
    "DOZEN",
    "PARTY",
    "WHOLE_PARTY",
    "decimal_before",
    "labelled",
    "lone_number",
    "number_of",
    "person",
    "young",
]

_PARTY_WORDS = """
    person people guest diner party size group team cover adult passenger player visitor attendee
    traveller traveler member participant rider
    """
PARTY = frozenset(stem(w) for w in _PARTY_WORDS.split())
"""Stems of nouns that count people: the size of a party, however it is named ("4 people", "7
guests", "2 adults", "12 passengers", "a party of 5")."""
_PEOPLE = {"people": "person", "persons": "person"}

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# A number with a decimal point, whole ("1.5", "40.5"; not a part of "1.2.3" or "v2.5").
_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w]|\.\d)")
DOZEN = "dozen"
"""Twelve of what follows ("a dozen eggs", "two dozen"): a number word ``count_of`` leaves."""
_BETWEEN = 2
_CURRENCY = frozenset("£$€¥")
_RATE = frozenset({"a", "an", "per", "each"})  # "£2.50 an hour", "3.20 per litre"
_ARTICLES = frozenset({"a", "an", "one"})
# Words that label a count written after them as a size: "group size 6", "party size 4".
_SIZE = stem("size")
_OF = "of"


_KINDS = frozenset(stem(w) for w in ("adult", "member"))
"""Nouns of people of one kind: a count of them is no party's size ("adults" beside "children")."""
WHOLE_PARTY = PARTY - _KINDS
"""Stems of nouns that count a whole party ("guests", "people", "passengers"): a count of
adults is no party's size, for the children may be named apart ("2 adults and 3 children")."""
_CHILDREN = frozenset(stem(w) for w in ("child", "children", "kid", "infant", "baby", "junior"))


def person(noun: str, *, general: bool = False) -> bool:
    """Whether the noun (a stem, or a word) counts people ("guest", "people", "adults",
    "children"); with ``general``, people of any kind, the whole party ("guests", "people",
    "passengers"; not "adults")."""
    word = noun.lower()
    found = stem(_PEOPLE.get(word, word))
    if general:
        return (found in PARTY or word in PARTY) and found not in _KINDS
    return found in PARTY or word in PARTY or found in _CHILDREN or word in _CHILDREN


def young(words: Sequence[str]) -> bool:
    """Whether the words name children ("2 adults and 3 children", "with the kids", "an
    infant"): a party with children in it has no one count of people that the number of its
    adults or of its children gives."""
    return any(stem(w.lower()) in _CHILDREN or w.lower() in _CHILDREN for w in words)


def number_of(word: str, *, measure: bool = False) -> float | None:
    """The number one word says: digits, a number spelled out or an article ("a child"), the
    numbers of ``count_of``; with ``measure``, also one with a decimal point or glued to its unit
    ("2.5", "6hrs", "2.5kg"). None for any other word."""
    low = word.lower().strip(".")
    found = count_of(low)
    if found is not None:
        return float(found)
    if measure:
        number = _NUMBER.match(low)
        if number is not None and (number.end() == len(low) or low[number.end()].isalpha()):
            return float(number.group(0))
    return None


def lone_number(
    words: Sequence[str], *, skip: Collection[int] = (), measure: bool = False
) -> float | None:
    """The one number ``words`` name outside the indexes ``skip``; None for none or several
    different ones. An article or "one" counts only when no other number is named ("the medium
    one for 3" names 3)."""
    said: set[float] = set()
    articles: set[float] = set()
    for index, word in enumerate(words):
        if index in skip:
            continue
        found = number_of(word, measure=measure)
        if found is None:
            continue
        (articles if word.lower() in _ARTICLES else said).add(found)
    if not said and len(words) > 1:
        return None  # "a pen", "the medium one": no number
    found_set = said or articles
    return found_set.pop() if len(found_set) == 1 else None


def labelled(
    text: str,
    spans: Sequence[tuple[str, int, int]],
    labels: Collection[str],
    *,
    generic: bool = False,
) -> int | None:
    """The count written after a label of ``labels`` (stems): "nights: 4", "a party of 5",
    "group size 6"; with ``generic``, after a word that only says it is a count too ("quantity
    6"). None when there is none. A label followed by a number with nothing between ("room 12")
    names that thing, not a count of it, unless the label is a size or a word of counting."""
    words = [w for w, _, _ in spans]
    for index, word in enumerate(words[:-1]):
        low = word.lower()
        named = stem(_PEOPLE.get(low, low))
        direct = (generic and low in GENERIC_COUNTS) or (named == _SIZE and named in labels)
        if named not in labels and not direct:
            continue
        after = index + 1
        between = text[spans[index][2] : spans[after][1]]
        if words[after].lower() == _OF and after + 1 < len(words):
            after += 1  # "a party of 5"
        elif words[after].lower() == "size" and after + 1 < len(words):
            after += 1  # "group size 6"
        elif ":" not in between and not direct:
            continue
        found = count_of(words[after])
        if found is not None and words[after].lower() not in _ARTICLES:
            return found
    return None


def decimal_before(
    text: str, spans: Sequence[tuple[str, int, int]], nouns: Collection[str]
) -> float | None:
    """The number with a decimal point written before a word of ``nouns`` (stems), with at most
    two words between and no number among them ("1.5 tonnes", "40.5 litres of diesel", "a 9.5
    metre boat"): the word reader splits it at the point, so a count read word by word would
    take "5". Never a price: a currency sign before it or a rate after it ("£2.50 an hour",
    "3.20 per litre"). None when no such number is written."""
    for found in _DECIMAL.finditer(text):
        if text[: found.start()].rstrip()[-1:] in _CURRENCY:
            continue
        after = [w.lower() for w, start, _ in spans if start >= found.end()][: _BETWEEN + 1]
        if after[:1] and after[0] in _RATE:
            continue
        for word in after:
            if stem(_PEOPLE.get(word, word)) in nouns:
                return float(found.group(0))
            if count_of(word) is not None:
                break  # "2.5 for 3 hours": the count written before the noun is its number
    return None
