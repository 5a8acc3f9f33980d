"""Fit ``harness.planning.scope``: the offline planner's out-of-scope decision (development data only).

In scope: the gold requests of the labelled set's dev split (CLINC train, without the agents' own
examples) over the seven agents of ``agents.json``. Out of scope: CLINC's ``oos_train`` utterances
and every ``OTHER_STRIDE``-th train utterance of the CLINC intents no agent has. A logistic
regression (features standardised, L2 ``L2``, full-batch gradient descent; numpy, a development
dependency only) gives a ``ScopeModel``'s coefficients and intercept on the raw figures; its
threshold is the strictest probability at which the planner's two gates together (the first gate:
the router's, or closeness by meaning; then this one) route as many dev requests right as the first
gate alone. By default it fits ``scope.CONCEPTS``, the model for bots that use the concept table,
with a table built without any of the texts it is fitted on (``build_concepts.table_without``);
with ``--plain``, ``scope.PLAIN``, with no table.

Checked (never fitted on): CLINC ``oos_val`` over the same agents, and the SGD agents built from
SGD train (``routing_eval.sgd("train")``) with their development requests against ``oos_val``.
CLINC ``val`` is held out (``tests.held_out``): with ``HARNESS_SKIP_HELD_OUT=1`` those checks are
left out and the SGD train agents are checked against ``oos_train`` instead (a figure on texts
the fit used, so only the in-scope half of it is a check).
A refit is weighed on the out-of-scope development set (``tests.planning.out_of_scope_eval.figures``
with its constants; ``build_out_of_scope``), none of whose texts is a row of this fit: its
out-of-scope figures are out of sample. Its helpdesk in-scope requests are this fit's in-scope
rows; the unfitted in-scope figure there is the SGD agents' (``out_of_scope_eval.sgd_bot``).
Held-out figures come from ``python -m tests.detect.planner_baseline out-of-scope test`` and
``python -m tests.detect.planner_baseline test``. Print the fitted constants::

    PYTHONPATH=. .venv/bin/python -m tests.planning.fit_scope [--plain]

CLINC150: Larson et al., EMNLP 2019, CC-BY-3.0.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence

from harness.planning import scope
from harness.planning.match import AgentMatcher
from harness.planning.rules import MEANING_GATE
from tests import held_out
from tests.detect.build_multi_intent import AGENT_OF, CLINC
from tests.planning.build_concepts import table_without
from tests.planning.routing_eval import Labelled, clinc, sgd

OTHER_STRIDE = 4
L2 = 1e-2
STEPS = 3000
ROUTER_MINIMUM = 0.9  # RulesPlanner's default route_threshold


def _rows(
    data: Labelled, outside: Sequence[str], *, plain: bool = False
) -> tuple[list[tuple[tuple[float, ...], bool]], list[tuple[float, ...]]]:
    """(figures, routed right without a scope gate) per in-scope request; figures per outside one.

    The matcher's concept table is built without any of these texts (some are its sources); with
    ``plain``, the matcher has none."""
    unseen = frozenset([*(text for text, _ in data.requests), *outside])
    matcher = AgentMatcher(data.cards, concepts=not plain and table_without(unseen))
    inside = [
        (matcher.scope_figures(text), matcher.best(text) == gold) for text, gold in data.requests
    ]
    return inside, [matcher.scope_figures(text) for text in outside]


def fit(
    inside: Sequence[tuple[float, ...]], outside: Sequence[tuple[float, ...]]
) -> tuple[tuple[float, ...], float]:
    """Coefficients and intercept on the raw figures."""
    import numpy as np

    x = np.array([*inside, *outside], dtype=float)
    y = np.r_[np.ones(len(inside)), np.zeros(len(outside))]
    mean, spread = x.mean(0), x.std(0) + 1e-9
    z = (x - mean) / spread
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + L2 * w)
        b -= 0.5 * float((p - y).mean())
    raw = w / spread
    return tuple(round(float(c), 4) for c in raw), round(b - float((raw * mean).sum()), 4)


def probability(figures: Sequence[float], coefficients: Sequence[float], intercept: float) -> float:
    z = intercept + sum(c * x for c, x in zip(coefficients, figures, strict=True))
    return 1.0 / (1.0 + math.exp(-max(z, -30.0)))


def _gated(
    figures: Sequence[float], threshold: float, constants: tuple[Sequence[float], float]
) -> bool:
    """Whether both gates send the request on (the router's or the meaning's, then this one)."""
    sent = figures[-1] >= ROUTER_MINIMUM or figures[-2] >= MEANING_GATE
    return sent and probability(figures, *constants) >= threshold


def report(
    name: str,
    inside: Sequence[tuple[tuple[float, ...], bool]],
    outside: Sequence[tuple[float, ...]],
    threshold: float,
    constants: tuple[Sequence[float], float],
) -> str:
    def right(limit: float) -> int:
        return sum(ok and _gated(f, limit, constants) for f, ok in inside)

    def kept(limit: float) -> int:
        return sum(not _gated(f, limit, constants) for f in outside)

    return (
        f"{name}: in scope routed right {right(threshold)}/{len(inside)} "
        f"(router alone {right(0.0)}), out of scope kept with the parent "
        f"{kept(threshold)}/{len(outside)} (router alone {kept(0.0)})"
    )


def main(argv: Sequence[str]) -> None:
    plain = "--plain" in argv
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    other = [text for text, intent in data["train"] if intent not in AGENT_OF][::OTHER_STRIDE]
    oos_train = [t for t, _ in data["oos_train"]]
    outside = oos_train + other
    dev_inside, dev_outside = _rows(clinc("dev"), outside, plain=plain)
    constants = fit([f for f, _ in dev_inside], dev_outside)
    model = scope.PLAIN if plain else scope.CONCEPTS
    baseline = sum(ok and _gated(f, 0.0, constants) for f, ok in dev_inside)
    threshold = 0.0
    for step in range(1, 1000):
        limit = step / 1000
        if sum(ok and _gated(f, limit, constants) for f, ok in dev_inside) < baseline:
            break
        threshold = limit
    print(f"coefficients={constants[0]}, intercept={constants[1]}, threshold={threshold}")
    print(report("CLINC dev (fitted)", dev_inside, dev_outside, threshold, constants))
    shipped = (model.coefficients, model.intercept)
    print(
        report(
            "CLINC dev, the shipped constants", dev_inside, dev_outside, model.threshold, shipped
        )
    )
    if held_out.skipping():
        # CLINC val is held out (tests/held_out.py): check on the SGD train agents alone.
        sgd_inside, sgd_outside = _rows(sgd("train"), oos_train, plain=plain)
        print(report("SGD train agents, oos_train", sgd_inside, sgd_outside, threshold, constants))
    else:
        oos_val = [t for t, _ in data["oos_val"]]
        _, val_outside = _rows(clinc("dev"), oos_val, plain=plain)
        print(report("CLINC oos_val (checked)", dev_inside, val_outside, threshold, constants))
        sgd_inside, sgd_outside = _rows(sgd("train"), oos_val, plain=plain)
        print(
            report(
                "SGD train agents, oos_val (checked)", sgd_inside, sgd_outside, threshold, constants
            )
        )
    if (constants, threshold) != ((model.coefficients, model.intercept), model.threshold):
        print("harness/planning/scope.py holds other constants")


if __name__ == "__main__":
    main(sys.argv[1:])
