"""Fit the slot models the answer matcher reads (``harness/detect/_models/slots.json``): which
slot a user's request asks for, and which slot a bot's sentence gives.

Schema-Guided Dialogue *train* (SGD, CC BY-SA 4.0) labels both from its dialogue acts, not from
any word list:

- **requests**: every user turn with ``REQUEST`` acts for exactly one slot, its words labelled
  with that slot ("how much will it cost" -> ``ride_fare``);
- **informs**: every system turn cut into sentences (after ``.``, ``!`` or ``?`` and a space);
  a sentence holding the span of exactly one ``INFORM``\\ ed slot is labelled with that slot, a
  sentence of a turn that informs nothing is labelled ``-`` ("Your table is booked."), and a
  turn of one sentence with exactly one ``INFORM`` act, for a slot without spans (a yes or a
  no: ``has_live_music``), is labelled with that slot. Other sentences are left out.

Each is a multinomial naive Bayes model: the requests over the words of
:func:`harness.detect.answers.words_of` (content words, stemmed), the sentences over their
:func:`~harness.detect.answers.reply_terms` (those words and the kinds of value given: ``@money``
for "$23.40"); terms seen fewer than :data:`MIN_COUNT` times in a model's texts are
left out. The dialogues of ``tests/fixtures/multi_intent/sgd-real-train.jsonl`` are left out of
the fit, so that set stays out of sample; SGD dev is never read. Rebuilt byte for byte with::

    PYTHONPATH=. .venv/bin/python -m tools.detector.fit_slots --sgd DIR
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from harness.detect._slots import MODEL
from harness.detect.answers import reply_terms, words_of
from tools.detector.missed_sgd import SGD, dialogues

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "multi_intent" / "sgd-real-train.jsonl"
MIN_COUNT = 3
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _left_out() -> set[str]:
    """The SGD train dialogues that ``sgd-real-train`` samples."""
    lines = REAL.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["id"].split("/")[0] for line in lines}


def labelled(dialogue: dict[str, Any]) -> Iterable[tuple[str, str, str]]:
    """``("requests" | "informs", label, text)`` for each text of one dialogue the acts label."""
    for turn in dialogue["turns"]:
        actions = [a for frame in turn["frames"] for a in frame["actions"]]
        if turn["speaker"] == "USER":
            asked = {slot for act, slot, _ in actions if act == "REQUEST"}
            if len(asked) == 1:
                yield "requests", asked.pop(), turn["text"]
            continue
        informed = {slot for act, slot, _ in actions if act == "INFORM"}
        spans = [(slot, a, b) for frame in turn["frames"] for slot, a, b in frame["spans"]]
        text = turn["text"]
        sentences = _SENTENCE.split(text)
        start = 0
        for sentence in sentences:
            a = text.find(sentence, start)
            b = start = a + len(sentence)
            held = {s for s, x, y in spans if x < b and y > a and s in informed}
            if not informed:
                yield "informs", "-", sentence
            elif len(held) == 1:
                yield "informs", held.pop(), sentence
        spanned = {s for s, _, _ in spans}
        if len(sentences) == 1 and len(informed) == 1 and not informed & spanned:
            yield "informs", next(iter(informed)), text


def fit(folder: Path = SGD) -> dict[str, Any]:
    """The two models' counts, as the file stores them."""
    skip = _left_out()
    counts: dict[str, defaultdict[str, Counter[str]]] = {
        "requests": defaultdict(Counter),
        "informs": defaultdict(Counter),
    }
    docs: dict[str, Counter[str]] = {"requests": Counter(), "informs": Counter()}
    for dialogue in dialogues("train", folder=folder):
        if dialogue["id"] in skip:
            continue
        for model, label, text in labelled(dialogue):
            docs[model][label] += 1
            counts[model][label].update(
                words_of(text) if model == "requests" else reply_terms(text)
            )
    out: dict[str, Any] = {
        "source": "tools/detector/fit_slots.py: Schema-Guided Dialogue train turns labelled by "
        "their dialogue acts (CC BY-SA 4.0), the dialogues of sgd-real-train left out",
        "min_count": MIN_COUNT,
    }
    for model, by_label in counts.items():
        seen: Counter[str] = Counter()
        for words in by_label.values():
            seen.update(words)
        kept = {w for w, n in seen.items() if n >= MIN_COUNT}
        out[model] = {
            "docs": dict(sorted(docs[model].items())),
            "vocabulary": len(kept),
            "words": {
                label: dict(sorted((w, n) for w, n in words.items() if w in kept))
                for label, words in sorted(by_label.items())
            },
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd", type=Path, default=SGD, help="the folder of sgd-train.jsonl.gz")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    model = fit(args.sgd)
    args.out.write_text(json.dumps(model, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    for name in ("requests", "informs"):
        docs = model[name]["docs"]
        print(
            f"{name}: {sum(docs.values())} texts, {len(docs)} labels, "
            f"{model[name]['vocabulary']} words"
        )


if __name__ == "__main__":
    main()
