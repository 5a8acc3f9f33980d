"""What the answer matcher (:mod:`harness.detect.answers`) compares a request and a sentence the
bot said on: their content words (stems, without the generic ones that ask or offer without
naming what), the words a request has and no other request of its message has (its own words),
how strongly a sentence's words go with a request's in replies (the association table), and how
likely a sentence only closes or asks back (the dialogue-act tagger)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from harness.detect._kinds import _NO, _YES, facts_of
from harness.detect.acts import tagger
from harness.text import content_words

__all__ = [
    "ASSOCIATED",
    "ATTRIBUTES",
    "DEICTIC",
    "REPLYING",
    "Associations",
    "all_words_of",
    "association",
    "claim_acts",
    "own_words",
    "prefix_share",
    "reply_terms",
    "words_of",
]

# "W-2", "e-mail", "24/7": one word each, so that a request for a W-2 has a word to look for.
_JOINED = re.compile(r"(?<=[^\W_])[-/](?=[^\W_])")
_PREFIX = 5
# The least association of a sentence with a request that counts as "its words go with it".
ASSOCIATED = 0.05


# Words that ask or offer without naming what ("I'd like", "can you find", "sure, let me look"):
# a request and a reply both having them says nothing about whether one answers the other.
_GENERIC = content_words(
    "like want need wish would love help find get look looking search please know tell show give"
    " let make sure okay ok thanks thank really just also something anything"
)


@lru_cache(maxsize=16_384)
def all_words_of(text: str) -> frozenset[str]:
    """The content words (stems) of a text, a hyphenated or slashed word as one ("w2")."""
    return content_words(_JOINED.sub("", text))


@lru_cache(maxsize=16_384)
def words_of(text: str) -> frozenset[str]:
    """The content words (stems) of a request or a sentence, without the generic ones."""
    return all_words_of(text) - _GENERIC


@lru_cache(maxsize=16_384)
def claim_acts(claim: str) -> tuple[float, float]:
    """How likely the sentence only closes ("anything else?", a goodbye) and how likely it asks
    the user for details (the dialogue-act tagger of :mod:`harness.detect.acts`)."""
    more, goodbye, request = tagger().probabilities(claim, _CLAIM_ACTS)
    return max(more, goodbye), request


_CLAIM_ACTS = ("REQ_MORE", "GOODBYE", "REQUEST")


def prefix_share(request: frozenset[str], claim: frozenset[str]) -> float:
    """The share of the request's words the sentence has, or has with the same first letters."""
    if not request:
        return 0.0
    heads = {w[:_PREFIX] for w in claim if len(w) >= _PREFIX}
    hits = sum(1 for w in request if w in claim or (len(w) >= _PREFIX and w[:_PREFIX] in heads))
    return hits / len(request)


Associations = dict[str, dict[str, float]]
"""Per word of a reply, the words of a request it goes with and their association (0 to 1)."""


@lru_cache(maxsize=16_384)
def reply_terms(text: str) -> frozenset[str]:
    """What a reply's words are matched on for association: its content words, the kinds of
    the values it gives ("@money" for "$24", "@time" for "5:30 pm") and whether it says yes or
    no ("@yes", "@no"), so that a request's words go with the kind of value that answers it
    ("damage" with an amount)."""
    kinds, _ = facts_of(text)
    said = text.replace("’", "'")
    polar = {k for k, pattern in (("@no", _NO), ("@yes", _YES)) if pattern.search(said)}
    return words_of(text) | frozenset("@" + kind for kind in kinds) | frozenset(polar)


def association(request: frozenset[str], claim: frozenset[str], table: Associations) -> float:
    """The mean, over the sentence's words, of their strongest association with the request.

    Summed exactly (:func:`math.fsum`): the words of a ``frozenset`` come in an order that
    follows the process's string hashing (``PYTHONHASHSEED``), and a plain running sum in that
    order could differ in its last bit from one process to the next."""
    if not claim or not request:
        return 0.0
    # ``request`` is not empty, so each row has a strongest association (read in C: ``row.get(r,
    # 0.0)`` for each word ``r`` of the request)
    zeros = [0.0] * len(request)
    best = [max(map(row.get, request, zeros)) for row in map(table.get, claim) if row]
    return math.fsum(best) / len(claim)


def own_words(words: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """Each request's own words: those of ``words[i]`` no other request of the message has."""
    return [
        w - frozenset().union(*(o for k, o in enumerate(words) if k != i))
        for i, w in enumerate(words)
    ]


# What a request asks of a thing rather than the thing (a closed class): "what's the price"
# beside "how long is the ride" asks the ride's price, naming no subject of its own.
ATTRIBUTES = words_of(
    """
    price prices cost costs fee fees charge total amount rate time times date day days hour hours
    address location located place venue genre category type kind sort number phone name duration
    long much many year rating status
    """
)
# Words of replying to the bot that a request's text may keep ("Yes, what is the cost"; a closed
# class): no subject.
REPLYING = words_of("yes yeah yep no nope ok okay sure please thanks thank great fine")

# Words by which a request names its subject without naming it ("when does it start", "what
# genre is that", "which one does it go to"; a closed class): then the sentence may well be
# about the same thing as another request's, in that request's words.
DEICTIC = frozenset({"it", "its", "it's", "this", "that", "these", "those", "one", "they", "them"})
