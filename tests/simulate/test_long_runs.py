"""A long ``harness simulate`` off a terminal (a CI log) says which scenario finished, one line
each on stderr, and SIGTERM (a cancelled or timed-out CI job) ends it as Ctrl-C does: exit 143,
``terminated: no report written``, an earlier ``-o`` file left as it was. Run as the console
script is, in a subprocess, since the signal handler is the script's."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

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


@contextmanager
def _start(tmp_path: Path, *options: str, delay: float) -> Iterator[subprocess.Popen[str]]:
    """The run, killed on the way out if still running (a failed assertion leaves no process
    sleeping through a 600 s scenario)."""
    (tmp_path / "slow_desk.py").write_text(BOT, encoding="utf-8")
    (tmp_path / "scenarios.yaml").write_text(SCENARIOS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PTO_DELAY": str(delay)}
    process = subprocess.Popen(
        [sys.executable, "-m", "harness", "simulate", "scenarios.yaml", *options],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=60)


def _lines(stream: IO[str]) -> queue.Queue[str]:
    """The lines of ``stream`` as they come, read in a thread (so the test's deadline holds
    while the process writes nothing); an empty string at the end."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in iter(stream.readline, ""):
            lines.put(line)
        lines.put("")

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_off_a_terminal_each_finished_scenario_gets_a_line_on_stderr(tmp_path: Path) -> None:
    with _start(tmp_path, "--format", "json", delay=0) as process:
        _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    lines = [line for line in err.splitlines() if line.startswith("simulating: ")]
    assert len(lines) == 3, err
    assert lines[0].startswith("simulating: 1 of 3 scenarios done (")
    assert lines[0].endswith("; last: payday: passed")
    assert lines[2].startswith("simulating: 3 of 3 scenarios done (")


def test_with_repeat_the_progress_lines_count_runs(tmp_path: Path) -> None:
    with _start(tmp_path, "--repeat", "2", "--format", "json", delay=0) as process:
        _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    lines = [line for line in err.splitlines() if line.startswith("simulating: ")]
    assert len(lines) == 6, err
    assert lines[0].startswith("simulating: 1 of 6 runs done (")
    assert lines[0].endswith("; last: payday (run 1 of 2): passed")


def test_quiet_runs_print_no_progress_lines(tmp_path: Path) -> None:
    with _start(tmp_path, "-q", "--format", "json", delay=0) as process:
        _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "simulating:" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM cannot be sent to a Windows process")
def test_sigterm_ends_the_run_with_143_and_leaves_the_old_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("old", encoding="utf-8")
    with _start(tmp_path, "-o", str(report), "--format", "json", delay=600) as process:
        assert process.stderr is not None
        lines = _lines(process.stderr)
        deadline = time.monotonic() + 120
        seen = ""
        while "1 of 3 scenarios done" not in seen:  # the first scenario is done, the second runs
            left = deadline - time.monotonic()
            assert left > 0, seen
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                pytest.fail(f"no progress line within 120 s: {seen!r}")
            assert line, seen  # the process ended before the first line
            seen += line
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        err = "".join(iter(lambda: lines.get(timeout=10), ""))
    assert process.returncode == 143, seen + err
    assert "terminated: no report written" in err
    assert report.read_text(encoding="utf-8") == "old"
