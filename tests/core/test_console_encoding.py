"""A console that cannot encode a report's text (a cp1252 Windows console, ``PYTHONIOENCODING``
set to a narrow code page) gets the text with what it cannot show replaced, never a crash; a
report written with ``-o FILE`` stays UTF-8, whole."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARNESS = [sys.executable, "-c", "from harness.cli import main; main()"]
TICK = "Payday is Friday \u2713 \u2014 4 December."
"""A bot message with a check mark (no cp1252 code) and an em dash (cp1252 has one)."""


def _run(*args: str | Path, encoding: str = "cp1252") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONUTF8", None)
    return subprocess.run(
        [*HARNESS, *map(str, args)], capture_output=True, env=env, timeout=120, cwd=ROOT
    )


def _transcript(folder: Path) -> Path:
    lines = [
        {"id": "u1", "turn": 1, "role": "user", "sender": "user", "text": "When is payday?"},
        {"id": "b1", "turn": 1, "role": "bot", "sender": "payroll", "text": TICK},
        {"id": "b2", "turn": 1, "role": "bot", "sender": "helpdesk", "text": TICK},
    ]
    path = folder / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["lines", "table", "github", "json", "html", "junit"])
def test_detect_replaces_what_a_cp1252_console_cannot_show(tmp_path: Path, fmt: str) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", fmt)
    assert b"UnicodeEncodeError" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr  # the duplicate, not a crash
    out = result.stdout.decode("cp1252")
    if fmt in ("lines", "github"):
        assert "Payday is Friday ? \u2014 4 December." in out
    if fmt == "table":  # its box-drawing lines are question marks too, its words kept
        assert "1 conversation: 1 error, 0 warnings (1 duplicate)" in out
    if fmt == "json":
        assert json.loads(out)["totals"]["errors"] == 1


def test_a_report_file_stays_utf8_whatever_the_console(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    result = _run("detect", _transcript(tmp_path), "--format", "lines", "-o", report)
    assert result.returncode == 1, result.stderr
    assert TICK in report.read_text(encoding="utf-8")


def test_lint_replaces_what_the_console_cannot_show(tmp_path: Path) -> None:
    folder = tmp_path / "\u2713 bots"
    folder.mkdir()
    for name in ("helpdesk-naive.yaml", "tools.py"):
        shutil.copy(ROOT / "samples" / "helpdesk" / name, folder / name)
    for fmt in ("text", "json"):
        result = _run("lint", folder / "helpdesk-naive.yaml", "--format", fmt)
        assert b"UnicodeEncodeError" not in result.stderr, result.stderr
        assert result.returncode == 1, result.stderr  # its findings
        assert "? bots" in result.stdout.decode("cp1252")


def test_simulate_replaces_what_the_console_cannot_show(tmp_path: Path) -> None:
    folder = tmp_path / "\u2713 suite"
    folder.mkdir()
    for name in ("helpdesk.yaml", "tools.py"):
        shutil.copy(ROOT / "samples" / "helpdesk" / name, folder / name)
    scenarios = folder / "scenarios.yaml"
    scenarios.write_text(
        "bot: helpdesk.yaml\nscenarios:\n  - name: pay \u2713\n    turns:\n"
        "      - user: When is the next payday?\n",
        encoding="utf-8",
    )
    for fmt in ("lines", "table", "json"):
        result = _run("simulate", scenarios, "--format", fmt, "-q")
        assert b"UnicodeEncodeError" not in result.stderr, result.stderr
        assert result.returncode == 0, result.stderr
        assert "pay ?" in result.stdout.decode("cp1252")


def test_an_ascii_console_gets_no_crash_either(tmp_path: Path) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", "lines", encoding="ascii")
    assert b"UnicodeEncodeError" not in result.stderr, result.stderr
    assert result.returncode == 1
