"""Whether a request is for any of the bot's sub-agents at all: a calibrated out-of-scope decision.

The rules model's router sends a request on when some word of it weighs enough in some agent's
texts. Many requests that belong to no agent share such a word by chance ("what's the weather
where my meeting is"). This module turns figures the matcher already has into a probability that
the request is for one of the agents (a logistic regression; ``SCOPE_FEATURES`` in the order of
``COEFFICIENTS``); the offline planner keeps a request with the parent when it is under
``THRESHOLD``.

The coefficients and the threshold were fitted by ``python -m tests.planning.fit_scope`` on
development data only: the in-scope requests of the labelled set's dev split (CLINC train) over its
seven agents, against CLINC's ``oos_train`` utterances and the train utterances of the CLINC
intents no agent has. ``THRESHOLD`` is the strictest that keeps every development request the
router sends on (docs/models.md, "Sent to an agent though it is no agent's", has the held-out
figures). Pure Python: a handful of multiplications per request.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["COEFFICIENTS", "INTERCEPT", "SCOPE_FEATURES", "THRESHOLD", "in_scope_probability"]

SCOPE_FEATURES = (
    "best_score",
    "margin",
    "classifier_probability",
    "best_text_cosine",
    "agent_words_share",
    "known_words",
    "router_score",
)
"""The figures of a request (``AgentMatcher.scope_figures``): the best agent's matcher score, its
lead over the second, the best agent's classifier probability, closest-text cosine and share of the
request's distinctive words, the share of the request's content words found in any agent's texts,
and the rules model router's best score."""

COEFFICIENTS = (2.1717, 1.4484, 4.1922, -0.5362, -1.8737, 1.1705, 0.3531)
INTERCEPT = -4.4012
THRESHOLD = 0.047
"""The lowest in-scope probability that still goes to a sub-agent."""


def in_scope_probability(figures: Sequence[float]) -> float:
    """The probability that a request with these ``SCOPE_FEATURES`` figures is for some agent."""
    z = INTERCEPT + sum(c * x for c, x in zip(COEFFICIENTS, figures, strict=True))
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
