"""The duplicate detector on the third blind corpus (``tests/fixtures/blind3``).

The corpus was written on 2026-12-05 by a project helper (an LLM) that read neither the detector's
code, docs and tests nor any other corpus's texts, and a second helper re-labelled it under the
same rules before anything ran on it (40 transcripts in 20 new domains, 129 duplicate pairs, 131
hard negatives; its README says how). It is measured with ``python -m tests.blind.measure_blind2
--corpus blind3``, which prints aggregates only; whoever reads its single errors must say so, and
from then on it is tuning data.

First look, ``main`` 19c604c's detector (2026-12-05 04:38 UTC, the lead, aggregates only): P 0.90
(76 of 84), R 0.59 (76 of 129; across turns 26 of 60, containment 25 of 70), 6 hard negatives and
2 other pairs flagged; ``--semantic`` P 0.90 (69 of 77), R 0.53, 5 hard negatives. The seven
pairs the second labeller judged arguable are in neither list, so a finding on one counts as a
false positive here. The floors are these figures.
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

BLIND3 = CORPUS.parent / "blind3"


def _measure(tmp_path: Path, semantic: bool) -> Totals:
    held_out.guard("blind3")
    out = tmp_path / "report.json"
    run_detect(semantic, out, BLIND3)
    labels = json.loads((BLIND3 / "labels.json").read_text(encoding="utf-8"))
    return totals(json.loads(out.read_text(encoding="utf-8")), labels)


def test_the_corpus_is_what_its_builder_writes_and_its_labels_are_consistent() -> None:
    """Ids unique, replies valid, every identical bot pair labelled, dates right for 2026."""
    done = subprocess.run(
        [sys.executable, str(BLIND3 / "build.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]


def test_lexical_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    measured = _measure(tmp_path, semantic=False)
    assert measured.labelled == 129
    # s58-recall (a relay is no "fact reused for a new request"; the lead's look 2026-12-05 08:10
    # UTC, aggregates only): 76 -> 78 found, the same 8 false positives and 6 hard negatives.
    # The consistency refit of both scorers (s60-refit; the lead's look 2026-12-05 12:50 UTC,
    # aggregates only): 78 -> 75 found (across turns 26 -> 23), the same 8 and 6.
    assert measured.found >= 75, measured
    assert measured.reported - measured.found <= 8, measured
    assert measured.hard_negatives <= 6, measured


@pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="the 'embeddings' extra is not installed"
)
def test_semantic_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    measured = _measure(tmp_path, semantic=True)
    assert measured.found >= 71, measured  # s58-recall, same look: 69 -> 71
    assert measured.reported - measured.found <= 8, measured
    assert measured.hard_negatives <= 5, measured
