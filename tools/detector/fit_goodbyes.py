"""Fit the user-goodbye reader of ``harness simulate`` (``harness/detect/_models/goodbyes.json``).

A request of a silent last turn that is only a farewell is not a missed request
(:mod:`harness.simulate._silent`). The dialogue-act tagger of :mod:`harness.detect.acts` was
fitted on *bot* sentences, whose closings ("Have a great day", "Take care") share words with user
imperatives ("take care of my booking"), so the farewell reading is fitted here on *user* text:

- farewells (1): CLINC150's ``goodbye`` intent (real user utterances, CC BY 3.0), the user
  turns of Schema-Guided Dialogue (CC BY-SA 4.0) whose acts are ``GOODBYE`` with at most
  ``THANK_YOU`` and ``NEGATE`` beside it ("That is all I need. Thank you."), and SGD's bot turns
  whose only act is ``GOODBYE`` ("Have a great day!": 2,473 texts, about half of the farewells;
  SGD's users rarely say "see you" or "take care", and users say what bots say when they leave);
- everything else (0): every other CLINC150 utterance (all other intents, and the out-of-scope
  ones) and every other SGD user turn.

Train splits only (CLINC150 ``train`` and ``oos_train``, SGD ``sgd-train``). The features are the
act tagger's (:func:`harness.detect.acts.act_features`: words, word pairs, the first word), the
model a logistic regression (:func:`tools.detector.linear.fit_sparse`), stored as the act tagger
stores its weights, with one act, ``GOODBYE``. Each source weighs by repetition: CLINC150's
farewells are repeated so that they count as much as SGD's.

``--measure`` prints five-fold figures on the train material (folds by utterance; out of fold)::

    .venv/bin/python -m tools.detector.fit_goodbyes --sgd PATH/TO/sgd --clinc PATH/TO/clinc150
    .venv/bin/python -m tools.detector.fit_goodbyes --sgd PATH/TO/sgd --clinc PATH/TO/clinc150 --measure
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from harness.detect._farewells import FarewellReader, farewell_words
from harness.detect.acts import act_features
from tools.detector.linear import fit_sparse
from tools.detector.sgd import read_dialogues

__all__ = ["examples", "fit", "main"]

OUT = Path(__file__).resolve().parents[2] / "harness" / "detect" / "_models" / "goodbyes.json"
_CLOSING = frozenset({"GOODBYE", "THANK_YOU", "NEGATE"})
_VOCABULARY = 6000
_SAID = 2
"""A word is a farewell's when at least this many farewell texts of the training material hold it."""


def _sgd_turns(sgd: Path, speaker: str) -> Iterator[tuple[str, set[str]]]:
    """Each SGD train turn of ``speaker`` ("USER" or "SYSTEM") with its acts."""
    for dialogue in read_dialogues(sgd / "sgd-train.jsonl.gz"):
        turns = dialogue["turns"]
        assert isinstance(turns, list)
        for turn in turns:
            if turn["speaker"] == speaker:
                yield turn["text"], {act for f in turn["frames"] for act, _, _ in f["actions"]}


def _sgd_user_turns(sgd: Path) -> Iterator[tuple[str, bool]]:
    for text, acts in _sgd_turns(sgd, "USER"):
        yield text, "GOODBYE" in acts and acts <= _CLOSING


def _sgd_bot_farewells(sgd: Path) -> Iterator[tuple[str, bool]]:
    for text, acts in _sgd_turns(sgd, "SYSTEM"):
        if acts == {"GOODBYE"}:
            yield text, True


def _clinc(clinc: Path) -> Iterator[tuple[str, bool]]:
    data = json.loads((clinc / "data_full.json").read_text(encoding="utf-8"))
    for text, intent in data["train"]:
        yield text, intent == "goodbye"
    for text, _ in data["oos_train"]:
        yield text, False


Rows = Sequence[tuple[str, bool]]


def examples(sgd: Path, clinc: Path) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """The labelled user utterances (CLINC150's farewells repeated to weigh as much as SGD's
    user farewells) and SGD's closing bot turns (farewells too)."""
    sgd_rows = list(_sgd_user_turns(sgd))
    clinc_rows = list(_clinc(clinc))
    sgd_farewells = sum(label for _, label in sgd_rows)
    clinc_farewells = [row for row in clinc_rows if row[1]]
    repeat = max(1, round(sgd_farewells / max(1, len(clinc_farewells)))) - 1
    bot_rows = sorted(set(_sgd_bot_farewells(sgd)))
    return sgd_rows + clinc_rows + clinc_farewells * repeat, bot_rows


def fit(users: Rows, bots: Rows) -> dict[str, object]:
    """The reader's file: one weight per feature (int8 times ``scale``), a bias, and the words
    that at least ``_SAID`` of the farewells hold (bot closings included: "Have a nice day in
    Nairobi" gives "nairobi" when two of them say it)."""
    rows = [*users, *bots]
    counts: Counter[str] = Counter()
    for text, _ in rows:
        counts.update(set(act_features(text)))
    # Ties broken by name, so the vocabulary does not depend on the order of a set.
    names = sorted((f for f, c in counts.items() if c >= 3), key=lambda f: (-counts[f], f))
    names = names[:_VOCABULARY]
    index = {f: i for i, f in enumerate(names)}
    features = [sorted({index[f] for f in act_features(t) if f in index}) for t, _ in rows]
    labels = np.array([[float(label)] for _, label in rows])
    weights, bias = fit_sparse(features, labels, len(names))
    said: Counter[str] = Counter()
    for text in {t for t, label in rows if label}:
        said.update(set(farewell_words(text)))
    scale = float(np.abs(weights).max() / 127) or 1.0
    quantised = np.clip(np.round(weights / scale), -127, 127).astype(np.int8)
    return {
        "about": "User farewells (GOODBYE) against every other user utterance, fitted on "
        "CLINC150 train (Larson et al. 2019, CC BY 3.0) and the user and closing system turns "
        "of Schema-Guided Dialogue train (Rastogi et al. 2020, CC BY-SA 4.0) by "
        "tools/detector/fit_goodbyes.py.",
        "acts": ["GOODBYE"],
        "features": names,
        "scale": scale,
        "weights": base64.b64encode(quantised.tobytes()).decode("ascii"),
        "bias": [round(float(b), 4) for b in bias],
        "words": sorted(w for w, c in said.items() if c >= _SAID),
    }


def _fold(text: str) -> int:
    return zlib.crc32(text.encode("utf-8")) % 5


def measure(users: Rows, bots: Rows) -> dict[str, dict[str, int]]:
    """Out-of-fold counts of the user utterances: farewells and others read as farewells by the
    model alone and by the reader (the model and the farewells' words). Folds by text, so a
    repeated row stays in its fold; the bot farewells of every fold are fitted on."""
    tally = {kind: {"of": 0, "model": 0, "reader": 0} for kind in ("farewells", "others")}
    for fold in range(5):
        reader = FarewellReader(fit([r for r in users if _fold(r[0]) != fold], bots))
        seen: set[str] = set()
        for text, label in users:
            if _fold(text) != fold or text in seen:
                continue
            seen.add(text)
            counts = tally["farewells" if label else "others"]
            counts["of"] += 1
            counts["model"] += reader.probability(text) >= reader.level
            counts["reader"] += reader.reads(text)
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sgd", type=Path, required=True, help="the folder of sgd-train.jsonl.gz")
    parser.add_argument("--clinc", type=Path, required=True, help="the folder of data_full.json")
    parser.add_argument("--measure", action="store_true", help="five-fold figures, no file")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    users, bots = examples(args.sgd, args.clinc)
    if args.measure:
        json.dump(measure(users, bots), sys.stdout, indent=1)
        print()
        return
    args.out.write_text(json.dumps(fit(users, bots), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(users)} user rows, {len(bots)} bot farewells)")


if __name__ == "__main__":
    main()
