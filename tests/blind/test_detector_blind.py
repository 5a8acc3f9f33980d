"""The duplicate detector on the blind held-out corpus (``tests/fixtures/detector-blind``).

The corpus was written on 2026-12-02 by a project helper (an LLM) that had not read the detector,
its docs, tests or tools, or any transcript text of the development corpus; it covers 22 domains
the development corpus does not (40 transcripts, 81 duplicate pairs, 151 hard negatives). Its
figures are out of sample until someone working on the detector reads its errors; whoever does
must say so, and from then on it is tuning data.

Issue 24 aims at P >= 0.95, R >= 0.95 and no hard-negative false positive on material like this.
The detector does not reach that yet. These tests hold the figures measured once on 2026-12-02
(main at 7b82f06, ``harness detect FILES --format json``, scored with the corpus's ``score.py``)
as floors, so that a change that makes the detector worse here fails:

- lexical (default): P 0.87 (59 of 68), R 0.73 (59 of 81), 9 hard negatives flagged;
  same-turn recall 33/37, cross-turn 26/44.
- ``--semantic``: P 0.84 (52 of 62), R 0.64 (52 of 81), 10 hard negatives flagged;
  same-turn recall 33/37, cross-turn 19/44.

When the detector improves, raise the floors and say so in the commit.

Raised on 2026-12-02 (22:56 UTC, branch ``s38-tagger``, aggregates only, no error read): the
accepted offer and the item the user named (``harness.detect.choices``) take two hard negatives
off each mode: lexical 9 -> 7 (P 59 of 66), ``--semantic`` 10 -> 8 (P 52 of 60), recall as
before. One of that session's looks decided a choice (the item rule was narrowed to items the
user named before both messages after it cost two lexical duplicates here).

Raised again with the scorer refitted on the learned rewordings (``s38-reword``) and both merged
(2026-12-02 23:09 UTC, aggregates only): lexical P 0.89 (62 of 70), R 0.77 (62 of 81), 8 hard
negatives flagged; ``--semantic`` P 0.87 (55 of 63), R 0.68, 8. The corpus has now been looked at
often enough (several looks per session, one deciding a choice) to count as partly tuning data;
``tests/blind/test_blind2.py`` has a newer held-out corpus.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from tests import held_out

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "detector-blind"


def _scorer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("detector_blind_score", CORPUS / "score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _measure(tmp_path: Path, *options: str) -> dict[str, Any]:
    held_out.guard("the blind duplicate corpus")
    out = tmp_path / "detect.json"
    files = [str(p) for p in sorted(CORPUS.glob("b*.transcript"))]
    result = CliRunner().invoke(
        cli, ["detect", *files, *options, "--format", "json", "-o", str(out), "-q"]
    )
    assert result.exit_code in (0, 1), result.output
    labels = json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))
    figures: dict[str, Any] = _scorer().score(json.loads(out.read_text(encoding="utf-8")), labels)
    return figures


def test_the_corpus_on_disk_is_what_its_builder_writes_and_validates() -> None:
    run = subprocess.run(
        [sys.executable, str(CORPUS / "build.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "40 transcripts, 81 duplicate pairs, 151 hard negatives: ok" in run.stdout


def test_lexical_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    r = _measure(tmp_path)
    assert r["gold"] == 81
    # The scorer refitted on the SGD rows without listed values and with learned rewordings
    # (s38-reword, measured once, aggregates only): 59 -> 62 found, 9 -> 10 hard negatives
    # flagged; the code without the refit gives 59 and 9 as before. With s38-tagger's accepted
    # offers and items of their own merged (lead, 2026-12-02 23:09 UTC, aggregates only): 62
    # found, 8 false positives, all hard negatives (7 with the tagger's rules on the old scorer).
    # Tenth session's refit ("restated aside", the lead's floor run 2026-12-03 09:04 UTC,
    # aggregates only): 62 -> 61 found (cross-turn 28 -> 27), 8 false positives, 8 hard
    # negatives; recorded as one pair lost. s53-cands (values written another way; the lead's
    # look 2026-12-04 19:53 UTC, aggregates only): 61 -> 63 found, 8 false positives, 8 hard
    # negatives (--semantic 63 found, 9, 9).
    assert r["tp"] >= 63, r["tp"]
    assert r["fp"] <= 8, r["fp"]
    assert r["hardneg_fp"] <= 8, r["hardneg_fp"]
    assert r["by_scope"]["same_turn"][0] >= 34
    assert r["by_scope"]["cross_turn"][0] >= 27


def test_semantic_detector_holds_its_measured_figures(tmp_path: Path) -> None:
    pytest.importorskip("wordllama")
    r = _measure(tmp_path, "--semantic")
    # 52 found before the refit of s38-reword; merged with s38-tagger (23:09 UTC): 55 and 8.
    # Tenth session's refit (09:04 UTC): 55 -> 61 found, 8 -> 9 false positives (all hard
    # negatives).
    assert r["tp"] >= 63, r["tp"]
    assert r["fp"] <= 9, r["fp"]
    assert r["hardneg_fp"] <= 9, r["hardneg_fp"]
    assert r["by_scope"]["same_turn"][0] >= 33
    assert r["by_scope"]["cross_turn"][0] >= 28
