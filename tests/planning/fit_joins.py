"""Fit ``harness.planning._joins.JOIN``: whether two neighbouring pieces are one request
(development data only).

Every cut the offline planner weighs (``rules._one_requests``: two pieces planned as written,
only sentence ends, commas and spaces between them, going to different places) is a row with its
``JOIN_FEATURES`` figures:

- **one request**: the cuts inside single requests of a bot the concept table never saw, the
  leave-one-domain-out draws of ``tests.planning.new_bot_eval`` (SGD **train** user turns that
  open an intent, one agent per domain, the table built without the request's fold and domain);
- **two requests**: the cuts between the gold requests of the development multi-intent
  messages (``dev``, ``own``, ``sgd-train``, ``styled``, ``ways-dev``, ``sgd-real-train``), each
  piece owned by the gold request that shares most of its words; a cut between two pieces of one
  gold request there counts as one request.

The fit (a logistic regression, features standardised, L2 ``L2``, full-batch gradient descent;
numpy, a development dependency only) uses ``FIT``: the new bots' fold 0 and the messages of
``FIT_SPLITS``. Its threshold is the lowest probability at which no cut between two requests of
those messages is joined. The other rows (the new bots' fold 1 and ``CHECK_SPLITS``) are the
check, out of sample. Print the constants and the check::

    PYTHONPATH=. .venv/bin/python -m tests.planning.fit_joins

No held-out split is read.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.models.base import AgentCard
from harness.models.rules import agent_router
from harness.planning import _joins
from harness.planning.concepts import ConceptTable
from harness.planning.rules import RulesPlanner, _requests
from tests.detect.multi_intent import load
from tests.detect.planner_baseline import _words
from tests.detect.planner_baseline import cards as split_cards
from tests.detect.planner_baseline import concepts as split_concepts
from tests.planning import new_bot_eval

L2 = 1e-2
STEPS = 4000
FIT_SPLITS = ("dev", "own", "sgd-train")
CHECK_SPLITS = ("styled", "ways-dev", "sgd-real-train")


@dataclass(frozen=True, slots=True)
class Cut:
    """One cut the planner weighed."""

    source: str
    """``newbot-0``, ``newbot-1`` or the multi-intent split's name."""
    figures: tuple[float, ...]
    one: bool
    """Whether the two pieces are one gold request."""
    first: str
    second: str


def _cuts(
    message: str, cards: tuple[AgentCard, ...], table: ConceptTable | bool
) -> list[tuple[str, str, tuple[float, ...]]]:
    """(first piece, second piece, figures) for every cut the planner weighs in ``message``."""
    planner = RulesPlanner(concepts=table)
    seen: list[tuple[str, str, tuple[float, ...]]] = []

    def record(first: str, second: str, figures: tuple[float, ...]) -> bool:
        seen.append((first, second, figures))
        return False

    _requests(
        message,
        agent_router(cards),
        planner.route_threshold,
        planner._meant(cards),
        planner._scoped(cards),
        planner._judged(cards),
        record,
    )
    return seen


def cuts() -> list[Cut]:
    """Every weighed cut of the new bots and the development multi-intent messages."""
    out: list[Cut] = []
    for fold in (0, 1):
        for seed in new_bot_eval.SEEDS:
            agents = new_bot_eval.bot(fold, seed)
            for text, gold in new_bot_eval.requests(fold):
                domain = next(d for d in new_bot_eval.DESCRIPTIONS if d.lower() == gold)
                table = new_bot_eval.table(fold, domain)
                for first, second, figures in _cuts(text, agents, table):
                    out.append(Cut(f"newbot-{fold}", figures, True, first, second))
    for split in (*FIT_SPLITS, *CHECK_SPLITS):
        table = split_concepts(split)
        for message in load(split):
            gold = [_words(r["text"]) for r in message["requests"]]

            def owner(text: str, gold: list[frozenset[str]] = gold) -> int | None:
                words = _words(text)
                shared = [len(words & g) for g in gold]
                best = max(range(len(gold)), key=shared.__getitem__)
                return best if shared[best] else None

            agents = split_cards(message.get("agents", "agents"))
            for first, second, figures in _cuts(message["text"], agents, table):
                a, b = owner(first), owner(second)
                if a is not None and b is not None:
                    out.append(Cut(split, figures, a == b, first, second))
    return out


def fit(rows: Sequence[Cut]) -> tuple[tuple[float, ...], float]:
    """Coefficients and intercept on the raw figures."""
    import numpy as np

    x = np.array([r.figures for r in rows], dtype=float)
    y = np.array([float(r.one) for r in rows])
    mean, spread = x.mean(0), x.std(0) + 1e-9
    z = (x - mean) / spread
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + L2 * w)
        b -= 0.5 * float((p - y).mean())
    raw = w / spread
    return tuple(round(float(c), 4) for c in raw), round(b - float((raw * mean).sum()), 4)


def threshold(rows: Sequence[Cut], probability: Callable[[Cut], float]) -> float:
    """The lowest probability (in thousandths) joining no cut between two requests of ``rows``."""
    apart = [probability(r) for r in rows if not r.one]
    top = max(apart, default=0.0)
    return math.floor(top * 1000 + 1) / 1000


def main() -> None:
    rows = cuts()
    counts = Counter((r.source, r.one) for r in rows)
    training = [r for r in rows if r.source in ("newbot-0", *FIT_SPLITS)]
    coefficients, intercept = fit(training)
    model = _joins.JoinModel(coefficients=coefficients, intercept=intercept, threshold=1.0)

    def probability(row: Cut) -> float:
        return _joins.join_probability(row.figures, model)

    limit = threshold([r for r in training if not r.source.startswith("newbot")], probability)
    print(f"coefficients={coefficients}, intercept={intercept}, threshold={limit}")
    for source in sorted({r.source for r in rows}):
        mine = [r for r in rows if r.source == source]
        joined_one = sum(r.one and probability(r) >= limit for r in mine)
        joined_two = sum(not r.one and probability(r) >= limit for r in mine)
        kind = "fitted" if source in ("newbot-0", *FIT_SPLITS) else "checked"
        print(
            f"{source} ({kind}): one request joined {joined_one}/{counts[(source, True)]}, "
            f"two requests joined {joined_two}/{counts[(source, False)]}"
        )
    shipped = _joins.JOIN
    if (shipped.coefficients, shipped.intercept, shipped.threshold) != (
        coefficients,
        intercept,
        limit,
    ):
        print("harness/planning/_joins.py holds other constants")


if __name__ == "__main__":
    main()
