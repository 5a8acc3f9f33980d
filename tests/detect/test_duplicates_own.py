"""The third hand-written duplicates corpus (``tests/fixtures/duplicates-own``): validations only.

The corpus was written blind on 2026-12-04 by a project helper that neither ran the duplicate
detector on it nor read the detector's code (40 transcripts in 16 domains the development corpus
does not cover, 90 duplicate pairs, 222 hard negatives). Its ``build.py`` holds every text and
label; ``--check`` validates the files on disk (ids, replies, turns, scopes, the ``exact`` rule,
every identical bot pair labelled, weekday/date pairs right for 2026, the counts) and that they are
what the builder writes. These tests never run the detector on it: measuring it is a separate,
deliberate step, so that its first figures are out of sample.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-own"


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
