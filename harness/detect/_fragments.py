"""A bare noun phrase after "and" or "also" that is a request of its own, for the request
segmenter (:mod:`harness.detect.requests`).

People list what they want as names of things as often as they ask: "how do I reset my router
and insurance benefits", "set an alarm for 7, also gym opening hours". After "and" or "also" a
part of two words or more that opens with no determiner, says no verb and follows a request of
its own is one more thing asked for, not the end of the request before it; kept with it, the
drop of either cannot be flagged. A single word after "and" ("salt and pepper", "terms and
conditions") and a number ("between 10 and 11") stay with what is before them.
"""

from __future__ import annotations

from harness.detect._joining import _MONTHS, _a_day
from harness.detect._request_words import (
    _AUX,
    _CLAUSE_VERB,
    _DETERMINERS,
    _FRAME_OPENERS,
    _PREPOSITIONS,
    _PRONOUNS,
    _SUBJECT,
    _SUBORDINATORS,
    _USER_VERBS,
    _VERBS,
    _WH,
    _Tok,
    _words,
)

# The joining regions after which a bare noun phrase may be a request (", and" is the
# segmenter's own rule for parts of three words).
_JOINERS = (
    frozenset({"and"}),
    frozenset({"", "also"}),
    frozenset({"and", "also"}),
    frozenset({"", "and", "also"}),
)
# Prepositions whose object lists two things joined by "and" ("between 10 and 11").
_PAIRING = _words("between both")
# Words that never open a request's noun phrase: what goes on with the clause before it
# ("and so on", "and more", "also known as"; a closed class).
_NOT_OPENING = (
    _PREPOSITIONS
    | _PRONOUNS
    | _SUBJECT
    | _WH
    | _AUX
    | _MONTHS
    | _SUBORDINATORS
    | _PAIRING
    | _VERBS
    | _USER_VERBS
    | _words("so not more other others another one ones etc now then mine ours yours")
)
# Pronouns as objects ("and ask them to ..."; a closed class).
_OBJECTS = _words("me us you him her it them")
# What stands in for a noun after a determiner (a closed class).
_STAND_INS = _words("other others rest")
# Words of a number said in words ("three hundred and seventy"; a closed class).
_NUMBER_WORDS = _words(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty "
    "fifty sixty seventy eighty ninety hundred thousand million billion"
)


def _fragment(words: list[str], whole: list[_Tok], joiners: set[str]) -> bool:
    """Whether ``words``, after the joining words ``joiners``, is a bare noun phrase asked for
    on its own after the request ``whole``: "... to the other account and insurance benefits",
    "..., also gym opening hours"."""
    if joiners not in _JOINERS or not 2 <= len(words) <= 7:
        return False
    first = words[0]
    if (
        first in _NOT_OPENING
        or first in _DETERMINERS
        or first[:1].isdigit()
        or first in _NUMBER_WORDS
        or first.endswith(("ly", "ing", "ed"))
        or _a_day(first)
    ):
        return False
    if any(w in _AUX or w in _SUBJECT or "'" in w or _CLAUSE_VERB.search(w) for w in words):
        return False  # a clause: the segmenter's other rules read it
    if words[-1] in _PREPOSITIONS:
        return False  # "and arrive at": a verb's phrase
    if words[1] in _DETERMINERS or words[1] in _PRONOUNS or words[1] in _OBJECTS:
        return False  # a verb and its object ("and see a movie"), not a noun phrase
    left = [t.word for t in whole if t.word]
    return (
        len(left) >= 3
        and left[0] in _FRAME_OPENERS
        and left[-1] not in _PREPOSITIONS
        and left[-1] not in _DETERMINERS
        and left[-1] not in _NUMBER_WORDS
        and left[-1] not in _VERBS
        and len(left[-1]) > 1
        and not left[-1].endswith(("ing", "ed"))
        # "a meeting with carrie and lisa": one object of a preposition, a list of two
        and left[-2] not in _PREPOSITIONS
        # "my water and gas bills", "the departure and arrival station": one word after a
        # determiner and two after "and" are two kinds of one noun ("the other" is a stand-in)
        and not (left[-2] in _DETERMINERS and len(words) == 2 and left[-1] not in _STAND_INS)
        and _PAIRING.isdisjoint(left[-6:])
    )


def _names_pair(message: str, left: list[_Tok], right: list[_Tok]) -> bool:
    """Whether the words either side of a joining word are both written with a capital, in a
    sentence that is not all capitals: a name said with "and" or "&" ("Mikey and Nicky", "Slick
    & Dapper"), which is no list of two requests."""
    if not left or not right or not left[-1].word or not right[0].word:
        return False
    before, after = message[left[-1].start], message[right[0].start]
    return (
        before.isupper()
        and after.isupper()
        and not message[left[0].start : right[-1].end].istitle()
    )
