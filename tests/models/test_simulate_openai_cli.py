"""``harness simulate --model openai:<m> --base-url URL`` against an OpenAI-compatible server over
real HTTP (the fake server runs in its own process on 127.0.0.1)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios-openai.yaml"


@pytest.fixture
def fake_server() -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.models.fake_openai", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert " on http://127.0.0.1:" in line, line
        yield line.rsplit(" on ", 1)[1].strip()
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def test_simulate_runs_the_helpdesk_on_an_openai_compatible_server(
    fake_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            str(SCENARIOS),
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            fake_server,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "4 conversations: 0 errors" in result.stdout
    assert "estimated cost $" in result.stdout
