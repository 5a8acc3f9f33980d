"""Fit the boundary model of the request segmenter (``harness/detect/_models/boundaries.json``).

The segmenter (``harness.detect.requests``) cuts a message where a rule says a new request
opens; the boundary model says how likely each cut is real, so the missed-request check can
abstain on a fragment that may belong to its neighbour. It is fitted on messages this script
builds from real single requests, never from the labelled multi-intent sets:

- CLINC150 *train* utterances (in-scope intents) and Schema-Guided Dialogue *train* user turns
  that ask for something (an ``INFORM_INTENT`` or ``REQUEST`` act, any number of sentences);
- each alone (every cut the segmenter makes inside one is wrong), or 2 to 4 of them joined with
  :data:`JOINS`, joining styles written for this script that no labelled set's builder uses
  (``tests/detect/build_*multi_intent.py``): a cut is real when it falls between two of the joined
  utterances, wrong when it falls inside one.

A logistic regression (``tools.detector.linear.fit_dense``) over ``BOUNDARY_FEATURES`` gives
the weights; a fifth of the built messages (by message) is kept out of the fit and its figures
printed::

    .venv/bin/python -m tools.detector.fit_boundaries \\
        --clinc ../shared/data/clinc150 --sgd ../shared/data/sgd
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from harness.detect.requests import _MODEL, BOUNDARY_FEATURES, boundary_features, segment_requests
from tools.detector.linear import fit_dense

SEED = 3306
SINGLES = 3000
JOINED = 4000

# (between the two, strip the first's end punctuation, capitalise the second). None of these is
# a joining style of the builders of the labelled sets.
JOINS: tuple[tuple[str, bool, bool], ...] = (
    (", and also ", True, False),
    ("! ", True, True),
    (" -- ", True, False),
    (". and ", True, False),
    (", and next ", True, False),
    (". Additionally, ", True, False),
    (". Then ", True, False),
    (", also, ", True, False),
    ("? ", True, True),
    (" and, ", True, False),
    (". PS ", True, False),
    (" / ", True, False),
    (", plus also ", True, False),
    (" and then, ", True, False),
    (". Last thing, ", True, False),
    (" also ", True, False),
    ("; and ", True, False),
    (". oh also, ", True, False),
    ("!! ", True, False),
    (", and what's more, ", True, False),
)


def clinc(folder: Path) -> list[str]:
    data = json.loads((folder / "data_full.json").read_text(encoding="utf-8"))
    return [" ".join(u.replace("’", "'").split()) for u, _ in data["train"]]


def sgd(folder: Path) -> list[str]:
    out = []
    with gzip.open(folder / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            for turn in json.loads(line)["turns"]:
                if turn["speaker"] != "USER":
                    continue
                acts = {a[0] for frame in turn["frames"] for a in frame["actions"]}
                text = " ".join(turn["text"].split())
                if acts & {"INFORM_INTENT", "REQUEST"} and len(text) <= 200:
                    out.append(text)
    return out


def build(
    pools: Sequence[Sequence[str]], rng: random.Random
) -> list[tuple[str, list[tuple[int, int]]]]:
    """Messages and the spans of the utterances they are made of."""
    messages: list[tuple[str, list[tuple[int, int]]]] = []
    for k in range(SINGLES):
        text = rng.choice(pools[k % len(pools)])
        messages.append((text, [(0, len(text))]))
    for _ in range(JOINED):
        pool = rng.choice(pools)
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        parts = [rng.choice(pool) for _ in range(n)]
        text, spans = parts[0], [(0, len(parts[0]))]
        for part in parts[1:]:
            between, strip, capital = rng.choice(JOINS)
            head = text.rstrip(".?! ") if strip else text
            spans[-1] = (spans[-1][0], min(spans[-1][1], len(head)))
            if capital:
                part = part[:1].upper() + part[1:]
            start = len(head) + len(between)
            text = head + between + part
            spans.append((start, start + len(part)))
        messages.append((text, spans))
    return messages


def rows(
    messages: Sequence[tuple[str, list[tuple[int, int]]]],
) -> tuple[list[list[float]], list[float]]:
    """Every cut the segmenter makes, with its features, labelled 1 when no utterance spans it."""
    x: list[list[float]] = []
    y: list[float] = []
    for text, spans in messages:
        requests = segment_requests(text)
        for left, right in zip(requests, requests[1:], strict=False):
            inside = any(a < right.start < b for a, b in spans)
            x.append(boundary_features(text, left, right))
            y.append(0.0 if inside else 1.0)
    return x, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clinc", type=Path, required=True, help="the folder of data_full.json")
    parser.add_argument("--sgd", type=Path, required=True, help="the folder of sgd-train.jsonl.gz")
    args = parser.parse_args()
    rng = random.Random(SEED)
    messages = build([clinc(args.clinc), sgd(args.sgd)], rng)
    rng.shuffle(messages)
    cut = len(messages) // 5
    fx, fy = rows(messages[cut:])
    kx, ky = rows(messages[:cut])
    coef, bias = fit_dense(np.asarray(fx), np.asarray(fy), l2=1.0)
    p = 1 / (1 + np.exp(-(np.asarray(kx) @ coef + bias)))
    truth = np.asarray(ky)
    for name, c in zip(BOUNDARY_FEATURES, coef, strict=True):
        print(f"{name:18} {c:+.3f}")
    print(f"bias {bias:+.3f}; fitted on {len(fy)} cuts ({1 - np.mean(fy):.1%} wrong)")
    for tau in (0.5, 0.8, 0.9):
        kept = p >= tau
        print(
            f"kept-out cuts {len(ky)} ({1 - truth.mean():.1%} wrong): at {tau} "
            f"{kept.sum()} called real, {int(((~kept) & (truth == 0)).sum())} of "
            f"{int((truth == 0).sum())} wrong cuts caught, "
            f"{int(((~kept) & (truth == 1)).sum())} real cuts doubted"
        )
    out = {
        "features": list(BOUNDARY_FEATURES),
        "weights": [round(float(c), 6) for c in coef],
        "bias": round(bias, 6),
        "fitted_on": "CLINC150 train + SGD train user turns, tools/detector/fit_boundaries.py",
    }
    _MODEL.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
