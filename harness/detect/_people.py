"""Lists of people in a user's message to the check's segmenter: "my wife and I need a table" is
one subject, and "my son and I want pizza and my wife and I want sushi" two requests
(``harness.detect.requests``); and the bot addressed by a greeting or its name before a
request of its own ("..., and bot, find me ...")."""

from __future__ import annotations

from itertools import pairwise

from harness.detect._request_words import (
    _DETERMINERS,
    _LEAD_OPENERS,
    _SUBORDINATORS,
    _Tok,
    _words,
)

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


# How a user addresses the bot before a request of its own (closed classes: greetings, what an
# assistant is called).
_ADDRESSING = _words("hi hello hey yo ai bot assistant chatbot")
_CALLED = _words("ai bot assistant chatbot")
# What a name after "and" may be coordinated with instead of addressed: a noun phrase's
# determiner ("a personal trainer and assistant") or a topic's preposition ("news about
# startups and AI"; closed classes).
_TOPIC_PREPS = _words("about on of regarding between like")
_NOUN_PHRASE = _DETERMINERS | _TOPIC_PREPS


def _addresses(toks: list[_Tok], i: int, region: int, after: list[_Tok], then: str) -> bool:
    """Whether ``after``, between the joining region of ``region`` tokens at ``i`` and a comma
    (``then`` the word after that comma), only addresses the bot: a greeting ("..., hey, can you
    ..."), or the bot's name ("... and also ai, ...", "... and bot, find me ..."). Not the name
    as a list item (after a bare comma, a request's opening word must follow it: "robotics, AI,
    and data science") nor coordinated with the words before a lone "and" or "plus" (no
    determiner or topic preposition in the three words before it: "news about startups and AI,
    ...", "a personal trainer and assistant, ..."; after ", and" no topic preposition)."""
    if not after or any(t.word not in _ADDRESSING for t in after):
        return False
    if after[0].word not in _CALLED:
        return True  # a greeting first
    joined = [t.word for t in toks[i : i + region] if t.word]
    if not joined:
        return then in _LEAD_OPENERS
    if joined not in (["and"], ["plus"]):
        return True  # "and also ai, ...", "and by the way bot, ...": clauses joined
    before = {t.word for t in toks[max(0, i - 3) : i]}
    comma = toks[i].mark == "," or (i > 0 and toks[i - 1].mark == ",")
    return before.isdisjoint(_TOPIC_PREPS if comma else _NOUN_PHRASE)
