"""Lists of people in a user's message to the check's segmenter: "my wife and I need a table" is
one subject, and "my son and I want pizza and my wife and I want sushi" two requests
(``harness.detect.requests``)."""

from __future__ import annotations

from itertools import pairwise

from harness.detect._request_words import _SUBORDINATORS, _Tok, _words

# What a list of people said before "and I" opens with (closed classes: the possessives, "the"),
# and the people it names (kin and companions, a closed class; a plural adds "s").
_WHOSE = _words("my our your his her their the")
_PEOPLE = _words(
    """
    wife husband partner spouse fiance fiancee girlfriend boyfriend friend mom mum mother dad
    father parent sister brother son daughter kid child children baby family grandma grandpa
    grandmother grandfather aunt uncle cousin niece nephew colleague coworker boss team roommate
    neighbor neighbour guest
    """
)


def _named_only(left: list[_Tok]) -> bool:
    """Whether ``left`` (after a subordinator) only names people, with no verb: the start of a
    list of subjects that "and I" or "and we" ends ("my wife and I need a table", "when my
    sister, my mom and I land in Oslo, ..."), not a request of its own ("book a table and I
    need a taxi", "my next payday and I ...", "if my flight is late and I miss ..."); only the
    words after its last joining word count ("my son and I want pizza and my wife and I ...")."""
    words = [t.word for t in left]
    joined = [k for k, w in enumerate(words) if w in ("and", "plus")]
    words = words[joined[-1] + 1 :] if joined else words
    if words and (words[0] in _SUBORDINATORS or words[0] == "when"):
        words = words[1:]
    people = " ".join(w or "," for w in words).split(" , ") if len(words) <= 9 else []
    return bool(people) and all(
        1 < len(named := person.split()) <= 3
        and named[0] in _WHOSE
        and (named[-1] in _PEOPLE or named[-1].removesuffix("s") in _PEOPLE)
        for person in people
    )


def _another_list(left: list[_Tok], region: list[_Tok], right: list[_Tok]) -> bool:
    """Whether ``right``, after "and" and before "and I" or "and we", names people who open a
    second subject of the same shape as one ``left`` already said ("my son and I want pizza
    and my wife and I want sushi")."""
    words = [t.word for t in left]
    return (
        {t.word for t in region} == {"and"}
        and any(a == "and" and b in ("i", "we") for a, b in pairwise(words))
        and _named_only(right)
    )


def _with_speaker(left: list[_Tok], region: list[_Tok], right: list[_Tok]) -> bool:
    """Whether ``right``, after "and", names people who go with the speaker named last in
    ``left`` ("a table for me and my wife", "tickets for us and our kids"): one group, the
    object of one request."""
    return (
        bool(left)
        and left[-1].word in ("me", "us", "myself", "ourselves")
        and {t.word for t in region} == {"and"}
        and _named_only(right)
    )
