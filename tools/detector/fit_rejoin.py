"""Fit the segmenter's learned second look (``harness/detect/_models/rejoin.json``): whether two
neighbouring pieces the rules cut are one request (:mod:`harness.detect._rejoin`).

The multi-intent **development** sets (``dev``, ``styled``, ``ways-dev``, ``own``, ``sgd-train``;
``tests/fixtures/multi_intent``) were built by joining requests whose text is known. Each cut the
rules make (``requests._cut``) between two pieces is labelled from them: 1 when both pieces sit in
one labelled request (most of each piece's content words are that request's), 0 when they sit in
two, none when either cannot be placed. A logistic regression over
:func:`~harness.detect._rejoin.cut_features` (``tools.detector.linear.fit_sparse``) gives the
weights.

The level is chosen out of fold: messages that share a labelled request (lower case, spaces
collapsed) are put in one group and the groups in five folds, so no request is read in two folds;
each fold's cuts are scored by the model fitted on the other four, and the level is the lowest of
a grid at which at least :data:`PRECISION` of the cuts scored at or above it are one request
(joining two requests makes a drop of either unseen). The shipped weights are then fitted on
every cut. No held-out set is read::

    .venv/bin/python -m tools.detector.fit_rejoin
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from harness.detect import requests
from harness.detect._rejoin import cut_features
from harness.text import content_words
from tools.detector.linear import fit_sparse

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "harness" / "detect" / "_models" / "rejoin.json"
SETS = ROOT / "tests" / "fixtures" / "multi_intent"
SPLITS = ("dev", "styled", "ways-dev", "own", "sgd-train")
PRECISION = 0.9
GRID = tuple(round(0.30 + 0.05 * k, 2) for k in range(14))
FOLDS = 5

Row = tuple[str, list[str], int]
"""(message id, cut features, 1 when the two pieces are one request)."""


def messages(splits: Sequence[str] = SPLITS) -> list[dict[str, Any]]:
    """The labelled messages of the development sets."""
    out = []
    for split in splits:
        lines = (SETS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
        out += [json.loads(line) for line in lines]
    return out


def _placed(piece: str, gold: Sequence[frozenset[str]]) -> int | None:
    """The labelled request most of a piece's content words belong to (None: none, or a tie)."""
    words = content_words(piece)
    if not words:
        return None
    shares = [len(words & g) / len(words) for g in gold]
    best = max(shares)
    if best < 0.5 or shares.count(best) > 1:
        return None
    return shares.index(best)


def rows(message: dict[str, Any]) -> list[Row]:
    """The rules' cuts of one labelled message, each with its features and label."""
    text = message["text"]
    gold = [content_words(r["text"]) for r in message["requests"]]
    pieces = requests._cut(text)
    out = []
    for before, after in pairwise(pieces):
        a, b = _placed(before.text, gold), _placed(after.text, gold)
        if a is not None and b is not None:
            out.append((message["id"], cut_features(text, before, after), int(a == b)))
    return out


def folds(labelled: Sequence[dict[str, Any]], count: int = FOLDS) -> dict[str, int]:
    """Message id -> fold, messages sharing a labelled request in one fold (largest group
    first, each to the fold with the fewest messages)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for m in labelled:
        keys = ["r:" + " ".join(r["text"].lower().split()).strip(" .?!") for r in m["requests"]]
        keys.append("m:" + m["id"])
        for key in keys[1:]:
            parent[find(key)] = find(keys[0])
    groups: dict[str, list[str]] = {}
    for m in labelled:
        groups.setdefault(find("m:" + m["id"]), []).append(m["id"])
    sizes = [0] * count
    out: dict[str, int] = {}
    for ids in sorted(groups.values(), key=lambda g: (-len(g), g[0])):
        k = sizes.index(min(sizes))
        sizes[k] += len(ids)
        out.update(dict.fromkeys(ids, k))
    return out


def fit(data: Sequence[Row]) -> tuple[dict[str, float], float]:
    """Weights by feature and the bias, fitted on ``data``."""
    vocab: dict[str, int] = {}
    for _, features, _ in data:
        for f in features:
            vocab.setdefault(f, len(vocab))
    x = [[vocab[f] for f in features] for _, features, _ in data]
    y = np.array([[label] for _, _, label in data], dtype=np.float64)
    weights, bias = fit_sparse(x, y, len(vocab), epochs=8, l2=1e-4)
    kept = {f: round(float(weights[k, 0]), 6) for f, k in vocab.items()}
    return {f: w for f, w in sorted(kept.items()) if abs(w) >= 1e-4}, round(float(bias[0]), 6)


def probability(weights: dict[str, float], bias: float, features: Sequence[str]) -> float:
    z = bias + sum(weights.get(f, 0.0) for f in features)
    return float(1.0 / (1.0 + np.exp(-max(-30.0, min(30.0, z)))))


def out_of_fold(
    data: Sequence[Row], fold: dict[str, int], count: int = FOLDS
) -> list[tuple[float, int]]:
    """Each cut scored by the model fitted on the other folds, with its label."""
    scored = []
    for k in range(count):
        weights, bias = fit([r for r in data if fold[r[0]] != k])
        scored += [(probability(weights, bias, f), y) for i, f, y in data if fold[i] == k]
    return scored


def level(scored: Sequence[tuple[float, int]], precision: float = PRECISION) -> float:
    """The lowest level of :data:`GRID` at which at least ``precision`` of the cuts scored at or
    above it are one request (the top of the grid when none)."""
    for t in GRID:
        chosen = [y for p, y in scored if p >= t]
        if chosen and sum(chosen) >= precision * len(chosen):
            return t
    return GRID[-1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args(argv)
    labelled = messages()
    data = [row for m in labelled for row in rows(m)]
    scored = out_of_fold(data, folds(labelled))
    threshold = level(scored)
    chosen = [y for p, y in scored if p >= threshold]
    weights, bias = fit(data)
    model = {
        "fitted_on": list(SPLITS),
        "cuts": len(data),
        "one_request": sum(y for _, _, y in data),
        "out_of_fold_at_threshold": {"joined": len(chosen), "one_request": sum(chosen)},
        "threshold": threshold,
        "bias": bias,
        "weights": weights,
    }
    args.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(
        f"{len(data)} cuts, {model['one_request']} inside one request; level {threshold}: "
        f"{len(chosen)} joined out of fold, {sum(chosen)} of them one request"
    )


if __name__ == "__main__":
    main()
