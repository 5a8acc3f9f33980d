"""The second development corpus of duplicates (``tests/fixtures/duplicates-own``).

The corpus was written blind on 2026-12-04 by a project helper that neither ran the duplicate
detector on it nor read the detector's code (40 transcripts in 16 domains the development corpus
does not cover, 90 duplicate pairs, 222 hard negatives). Its ``build.py`` holds every text and
label; ``--check`` validates the files on disk (ids, replies, turns, scopes, the ``exact`` rule,
every identical bot pair labelled, weekday/date pairs right for 2026, the counts) and that they are
what the builder writes.

Its first figures were out of sample: measured once on ``main`` f6de1f9 (2026-12-04 16:23 UTC,
aggregates only), lexical P 0.86 (57 of 66), R 0.63 (57 of 90), 9 hard negatives flagged;
``--semantic`` P 0.87 (58 of 67), R 0.64, 9. Since then it is development material (its misses
were read, s52-twocorp and s52-excuses), so the floors below are development figures that guard
against a change making the detector worse on it, not a held-out result. When the detector
improves, raise the floors and say so. Raised with s52-excuses (the stated rules read more
narrowly, rules read on this corpus): lexical 57 -> 59 found, 9 -> 10 false positives (the new
one an unlabelled pair; hard negatives 9 as before); ``--semantic`` 58 -> 60 found, 9. Raised
with s53-cands (values written another way reach the scorer; a "still ...?" question asks again;
a copy that may open the reply to a second request is left to the scorer; rules read on this
corpus's misses): lexical 59 -> 64 found, 10 -> 8 false positives, 9 -> 7 hard negatives;
``--semantic`` 60 -> 65 found, 9 -> 7 false positives, 9 -> 7 hard negatives. Raised with
s54-recall (a claim restated inside a recap, a summary or a reminder is a duplicate, a stated
rule; rules read on this corpus's misses): lexical 64 -> 71 found, ``--semantic`` 65 -> 72; false
positives and hard negatives as before.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-own"
SCORER = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev" / "score.py"


def _measure(tmp_path: Path, *options: str) -> dict[str, int]:
    """The dev corpus's ``score.py`` on ``harness detect``'s findings: its counts, by name."""
    out = tmp_path / "detect.json"
    files = [str(p) for p in sorted(CORPUS.glob("o*.transcript"))]
    result = CliRunner().invoke(
        cli, ["detect", *files, *options, "--format", "json", "-o", str(out), "-q"]
    )
    assert result.exit_code in (0, 1), result.output
    run = subprocess.run(
        [sys.executable, str(SCORER), str(out), str(CORPUS / "labels.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    line = re.search(r"^duplicates: gold=(\d+) predicted=\d+ tp=(\d+) fp=(\d+)", run.stdout, re.M)
    hard = re.search(r"\bhardneg_fp=(\d+)", run.stdout)
    assert line and hard, run.stdout[-2000:] + run.stderr[-2000:]
    gold, tp, fp = map(int, line.groups())
    return {"gold": gold, "tp": tp, "fp": fp, "hardneg_fp": int(hard.group(1))}


def test_lexical_detector_holds_its_development_figures(tmp_path: Path) -> None:
    r = _measure(tmp_path)
    assert r["gold"] == 90, r
    assert r["tp"] >= 71, r["tp"]
    assert r["fp"] <= 8, r["fp"]
    assert r["hardneg_fp"] <= 7, r["hardneg_fp"]


def test_semantic_detector_holds_its_development_figures(tmp_path: Path) -> None:
    pytest.importorskip("wordllama")
    r = _measure(tmp_path, "--semantic")
    assert r["tp"] >= 72, r["tp"]
    assert r["fp"] <= 7, r["fp"]
    assert r["hardneg_fp"] <= 7, r["hardneg_fp"]


def test_the_corpus_on_disk_is_what_its_builder_writes_and_validates() -> None:
    run = subprocess.run(
        [sys.executable, str(CORPUS / "build.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "40 transcripts, 90 duplicate pairs, 222 hard negatives: ok" in run.stdout


def test_the_builder_uses_the_standard_library_only() -> None:
    tree = ast.parse((CORPUS / "build.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)
