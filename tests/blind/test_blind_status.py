"""The duplicate detector on the blind status-update batch (``tests/fixtures/blind-status``).

Issue 24's failure class 2: a later bot message that gives a *new status* of the same item (an
expense submitted, then approved; a parcel dispatched, then delivered) is an update, not a
duplicate, however many of the item's values it restates; the same status told again in other
words is a duplicate. The batch was written on 2026-12-05 by a project helper (an LLM) that read
no detector code, tests or results, to measure that class (30 transcripts in 30 domains, 89
duplicate pairs, 94 hard negatives of which 81 are updates; one labeller; its README says how).
It is measured with ``python -m tests.blind.measure_blind2 --corpus blind-status``, which prints
aggregates only; whoever reads its single errors must say so, and from then on it is tuning data.

First look, ``main`` bb9330f's detector (2026-12-05 09:45 UTC, the lead, aggregates only): P 0.82
(36 of 44), R 0.40 (same turn 24 of 56, across turns 12 of 33; near 10 of 12, semantic 14 of 36,
containment 12 of 41), 7 hard negatives flagged, all of them updates (4 of 26 in one turn, 3 of 55
across turns), and 1 other pair; ``--semantic`` P 0.84 (37 of 44), R 0.42, 6 hard negatives. The
floors are these figures.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests import held_out
from tests.blind.measure_blind2 import CORPUS, Totals, predicted, run_detect, totals

BATCH = CORPUS.parent / "blind-status"


def _measure(tmp_path: Path, semantic: bool) -> tuple[Totals, int]:
    """The batch's totals and how many labelled updates were reported as duplicates."""
    held_out.guard("blind-status")
    out = tmp_path / "report.json"
    run_detect(semantic, out, BATCH)
    report = json.loads(out.read_text(encoding="utf-8"))
    labels = json.loads((BATCH / "labels.json").read_text(encoding="utf-8"))
    classes = json.loads((BATCH / "hard_negative_classes.json").read_text(encoding="utf-8"))
    pairs, _ = predicted(report)
    updates = sum(
        frozenset(entry["pair"]) in pairs.get(name, set())
        for name, entries in classes["transcripts"].items()
        for entry in entries
        if entry["class"] == "update"
    )
    return totals(report, labels), updates


def test_the_batch_is_what_its_builder_writes_and_its_labels_are_consistent() -> None:
    """Ids unique, replies valid, every identical bot pair labelled, dates right for 2026, the
    classes file lists exactly the labelled hard negatives."""
    done = subprocess.run(
        [sys.executable, str(BATCH / "build.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]


def test_lexical_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    measured, updates = _measure(tmp_path, semantic=False)
    assert measured.labelled == 89
    # s60-refit (the lead's look 2026-12-05 12:50 UTC, aggregates only): 36 -> 37 found, the same
    # 8 false positives and 7 hard negatives, all updates.
    assert measured.found >= 37, measured
    assert measured.reported - measured.found <= 8, measured
    assert measured.hard_negatives <= 7, measured
    assert updates <= 7, updates


@pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="the 'embeddings' extra is not installed"
)
def test_semantic_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    measured, updates = _measure(tmp_path, semantic=True)
    # The consistency refit of both scorers (s60-refit; the lead's look 2026-12-05 12:50 UTC,
    # aggregates only): 37 -> 38 found, 7 -> 8 false positives, 6 -> 7 hard negatives.
    assert measured.found >= 38, measured
    assert measured.reported - measured.found <= 8, measured
    assert measured.hard_negatives <= 7, measured
    assert updates <= 7, updates
