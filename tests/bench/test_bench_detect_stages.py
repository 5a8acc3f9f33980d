"""``bench_detect_stages.py`` times the comparison wherever it runs and always sums up, on a
short conversation of new text (run in a process of its own: the bench ends its process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.bench.bench_detect_stages import _summary

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench" / "bench_detect_stages.py"

_LINES = [
    ("user", "user", "When does the climbing gym open on Sunday, and how much is a day pass?"),
    ("bot", "hours", "On Sunday the climbing gym opens at 9 am and closes at 8 pm."),
    ("bot", "prices", "A day pass costs $19, shoe rental included."),
    ("user", "user", "Can I bring a friend who has never climbed?"),
    ("bot", "hours", "Yes, first-timers get a free ten-minute safety briefing at the desk."),
    ("bot", "prices", "A day pass costs $19, shoe rental included."),
]


def _transcript(tmp_path: Path) -> Path:
    path = tmp_path / "gym.jsonl"
    turn = 0
    rows = []
    for i, (role, sender, text) in enumerate(_LINES, start=1):
        turn += role == "user"
        rows.append({"id": f"m{i}", "turn": turn, "role": role, "sender": sender, "text": text})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _run(tmp_path: Path, *args: str, code: str | None = None) -> str:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(scratch)}
    command = [sys.executable, str(BENCH), *args] if code is None else [sys.executable, "-c", code]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert not list(scratch.glob("bench-stages-*")), done.stderr  # the scratch folder removed
    return done.stdout


def test_a_comparison_in_one_process_is_timed(tmp_path: Path) -> None:
    out = _run(tmp_path, str(_transcript(tmp_path)), "--jobs", "1")
    assert "comparison start" in out and "comparison end" in out
    (serial_end,) = [line for line in out.splitlines() if line.startswith("serial end")]
    wall = float(serial_end.split(": ")[1].split()[0])
    assert wall > 0.0  # the missed-request check comes after the comparison, in this process


def test_the_summary_is_printed_when_the_command_ends_the_usual_way(tmp_path: Path) -> None:
    # As when a thread is still running: the console script's end returns instead of ending
    # the process at once.
    code = (
        "import runpy, sys\n"
        "import harness.cli.app as app\n"
        "app.process_end = lambda code=None: None\n"
        f"sys.argv = [{str(BENCH)!r}, {str(_transcript(tmp_path))!r}, '--jobs', '1']\n"
        f"runpy.run_path({str(BENCH)!r}, run_name='__main__')\n"
    )
    out = _run(tmp_path, code=code)
    assert "comparison end" in out
    assert any(line.startswith("wall ") for line in out.splitlines())


def test_the_summary_says_when_no_comparison_was_timed_and_which_exits_were_not() -> None:
    events = [
        (10, 0.5, 0.4, "analysis start"),
        (11, 0.6, 0.0, "missed-request check start"),
        (10, 0.9, 0.7, "analysis end"),
        (11, 1.1, 0.5, "missed-request check end"),
        (10, 1.2, 0.8, "exit"),
    ]
    lines = _summary(events, 2)
    assert "serial end (after the comparison): no comparison timed" in lines
    (cpu,) = [line for line in lines if line.startswith("CPU by process")]
    assert cpu == "CPU by process: 10 0.80 s, 11 0.50 s (until its last stage; no exit logged)"
