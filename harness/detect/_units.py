"""What one sentence the bot said gives as answers, one unit each: a value (or values written
together: "(415) 555-0142", "24 Willie Mays Plaza"), a classification ("It's a pop song") and a
yes or a no. The missed-request check's matching gives each sentence one request; a sentence with
two units may answer two ("It's a folk music event at 40 Harbor Road" for "where is the venue"
and "what kind of event is it"), where a reply without one of its answers has one unit fewer
(:func:`second_answer`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from harness.detect._answer_terms import (
    ASSOCIATED,
    ATTRIBUTES,
    DEICTIC,
    REPLYING,
    all_words_of,
    association,
    reply_terms,
    words_of,
)
from harness.detect._kinds import (
    _QUALIFIED,
    WHEN_KINDS,
    asked_kinds,
    asks_back_in,
    classification,
    says_yes_or_no,
)
from harness.detect._matching import augmenting_match
from harness.detect.answers import matcher
from harness.text import content_words, extract_facts
from harness.text.facts import STRONG_KINDS

__all__ = [
    "VALUE_KINDS",
    "alone_gives",
    "answer_units",
    "answered_instead",
    "clause_answer",
    "names_in_kind",
    "room_for",
    "second_answer",
    "value_groups",
]

# The kinds of facts that answer a request (not "state" words like "left", nor acronyms).
VALUE_KINDS = STRONG_KINDS | {"weekday", "month", "name"}


@lru_cache(maxsize=16_384)
def value_groups(text: str) -> tuple[tuple[int, int, frozenset[str]], ...]:
    """The values of ``text`` (start, end, kinds), those with only spaces or punctuation between
    them as one ("(415) 555-0142", "24 Willie Mays Plaza")."""
    groups: list[tuple[int, int, frozenset[str]]] = []
    for fact in sorted(extract_facts(text), key=lambda f: f.start):
        if fact.kind not in VALUE_KINDS:
            continue
        if groups and not any(ch.isalnum() for ch in text[groups[-1][1] : fact.start]):
            start, end, kinds = groups[-1]
            groups[-1] = (start, max(end, fact.end), kinds | {fact.kind})
        else:
            groups.append((fact.start, fact.end, frozenset({fact.kind})))
    return tuple(groups)


# Words that set two values apart as two answers ("from Downtown Station to Union Station", "10
# mph, the humidity about 19 percent"): prepositions, conjunctions, articles, pronouns and the
# copula, closed classes of English. Other words between two values are most often part of one
# ("620 3rd Street", "301 hartz avenue #105").
_APART = re.compile(
    r"\b(?:at|in|on|by|from|to|for|with|of|about|into|onto|via|and|or|but|plus|while|whereas"
    r"|the|an?|its?|it's|they|their|is|are|was|were|be|will|would|this|that|which|who)\b",
    re.IGNORECASE,
)


def _units_of_values(text: str) -> list[tuple[int, int, frozenset[str]]]:
    """The value groups of ``text``, those with no word of :data:`_APART` between them as one."""
    units: list[tuple[int, int, frozenset[str]]] = []
    for start, stop, kinds in value_groups(text):
        if units and not _APART.search(text[units[-1][1] : start]):
            units[-1] = (units[-1][0], stop, units[-1][2] | kinds)
        else:
            units.append((start, stop, kinds))
    return units


@lru_cache(maxsize=16_384)
def answer_units(text: str) -> tuple[frozenset[str], ...]:
    """What ``text`` gives as answers, one kind set per unit: the values (those set apart by a
    word of :data:`_APART` as two), a classification ("class", with the value it names when it
    names one: "a Pop song"), a yes or a no ("polar")."""
    spans = _units_of_values(text)
    units = [kinds for _, _, kinds in spans]
    found = classification(text)
    if found:
        # a value among the modifiers is the class named ("a Pop song"): one unit with it
        start, end, _ = found
        inside = [u for u, (a, b, _) in enumerate(spans) if start <= a and b <= end]
        if inside:
            units[inside[0]] |= {"class"}
        else:
            units.append(frozenset({"class"}))
    if any(kinds & _QUALIFIED for kinds in units):
        # a year beside an amount says which year it is of ("withheld so far in 2025 is $2,944"),
        # as in :func:`~harness.detect._kinds.given_kinds`: no answer to "when"
        units = [kinds for kinds in (k - {"year"} for k in units) if kinds]
    if says_yes_or_no(text):
        units.append(frozenset({"polar"}))
    return tuple(units)


def room_for(request: str, sentence: str, others: Sequence[str]) -> bool:
    """Whether ``sentence`` has a unit of the kind ``request`` asks for beside a unit for each
    request of ``others`` (those the sentence was given to): a unit each, told apart by kind
    ("It goes from Downtown Station to Union Station" has a place for "which station does it
    leave from" and one for "which one does it go to"). A yes/no question is also answered by a
    classification of the noun it asks about ("It is an overnight flight" for "is it a redeye
    flight"); a request that asks for a value and opens like a yes/no question ("Can I have
    their number") asks for the value."""
    units = list(answer_units(sentence))
    wants = _wants(request, sentence)
    if not wants:
        return False
    needs = [_wants(other, sentence) for other in others]
    # A request that asks for no kind of value ("what's the weather like") is answered by the
    # whole sentence: "90 degrees and a 17 % chance of rain" has no room for "the ticket price".
    return all(needs) and _fits([wants, *needs], units)


def alone_gives(request: str, sentence: str, rivals: Sequence[str]) -> bool:
    """Whether ``sentence`` gives a kind of value ``request`` asks for and none of ``rivals``
    (the message's other requests) does: "It's a jazz concert" for "what genre is the concert"
    beside "when does the concert start"."""
    wants = _wants(request, sentence) - frozenset().union(*(_wants(r, sentence) for r in rivals))
    return any(wants & kinds for kinds in answer_units(sentence))


def names_in_kind(request: str, sentence: str) -> bool:
    """Whether ``request`` is a yes/no question about a noun ``sentence`` classifies, with a
    modifier that speaks to the property asked ("Is it a redeye flight?" "The flight is an
    overnight flight."): the answer in other words, even in a sentence the matching gave no
    request. A modifier speaks to the property when it shares a word (a stem) with the question's
    words beside the noun ("a non-refundable ticket" for "is it refundable"), or when its words
    go with them in replies (the matcher's association). The noun alone answers nothing: "It is a
    cheap morning flight" says nothing of "is it a direct flight"."""
    return "polar" in asked_kinds(request) and _speaks_to(request, sentence)


@lru_cache(maxsize=16_384)
def _speaks_to(request: str, sentence: str) -> bool:
    found = classification(sentence)
    if found is None:
        return False
    start, end, noun = found
    nouns = content_words(noun)
    if not nouns & content_words(request):  # words, not letters: "bus" is not in "buy"
        return False
    asked = words_of(request) - nouns
    # the modifiers, a hyphenated word whole and in parts ("non-refundable": "refundable")
    modifiers = sentence.replace("’", "'")[start:end].rsplit(None, 1)[0]
    said = (all_words_of(modifiers) | content_words(modifiers)) - nouns
    if not asked or not said:
        return False
    if asked & said:
        return True
    return association(asked, reply_terms(modifiers), matcher().associations) > ASSOCIATED


def _wants(request: str, sentence: str) -> frozenset[str]:
    """The kinds of unit that answer ``request`` in ``sentence``."""
    asked = asked_kinds(request)
    if asked - {"polar"}:
        asked -= {"polar"}  # "Can I have their number" asks for the number, not a yes
    if "name" in asked:
        asked -= {"number"}  # a place is named ("at 24 Willie Mays Plaza"), not a bare number
    if "polar" in asked and _speaks_to(request, sentence):
        asked |= {"class"}
    if "polar" in asked:
        asked |= _named_kinds(request)
    return asked


@lru_cache(maxsize=16_384)
def _named_kinds(question: str) -> frozenset[str]:
    """What a yes/no question that names a value is also answered by: a value of that kind ("Is
    the show on Friday?" "It's on Saturday."; "Was it released in 2019?" "It came out in 2018."),
    and a time ago ("from three years back") by a date or a year ("It's from 2017")."""
    kinds = {fact.kind for fact in extract_facts(question)} & VALUE_KINDS
    if kinds & WHEN_KINDS or "duration" in kinds:
        kinds |= WHEN_KINDS
    return frozenset(kinds)


def _fits(wants: Sequence[frozenset[str]], units: Sequence[frozenset[str]]) -> bool:
    """Whether each request (the kinds it wants) can have a unit of its own (a small matching)."""
    matched, _ = augmenting_match(
        range(len(wants)), lambda i: (u for u, kinds in enumerate(units) if wants[i] & kinds)
    )
    return len(matched) == len(wants)


def second_answer(
    k: int,
    texts: Sequence[str],
    claims: Sequence[str],
    wholes: Sequence[str],
    owner: Mapping[int, int],
) -> bool:
    """Whether a sentence the bot said has room for request ``k``'s answer beside the answers
    the matching gave it (:func:`~harness.detect._units.room_for`): the matching gives each
    sentence one request, while "It's a folk music event at 40 Harbor Road" answers two. A part
    the matching gave nothing is judged with the sentence it was cut from, beside what its other
    parts were given ("The album is called ..., and it is a Pop song"); a sentence the matching
    gave nothing at all answers nothing here (a reply's other sentences about other things give
    values of every kind)."""
    for j, claim in enumerate(claims):
        if j in owner:
            sentence, rows = claim, [owner[j]]
        else:
            siblings = [m for m in owner if wholes[m] == wholes[j]]
            if siblings:
                sentence, rows = wholes[j], [owner[m] for m in siblings]
            elif names_in_kind(texts[k], claim):
                sentence, rows = claim, []
            else:
                continue
        others = [texts[o] for o in rows]
        if names_in_kind(texts[k], sentence) and room_for(texts[k], sentence, others):
            return True  # its noun is the link, shared with another request or not
        if (
            room_for(texts[k], sentence, others)
            and _linked(texts[k], sentence)
            and not _about_another(k, texts, sentence, rows)
            and not (
                _held_back(k, texts, sentence)
                and not alone_gives(texts[k], sentence, [t for i, t in enumerate(texts) if i != k])
            )
        ):
            return True
    return False


def answered_instead(
    k: int, texts: Sequence[str], claims: Sequence[str], owner: Mapping[int, int]
) -> int | None:
    """The yes/no question the matching gave a sentence that answers request ``k`` instead, if
    it did: the sentence classifies the noun the question is about (which is why the matching
    gave it to the question) but says neither yes nor no nor anything of the property asked,
    and it gives a value of the kind ``k`` asks for ("It is an economy ticket for $320" given to
    "is it a refundable ticket" beside "how much is it"), and the question has no other
    sentence. Then it is the question the reply leaves unanswered, not ``k``."""
    for j, o in owner.items():
        sentence = claims[j]
        found = classification(sentence)
        if (
            found is None
            or "polar" not in asked_kinds(texts[o])
            or not content_words(found[2]) & content_words(texts[o])
            or sum(1 for other in owner.values() if other == o) > 1
        ):
            continue
        wants = _wants(texts[o], sentence)
        units = answer_units(sentence)
        if (
            wants
            and not any(wants & kinds for kinds in units)
            and any(_wants(texts[k], sentence) & kinds for kinds in units)
            and _linked(texts[k], sentence)
        ):
            return o
    return None


def _linked(request: str, sentence: str) -> bool:
    """Whether a sentence is about a request at all: it has one of its words, or its words go
    with the request's in replies (the matcher's association): "with a $2,899 deductible" gives
    an amount, but not one of "how many vacation days do I have left"."""
    asked = words_of(request)
    if asked & words_of(sentence):
        return True
    table = matcher().associations
    return association(asked, reply_terms(sentence), table) > ASSOCIATED


def _about_another(k: int, texts: Sequence[str], sentence: str, rows: Sequence[int]) -> bool:
    """Whether ``sentence`` is about what another request it was given to (``rows``) asks
    about, not what request ``k`` asks about: it has a word of that request that ``k`` lacks,
    and none of the words ``k`` alone of the message's requests has ("Yes, the climbing wall is
    open until 10 pm" for "is the climbing wall still open", not "what time does the sauna open
    in the morning" beside it, though it gives a time and shares "open"; "we sell buttons, most
    at 50 cents" is no hem's price). A request all of whose words another request has too ("when
    does it start") is left to the other tests."""
    asked = words_of(texts[k])
    own = asked - frozenset().union(*(words_of(t) for i, t in enumerate(texts) if i != k))
    said = words_of(sentence)
    subject = own - ATTRIBUTES - REPLYING
    if not subject or own & said:
        return False
    if any(DEICTIC.intersection(texts[i].lower().split()) for i in (k, *rows)):
        return False  # "what type of movie is it": both may be about the thing talked about
    if not any((words_of(texts[o]) - asked) & said for o in rows):
        return False
    return association(subject, reply_terms(sentence), matcher().associations) <= ASSOCIATED


def _held_back(k: int, texts: Sequence[str], sentence: str) -> bool:
    """Whether ``sentence`` shares words with request ``k`` only among the words ``k`` has in
    common with another request, none of its own: "You have used 8 PTO days and have 12 left"
    for "how many PTO days have I accrued" beside "... used" (the matcher's rule,
    :func:`~harness.detect.answers.pair_features`' ``misses_distinctive``)."""
    asked = words_of(texts[k])
    own = asked - frozenset().union(*(words_of(t) for i, t in enumerate(texts) if i != k))
    said = words_of(sentence)
    return bool(asked & said) and not own & said


CLAUSE_LEVEL = 0.9
"""How likely a clause read again without the requests its sentence's other clauses answer must
be to answer a request the matching left out (:func:`clause_answer`). Chosen on the development
sets (``docs/journal/simulate.md``, s60-shared): below it, clauses of another request's answer
("Booking a table for 2" beside "book me a hotel") were read as the dropped request's."""


def clause_answer(
    k: int,
    texts: Sequence[str],
    found: Sequence[tuple[str, frozenset[str], bool, str]],
    clauses: Sequence[tuple[int, int]],
    owner: Mapping[int, int],
    limits: Sequence[float],
) -> bool:
    """Whether request ``k``, which the matching left out, is answered by a clause of a sentence
    whose other clause answers another request: "It leaves from SFO International Airport and
    lands at Hartsfield-Jackson International Airport" for "which airport does it leave from"
    and "where does it land". The matcher reads both clauses as the first request's (they share
    its word "airport"), and the matching gives that request one of them; the other clause is
    read again here with the requests the sentence's other clauses answer left out of the
    comparison, and answers ``k`` when it is then at least :data:`CLAUSE_LEVEL` likely to.

    ``clauses``: each part's sentence and clause (:func:`~harness.detect._reply_parts.
    part_clauses`). So that one answer never serves two requests, the clause must be a whole
    clause the matching gave nothing (not a value cut from the clause that answers: "Booking a
    table for 2" / "at Kirin"), hold an answer of its own (a value, a classification, a yes or a
    no: :func:`answer_units`; "The cab is on its way" holds none), be a statement (not a question
    back), not be in a sentence quoting someone, be linked to ``k`` (one of its words, or words
    that go with them in replies), and give a value of the kind ``k`` asks for when it asks for
    one. Only one message composed of
    several answers is read so: in a turn of several messages each message goes on about one
    request (:func:`~harness.detect._assigning.matched`)."""
    if sum(1 for _, _, first, _ in found if first) > 1:
        return False
    request = texts[k]
    for j, (claim, _, _, whole) in enumerate(found):
        if j in owner or any(m in owner for m in range(len(found)) if clauses[m] == clauses[j]):
            continue
        beside = {i for m, i in owner.items() if clauses[m][0] == clauses[j][0]}
        if not beside or k in beside:
            continue
        if claim.rstrip().endswith("?") or whole.rstrip().endswith("?"):
            continue
        if asks_back_in(claim, whole) or any(q in whole for q in _QUOTES):
            continue
        if not answer_units(claim) or not _linked(request, claim):
            continue
        if _wants(request, claim) and not room_for(request, claim, []):
            continue
        rows = [i for i in range(len(texts)) if i not in beside]
        p = matcher().probabilities([texts[i] for i in rows], [claim], [whole])
        if p[rows.index(k)][0] >= max(limits[j], CLAUSE_LEVEL):
            return True
    return False


# Quotation marks: a sentence quoting someone ('About "i need new checks and a pin": ...')
# states none of the clauses it quotes.
_QUOTES = ('"', "\u201c", "\u201d")
