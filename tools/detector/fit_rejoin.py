"""Fit the segmenter's learned second look (``harness/detect/_models/rejoin.json``): whether two
neighbouring pieces the rules cut are one request (:mod:`harness.detect._rejoin`).

First written on the branch s59-checkfa (96cb6ee), fitted on the joined development sets alone;
s60-rejoin adds real two-request turns of SGD train as cuts that must stay cut (below).

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
every cut. No held-out set is read.

**Real two-request turns** (Schema-Guided Dialogue, Rastogi et al. 2020, CC BY-SA 4.0; its
**train** split only, ``--sgd``): the joined sets teach that a short coordinated ask ("and their
rating") belongs to the request before it, which real turns contradict. Every SGD-train user
turn with two or more ``REQUEST`` acts for different slots adds its cuts between two pieces that
ask for different slots, labelled 0 ("keep cut"). A piece asks for a slot when it holds one of
the slot's cue words that no other slot asked in the turn has; a slot's cue words are the words
of its name and the words said far more often (three times the base rate, in at least 8 %) in
SGD-train user turns that request that slot alone (:func:`slot_cues`). A turn with no such pair
of neighbours is left out (counted). Two pieces placed on one slot are not used as "join"
labels: read by eye they were mostly the cues' mistakes ("When and where is the event").
``--one-request-joins`` adds every cut of a one-request turn (a single ``REQUEST``, or an
``INFORM_INTENT`` with its ``INFORM``\\ s) as "join"; measured, it joins two requests of the
development sets far more often than one request cut in two. The
dialogues of ``tests/fixtures/multi_intent/sgd-real-train.jsonl`` are left out, so that set
measures the model out of sample; the other dialogues go to the folds by dialogue::

    .venv/bin/python -m tools.detector.fit_rejoin
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
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
SGD = ROOT.parent / "shared" / "data" / "sgd"
REAL = SETS / "sgd-real-train.jsonl"
CUE_SHARE = 0.08
CUE_LIFT = 3.0
PRECISION = 0.9
GRID = tuple(round(0.30 + 0.05 * k, 2) for k in range(14))
FOLDS = 5
L2 = 1e-4

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


Turn = tuple[str, str, list[str], bool]
"""(dialogue id, text, requested slots in order, one request and nothing else)."""


def _one_request(frames: list[dict[str, Any]]) -> bool:
    """Whether a user turn's acts are one request alone: a single ``REQUEST``, or one frame's
    ``INFORM_INTENT`` with only ``INFORM``\\ s of its slots beside it."""
    acts = Counter(a[0] for fr in frames for a in fr["actions"])
    if set(acts) == {"REQUEST"}:
        return acts["REQUEST"] == 1
    return (
        len(frames) == 1 and acts["INFORM_INTENT"] == 1 and set(acts) <= {"INFORM_INTENT", "INFORM"}
    )


def _user_turns(path: Path) -> Iterator[Turn]:
    """Every user turn of an SGD file."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            dialogue = json.loads(line)
            for t in dialogue["turns"]:
                if t["speaker"] == "USER":
                    asked = [a[1] for fr in t["frames"] for a in fr["actions"] if a[0] == "REQUEST"]
                    yield dialogue["id"], t["text"], asked, _one_request(t["frames"])


def slot_cues(turns: Sequence[Turn]) -> dict[str, frozenset[str]]:
    """Slot -> its cue words: the content words of its name, and those said in at least
    :data:`CUE_SHARE` of the turns requesting that slot alone, :data:`CUE_LIFT` times as often
    as in every such turn."""
    by_slot: defaultdict[str, Counter[str]] = defaultdict(Counter)
    asked: Counter[str] = Counter()
    every: Counter[str] = Counter()
    for _, text, slots, _ in turns:
        if len(slots) == 1:
            words = content_words(text)
            by_slot[slots[0]].update(words)
            asked[slots[0]] += 1
            every.update(words)
    total = asked.total()
    out = {}
    for slot, counts in sorted(by_slot.items()):
        n = asked[slot]
        cues = {
            w
            for w, k in counts.items()
            if k >= CUE_SHARE * n and (k / n) >= CUE_LIFT * every[w] / total
        }
        out[slot] = frozenset(cues | content_words(slot.replace("_", " ")))
    return out


def real_rows(
    sgd: Path = SGD, real: Path = REAL, *, joins: bool = False
) -> tuple[list[Row], Counter[str]]:
    """The rows of SGD train's real turns (ids ``sgd:<dialogue>``): "keep cut" from its
    multi-request turns, "join" from its one-request turns (``joins``), and how many turns gave
    rows or not."""
    kept_out = {json.loads(line)["id"].split("/")[0] for line in real.read_text().splitlines()}
    turns = list(_user_turns(sgd / "sgd-train.jsonl.gz"))
    cues = slot_cues(turns)
    out: list[Row] = []
    counts: Counter[str] = Counter()
    for dialogue, text, slots, one in turns:
        asked = list(dict.fromkeys(slots))
        if dialogue in kept_out or not (len(asked) >= 2 or (joins and one)):
            if len(asked) >= 2:
                counts["in sgd-real-train's dialogues (left out)"] += 1
            continue
        if len(asked) < 2:
            pieces = requests._cut(text)
            out += [
                ("sgd:" + dialogue, cut_features(text, before, after), 1)
                for before, after in pairwise(pieces)
            ]
            counts["one request, cut"] += len(pieces) > 1
            continue
        if dialogue in kept_out:
            counts["in sgd-real-train's dialogues (left out)"] += 1
            continue
        own = {
            s: cues.get(s, frozenset()).difference(*(cues.get(o, ()) for o in asked if o != s))
            for s in asked
        }
        pieces = requests._cut(text)
        placed = [[s for s in asked if content_words(p.text) & own[s]] for p in pieces]
        got = 0
        for (before, after), (a, b) in zip(pairwise(pieces), pairwise(placed), strict=True):
            if len(a) == 1 and len(b) == 1 and a != b:
                out.append(("sgd:" + dialogue, cut_features(text, before, after), 0))
                got += 1
        counts["one piece" if len(pieces) < 2 else "labelled" if got else "not aligned"] += 1
    return out, counts


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


def real_folds(data: Sequence[Row], count: int = FOLDS) -> dict[str, int]:
    """Row id -> fold for the real rows: their dialogues in turn (sorted)."""
    dialogues = sorted({i for i, _, _ in data if i.startswith("sgd:")})
    return {d: k % count for k, d in enumerate(dialogues)}


def fit(data: Sequence[Row]) -> tuple[dict[str, float], float]:
    """Weights by feature and the bias, fitted on ``data``."""
    vocab: dict[str, int] = {}
    for _, features, _ in data:
        for f in features:
            vocab.setdefault(f, len(vocab))
    x = [[vocab[f] for f in features] for _, features, _ in data]
    y = np.array([[label] for _, _, label in data], dtype=np.float64)
    weights, bias = fit_sparse(x, y, len(vocab), epochs=8, l2=L2)
    kept = {f: round(float(weights[k, 0]), 6) for f, k in vocab.items()}
    return {f: w for f, w in sorted(kept.items()) if abs(w) >= 1e-4}, round(float(bias[0]), 6)


def probability(weights: dict[str, float], bias: float, features: Sequence[str]) -> float:
    z = bias + sum(weights.get(f, 0.0) for f in features)
    return float(1.0 / (1.0 + np.exp(-max(-30.0, min(30.0, z)))))


def fold_models(
    data: Sequence[Row], fold: dict[str, int], count: int = FOLDS
) -> list[tuple[dict[str, float], float]]:
    """The model fitted without each fold's rows, by fold."""
    return [fit([r for r in data if fold[r[0]] != k]) for k in range(count)]


def out_of_fold(
    data: Sequence[Row], fold: dict[str, int], count: int = FOLDS
) -> list[tuple[float, int]]:
    """Each cut scored by the model fitted on the other folds, with its label."""
    scored = []
    for k, (weights, bias) in enumerate(fold_models(data, fold, count)):
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
    parser.add_argument("--sgd", type=Path, default=SGD, help="folder with sgd-train.jsonl.gz")
    parser.add_argument(
        "--one-request-joins",
        action="store_true",
        help="add every cut of SGD train's one-request turns as 'join' (measured worse)",
    )
    args = parser.parse_args(argv)
    labelled = messages()
    data = [row for m in labelled for row in rows(m)]
    real, turns = real_rows(args.sgd, joins=args.one_request_joins)
    data += real
    scored = out_of_fold(data, folds(labelled) | real_folds(real))
    threshold = level(scored)
    chosen = [y for p, y in scored if p >= threshold]
    weights, bias = fit(data)
    model = {
        "fitted_on": [*SPLITS, "SGD train real multi-request turns (CC BY-SA 4.0)"],
        "cuts": len(data),
        "real_keep_cuts": sum(1 - y for _, _, y in real),
        "real_joins": sum(y for _, _, y in real),
        "real_turns": dict(sorted(turns.items())),
        "one_request": sum(y for _, _, y in data),
        "out_of_fold_at_threshold": {"joined": len(chosen), "one_request": sum(chosen)},
        "threshold": threshold,
        "bias": bias,
        "weights": weights,
    }
    args.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(
        f"{len(data)} cuts ({len(real)} real), {model['one_request']} inside one request; "
        f"real turns {dict(turns)}; level {threshold}: "
        f"{len(chosen)} joined out of fold, {sum(chosen)} of them one request"
    )


if __name__ == "__main__":
    main()
