"""What the tests of the hand-written duplicate corpora share (duplicates-own, duplicates-fresh).

``measure`` runs ``harness detect`` on a corpus's transcripts and scores the findings with the dev
corpus's ``score.py``; ``check_builder`` runs a corpus's ``build.py --check``;
``standard_library_imports_missing`` lists what a builder, or the builder code the corpora share
(``tests/fixtures/hand_corpus.py``), imports from outside the standard library.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SCORER = FIXTURES / "duplicates-dev" / "score.py"
SHARED_BUILDER = FIXTURES / "hand_corpus.py"


def measure(corpus: Path, pattern: str, tmp_path: Path, *options: str) -> dict[str, int]:
    """The dev corpus's ``score.py`` on ``harness detect``'s findings: its counts, by name."""
    out = tmp_path / "detect.json"
    files = [str(p) for p in sorted(corpus.glob(pattern))]
    result = CliRunner().invoke(
        cli, ["detect", *files, *options, "--format", "json", "-o", str(out), "-q"]
    )
    assert result.exit_code in (0, 1), result.output
    run = subprocess.run(
        [sys.executable, str(SCORER), str(out), str(corpus / "labels.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    line = re.search(r"^duplicates: gold=(\d+) predicted=\d+ tp=(\d+) fp=(\d+)", run.stdout, re.M)
    hard = re.search(r"\bhardneg_fp=(\d+)", run.stdout)
    assert line and hard, run.stdout[-2000:] + run.stderr[-2000:]
    gold, tp, fp = map(int, line.groups())
    return {"gold": gold, "tp": tp, "fp": fp, "hardneg_fp": int(hard.group(1))}


def check_builder(corpus: Path, expected: str) -> None:
    """``build.py --check`` passes (run from another folder) and prints ``expected``."""
    run = subprocess.run(
        [sys.executable, str(corpus / "build.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=FIXTURES.parent,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert expected in run.stdout


def standard_library_imports_missing(*sources: Path) -> set[str]:
    """The top-level modules ``sources`` import that are not in the standard library."""
    imported = set()
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
    return imported - set(sys.stdlib_module_names)
