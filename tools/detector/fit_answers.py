"""Fit the answer matcher of the missed-request check (``harness/detect/_models/answers.json``).

Development sets only (``tests/fixtures/multi_intent``, written by
``tests/detect/build_multi_intent.py`` and ``build_fresh_multi_intent.py``):

- ``dev.jsonl``: CLINC150 train utterances joined into messages, each request answered in another
  user's words for the same intent (``answer``) and in the bot's own terms (``answer_own_terms``);
- ``sgd-train.jsonl``: SGD train user turns joined into messages, each answered by the system
  turn that followed it; ``fillers-train.txt``: SGD train system turns that answer nothing.

Rows: every (gold request, sentence of an answer) pair of a message, labelled 1 when the sentence
comes from that request's answer, plus one filler sentence per message (labelled 0 for every
request). A logistic regression (``tools.detector.linear.fit_dense``) gives the weights. The two
thresholds are then chosen on the same development sets by simulating the check on turns where
every request was answered, where one answer was left out, and where one answer was replaced by a
filler, with the requests segmented from the message (as the check does by default): the pair
with the fewest false alarms plus missed mutations wins. The held-out sets (``test.jsonl``,
``sgd-dev.jsonl``, ``fresh.jsonl``) are never read here::

    .venv/bin/python -m tools.detector.fit_answers
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from harness.detect.answers import _MODEL, FEATURES, pair_features, unmatched
from harness.detect.answers import AnswerMatcher as _Matcher
from harness.detect.missed import _claims
from harness.detect.requests import segment_requests
from tools.detector.linear import fit_dense

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "fixtures" / "multi_intent"
FIT_SETS = (("dev", "answer"), ("dev", "answer_own_terms"), ("sgd-train", "answer"))
THRESHOLDS = tuple(round(0.03 * k, 2) for k in range(1, 21))
SHARED = (0.9, 0.95, 0.98, 0.99, 1.01)


def load(name: str) -> list[dict[str, Any]]:
    lines = (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def fillers(split: str = "train") -> list[str]:
    return (DATA / f"fillers-{split}.txt").read_text(encoding="utf-8").splitlines()


def _sentences(text: str) -> list[str]:
    return [t for t, _ in _claims([text])]


def rows(
    messages: Sequence[dict[str, Any]], answer: str, filler: Sequence[str], seed: int
) -> tuple[list[list[float]], list[float]]:
    rng = random.Random(seed)
    x: list[list[float]] = []
    y: list[float] = []
    for message in messages:
        gold = message["requests"]
        claims: list[str] = []
        source: list[int] = []
        for k, request in enumerate(gold):
            for sentence in _sentences(request[answer]):
                claims.append(sentence)
                source.append(k)
        for sentence in _sentences(rng.choice(filler)):
            claims.append(sentence)
            source.append(-1)
        features = pair_features([r["text"] for r in gold], claims)
        for i, row in enumerate(features):
            for j, values in enumerate(row):
                x.append(values)
                y.append(1.0 if source[j] == i else 0.0)
    return x, y


@dataclass
class Turns:
    """Probability matrices of simulated turns, by kind: ``full``, ``drop``, ``filler``."""

    full: list[list[list[float]] | None]
    drop: list[list[list[float]] | None]
    filler: list[list[list[float]] | None]


def simulate(
    model: _Matcher, messages: Sequence[dict[str, Any]], answer: str, filler: Sequence[str]
) -> Turns:
    """The turns of the mutation test, each as the matcher's probabilities over the segmented
    requests (``None``: a one-request message, which any reply answers)."""
    rng = random.Random(7)
    turns = Turns([], [], [])

    def matrix(text: str, said: list[str]) -> list[list[float]] | None:
        requests = [r.text for r in segment_requests(text)]
        if len(requests) < 2:
            return None
        claims = [c for s in said for c in _sentences(s)]
        return model.probabilities(requests, claims)

    for message in messages:
        answers = [r[answer] for r in message["requests"]]
        turns.full.append(matrix(message["text"], answers))
        for k in range(len(answers)):
            turns.drop.append(matrix(message["text"], answers[:k] + answers[k + 1 :]))
            swapped = [*answers[:k], rng.choice(filler), *answers[k + 1 :]]
            turns.filler.append(matrix(message["text"], swapped))
    return turns


def flagged(p: list[list[float]] | None, threshold: float, shared: float) -> bool:
    return p is not None and bool(unmatched(p, threshold, shared))


def choose(turns: Sequence[Turns]) -> tuple[float, float, dict[str, float]]:
    best: tuple[float, float, float, dict[str, float]] | None = None
    for threshold in THRESHOLDS:
        for shared in SHARED:
            rates: dict[str, float] = {"false_alarms": 0.0, "drops_missed": 0.0, "fillers_missed": 0.0}
            for t in turns:
                rates["false_alarms"] += np.mean([flagged(p, threshold, shared) for p in t.full])
                rates["drops_missed"] += 1 - np.mean([flagged(p, threshold, shared) for p in t.drop])
                rates["fillers_missed"] += 1 - np.mean(
                    [flagged(p, threshold, shared) for p in t.filler]
                )
            rates = {k: v / len(turns) for k, v in rates.items()}
            cost = sum(rates.values())
            if best is None or cost < best[0]:
                best = (cost, threshold, shared, rates)
    assert best is not None
    return best[1], best[2], best[3]


def main() -> None:
    filler = fillers("train")
    x: list[list[float]] = []
    y: list[float] = []
    w: list[float] = []
    for seed, (name, answer) in enumerate(FIT_SETS):
        xs, ys = rows(load(name), answer, filler, seed)
        x += xs
        y += ys
        w += [1.0 / len(ys)] * len(ys)  # each set weighs the same
    weights = np.asarray(w) * len(w) / len(FIT_SETS)
    coef, bias = fit_dense(np.asarray(x), np.asarray(y), l2=1.0, weights=weights)
    model = _Matcher(tuple(float(c) for c in coef), bias, 0.5, 1.01)
    turns = [simulate(model, load(name), answer, filler) for name, answer in FIT_SETS]
    threshold, shared, rates = choose(turns)
    out = {
        "features": list(FEATURES),
        "weights": [round(float(c), 6) for c in coef],
        "bias": round(bias, 6),
        "threshold": threshold,
        "shared_threshold": shared,
        "fitted_on": [f"{name}:{answer}" for name, answer in FIT_SETS] + ["fillers-train"],
        "development_rates": {k: round(v, 4) for k, v in rates.items()},
    }
    _MODEL.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for name, c in zip(FEATURES, coef, strict=True):
        print(f"{name:16} {c:+.3f}")
    print(f"bias {bias:+.3f} threshold {threshold} shared {shared} rates {rates}")


if __name__ == "__main__":
    main()
