"""A count of people given by the people themselves ("for six friends", "for four
colleagues"), for an argument that counts people.

``_arg_counts`` reads a party's size from the nouns that name a party ("4 people", "7 guests",
"a party of 5"). People are often counted by who they are instead ("six friends", "four
colleagues", "two flatmates"), nouns no hand list holds for long. Which nouns name people is
read from WordNet 3.0 (the nouns whose first sense is a person and whose person senses outweigh
their others by WordNet's tag counts, shipped in ``_models/people.json``, licence beside it in
``_models/WORDNET-LICENSE.txt``): "friends", "cousins", not "monitors", "sleepers" or "parties";
the count is read by where it stands, and only for an argument that counts people:

- the argument counts people when its noun is a noun of a party (``_arg_counts.person``) or the
  tool's docstring has a sentence that describes the argument as how many people ("owners is
  how many people come"; not "a room sleeps any number of people");
- the count is the number after "for" that ends the phrase with a plural noun of people ("for
  six friends on Saturday"; not "for 3 suitcases", "for two kids' parties", and nothing after
  "with", which counts staff and things as often: "with two instructors"), no
  noun another argument of the tool counts and no kind of person ("for 2 adults": the children
  may be named apart).

A party named in parts joined by "and" or "plus" after "for" gives the sum of its parts
(``party_of_parts``), when no count of the whole party was read or the count read is its first
part ("for 12 people ..., 3 adults and 2 children need audio guides" stays 12): "for 3 adults
and 2 children" (5), "for me and my 3 sisters" (4), "for my wife and me" (2), "for two of us
plus a baby" (3). Each part is the speaker ("me", "I"), "N of us", a count before a plural noun
of people ("1 child" too) or one noun of people ("my wife", "a baby"); a part that is no person
("4 guests and 2 dogs") ends the party before it, a part of the whole party's nouns ("4 guests
and 2 kids": are the kids guests?) leaves the count to be asked, and a party of one part is read
as before.

Everything here is English: closed classes and WordNet's nouns, not any bot's words.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Collection, Sequence
from pathlib import Path

from harness.models._arg_counts import person
from harness.models._argnames import DURATIONS, PLURALS, UNIT_NAMES, UNITS
from harness.models._argnames import noun as arg_noun
from harness.text.spelled import count_of
from harness.text.words import stem

__all__ = [
    "counts_people",
    "described",
    "for_people",
    "names_people",
    "party_of_parts",
    "person_noun",
]

_BEFORE = frozenset({"for"})  # not "with": "with two instructors" counts staff
# What may end the phrase of a count of people: nothing, a preposition, a day word.
_ENDS = frozenset({"on", "at", "in", "from", "to", "this", "next", "tomorrow", "today"})
_ENDS |= frozenset({"tonight", "please", "and", "every"})
_ARTICLES = frozenset({"a", "an", "one"})
_GROUPS = frozenset(stem(w) for w in ("party", "group", "team"))
_MEASURES = frozenset(
    {*UNITS, *(n for names in UNIT_NAMES.values() for n in names.split())}
    | {"pound", "dollar", "euro", "percent", "pence", "quid", "buck"}
)


def counts_people(name: str, about: str) -> bool:
    """Whether the argument ``name`` counts people: its noun is a noun of a party ("people",
    "guests", "party_size") or the tool's docstring ``about`` says, in the sentence that names
    the argument, that it is how many of a party's noun ("owners is how many people come")."""
    return person(arg_noun(name)) or described(name, about)


def described(name: str, about: str) -> bool:
    """Whether the tool's docstring ``about`` says, in the sentence that names the argument
    ``name``, that it is how many of a party's noun ("band_members is how many people play")."""
    spoken = "(?:" + re.escape(name.lower()) + "|" + re.escape(name.replace("_", " ").lower()) + ")"
    # The sentence describes the argument itself: its name, then "is", "gives" or a colon, then
    # the count ("guests is the number of people"), not a sentence that only mentions people.
    pattern = re.compile(
        rf"(?:^|[\s(,;])`*{spoken}`*\s*(?:[:=-]|\bis\b|\bare\b|\bgives\b|\bsays\b)\s*"
        r"(?:the\s+|a\s+)?(?:how many|number of|count of)\s+([a-z]+)"
    )
    return any(person(found.group(1)) for found in pattern.finditer(about.lower()))


_TABLE = Path(__file__).resolve().parent / "_models" / "people.json"


@functools.cache
def _people_nouns() -> frozenset[str]:
    """The nouns that name people, from WordNet 3.0 (``_models/people.json``, built by
    ``tools/build_people_nouns.py``)."""
    return frozenset(json.loads(_TABLE.read_text(encoding="utf-8"))["words"])


def person_noun(word: str) -> bool:
    """Whether the singular noun ``word`` names a person in WordNet (``_people_nouns``:
    "driver", "manager", "clerk"; not "rain", "shop")."""
    return word.lower() in _people_nouns()


def names_people(word: str) -> bool:
    """Whether the plural noun ``word`` names people ("friends", "colleagues", "cousins",
    "family members"; not "suitcases", "puppies", "courses"): its singular names people in
    WordNet (``_people_nouns``), or it is a noun of a party (``_arg_counts.person``) but no group
    ("parties", "groups", "teams")."""
    low = word.lower()
    if _stem_of(low) in _GROUPS or stem(low) in _GROUPS:
        return False  # "for two parties" counts groups, not people
    if person(low):
        return True
    singulars = [PLURALS.get(low, "")]
    if low.endswith("ies"):
        singulars.append(low[:-3] + "y")
    if low.endswith("es"):
        singulars.append(low[:-2])
    if low.endswith("s"):
        singulars.append(low[:-1])
    return any(s in _people_nouns() for s in singulars if s)


def _plural(word: str) -> bool:
    low = word.lower()
    return low in PLURALS or (len(low) > 3 and low.endswith("s") and not low.endswith("ss"))


def _stem_of(word: str) -> str:
    low = word.lower()
    return stem(PLURALS.get(low, low))


def for_people(
    words: Sequence[str], others: Collection[str], blocked: Collection[int] = ()
) -> int | None:
    """The count of people after "for" that a plural noun ends ("for six friends", "for four
    colleagues tomorrow", "for three family members"; no possessive between): the noun is no
    kind of person ("for 2 adults": the children may be named apart), no length of time, no
    unit and none of ``others`` (stems of what the tool's other arguments count); the
    number's index is none of ``blocked`` (dates, times, money). None for none, or for two such
    counts that differ."""
    found: set[int] = set()
    for index in range(1, len(words) - 1):
        if words[index - 1].lower() not in _BEFORE or index in blocked:
            continue
        if words[index].lower() in _ARTICLES:
            continue
        number = count_of(words[index])
        if number is None:
            continue
        for last in (index + 1, index + 2):  # "six friends", "three family members"
            if last >= len(words) or not _plural(words[last]):
                continue
            between = words[index + 1 : last]
            if any(count_of(w) is not None or w.endswith(("'", "'s")) for w in between):
                break  # "two kids' parties": the noun is the kids', not people
            noun = _stem_of(words[last])
            after = words[last + 1].lower() if last + 1 < len(words) else ""
            if (
                not names_people(words[last])
                or (person(words[last]) and not person(words[last], general=True))
                or noun in DURATIONS
                or noun in others
                or words[last].lower() in _MEASURES
                or noun in _MEASURES
                or (after and after not in _ENDS and not after[:1].isupper())
            ):
                break
            found.add(number)
            break
    return found.pop() if len(found) == 1 else None


_SPEAKER = frozenset({"me", "i", "myself"})
_JOINS = frozenset({"and", "plus", "&"})
_OWNERS = frozenset({"my", "our"})
_US = "us"


def _singular_person(word: str) -> bool:
    low = word.lower()
    return (low in _people_nouns() or person(low)) and stem(low) not in _GROUPS


def _part(words: Sequence[str], at: int, blocked: Collection[int]) -> tuple[int, int] | None:
    """The part of a party that opens at ``words[at]``: (how many people, the index after it);
    None when no part opens there."""
    if at >= len(words):
        return None
    low = words[at].lower()
    if low in _SPEAKER:
        return 1, at + 1
    if low in _OWNERS:
        at += 1  # "my 3 sisters", "my wife"
        if at >= len(words):
            return None
        low = words[at].lower()
    number = None if at in blocked or low in _ARTICLES else count_of(low)
    if number is not None:
        after = [w.lower() for w in words[at + 1 : at + 3]]
        if after == ["of", _US]:
            return number, at + 3  # "two of us"
        if at + 1 < len(words) and _plural(words[at + 1]) and names_people(words[at + 1]):
            return number, at + 2  # "3 sisters", "2 adults"
        if number == 1 and at + 1 < len(words) and _singular_person(words[at + 1]):
            return 1, at + 2  # "1 child"
        return None
    if low in _ARTICLES:
        at += 1  # "a baby", "an infant"
    if at < len(words) and not _plural(words[at]) and _singular_person(words[at]):
        return 1, at + 1
    return None


def party_of_parts(
    words: Sequence[str],
    others: Collection[str],
    blocked: Collection[int] = (),
    first: float | None = None,
) -> int | None:
    """The size of a party named in parts joined by "and" or "plus" after "for" ("for me and my
    3 sisters", "for my wife and me", "for two of us plus a baby", "for 3 adults and 2
    children"): the sum of its parts; None when no party of
    two parts or more is named, a part's noun is one another argument counts (``others``,
    stems) or a noun of the whole party ("4 guests and 2 kids"), or two such parties differ.
    Given ``first``, a count of the party already read, only a party whose first part is that
    count ("for three of us plus a toddler" after "for three"), so that a whole count read
    elsewhere ("for 12 people ..., 3 adults and 2 children need audio guides") stands."""
    found: set[int] = set()
    for start in range(1, len(words)):
        if words[start - 1].lower() != "for":
            continue
        total, parts, at = 0, 0, start
        nouns: list[str] = []
        while True:
            part = _part(words, at, blocked)
            if part is None or (not parts and first is not None and part[0] != first):
                break
            total += part[0]
            parts += 1
            nouns.append(_stem_of(words[part[1] - 1]))
            at = part[1]
            if at + 1 < len(words) and words[at].lower() in _JOINS:
                at += 1  # the loop's top ends the party when no part follows the joining word
                continue
            break
        whole = any(person(n, general=True) for n in nouns)
        if parts >= 2 and not whole and not set(nouns) & set(others):
            found.add(total)
    return found.pop() if len(found) == 1 else None
