"""Logistic regression and gradient-boosted trees in numpy, for training only (the package infers
in pure Python)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["fit_averaged_trees", "fit_dense", "fit_sparse", "fit_trees"]


def fit_sparse(
    rows: Sequence[Sequence[int]],
    labels: NDArray[np.float64],
    width: int,
    *,
    epochs: int = 8,
    rate: float = 0.5,
    l2: float = 1e-5,
    batch: int = 512,
    seed: int = 24,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """One-vs-rest logistic regression over binary sparse rows (feature indices), by Adagrad
    mini-batches. ``labels`` is (rows, classes) of 0/1. Returns (weights (width, classes), bias)."""
    classes = labels.shape[1]
    weights = np.zeros((width, classes))
    bias = np.log((labels.mean(0) + 1e-3) / (1 - labels.mean(0) + 1e-3))
    g_w = np.full((width, classes), 1e-8)
    g_b = np.full(classes, 1e-8)
    rng = np.random.default_rng(seed)
    order = np.arange(len(rows))
    for _ in range(epochs):
        rng.shuffle(order)
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            lengths = np.array([len(rows[i]) for i in chosen])
            flat = np.concatenate([np.asarray(rows[i], dtype=np.int64) for i in chosen])
            owner = np.repeat(np.arange(len(chosen)), lengths)
            logits = np.zeros((len(chosen), classes)) + bias
            np.add.at(logits, owner, weights[flat])
            error = 1 / (1 + np.exp(-np.clip(logits, -30, 30))) - labels[chosen]
            grad = np.zeros((width, classes))
            np.add.at(grad, flat, error[owner])
            touched = np.unique(flat)
            grad[touched] += l2 * weights[touched] * len(chosen)
            g_w[touched] += grad[touched] ** 2
            weights[touched] -= rate * grad[touched] / np.sqrt(g_w[touched])
            gb = error.sum(0)
            g_b += gb**2
            bias -= rate * gb / np.sqrt(g_b)
    return weights, bias


def fit_dense(
    features: NDArray[np.float64],
    labels: NDArray[np.float64],
    *,
    l2: float = 1.0,
    weights: NDArray[np.float64] | None = None,
    steps: int = 30,
) -> tuple[NDArray[np.float64], float]:
    """Binary logistic regression by Newton's method with an L2 penalty (not on the bias).
    ``weights`` are per-row sample weights. Returns (coefficients, bias)."""
    n, d = features.shape
    x = np.hstack([features, np.ones((n, 1))])
    w = np.ones(n) if weights is None else weights
    beta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ beta, -30, 30)))
        grad = x.T @ (w * (p - labels)) + penalty * beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return beta[:-1], float(beta[-1])


def fit_trees(
    features: NDArray[np.float64],
    labels: NDArray[np.float64],
    *,
    weights: NDArray[np.float64] | None = None,
    rounds: int = 120,
    depth: int = 3,
    rate: float = 0.15,
    l2: float = 1.0,
    min_weight: float = 2.0,
    bins: int = 24,
    columns: float = 1.0,
    seed: int = 0,
) -> tuple[list[dict[str, object]], float]:
    """Gradient-boosted regression trees for the log loss (Newton leaves, quantile split
    candidates). Returns (trees, base log-odds); a tree is nested dicts: ``{"f", "t", "l", "r"}``
    for a split (``x[f] <= t`` goes left) and ``{"v"}`` for a leaf.

    ``labels`` may be probabilities rather than 0/1 (:func:`fit_averaged_trees` fits a forest to
    another model's probabilities). With ``columns`` below 1, each tree may split only on a
    random share of the features, drawn per tree from a generator seeded with ``seed``."""
    n, d = features.shape
    w = np.ones(n) if weights is None else weights
    mean = float(np.clip(np.average(labels, weights=w), 1e-4, 1 - 1e-4))
    base = float(np.log(mean / (1 - mean)))
    raw = np.full(n, base)
    cuts = []
    for j in range(d):
        values = np.unique(np.quantile(features[:, j], np.linspace(0, 1, bins + 1)[1:-1]))
        cuts.append(_midpoints(values, np.unique(features[:, j])))
    slots = np.stack(
        [np.searchsorted(cuts[j], features[:, j], side="left") for j in range(d)], axis=1
    )
    width = max(len(c) for c in cuts) + 1
    flat_slots = slots + np.arange(d) * width
    usable = np.arange(width - 1)[None, :] < np.array([len(c) for c in cuts])[:, None]
    trees: list[dict[str, object]] = []

    def grow(
        rows: NDArray[np.int64], g: NDArray[np.float64], h: NDArray[np.float64], level: int
    ) -> dict[str, object]:
        gs, hs = g[rows].sum(), h[rows].sum()
        leaf: dict[str, object] = {"v": round(float(-gs / (hs + l2) * rate), 6)}
        if level == depth or len(rows) < 4:
            return leaf
        parent = gs * gs / (hs + l2)
        # Every feature's histogram in one bincount: feature j's slots are offset by j * width.
        flat = flat_slots[rows].ravel()
        gl = np.bincount(flat, weights=np.repeat(g[rows], d), minlength=d * width)
        hl = np.bincount(flat, weights=np.repeat(h[rows], d), minlength=d * width)
        gl = gl.reshape(d, width).cumsum(1)[:, :-1]
        hl = hl.reshape(d, width).cumsum(1)[:, :-1]
        gr, hr = gs - gl, hs - hl
        gain = gl * gl / (hl + l2) + gr * gr / (hr + l2) - parent
        gain[(hl < min_weight * 0.01) | (hr < min_weight * 0.01) | ~usable | ~allowed[:, None]] = -1
        best = (0.0, -1, 0.0)
        for j in range(d):
            k = int(np.argmax(gain[j]))
            if gain[j, k] > best[0]:
                best = (float(gain[j, k]), j, float(cuts[j][k]))
        if best[1] < 0:
            return leaf
        j, t = best[1], best[2]
        left = rows[features[rows, j] <= t]
        right = rows[features[rows, j] > t]
        if not len(left) or not len(right):
            return leaf
        return {"f": j, "t": t, "l": grow(left, g, h, level + 1), "r": grow(right, g, h, level + 1)}

    every = np.arange(n)
    rng = np.random.default_rng(seed)
    allowed = np.ones(d, dtype=bool)
    for _ in range(rounds):
        if columns < 1.0:
            allowed = rng.random(d) < columns
        p = 1 / (1 + np.exp(-raw))
        g = w * (p - labels)
        h = w * p * (1 - p)
        tree = grow(every, g, h, 0)
        trees.append(tree)
        raw += predict_matrix(tree, features)
    return trees, base


def fit_averaged_trees(
    features: NDArray[np.float64],
    labels: NDArray[np.float64],
    *,
    weights: NDArray[np.float64] | None = None,
    members: int = 8,
    columns: float = 0.5,
    **options: Any,
) -> tuple[list[dict[str, object]], float]:
    """A forest of :func:`fit_trees`' usual size fitted to the average of ``members`` forests.

    A single boosted forest is unstable on a few thousand rows: which of several near-equal
    splits a tree takes depends on a handful of rows, and every later tree follows that choice,
    so one pair's probability can swing from 0.86 to 0.03 when a few training transcripts are
    left out. Here ``members`` forests are fitted on all rows, each tree of each forest choosing
    among a random share ``columns`` of the features (the generator seeded with the member's
    number, so the fit is deterministic); their log-odds are averaged, and one forest with the
    ``options`` of :func:`fit_trees` is fitted to the averaged probabilities (distillation: the
    shipped model keeps the size, and so the cost, of a single forest). Returns (trees, base
    log-odds) as :func:`fit_trees` does; with no ``members``, :func:`fit_trees` on the labels."""
    if members < 1:
        return fit_trees(features, labels, weights=weights, **options)
    average = np.zeros(len(labels))
    for member in range(members):
        trees, base = fit_trees(
            features, labels, weights=weights, columns=columns, seed=member, **options
        )
        average += base + sum((predict_matrix(t, features) for t in trees), np.zeros(len(labels)))
    average /= members
    soft = 1 / (1 + np.exp(-np.clip(average, -30, 30)))
    return fit_trees(features, soft, weights=weights, **options)


def _midpoints(cuts: NDArray[np.float64], seen: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each cut moved half way to the next larger value the data holds (cuts above every value
    dropped): a split then never lies on a value a feature takes, so a feature computed again in
    float64 at run time, or stored in float32 for fitting, falls on the same side."""
    above = np.searchsorted(seen, cuts, side="right")
    keep = above < len(seen)
    return np.unique((cuts[keep] + seen[above[keep]]) / 2)


def predict_tree(tree: dict[str, object], row: Sequence[float]) -> float:
    node = tree
    while "v" not in node:
        node = node["l"] if row[int(node["f"])] <= float(node["t"]) else node["r"]  # type: ignore[assignment,arg-type]
    return float(node["v"])  # type: ignore[arg-type]


def predict_matrix(tree: dict[str, object], features: NDArray[np.float64]) -> NDArray[np.float64]:
    """One tree's leaf value for every row."""
    out = np.zeros(len(features))

    def walk(node: dict[str, object], rows: NDArray[np.int64]) -> None:
        if "v" in node:
            out[rows] = float(node["v"])  # type: ignore[arg-type]
            return
        go_left = features[rows, int(node["f"])] <= float(node["t"])  # type: ignore[arg-type]
        walk(node["l"], rows[go_left])  # type: ignore[arg-type]
        walk(node["r"], rows[~go_left])  # type: ignore[arg-type]

    walk(tree, np.arange(len(features)))
    return out
