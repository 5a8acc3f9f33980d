"""``harness simulate --endpoint``: the simulator as a channel against a real ``harness serve``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
HARNESS = [sys.executable, "-c", "from harness.cli import main; main()"]


def _simulate_against(config: Path, tmp_path: Path) -> tuple[int, dict[str, object], str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    log = tmp_path / "serve.log"
    with log.open("w") as errors:
        server = subprocess.Popen(
            [*HARNESS, "serve", str(config), "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
        )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "/api/messages" in line, line + log.read_text()
        url = line.split(" on ", 1)[1].split()[0]
        done = subprocess.run(
            [
                *HARNESS,
                "simulate",
                str(SCENARIOS),
                "--endpoint",
                url,
                "--quiet-period",
                "0.2",
                "--format",
                "json",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        return done.returncode, json.loads(done.stdout or "{}"), done.stderr
    finally:
        server.terminate()
        server.wait(timeout=15)
        if server.stdout is not None:
            server.stdout.close()


def test_simulate_over_http_catches_the_naive_bots_duplicates(tmp_path: Path) -> None:
    code, report, err = _simulate_against(NAIVE, tmp_path)
    assert code == 1, err
    summary = report["summary"]
    assert isinstance(summary, dict)
    assert summary["duplicate"] >= 3
    first = report["transcripts"][0]  # type: ignore[index]
    duplicate = next(f for f in first["findings"] if f["kind"] == "duplicate")
    assert duplicate["senders"] == ["pto", "helpdesk"]


def test_simulate_over_http_passes_the_good_bot(tmp_path: Path) -> None:
    code, report, err = _simulate_against(GOOD, tmp_path)
    assert code == 0, (err, report)
