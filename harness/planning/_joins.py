"""Whether two neighbouring pieces the split cut apart are one request: a learnt decision.

The split (``harness.planning.split``) cuts a message at sentence ends and commas by closed
classes of form. A real turn often gives a detail or a follow-up in a sentence of its own ("I
want to find a bus. Just one person.", "What time can I see it? I want to see it on the 9th.");
planned alone, such a piece goes to whichever agent shares a word, or stays with the parent, and
the request it belongs to loses it. On a bot whose subject the concept table never saw, those
cuts cost more than any gate (docs/journal/models.md, s59-route).

This module weighs a cut after the pieces are routed, with figures that say nothing about any
subject (``JOIN_FEATURES``): how sure the planner is that each piece is a request for some agent
(the scope model's probability and its decision), whether each only states or opens as a
question, whether the second points back ("it", "there", "one"), how long each is, and whether a
sentence end or a comma stands between them. A logistic regression over them (``JOIN``) was fitted
by ``python -m tests.planning.fit_joins`` on development data only: cuts inside single requests
(Schema-Guided Dialogue **train** user turns routed to bots of one agent per domain, the concept
table built without the request's domain, ``new_bot_eval``'s leave-one-domain-out draws) against
cuts between the requests of the development multi-intent messages (CLINC and SGD train). Only
two pieces that go to different places (two agents, or an agent and the parent) are weighed: two
pieces for one agent reach it either way. Pure Python: a few multiplications per cut.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from harness.planning.concepts import tokens
from harness.planning.split import opens_question
from harness.text._shapes import VERBS, WORD, states, word_class
from harness.text.words import stem

__all__ = [
    "JOIN",
    "JOIN_FEATURES",
    "JoinModel",
    "Judged",
    "join_features",
    "join_probability",
    "only_states",
]

JOIN_FEATURES = (
    "first_probability",
    "second_probability",
    "first_sent",
    "second_sent",
    "first_routed",
    "second_routed",
    "first_states",
    "second_states",
    "first_opens_question",
    "second_opens_question",
    "sentence_end",
    "first_words",
    "second_words",
    "first_points_back",
    "second_points_back",
)
"""The figures of a cut between two planned pieces (``join_features``): per piece, the scope
model's in-scope probability (0 when the first gate sends it nowhere), whether the gate sends it
on, whether some agent's words or meaning reach it at all, whether it only states (no question,
no word of asking or wanting), whether it opens as a question does, log(1 + its content words)
and whether it has a word that points back; and whether a sentence end stands between them (a
comma otherwise)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Judged:
    """What the planner decided about one piece before the cut is weighed."""

    agent: str | None
    """The matcher's agent for it (None: the first gate sends it nowhere)."""
    probability: float
    """Its in-scope probability (``AgentMatcher.in_scope``; 0 when ``agent`` is None)."""
    sent: bool
    """Whether the out-of-scope gate lets it go to ``agent``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinModel:
    """A fitted logistic regression over ``JOIN_FEATURES`` and its threshold."""

    coefficients: tuple[float, ...]
    """One per ``JOIN_FEATURES``, on the raw figures."""
    intercept: float
    threshold: float
    """The lowest probability that the two pieces are one request at which they are joined."""


JOIN = JoinModel(
    coefficients=(
        -1.2018,
        -1.7216,
        1.0421,
        1.097,
        0.0194,
        0.7233,
        1.0367,
        2.8062,
        -2.195,
        -0.8624,
        0.3997,
        -0.8147,
        -0.6803,
        1.2786,
        1.7433,
    ),
    intercept=0.2338,
    threshold=0.859,
)
"""Fitted by ``python -m tests.planning.fit_joins`` (development data only)."""

# Words that point back to what the piece before named ("book it", "a table there", "find me
# one", "that sounds good"; a closed class of English).
_POINTING = frozenset({"it", "its", "that", "there", "them", "this", "those", "these", "one"})
_SENTENCE_END = re.compile(r"[.!?]")
# The stems of the request verbs ("searching", "I'm looking for ...") and the words of wanting
# or interest ("I'm interested in ...", "I'm in the mood for ...", "I fancy ..."): a statement
# with one of them asks (closed classes).
_ASKS_STEMS = frozenset(stem(v) for v in VERBS.split("|")) | frozenset(
    stem(w) for w in word_class("look search seek interested hoping keen eager mood fancy craving")
)


def only_states(text: str) -> bool:
    """Whether ``text`` only states (``harness.text._shapes.states``), asks no question ("I fancy
    seeing a show?") and has no request verb or word of wanting or interest."""
    return (
        states(text)
        and not text.rstrip().endswith("?")
        and not any(stem(w) in _ASKS_STEMS for w in WORD.findall(text.lower()))
    )


def join_features(first: str, second: str, gap: str, a: Judged, b: Judged) -> tuple[float, ...]:
    """The ``JOIN_FEATURES`` figures of the cut ``gap`` between the pieces ``first`` and
    ``second`` (``a`` and ``b``: how the planner judged each)."""
    first_words = WORD.findall(first.lower())
    second_words = WORD.findall(second.lower())
    return (
        a.probability,
        b.probability,
        float(a.sent),
        float(b.sent),
        float(a.agent is not None),
        float(b.agent is not None),
        float(only_states(first)),
        float(only_states(second)),
        float(opens_question(first)),
        float(opens_question(second)),
        float(_SENTENCE_END.search(gap) is not None),
        math.log1p(len(tokens(first))),
        math.log1p(len(tokens(second))),
        float(any(w in _POINTING for w in first_words)),
        float(any(w in _POINTING for w in second_words)),
    )


def join_probability(figures: Sequence[float], model: JoinModel = JOIN) -> float:
    """The probability that the two pieces with these ``JOIN_FEATURES`` figures are one request."""
    z = model.intercept + sum(c * x for c, x in zip(model.coefficients, figures, strict=True))
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
