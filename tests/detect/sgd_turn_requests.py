"""A labelled development check for the request segmenter from real user turns of the
Schema-Guided Dialogue dataset (``../shared/data/sgd``, CC BY-SA 4.0; Rastogi et al., AAAI 2020).

A user turn's dialogue acts say how many things it asks for: each ``REQUEST`` act asks for one
slot's value (``phone_number``, ``street_address``, ``wind``), whatever the wording ("What's their
address and phone number?", "How humid and windy will it be?", "When and where does it start?").
So without reading a single turn, the acts give the number of requests the segmenter should find:
the number of distinct requested slots. The segmenter's count is the number of parts the
missed-request check would report if unanswered: every part of a message with several, less the
parts that ask for no answer (:func:`~harness.detect.requests.needs_answer`: "Yes, that is
correct."); a message with one part is one request.

Develop on SGD *train* only (``python -m tests.detect.sgd_turn_requests [KIND [N]]`` prints the
figures and, with a kind, N of its turns the segmenter counts wrong). SGD user turns with a
``REQUEST`` act never hold another intent, and none asks for three slots or more, so the kinds are
``req1`` (one slot requested) and ``req2`` (two).
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from harness.detect.requests import needs_answer, segment_requests

ROOT = Path(__file__).resolve().parents[2]
SGD = ROOT.parent / "shared" / "data" / "sgd"


def user_turns(split: str = "train") -> Iterator[tuple[str, int]]:
    """Each SGD user turn that requests a slot, with the number of slots it requests."""
    with gzip.open(SGD / f"sgd-{split}.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            for turn in json.loads(line)["turns"]:
                if turn["speaker"] != "USER":
                    continue
                slots = {
                    act[1]
                    for frame in turn["frames"]
                    for act in frame["actions"]
                    if act[0] == "REQUEST"
                }
                if slots:
                    yield turn["text"], len(slots)


def found(text: str) -> int:
    """The number of requests the missed-request check would hold the bot to."""
    parts = segment_requests(text)
    if len(parts) < 2:
        return len(parts)
    return sum(needs_answer(p.text) for p in parts)


@dataclass(frozen=True)
class Counts:
    turns: Counter[str]
    """Turns by kind (``req1``, ``req2``, ...)."""
    right: Counter[str]
    """Turns of each kind whose requests the segmenter counts right."""

    def describe(self) -> str:
        return "\n".join(
            f"{kind}: {self.right[kind]}/{n} counted right ({self.right[kind] / n:.1%})"
            for kind, n in sorted(self.turns.items())
        )


@cache
def counts(split: str = "train") -> Counts:
    turns: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for text, slots in user_turns(split):
        kind = f"req{slots}"
        turns[kind] += 1
        right[kind] += found(text) == slots
    return Counts(turns=turns, right=right)


if __name__ == "__main__":
    print(counts().describe())
    if len(sys.argv) > 1:
        wrong = [
            f"{text}\n   {slots} asked, {[r.text for r in segment_requests(text)]}"
            for text, slots in user_turns()
            if f"req{slots}" == sys.argv[1] and found(text) != slots
        ]
        random.Random(25).shuffle(wrong)
        print("\n".join(wrong[: int(sys.argv[2]) if len(sys.argv) > 2 else 40]))
