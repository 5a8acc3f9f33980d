"""The duplicate detector on the second blind corpus (``tests/fixtures/blind2``).

The corpus was written on 2026-12-02 by a project helper (an LLM) that read neither the detector's
code, docs and tests nor the development corpus's text (56 transcripts, 18 domains, 85 duplicate
pairs, 119 hard negatives; its README says how it was labelled). It is measured with
``python -m tests.blind.measure_blind2``, which prints aggregates only; whoever reads its single
errors must say so, and from then on it is tuning data.

Measured on ``main`` 00e754a before any of the session's detector changes (2026-12-02 22:15 UTC, the
set's builder): P 0.86 (57 of 66), R 0.67 (57 of 85), 8 hard negatives flagged; ``--semantic`` P
0.85 (62 of 73), R 0.73, 9.

Measured on the session's merged detector (2026-12-02 23:12 UTC, the lead, aggregates only, no
single error read): P 0.82 (56 of 68), R 0.66 (56 of 85), 11 hard negatives flagged, one other
false pair; ``--semantic`` P 0.84 (62 of 74), R 0.73, 10. Worse than before, though the same
change scored better on SGD dev (P 0.961 -> 0.971, hard negatives 10 -> 4) and on the older blind
corpus. One more look (23:13 UTC, decided nothing: the merge was kept as it was) put all of the
loss on the scorer's refit (the code before it gives 57 of 66 and 8, as ``main``); the tree fit
moves single pairs from fit to fit (see ``docs/journal/detector.md``). The floors are the merged
figures. The set has been looked at three times (the builder's baseline and these two).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests import held_out
from tests.blind.measure_blind2 import CORPUS, Totals, run_detect, totals


def _measure(tmp_path: Path, semantic: bool) -> Totals:
    held_out.guard("blind2")
    out = tmp_path / "report.json"
    run_detect(semantic, out)
    labels = json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))
    return totals(json.loads(out.read_text(encoding="utf-8")), labels)


def test_the_corpus_is_what_its_builder_writes_and_its_labels_are_consistent() -> None:
    """Ids unique, replies valid, every identical bot pair labelled, dates right for 2026."""
    build = CORPUS / "build.py"
    done = subprocess.run(
        [sys.executable, str(build), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:]


def test_lexical_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    measured = _measure(tmp_path, semantic=False)
    assert measured.labelled == 85
    # Ninth session's refit (phone numbers as one id, 2026-12-03 06:17 UTC, aggregates only):
    # 59 -> 60 found, 12 -> 14 false positives, 11 hard negatives.
    # Tenth session's refit ("restated aside", s41-recall; the helper's look 08:41 UTC, the
    # lead's floor run 09:04 UTC, aggregates only): 60 -> 59 found, 14 -> 10 false positives,
    # 11 -> 9 hard negatives (recorded as one pair lost).
    # The narrowed news and accepted-option rules (s57-update; the lead's look 2026-12-05 04:38
    # UTC, the idea's second on this set, aggregates only): 10 -> 8 false positives, 9 -> 7 hard
    # negatives, the same 59 found.
    # A relay of a single request's answer is no "fact reused for a new request" (s58-recall; the
    # lead's look 2026-12-05 08:10 UTC, the idea's first on this set, aggregates only): 59 -> 61
    # found, the same 8 false positives and 7 hard negatives.
    # The consistency refit of both scorers (s60-refit; the lead's look 2026-12-05 12:50 UTC,
    # aggregates only): the same 61 found, 8 -> 9 false positives, 7 -> 8 hard negatives.
    assert measured.found >= 61, measured
    assert measured.reported - measured.found <= 9, measured
    assert measured.hard_negatives <= 8, measured


@pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="the 'embeddings' extra is not installed"
)
def test_semantic_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    measured = _measure(tmp_path, semantic=True)
    # Ninth session's refit: 62 -> 64 found, 12 -> 14 false positives, 10 -> 12 hard negatives.
    # Tenth session's refit: 64 -> 63 found, 14 -> 12 false positives, 12 -> 10 hard negatives.
    # s57-update (same look): 12 -> 10 false positives, 10 -> 8 hard negatives, 64 found.
    # s58-recall (same look as above): 64 -> 66 found, the same 10 and 8.
    # s60-refit (same look): 66 -> 67 found, the same 10 and 8.
    assert measured.found >= 67, measured
    assert measured.reported - measured.found <= 10, measured
    assert measured.hard_negatives <= 8, measured
