"""Pieces of a user's message that the request segmenter (:mod:`harness.detect.requests`) cut
apart but that make one request: the shapes of a statement that the planner's split keeps
together as well, read by the closed classes both share (:mod:`harness.text._shapes`), without
the planner.

- A statement that only states, before a comma or a semicolon ("I'm going to Peru, do I need a
  visa", "I got a new job, can you help me with my 401k rollover"), is the context of the request
  after it (:func:`~harness.text._shapes.states`: it opens with a pronoun a speaker states with
  and has no word of wanting or asking), when it has no question word and the learned model of
  what needs an answer (:class:`~harness.detect.requests.NeedsModel`) gives it less than even
  odds of asking for one ("I lost my card" asks on its own; "I got a new job" does not).
- A quotation after a comma is what the request before it is about ("how do I say, 'good
  morning' in Italian", "translate the phrase, 'where is the station' into French").
- A piece that opens with "or" asks the same thing again ("has my application been received, or
  what is its status").
- A piece that asks about what a statement before it names, by a pronoun ("my card is stolen, I
  need to report it", "I can't find my mastercard and I want to report it as lost":
  :func:`~harness.text._shapes.refers_back`), or a short question about it with a pronoun or
  nothing of its own ("my card was declined yesterday, what happened", "my vacation, has it been
  approved yet", "my card was declined and I'm wondering why").
- A statement about the speaker's own things that goes on after "and" without a subject of its
  own ("I was on flight AB123 and haven't been able to locate my luggage":
  :func:`~harness.text._shapes.goes_on`).
- An imperative and another whose object is a pronoun pointing back to what the first names,
  after a bare "and" ("alert my bank and let them know I'm travelling").

A closer at the end of a request ("... thank you so much", "... that's all") is no word of it.
A piece that only announces requests to come ("I have several requests.", "Can you help me with
a few things?") is no request (one before a colon never was).

Only pieces of one sentence joined by a comma, a semicolon or a bare "and" are kept together:
"also", "plus", "as well as" and the discourse connectives add a request of their own, and
words said once for two requests (:mod:`harness.detect._coordination`) make two.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from harness.detect._request_words import _ANNOUNCED, _ANNOUNCING, _WH
from harness.text._shapes import (
    _AUXILIARIES,
    _GREETINGS,
    _VERBS,
    _WANTS,
    _WORD,
    goes_on,
    refers_back,
    states,
)

if TYPE_CHECKING:
    from harness.detect.requests import Request


class _Likely(Protocol):
    def probability(self, text: str) -> float: ...


# What may stand between two pieces of one request: a comma, a semicolon, a bare "and".
_BETWEEN = re.compile(r"\s*+(?:,|;|(?:,\s*+)?and)\s*+", re.IGNORECASE)
_CONTEXT_BETWEEN = re.compile(r"\s*+[,;]\s*+")
_AND = re.compile(r"\s*+and\s*+", re.IGNORECASE)
# What a statement about the speaker's own things opens with (closed classes: the first person's
# pronouns and possessives, the definite article): "my card was declined", "I applied".
_SAYS_OF = frozenset({"i", "we", "my", "our", "the"})
# Pronouns that point back to a thing named before (a closed class).
_POINTING = frozenset({"it", "that", "this", "they", "them"})
_VERB_SET = frozenset(_VERBS.split("|"))
# An announcement of requests to come, said as a sentence or a part of its own: the words the
# segmenter's announcements before a colon have, greetings, and the prepositions of "help me with
# a few things" (closed classes).
_ANNOUNCES = _ANNOUNCING | _GREETINGS | frozenset({"with", "about", "for", "some"})
_QUOTES = frozenset("'\"‘“")
"""What a quotation opens with: a quoted piece is what the request before it is about."""
# A word of :data:`_ANNOUNCED` (what :func:`_announces` reads a piece's words for).
_NAMES_ANNOUNCED = re.compile(r"\b(?:questions?|things?|requests?|quer(?:y|ies)|items?)\b", re.I)
# The words :func:`~harness.text._shapes.points_back` needs one of (tried first: most pieces
# have none).
_POINTS = re.compile(r"\b(?:it|them|one)\b", re.IGNORECASE)
_EVEN = 0.5
"""A stating piece the needs model gives at least these odds of asking is a request of its own."""


def kept_together(
    message: str, requests: list[Request], needs: Callable[[], _Likely]
) -> list[Request]:
    """``requests`` (of ``message``, in order) with the pieces that make one request joined and
    those that only announce requests left out (unless nothing else is left), closers cut off;
    ``needs()`` gives how likely a piece asks for an answer of its own (the needs model)."""
    # "I have several requests.", "Can you help me with a few things?": no request of their own
    # (one pass, the cheap tests inline: this runs on every multi-request message)
    kept = [
        r
        for r in requests
        if _NAMES_ANNOUNCED.search(r.text) is None or not _announces(message[r.start : r.end])
    ] or requests
    # "... thank you so much": no words of it
    requests = [_closed(r) if r.text[-8:].lower().endswith(_CLOSER_ENDS) else r for r in kept]
    out = [requests[0]]
    for after in requests[1:]:
        before = out[-1]
        if _together(message, before, after, needs):
            out[-1] = replace(
                before, text=before.text + message[before.end : after.end], end=after.end
            )
        else:
            out.append(after)
    return out


def _together(message: str, before: Request, after: Request, needs: Callable[[], _Likely]) -> bool:
    if before.carried_after or after.carried or after.carried_after:
        return False  # words said once for two requests: two requests
    between = message[before.end : after.start]
    if _BETWEEN.fullmatch(between) is None:
        return False
    first = message[before.start : before.end]
    second = message[after.start : after.end]
    if second[:1] in _QUOTES:
        return True  # "translate the sentence, 'we will be there soon' into Portuguese"
    if _CONTEXT_BETWEEN.fullmatch(between) and _context(first, needs):
        return True
    if (
        (_POINTS.search(second) is not None and refers_back(first, second))
        or _asks_about(first, second)
        or _opening(second) == "or"
    ):
        return True  # "has my application been received, or what is its status": one asked
    return _AND.fullmatch(between) is not None and (
        (_opening(first) in _SAYS_OF and goes_on(first, second)) or _asks_of_it(first, second)
    )


def _opening(piece: str) -> str:
    words = _WORD.findall(piece[:40].lower())
    return words[0] if words else ""


def _context(piece: str, needs: Callable[[], _Likely]) -> bool:
    """Whether ``piece`` only states and asks nothing of its own: no question word past its
    first ("I'm curious what plan I'm on" asks), no comma inside, and less than even odds of
    needing an answer."""
    if not states(piece) or "," in piece:
        return False
    return (
        not any(w in _WH for w in _WORD.findall(piece.lower())[1:])
        and needs().probability(piece) < _EVEN
    )


def _asks_about(first: str, second: str) -> bool:
    """Whether ``second`` is a short question about what the statement ``first`` says of the
    speaker's own things ("what happened", "why", "I wanna know why", "has it been approved
    yet", "what is that exactly"); not after a question, a want or a word to the bot ("what's their number and do
    they allow pets", "I'm sorry, can you tell me the time, and is it refundable")."""
    before = _WORD.findall(first.lower())
    words = _WORD.findall(second.lower())
    if (
        not before
        or not words
        or before[0] not in _SAYS_OF
        or "," in first
        or any(w in _WANTS or w in _WH or w == "you" for w in before)
    ):
        return False
    if words[-1] == "why" and len(words) <= 5:
        return True  # "I wanna know why", "I'm wondering why"
    if words[0] not in _WH and words[0] not in _AUXILIARIES:
        return False
    return len(words) <= 5 and (len(words) <= 2 or not _POINTING.isdisjoint(words[1:3]))


def _asks_of_it(first: str, second: str) -> bool:
    """Whether ``first`` is an imperative and ``second`` another whose object is a pronoun that
    points back to what it names ("alert my bank and let them know ..."; not "... and tell me
    if they serve alcohol", a question of its own)."""
    before = _WORD.findall(first.lower())
    words = _WORD.findall(second.lower())
    return (
        bool(before)
        and bool(words)
        and before[0] in _VERB_SET
        and words[0] in _VERB_SET
        and len(words) > 1
        and words[1] in _POINTING
    )


def _announces(piece: str) -> bool:
    """Whether ``piece`` only announces requests ("I have several requests", "need help with a
    few things", "Can you help me with a few things")."""
    if _NAMES_ANNOUNCED.search(piece) is None:
        return False  # the cheap test first: most pieces name no request to come
    words = _WORD.findall(piece.lower())
    return any(w in _ANNOUNCED for w in words) and all(w in _ANNOUNCES for w in words)


# A closer said at the end of a request (a closed class of thanks and sign-offs): "... between 5
# and 530 thank you so much", "... state what they are thanks a lot".
_CLOSER = re.compile(
    r"(?<=\w)[\s,.!]+(?:thanks?(?:\s+you)?(?:\s+(?:so|very)\s+much|\s+a\s+(?:lot|bunch|million))?"
    r"|ty|thx|cheers|that'?s\s+all)[\s.!]*$",
    re.IGNORECASE,
)


_CLOSER_ENDS = (
    "thanks",
    "thank",
    "you",
    "much",
    "lot",
    "bunch",
    "million",
    "ty",
    "thx",
    "cheers",
    "all",
)
"""How a closer ends (what :data:`_CLOSER` is tried on)."""


def _closed(request: Request) -> Request:
    """``request`` without a closer at its end (when two words or more are left)."""
    if request.carried_after:
        return request
    if not request.text[-8:].lower().endswith(_CLOSER_ENDS):
        return request  # the cheap test first
    m = _CLOSER.search(request.text)
    if m is None or len(request.text[: m.start()].split()) < 2:
        return request
    cut = len(request.text) - m.start()
    return replace(request, text=request.text[: m.start()], end=request.end - cut)
