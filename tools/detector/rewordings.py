"""Learn which words of bot messages say the same thing in other words, from SGD train.

    python -m tools.detector.rewordings --sgd PATH/TO/sgd

Schema-Guided Dialogue (Rastogi et al. 2020, CC BY-SA 4.0) system turns with the same service and
the same (act, slot) set are one outline written by different crowd workers. With each turn's
slot values masked (through the value spans), two such turns differ only in wording, so where
their word sequences replace a few content words of one by a few of the other ("departs at" /
"leaves at", "it begins" / "it starts", "play" / "hear"), those words are rewordings of each
other. Each pair of stems is counted over pairs of turns of one outline from different dialogues
and kept when it is swapped often (:data:`MIN_COUNT`) and consistently: its count, against how
often either word goes unmatched, reaches :data:`MIN_DICE`. Words that SGD uses mostly inside slot
values ("compact", "standard", "dermatologist", "italian": values, not wording) are left out,
so that a value swapped for another is never read as a rewording.

The table is written to ``harness/detect/_models/rewordings.json`` (read by
:mod:`harness.detect._wording`). The dialogues at positions 3 mod 8 of SGD train are left out, so
that slice stays unseen by the table for choosing settings (as it is unseen by the pair scorer,
which is fitted on positions 0 mod 8).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from difflib import SequenceMatcher
from pathlib import Path

from harness.text import content_words
from harness.text.words import tokens
from tools.detector.sgd import SystemTurn, read_dialogues, system_turns

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "harness" / "detect" / "_models" / "rewordings.json"

HELD = 3
"""SGD-train positions (mod 8) left out of the table."""
PAIRS_PER_TURN = 4
"""Pairs of turns drawn per turn of an outline (at most :data:`MAX_PAIRS` per outline)."""
MAX_PAIRS = 400
MIN_COUNT = 10
"""Times a pair of stems must be swapped to be kept."""
MIN_DICE = 0.06
"""How consistently: twice the count over the times either stem went unmatched."""
MAX_SWAP = 3
"""Content words on each side of one replaced stretch, at most."""
_VALUE = "\0"


def _stem(token: str) -> str:
    found = content_words(token)
    return next(iter(found)) if found else ""


def masked(turn: SystemTurn) -> tuple[str, ...] | None:
    """The turn's content stems in order, its slot values replaced by one marker each and stop
    words by an empty string; None when its values cannot be located."""
    located = turn.located()
    if located is None:
        return None
    text = turn.text
    for start, end in sorted({(s, e) for s, e, _ in located.values()}, reverse=True):
        text = text[:start] + " qqvalueqq " + text[end:]
    return tuple(_VALUE if t == "qqvalueqq" else _stem(t) for t in tokens(text))


def _value_words(dialogues: list[dict[str, object]]) -> set[str]:
    """Stems used more often inside slot values than in the wording around them."""
    inside: Counter[str] = Counter()
    around: Counter[str] = Counter()
    for dialogue in dialogues:
        for turn in system_turns(dialogue):
            if turn is None:
                continue
            for _, _, value in turn.actions:
                inside.update({_stem(t) for t in tokens(value)} - {""})
            shown = masked(turn)
            if shown is not None:
                around.update(set(shown) - {"", _VALUE})
    return {w for w, n in inside.items() if n >= around[w]}


def build(sgd: Path, *, seed: int = 38) -> dict[str, object]:
    """The rewording table learned from ``sgd``'s train split (see the module docstring)."""
    dialogues = [
        d
        for position, d in enumerate(read_dialogues(sgd / "sgd-train.jsonl.gz"))
        if position % 8 != HELD
    ]
    outlines: dict[tuple[str, tuple[tuple[str, str], ...]], list[tuple[str, tuple[str, ...]]]]
    outlines = defaultdict(list)
    for dialogue in dialogues:
        for turn in system_turns(dialogue):
            if turn is None or not turn.values():
                continue
            shown = masked(turn)
            if shown is not None:
                outlines[turn.signature].append((turn.dialogue, shown))
    values = _value_words(dialogues)
    swapped: Counter[tuple[str, str]] = Counter()
    unmatched: Counter[str] = Counter()
    rng = random.Random(seed)
    for signature in sorted(outlines):
        turns = outlines[signature]
        if len(turns) < 2:
            continue
        for _ in range(min(len(turns) * PAIRS_PER_TURN, MAX_PAIRS)):
            (da, a), (db, b) = rng.sample(turns, 2)
            if da == db:
                continue
            sa, sb = set(a) - {"", _VALUE}, set(b) - {"", _VALUE}
            unmatched.update(sa - sb)
            unmatched.update(sb - sa)
            for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
                if op != "replace":
                    continue
                left = {w for w in a[i1:i2] if w and w != _VALUE} - sb
                right = {w for w in b[j1:j2] if w and w != _VALUE} - sa
                if not left or not right or len(left) > MAX_SWAP or len(right) > MAX_SWAP:
                    continue
                for x in left:
                    for y in right:
                        swapped[(x, y) if x < y else (y, x)] += 1
    kept = sorted(
        [x, y]
        for (x, y), n in swapped.items()
        if n >= MIN_COUNT
        and 2 * n / (unmatched[x] + unmatched[y]) >= MIN_DICE
        and x not in values
        and y not in values
    )
    return {
        "about": "Stems that SGD crowd workers swapped for each other in the same outline (service "
        "and act-slot set, values masked), learned by tools/detector/rewordings.py from "
        "Schema-Guided Dialogue train (Rastogi et al. 2020, CC BY-SA 4.0), positions 3 mod 8 "
        f"left out; kept when swapped at least {MIN_COUNT} times with a Dice of at least "
        f"{MIN_DICE}, words used mostly inside slot values left out.",
        "pairs": kept,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sgd", type=Path, required=True, help="folder with sgd-train.jsonl.gz")
    args = parser.parse_args()
    table = build(args.sgd)
    TABLE.write_text(json.dumps(table, indent=0) + "\n", encoding="utf-8")
    pairs = table["pairs"]
    assert isinstance(pairs, list)
    print(f"{len(pairs)} pairs written to {TABLE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
