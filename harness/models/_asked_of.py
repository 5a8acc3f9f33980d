"""A question that asks someone the bot speaks for, not "you", for a tool's change: "can the
workshop estimate job 3312?", "could your team cancel it?"; not "could the rain cancel tour
4471?" nor "can the shop cancel my order if I'm late?" (``_actions.asks_by_question``)."""

from __future__ import annotations

import re

from harness.models._arg_people import person_noun
from harness.text._shapes import word_class

__all__ = ["asked_of_other"]

# A question that asks someone named, not "you", for a change: "can the workshop estimate job
# 3312", "could your team cancel it" (a subject of one or two words after "the" or "your"). Not
# "will/would": "will your driver deliver it on Saturday?" asks what will happen.
_ASKING_OTHER = re.compile(
    r"^(?:(?:hi|hello|hey|please|so|and|also) )*(?:can|could) (?:the|your) "
    r"([a-z]+) ([a-z]+)(?: ([a-z]+))?"
)
# A clause after the verb that makes the change a supposition ("could your team cancel it if
# it rains?", "can the salon move it in case I'm late?").
_SUPPOSED = re.compile(r"\b(?:if|unless|while|in case|whether)\b")
# Nouns of a business that may act for the bot ("the shop", "your team"): a closed class of
# English nouns; a person (WordNet's nouns of people, ``_arg_people``) or a word of the tool's
# own name or description may act too, but not "the rain" or "the weather".
_FIRMS = word_class("""
    team staff shop store company firm business workshop salon office hotel restaurant clinic
    garage agency bank gym desk florist bakery branch service crew studio depot warehouse
    carrier airline pharmacy library school council agent
    """)


def _agent(word: str, known: frozenset[str]) -> bool:
    """Whether ``word``, the subject of "can the <word> <verb>", may act for the business: a
    noun of a firm, a person (WordNet) or a word of the tool's own name or description."""
    return word in _FIRMS or person_noun(word) or word in known


def asked_of_other(words: str, same: frozenset[str], known: frozenset[str]) -> bool:
    """Whether ``words`` asks someone the bot speaks for, named before the tool's verb, for its
    change ("can the workshop estimate job 3312?"; not "could the rain cancel tour 4471?" nor
    "can the shop cancel my order if I'm late?")."""
    other = _ASKING_OTHER.match(words)
    if other is None:
        return False
    if other.group(2) in same:
        subject, end = other.group(1), other.end(2)
    elif other.group(3) in same:
        subject, end = other.group(2), other.end(3)
    else:
        return False
    return _agent(subject, known) and not _SUPPOSED.search(words, end)
