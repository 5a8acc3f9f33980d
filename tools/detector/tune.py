"""Try fitting settings of the pair scorer quickly, from decisions recorded once.

    python -m tools.detector.tune --sgd PATH/TO/sgd [--every 8] [--weight 0.3] [--thresholds 0.4,0.5]
        [--nested]

Each candidate pair of the dev corpus and of an SGD-train slice never fitted on (position mod 8 =
``--offset``, 3 by default; built and unchanged) is recorded once with its features, whether the
stated rules let it through and whether it is verbatim. A setting is then scored without running
the detector again: a pair is found when the rules let it through and the scorer's probability
reaches the threshold (or it is verbatim), and the found pairs are clustered into findings as the
detector clusters them. Printed: the dev corpus's 5-fold cross-validation by transcript (each fold's
scorer fitted on the SGD rows and the other folds, as ``tools.detector.fit measure``), and the
SGD-train slice's figures with the scorer fitted on all the corpus. With ``--nested``, each fold's
threshold is chosen on its training folds only (an inner 4-fold cross-validation: the highest inner
recall with inner precision at least 0.95, no hard-negative false positive and at most 1 false
alarm per 1,000 unchanged slice messages) and the cross-validated figures at those thresholds are
printed too.

The SGD rows are those of ``--every`` (every n-th SGD-train dialogue from position 0, built and
collected here; 8 is the shipped model's material). Read the SGD-train slice's errors freely: it
is tuning material. The cross-validated figures are the dev corpus's held-out figures: choose
settings on the slice, not on them.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

import tools.detector.fit as fit
from harness.detect._around import _contained, _resent, _verbatim
from harness.detect._candidates import Pair
from harness.detect._clusters import findings_of
from harness.detect.duplicates import conversation_pairs
from harness.detect.findings import DetectorConfig
from harness.detect.scorer import FEATURES, PairScorer
from tools.detector.linear import predict_matrix


class _Always(PairScorer):
    """A scorer that calls every pair a duplicate: what remains is what the rules let through."""

    def duplicate(self, features: Sequence[float]) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Recorded:
    """One transcript's candidate pairs: each with (rules let it through, verbatim), and its
    feature rows and labels."""

    item: fit.Labelled
    pairs: list[tuple[Pair, bool, bool]]
    x: NDArray[np.float64]
    y: NDArray[np.float64]


def _replied(item: fit.Labelled) -> set[int]:
    """The positions of the bot messages that come after another bot message of their turn."""
    out: set[int] = set()
    last: int | None = None
    for position, message in enumerate(item.transcript.messages):
        if message.role == "user":
            continue
        if last is not None and last == message.turn:
            out.add(position)
        last = message.turn
    return out


def _turn_context(item: fit.Labelled) -> dict[int, tuple[list[str], str]]:
    """For each bot message's position: the texts of the bot messages of its turn before it, and
    the text of the user's message of its turn ("" if none), as :func:`_contained` reads them."""
    out: dict[int, tuple[list[str], str]] = {}
    before: list[str] = []
    said, turn = "", None
    for position, message in enumerate(item.transcript.messages):
        if message.turn != turn:
            before, said, turn = [], "", message.turn
        if message.role == "user":
            said = message.text
            continue
        out[position] = (list(before), said)
        before.append(message.text)
    return out


def record(items: Sequence[fit.Labelled]) -> list[Recorded]:
    probe = fit._constant_model()
    n = len(FEATURES)
    always = _Always(
        {"features": list(FEATURES), "mean": [0] * n, "scale": [1] * n, "coef": [0] * n, "bias": 0}
    )
    config = DetectorConfig()
    out = []
    for item in items:
        rows: list[tuple[Pair, list[float]]] = []
        conversation_pairs(item.transcript, config, pair_model=probe, record=rows)
        let = conversation_pairs(item.transcript, config, pair_model=always, close=[])
        through = {(p.earlier.index, p.later.index) for p in let}
        replied = _replied(item)
        turns = _turn_context(item)
        pairs = [
            (
                p,
                (p.earlier.index, p.later.index) in through,
                _verbatim(p.earlier, p.later)
                or _resent(p.earlier, p.later, p.later.index in replied)
                or _contained(
                    p.earlier,
                    p.later,
                    turns[p.later.index][0],
                    said=turns[p.later.index][1],
                ),
            )
            for p, f in rows
        ]
        x = np.array([f for _, f in rows], dtype=np.float64).reshape(-1, len(FEATURES))
        ids = [frozenset({p.earlier.message.id, p.later.message.id}) for p, _ in rows]
        y = np.array([i in item.duplicates for i in ids], dtype=np.float64)
        out.append(Recorded(item, pairs, x, y))
    return out


def probabilities(
    model: dict[str, object], recorded: Sequence[Recorded]
) -> list[NDArray[np.float64]]:
    """The model's probability of every recorded pair, per transcript."""
    sizes = [len(r.x) for r in recorded]
    x = np.vstack([r.x for r in recorded])
    raw = np.full(len(x), float(str(model["bias"])))
    for tree in model["trees"]:  # type: ignore[attr-defined]
        raw += predict_matrix(tree, x)
    p = 1 / (1 + np.exp(-raw))
    return np.split(p, np.cumsum(sizes)[:-1])


def score(
    recorded: Sequence[Recorded],
    probs: Sequence[NDArray[np.float64]],
    threshold: float,
    into: fit.Score | None = None,
) -> fit.Score:
    into = into or fit.Score()
    for r, p in zip(recorded, probs, strict=True):
        found = [
            pair
            for (pair, through, verbatim), q in zip(r.pairs, p, strict=True)
            if through and (q >= threshold or verbatim)
        ]
        found.sort(key=lambda q: (q.later.index, q.earlier.index))
        into.add(r.item, findings_of(found))
    return into


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sgd", type=Path, required=True)
    parser.add_argument(
        "--corpus", type=Path, default=fit.ROOT / "tests" / "fixtures" / "duplicates-dev"
    )
    parser.add_argument("--every", type=int, default=fit.EVERY)
    parser.add_argument(
        "--offset", type=int, default=3, help="the unfitted SGD-train slice (mod 8)"
    )
    parser.add_argument("--weight", type=float, default=fit.SGD_WEIGHT)
    parser.add_argument("--thresholds", default="0.5")
    parser.add_argument("--nested", action="store_true")
    args = parser.parse_args()
    if args.offset % math.gcd(8, args.every) == 0:
        parser.error("the slice must not be among the fitted dialogues")
    thresholds = [float(t) for t in args.thresholds.split(",")]
    train = args.sgd / "sgd-train.jsonl.gz"
    fit.SGD_WEIGHT = args.weight
    sgd_rows = [
        (x.astype(np.float32).astype(np.float64), y)
        for x, y in fit.collect(fit.load_sgd(train, every=args.every))
    ]
    corpus = record(fit.load_corpus(args.corpus))
    built = record(fit.load_sgd(train, every=8, offset=args.offset))
    plain = record(fit.load_sgd(train, every=8, offset=args.offset, plain=True))

    def fitted(indices: Sequence[int]) -> dict[str, object]:
        return fit.fit_pairs(fit._parts(sgd_rows, [(corpus[i].x, corpus[i].y) for i in indices]))

    n = len(corpus)
    held_out = {t: fit.Score() for t in thresholds}
    nested = fit.Score()
    for held in fit.folds([r.item for r in corpus]):
        rest = [i for i in range(n) if i not in held]
        model = fitted(rest)
        probs = probabilities(model, [corpus[i] for i in held])
        for t in thresholds:
            score([corpus[i] for i in held], probs, t, held_out[t])
        if not args.nested:
            continue
        inner = {t: fit.Score() for t in thresholds}
        for k in range(4):
            ih = [rest[j] for j in range(len(rest)) if j % 4 == k]
            im = fitted([i for i in rest if i not in ih])
            ip = probabilities(im, [corpus[i] for i in ih])
            for t in thresholds:
                score([corpus[i] for i in ih], ip, t, inner[t])
        pp = probabilities(model, plain)
        alarms = {
            t: score(plain, pp, t).figures()["findings_per_1000_bot_messages"] for t in thresholds
        }
        figures = {t: inner[t].figures() for t in thresholds}
        ok = [
            t
            for t in thresholds
            if figures[t]["hard_negative_fp"] == 0 and figures[t]["P"] >= 0.95 and alarms[t] <= 1.0
        ]
        best = max(ok, key=lambda t: (figures[t]["R"], t)) if ok else 0.5
        print("fold", held[0], "threshold chosen on its training folds:", best)
        score([corpus[i] for i in held], probs, best, nested)
    for t in thresholds:
        print("cv at", t, held_out[t].figures())
    if args.nested:
        print("cv, thresholds chosen per fold", nested.figures())
    model = fitted(range(n))
    pb, pp = probabilities(model, built), probabilities(model, plain)
    for t in thresholds:
        print(
            f"sgd-train slice mod 8 = {args.offset} at",
            t,
            "built",
            score(built, pb, t).figures(),
            "unchanged",
            score(plain, pp, t).figures()["findings_per_1000_bot_messages"],
        )


if __name__ == "__main__":
    main()
