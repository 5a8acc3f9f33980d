"""A console that cannot encode a report's text (a cp1252 Windows console, ``PYTHONIOENCODING``
set to a narrow code page) gets the text formats with what it cannot show replaced, never a
crash; the machine formats (JSON, JUnit, HTML, SARIF) and a report written with ``-o FILE`` stay
UTF-8, whole."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARNESS = [sys.executable, "-c", "from harness.cli import main; main()"]
TICK = "Ren\u00e9e\u2019s payday is Friday \u2713 \u2014 4 December."
"""A bot message with a check mark (no cp1252 code) and an e acute, a right quote and an em
dash (cp1252 has them, as bytes that are not UTF-8)."""


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


@pytest.mark.parametrize("fmt", ["lines", "table", "github"])
def test_detect_replaces_what_a_cp1252_console_cannot_show(tmp_path: Path, fmt: str) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", fmt)
    assert b"UnicodeEncodeError" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr  # the duplicate, not a crash
    out = result.stdout.decode("cp1252")
    if fmt in ("lines", "github"):
        assert TICK.replace("\u2713", "?") in out
    if fmt == "table":  # its box-drawing lines are question marks too, its words kept
        assert "1 conversation: 1 error, 0 warnings (1 duplicate)" in out


def test_a_json_report_on_a_cp1252_console_is_utf8_whole(tmp_path: Path) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", "json")
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout.decode("utf-8"))
    (transcript,) = document["transcripts"]
    assert TICK in transcript["findings"][0]["evidence"]


def test_a_junit_report_on_a_cp1252_console_parses(tmp_path: Path) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", "junit")
    assert result.returncode == 1, result.stderr
    root = ET.fromstring(result.stdout)  # it declares UTF-8: every byte must be so
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    assert TICK in (failure.text or "")


def test_an_html_report_on_a_cp1252_console_is_the_utf8_it_declares(tmp_path: Path) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", "html")
    assert result.returncode == 1, result.stderr
    page = result.stdout.decode("utf-8")
    assert 'charset="utf-8"' in page.lower() or "charset=utf-8" in page.lower()
    assert "Ren\u00e9e\u2019s payday is Friday \u2713" in page


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
    for fmt, shown in (("text", "? bots"), ("json", "\u2713 bots"), ("sarif", '"runs"')):
        result = _run("lint", folder / "helpdesk-naive.yaml", "--format", fmt)
        assert b"UnicodeEncodeError" not in result.stderr, result.stderr
        assert result.returncode == 1, result.stderr  # its findings
        out = result.stdout.decode("utf-8" if fmt != "text" else "cp1252")
        assert shown in out


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
    for fmt, shown in (("lines", "pay ?"), ("table", "pay ?"), ("json", "pay \u2713")):
        result = _run("simulate", scenarios, "--format", fmt, "-q")
        assert b"UnicodeEncodeError" not in result.stderr, result.stderr
        assert result.returncode == 0, result.stderr
        out = result.stdout.decode("utf-8" if fmt == "json" else "cp1252")
        assert shown in out


def test_an_ascii_console_gets_no_crash_either(tmp_path: Path) -> None:
    result = _run("detect", _transcript(tmp_path), "--format", "lines", encoding="ascii")
    assert b"UnicodeEncodeError" not in result.stderr, result.stderr
    assert result.returncode == 1
