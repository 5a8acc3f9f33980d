"""Logistic regression in numpy, for training only (the package infers in pure Python)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["fit_dense", "fit_sparse"]


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
