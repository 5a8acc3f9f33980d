"""Phrases that lead into a request in a user's message, for the check's segmenter
(``harness.detect.requests``): a subordinate clause or a phrase of time or place before a comma
("if I travel to Peru, do I need a visa", "on my list, add milk") is part of the request it leads
into, and so is one after "and" ("... and if I'm in Lima, what time is it")."""

from __future__ import annotations

from harness.detect._joining import _words_at
from harness.detect._request_words import (
    _AUX,
    _GREETING,
    _LEAD_OPENERS,
    _PREPOSITIONS,
    _SCENE_OPENERS,
    _SCENE_PHRASES,
    _SUBJECT,
    _SUBORDINATORS,
    _VERBS,
    _WH,
    _Tok,
    _words,
)

# What a phrase that leads into a request opens with (closed classes): a subordinator, "when",
# a preposition of time or place.
_LEADING_IN = _SUBORDINATORS | _words("when between on in at")


def _leads_in(left: list[_Tok], region: list[_Tok], right: list[_Tok]) -> bool:
    """Whether ``right``, after "and" or "plus", is a subordinate clause or a phrase of time or
    place that leads into the request after its comma ("... and if I'm in Lima, what time is
    it", "..., and at noon, book a table", "... plus on my list, add eggs"); not a phrase that
    goes on with one the same word opened earlier in its clause ("the weather in Paris and in
    Rome, ...", "the forecast in Oslo for this weekend and in Bergen, ...")."""
    joiners = {t.word for t in region}
    first = right[0].word
    return (
        bool(joiners & {"and", "plus"})
        and 1 < len(right) <= 8
        and first in _LEADING_IN
        and all(t.word != first for t in _clause_end(left))
    )


def _clause_end(left: list[_Tok]) -> list[_Tok]:
    """The words of ``left`` after its last comma, semicolon or sentence end."""
    k = len(left)
    while k and not left[k - 1].mark:
        k -= 1
    return left[k:]


_SCENE_FIRST = frozenset(phrase[0] for phrase in _SCENE_PHRASES)


def _subordinate(left: list[_Tok]) -> bool:
    """Whether ``left`` opens with a subordinate clause or a phrase that leads into its request."""
    while len(left) > 1 and (left[0].word in _GREETING or not left[0].word):
        left = left[1:]  # "Hello, up to this point, ..."
    first = left[0].word
    if first in _SUBORDINATORS or first in _PREPOSITIONS or _words_at(left, 0, ("now", "that")):
        return True
    if (first in _SCENE_OPENERS or first in _SCENE_FIRST) and not any(
        t.word in _WH or t.word in _AUX for t in left
    ):  # "up to this point, ...", "the next time it rains, ..." (not "so far how many ...")
        words = tuple(t.word for t in left[:3])
        if first in _SCENE_OPENERS or words[:2] in _SCENE_PHRASES or words in _SCENE_PHRASES:
            return True
    return first == "when" and len(left) > 1 and left[1].word not in _AUX


# Participles that ask for something themselves ("Looking for a hotel, ...": a wish), and words
# in -ing that are no participle (closed classes).
_SEEKING = _words(
    "looking searching seeking hunting hoping wanting needing wishing wondering craving shopping"
)
# Participles that seek only with "for" or "to" ("Shopping for a sofa, ..."; "Shopping at the
# mall, my card was declined" leads in).
_SEEKING_FOR = _words("looking shopping")
_NOT_PARTICIPLES = _words(
    """
    thing things something anything nothing everything morning evening spring king ring string
    sing bring wedding ceiling during pudding sibling darling swing sting fling cling sling
    wring
    """
)


def _participle_lead(left: list[_Tok], right: list[_Tok]) -> bool:
    """Whether ``left`` opens with a participle's phrase that leads into ``right``, the part
    after its comma ("Counting the weekend, how long is the trip", "Looking at May, show ...",
    "Buying milk today, my card got declined"); not a participle of seeking ("Looking for a
    hotel, ..." asks for one), nor a request said in -ing before a request of its own
    ("Booking a table for four, what is the weather", "Looking up the weather, book a hotel"):
    a request verb's participle leads in only before a preposition ("Looking at May", "Paying
    for lunch") or a part that asks nothing ("Buying milk, my card got declined")."""
    while len(left) > 1 and (left[0].word in _GREETING or not left[0].word):
        left = left[1:]
    first = left[0].word
    return (
        len(left) > 1
        and len(first) > 4  # "going", "using"
        and first.endswith("ing")
        and not (first in _SEEKING and (first not in _SEEKING_FOR or left[1].word in ("for", "to")))
        and first not in _NOT_PARTICIPLES
        and first not in _LEAD_OPENERS
        # the clause it leads into is not said yet ("Flying to Oslo am I ..., how do I ..."; the
        # participle itself may be an auxiliary's: "Going to Rome next week, do I need a visa")
        and not any(
            t.word in _WH or (t.word in _AUX and not _month(left, k))
            for k, t in enumerate(left[1:], 1)
        )
        and (
            not _requested(first)
            # "Going to Rome next week, ..." (not "Going to book a hotel, ...": an infinitive)
            or (
                left[1].word in _PREPOSITIONS
                and not (left[1].word == "to" and len(left) > 2 and left[2].word in _VERBS)
            )
            or not right
            or not (
                right[0].word in _ASKS_FIRST
                or right[0].word.removesuffix("s").rstrip("'") in _WH  # "whats", "what's"
            )
        )
    )


def _month(left: list[_Tok], k: int) -> bool:
    """Whether ``left[k]``, "may", is the month after a preposition ("Looking at May")."""
    return left[k].word == "may" and left[k - 1].word in _PREPOSITIONS


# What a part that asks or wants opens with: a question word, an auxiliary, a request verb,
# "please" or the speaker as subject (closed classes).
_ASKS_FIRST = _WH | _AUX | _VERBS | _SUBJECT | _words("please")


def _requested(participle: str) -> bool:
    """Whether ``participle`` ("booking", "ordering", "making", "cancelling") is a request verb's
    (:data:`~harness.detect._request_words._VERBS`)."""
    stem = participle[:-3]
    return any(
        verb in _VERBS for verb in (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else "")
    )


# What follows an item of a list ("if you, I and Tom fly to Rome, ...": "I" is no clause's start).
_LISTING = frozenset({"", "and", "or", "&"})


def _answered_lead(left: list[_Tok]) -> bool:
    """Whether the clause a subordinate clause or phrase leads into was said in ``left``: a
    comma and then a word a request opens with ("on my list, add milk", "since I am abroad, I
    need to tell the bank", "if I'm in Lima, what time is it"); what follows is a request of
    its own (not "if I go to Peru, Bolivia, ...", nor a list of subjects: "if you, I and Tom fly
    to Rome, ...")."""
    return any(
        t.mark == ","
        and k + 1 < len(left)
        and left[k + 1].word in _LEAD_OPENERS
        and not (k + 2 < len(left) and left[k + 2].word in _LISTING)
        for k, t in enumerate(left)
    )
