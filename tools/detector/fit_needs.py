"""Fit the "needs an answer" model of the request segmenter (``harness/detect/_models/needs.json``).

A part of a user's message may be no request at all: "Thanks a lot", "That sounds great",
"Yes, please", "No, it's just for one", "That's all". The missed-request check must not wait for
an answer to those. Schema-Guided Dialogue user turns (SGD, CC BY-SA 4.0) carry their dialogue acts,
so the parts of SGD *train* user turns are labelled from their turn's acts:

- **no answer needed (0)**: every part of a turn whose acts are only replies and courtesies
  (``THANK_YOU``, ``GOODBYE``, ``AFFIRM``, ``NEGATE``, ``SELECT``, ``AFFIRM_INTENT``,
  ``NEGATE_INTENT``) or details given to the system (``INFORM``: "in San Jose", "for 4 people");
- **needs an answer (1)**: a turn of one part with a request act (``REQUEST``, ``INFORM_INTENT``,
  ``REQUEST_ALTS``) and no reply act; each part of a turn made only of ``REQUEST`` acts, one per
  part; and CLINC150 *train* utterances (CC-BY-3.0), which are all requests;
- other turns (a request beside a reply or a detail: "Sounds good, what's their address?", "I'm
  bored. Can you find me an event?") have as many requests as request acts, but their acts do not
  say which parts: a second round labels the parts the first round's model finds likeliest to
  need an answer 1 (one per request act), the others 0, and fits again on everything.

Parts are cut by :func:`harness.detect.requests.segment_requests`; features are the act tagger's
(``harness.detect.acts.act_features``: words, word pairs, the first word, "?"). A logistic
regression (``tools.detector.linear.fit_sparse``) gives the weights. SGD train dialogues whose
number is a multiple of ``--hold`` are left out of the fit; the threshold is chosen by
the largest of a grid whose drops flagged on the multi-intent development sets (``dev``,
``sgd-train``, ``own``, taken together) stay within one point of the check without the model; the
false alarms per 1,000 user messages on every 16th SGD train dialogue (all held out of the fit,
``tools.detector.missed_sgd``) are printed beside them. SGD dev is never read here::

    .venv/bin/python -m tools.detector.fit_needs
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from harness.detect import _needs
from harness.detect._around import _asks_several
from harness.detect.acts import act_features
from harness.detect.requests import NeedsModel, segment_requests
from tools.detector import missed_sgd
from tools.detector.linear import fit_sparse
from tools.detector.missed_sgd import SGD, acts, dialogues

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "harness" / "detect" / "_models" / "needs.json"
CLINC = ROOT.parent / "shared" / "data" / "clinc150" / "data_full.json"
NEED = frozenset({"REQUEST", "INFORM_INTENT", "REQUEST_ALTS"})
REPLY = frozenset(
    {"THANK_YOU", "GOODBYE", "AFFIRM", "NEGATE", "SELECT", "AFFIRM_INTENT", "NEGATE_INTENT"}
)
HOLD = 4
EVERY_PART = NeedsModel(weights={}, bias=30.0, threshold=0.0)
"""A stand-in for the needs model: every part needs an answer."""
Scorer = Callable[[str], float]


def held(dialogue_number: int, hold: int = HOLD) -> bool:
    """Whether an SGD train dialogue (by its place in the file) is kept out of the fit."""
    return dialogue_number % hold == 0


def labelled(
    turn: dict[str, Any], *, inform: bool = True, model: Scorer | None = None
) -> list[tuple[str, int]]:
    """The parts of one SGD user turn with their labels (none when the acts cannot tell).
    ``inform``: a turn that only gives details (``INFORM``) needs no answer. ``model``: label
    the parts of the other turns by it (the second round)."""
    found = acts(turn)
    kinds = set(found)
    parts = [r.text for r in segment_requests(turn["text"])]
    if not parts:
        return []
    if not kinds & NEED:
        return [(p, 0) for p in parts] if inform or kinds <= REPLY else []
    wanted = sum(1 for a in found if a in NEED)
    if not kinds & REPLY and (len(parts) == 1 or len(parts) == wanted):
        return [(p, 1) for p in parts]
    if model is None or wanted >= len(parts):
        return []
    ranked = sorted(range(len(parts)), key=lambda k: -model(parts[k]))
    chosen = set(ranked[:wanted])
    return [(p, 1 if k in chosen else 0) for k, p in enumerate(parts)]


def examples(
    hold: int = HOLD, folder: Path = SGD, *, inform: bool = True, model: Scorer | None = None
) -> list[tuple[str, int]]:
    """The labelled parts of the SGD train user turns (less the held ones) and CLINC150 train.

    The parts are cut with the segmenter reading every piece as one that needs an answer
    (:data:`EVERY_PART`), not with the shipped needs model: the segmenter's joins ask that model
    (since 2026-12-03), so cutting with it made each refit read the file it rewrites, and no
    refit gave the shipped file back (the model of 2026-12-02 was fitted before the segmenter
    read it). The parts where the model decides a join are cut finer here than at run time."""
    out: list[tuple[str, int]] = []
    with mock.patch.object(_needs, "needs_model", lambda: EVERY_PART):
        _clear_caches()
        try:
            for k, dialogue in enumerate(dialogues("train", 1, folder)):
                if held(k, hold):
                    continue
                for turn in dialogue["turns"]:
                    if turn["speaker"] == "USER":
                        out.extend(labelled(turn, inform=inform, model=model))
        finally:
            _clear_caches()
    clinc = json.loads(CLINC.read_text(encoding="utf-8"))["train"]
    out.extend((text, 1) for text, _ in clinc)
    return out


def fit(
    data: list[tuple[str, int]], *, min_count: int = 5, prune: float = 0.05
) -> tuple[dict[str, float], float]:
    counts: Counter[str] = Counter()
    feats = [sorted(set(act_features(text))) for text, _ in data]
    for f in feats:
        counts.update(f)
    names = sorted(n for n, c in counts.items() if c >= min_count)
    index = {n: i for i, n in enumerate(names)}
    rows = [[index[n] for n in f if n in index] for f in feats]
    labels = np.array([[float(y)] for _, y in data])
    weights, bias = fit_sparse(rows, labels, len(names), epochs=10, l2=1e-4)
    table = {n: round(float(weights[i, 0]), 4) for n, i in index.items()}
    return {n: w for n, w in table.items() if abs(w) >= prune}, float(bias[0])


GRID = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)
SETS = ("dev", "sgd-train", "own")
MAX_DROP_LOSS = 0.01


def measure(model: NeedsModel | None, *, every: int = 16) -> tuple[float, float]:
    """With ``model`` as the shipped one (None: every part is a request), the check's false
    alarms per 1,000 user messages on the held-out SGD train dialogues (every ``every``-th, all
    of them held out of the fit when ``every`` is a multiple of ``HOLD``) and the share of drops
    it flags on the development multi-intent sets taken together."""
    from tests.detect import multi_intent

    keep = model or EVERY_PART
    # The model is read in harness.detect._needs (the segmenter's joins and needs_answer both
    # ask it there); patching the name re-exported by harness.detect.requests, as this did
    # before the model moved, changed nothing, so every threshold measured alike.
    with mock.patch.object(_needs, "needs_model", lambda: keep):
        _clear_caches()
        try:
            alarms = missed_sgd.measure("train", every=every)["per_1000"]
            runs = [multi_intent.mutation.__wrapped__(name) for name in SETS]
        finally:
            _clear_caches()
    drops = sum(m.dropped_flagged for m in runs) / sum(m.dropped_turns for m in runs)
    return float(alarms), drops


def _clear_caches() -> None:
    """Forget what was read with another needs model (the texts' probabilities and readings)."""
    _needs.needs_answer.cache_clear()
    _needs.needs_probability.cache_clear()
    _asks_several.cache_clear()


def choose(weights: dict[str, float], bias: float) -> float:
    """The largest threshold of :data:`GRID` whose drops flagged on the development sets are
    less than :data:`MAX_DROP_LOSS` below the check without the model."""
    _, base = measure(None)
    print(f"without the model: drops flagged {base:.2%}")
    best = GRID[0]
    for threshold in GRID:
        alarms, drops = measure(NeedsModel(weights=weights, bias=bias, threshold=threshold))
        print(f"threshold {threshold}: {alarms} false alarms per 1,000, drops flagged {drops:.2%}")
        if base - drops < MAX_DROP_LOSS:
            best = threshold
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threshold", type=float, help="keep this one instead of choosing")
    parser.add_argument("--hold", type=int, default=HOLD)
    parser.add_argument("--sgd", type=Path, default=SGD)
    parser.add_argument(
        "--requests-only", action="store_true", help="INFORM-only turns left out, not labelled 0"
    )
    args = parser.parse_args(argv)
    data = examples(args.hold, args.sgd, inform=not args.requests_only)
    print(f"first round: {len(data)} parts, {sum(y for _, y in data)} need an answer")
    weights, bias = fit(data)
    first = NeedsModel(weights=weights, bias=bias, threshold=0.5)
    data = examples(args.hold, args.sgd, inform=not args.requests_only, model=first.probability)
    print(f"second round: {len(data)} parts, {sum(y for _, y in data)} need an answer")
    weights, bias = fit(data)
    threshold = args.threshold if args.threshold is not None else choose(weights, bias)
    MODEL.write_text(
        json.dumps(
            {
                "source": "tools/detector/fit_needs.py: SGD train user turns (CC BY-SA 4.0) and "
                "CLINC150 train utterances (CC-BY-3.0)",
                "bias": round(bias, 4),
                "threshold": threshold,
                "weights": dict(sorted(weights.items())),
            },
            indent=0,
            sort_keys=False,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(weights)} weights and threshold {threshold} written to {MODEL}")


if __name__ == "__main__":
    main()
