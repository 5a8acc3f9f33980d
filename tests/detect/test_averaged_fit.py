"""``tools.detector.linear.fit_averaged_trees``: the pair scorer's fit, steadier than one forest.

One boosted forest on a few thousand rows moves single predictions from fit to fit: which of
several near-equal splits a tree takes depends on a handful of rows. The averaged fit (several
forests, each tree on a random half of the features, one forest fitted to their average) must
move them less when a few rows are left out, and stay deterministic.
"""

from __future__ import annotations

import json

import numpy as np

from tools.detector.linear import fit_averaged_trees, fit_trees, predict_matrix


def _data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two informative features, each with a near copy (near-equal splits), and noise features."""
    rng = np.random.default_rng(seed)
    a, b = rng.random(n), rng.random(n)
    x = np.column_stack(
        [a, a + rng.normal(0, 0.05, n), b, b + rng.normal(0, 0.05, n), rng.random((n, 4))]
    )
    odds = 6 * (a - 0.5) + 4 * (b - 0.5) + rng.normal(0, 1.0, n)
    return x, (odds > 0).astype(np.float64)


def _log_odds(model: tuple[list[dict[str, object]], float], x: np.ndarray) -> np.ndarray:
    trees, base = model
    return base + sum((predict_matrix(t, x) for t in trees), np.zeros(len(x)))


def test_no_members_is_one_forest_on_the_labels() -> None:
    x, y = _data(300, 1)
    one = fit_trees(x, y, rounds=20)
    assert json.dumps(fit_averaged_trees(x, y, members=0, rounds=20)) == json.dumps(one)


def test_the_fit_is_deterministic_and_keeps_the_size_of_one_forest() -> None:
    x, y = _data(300, 2)
    first = fit_averaged_trees(x, y, members=3, rounds=20)
    assert json.dumps(first) == json.dumps(fit_averaged_trees(x, y, members=3, rounds=20))
    assert len(first[0]) == 20


def test_leaving_out_an_eighth_of_the_rows_moves_predictions_less_than_one_forest() -> None:
    x, y = _data(640, 3)
    unseen, _ = _data(400, 4)
    spreads = {}
    for name, fit in (
        ("one", lambda xs, ys: fit_trees(xs, ys, rounds=40)),
        ("averaged", lambda xs, ys: fit_averaged_trees(xs, ys, members=6, rounds=40)),
    ):
        runs = []
        for part in range(8):
            kept = np.arange(len(y)) % 8 != part
            runs.append(_log_odds(fit(x[kept], y[kept]), unseen))
        spreads[name] = float(np.std(runs, axis=0).mean())
    assert spreads["averaged"] < 0.8 * spreads["one"], spreads
