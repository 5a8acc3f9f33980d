"""``harness simulate --endpoint``: the simulator as a channel against a real ``harness serve``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.hosting._support import HARNESS, serving

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"


def _simulate_against(config: Path, tmp_path: Path) -> tuple[int, dict[str, object], str]:
    with serving(tmp_path, config=config) as (_process, url, _log):
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
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        return done.returncode, json.loads(done.stdout or "{}"), done.stderr


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
