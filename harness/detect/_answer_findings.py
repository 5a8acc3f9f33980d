"""Which requests the answer matcher's probabilities leave unanswered (a maximum matching of
sentences to requests), and what says how sure each of those is really unanswered (the features
of :meth:`~harness.detect.answers.AnswerMatcher.confidence`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from harness.detect._answer_terms import (
    Associations,
    association,
    claim_acts,
    reply_terms,
    words_of,
)
from harness.detect._kinds import asked_kinds, given_kinds
from harness.detect._matching import augmenting_match

__all__ = ["FINDING_FEATURES", "assignment", "finding_features", "unmatched"]


def unmatched(p: Sequence[Sequence[float]], limits: Sequence[float], shared: float) -> list[int]:
    """The rows (requests) a maximum matching of rows to columns (sentences) over the pairs with
    ``p[i][j] >= limits[j]`` leaves out, once rows with a pair of at least ``shared`` are let
    share.

    Rows are tried strongest first (by their best pair), so when some request must go without,
    it is the one with the weakest evidence. Kuhn's augmenting paths: rows x pairs steps.
    """
    return assignment(p, limits, shared)[0]


def assignment(
    p: Sequence[Sequence[float]], limits: Sequence[float], shared: float
) -> tuple[list[int], dict[int, int]]:
    """:func:`unmatched` and the matching itself (sentence -> request)."""
    rows = len(p)
    edges = [
        [j for _, j in sorted((-v, j) for j, v in enumerate(row) if v >= limits[j])] for row in p
    ]
    order = sorted(range(rows), key=lambda i: -max(p[i], default=0.0))
    matched, owner = augmenting_match(order, edges.__getitem__)
    missing = [i for i in range(rows) if i not in matched and max(p[i], default=0.0) < shared]
    return missing, owner


FINDING_FEATURES = (
    "best",
    "best_free",
    "fewer_sentences",
    "sentences_per_request",
    "request_words",
    "free_closing",
    "no_free",
    "kind_missing",
    "best_associated",
)
"""What says how sure an unanswered request is really unanswered (see :meth:`AnswerMatcher.
confidence`)."""


def finding_features(
    p: Sequence[Sequence[float]],
    owner: dict[int, int],
    row: int,
    request: str,
    claims: Sequence[str],
    table: Associations | None = None,
) -> list[float]:
    """The :data:`FINDING_FEATURES` of request ``row``, left unanswered by the matching ``owner``:

    - ``best``: the most likely sentence to answer it (any sentence);
    - ``best_free``: the same among the sentences the matching gave no request;
    - ``fewer_sentences``: the bot sent fewer sentences than there are requests;
    - ``sentences_per_request``: how many sentences per request (log);
    - ``request_words``: how many content words the request has (log; a short part cut off a
      longer request is often no request of its own);
    - ``free_closing``: how likely the free sentences only close ("anything else?");
    - ``no_free``: every sentence went to some other request;
    - ``kind_missing``: the request asks for a kind of value (a time for "when", an amount for
      "how much"; not a yes or a no, which a reply often gives in other words: "They do.") and
      no sentence gives one;
    - ``best_associated``: the strongest association (``table``, the matcher's) of any sentence
      with the request."""
    free = [j for j in range(len(claims)) if j not in owner]
    asked = asked_kinds(request) - {"polar"}
    given = frozenset().union(*(given_kinds(c) for c in claims))
    terms = words_of(request)
    associated = max((association(terms, reply_terms(c), table or {}) for c in claims), default=0.0)
    best_free = max((p[row][j] for j in free), default=0.0)
    closing = max((claim_acts(claims[j])[0] for j in free), default=0.0)
    return [
        max(p[row], default=0.0),
        best_free,
        1.0 if len(claims) < len(p) else 0.0,
        math.log((1 + len(claims)) / (1 + len(p))),
        math.log1p(len(words_of(request))),
        closing,
        0.0 if free else 1.0,
        1.0 if asked and not asked & given else 0.0,
        associated,
    ]
