"""Whether a request is for any of the bot's sub-agents at all: a calibrated out-of-scope decision.

The rules model's router sends a request on when some word of it weighs enough in some agent's
texts. Many requests that belong to no agent share such a word by chance ("what's the weather
where my meeting is"). This module turns figures the matcher already has into a probability that
the request is for one of the agents (a logistic regression over ``SCOPE_FEATURES``, a
``ScopeModel``); the offline planner keeps a request with the parent when it is under the model's
threshold. There are two models: ``CONCEPTS`` for a bot whose matcher uses the concept table
(``harness.planning.concepts``), ``PLAIN`` for any other bot (its ``meaning`` coefficient is 0)
and for a request that uses a word of the bot's the table never saw (``AgentMatcher.blind``).

Both were fitted by ``python -m tests.planning.fit_scope`` (``--plain`` for ``PLAIN``) on
development data only: the in-scope requests of the labelled set's dev split (CLINC train) over its
seven agents, against CLINC's ``oos_train`` utterances and the train utterances of the CLINC
intents no agent has (for ``CONCEPTS``, with a concept table built without all of those texts).
Each threshold is the strictest that keeps every development request the planner's first gate
sends on (docs/journal/models.md, "Sent to an agent though it is no agent's", has the held-out
figures).
Pure Python: a handful of multiplications per request.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["CONCEPTS", "PLAIN", "SCOPE_FEATURES", "ScopeModel", "in_scope_probability"]

SCOPE_FEATURES = (
    "best_score",
    "margin",
    "classifier_probability",
    "best_text_cosine",
    "agent_words_share",
    "known_words",
    "meaning",
    "router_score",
)
"""The figures of a request (``AgentMatcher.scope_figures``): the best agent's matcher score, its
lead over the second, the best agent's classifier probability, closest-text cosine and share of the
request's distinctive words, the share of the request's content words found in any agent's texts,
how close its meaning is to the closest agent's texts (``AgentMatcher.meaning``, 0 when the concept
table does not know the bot), and the rules model router's best score."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ScopeModel:
    """A fitted logistic regression over ``SCOPE_FEATURES`` and its threshold."""

    coefficients: tuple[float, ...]
    """One per ``SCOPE_FEATURES``, on the raw figures."""
    intercept: float
    threshold: float
    """The lowest in-scope probability that still goes to a sub-agent."""


PLAIN = ScopeModel(
    coefficients=(2.1717, 1.4484, 4.1922, -0.5362, -1.8737, 1.1705, 0.0, 0.3531),
    intercept=-4.4012,
    threshold=0.047,
)
"""For a bot the concept table does not know (``python -m tests.planning.fit_scope --plain``)."""

CONCEPTS = ScopeModel(
    coefficients=(1.7456, 0.7196, 2.3727, -0.5891, -0.737, 0.6722, 6.758, 0.2555),
    intercept=-7.4921,
    threshold=0.055,
)
"""For a bot the concept table knows (``python -m tests.planning.fit_scope``; the concept table
built without the texts it is fitted on)."""


def in_scope_probability(figures: Sequence[float], model: ScopeModel = PLAIN) -> float:
    """The probability that a request with these ``SCOPE_FEATURES`` figures is for some agent."""
    z = model.intercept + sum(c * x for c, x in zip(model.coefficients, figures, strict=True))
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
