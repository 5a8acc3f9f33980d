"""A long ``harness simulate`` off a terminal (a CI log) says which scenario finished, one line
each on stderr, and SIGTERM (a cancelled or timed-out CI job) ends it as Ctrl-C does: exit 143,
``terminated: no report written``, an earlier ``-o`` file left as it was. Run as the console
script is, in a subprocess, since the signal handler is the script's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT = """\
from harness import Parent
from harness.testing import fake_subagent


def make():
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={"answered": True, "interactionSummary": "Payday is Friday."},
        description="Knows the payday dates.",
        examples=["when is payday"],
    )
    pto = fake_subagent(
        "pto",
        mode="direct",
        delay=float(__import__("os").environ.get("PTO_DELAY", "0")),
        outputs={"answered": True, "interactionSummary": "You have 12 PTO days left."},
        description="Knows the vacation days left.",
        examples=["how many vacation days do i have left"],
    )
    return Parent(name="desk", subagents=[payroll, pto], model="rules")
"""
SCENARIOS = """\
bot: slow_desk:make
scenarios:
  - name: payday
    turns: [{user: "When is payday?"}]
  - name: vacation
    turns: [{user: "How many vacation days do I have left?"}]
  - name: payday-again
    turns: [{user: "When is payday?"}]
"""


def _start(tmp_path: Path, *options: str, delay: float) -> subprocess.Popen[str]:
    (tmp_path / "slow_desk.py").write_text(BOT, encoding="utf-8")
    (tmp_path / "scenarios.yaml").write_text(SCENARIOS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PTO_DELAY": str(delay)}
    return subprocess.Popen(
        [sys.executable, "-m", "harness", "simulate", "scenarios.yaml", *options],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_off_a_terminal_each_finished_scenario_gets_a_line_on_stderr(tmp_path: Path) -> None:
    process = _start(tmp_path, "--format", "json", delay=0)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    lines = [line for line in err.splitlines() if line.startswith("simulating: ")]
    assert len(lines) == 3, err
    assert lines[0].startswith("simulating: 1 of 3 scenarios done (")
    assert lines[0].endswith("; last: payday: passed")
    assert lines[2].startswith("simulating: 3 of 3 scenarios done (")


def test_quiet_runs_print_no_progress_lines(tmp_path: Path) -> None:
    process = _start(tmp_path, "-q", "--format", "json", delay=0)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "simulating:" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM cannot be sent to a Windows process")
def test_sigterm_ends_the_run_with_143_and_leaves_the_old_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("old", encoding="utf-8")
    process = _start(tmp_path, "-o", str(report), "--format", "json", delay=600)
    assert process.stderr is not None
    deadline = time.monotonic() + 120
    seen = ""
    while "1 of 3 scenarios done" not in seen:  # the first scenario is done, the second runs
        assert time.monotonic() < deadline, seen
        line = process.stderr.readline()
        assert line, seen  # the process ended before the first line
        seen += line
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, seen + err
    assert "terminated: no report written" in err
    assert report.read_text(encoding="utf-8") == "old"
