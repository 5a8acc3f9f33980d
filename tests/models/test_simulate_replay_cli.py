"""``harness simulate --replay``: the sample's recorded model traffic runs offline from the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios-openai.yaml"
CASSETTE = ROOT / "samples" / "helpdesk" / "cassettes" / "helpdesk-fake-server.jsonl"


def test_the_recorded_scenarios_replay_clean_with_usage() -> None:
    result = CliRunner().invoke(cli, ["simulate", str(SCENARIOS), "--replay", str(CASSETTE)])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.stdout
    assert "input and" in result.stdout
    assert "estimated cost" not in result.stdout  # the fake server's model has no price


def test_a_scenario_missing_from_the_cassette_fails_clearly(tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(
        f"bot: {ROOT / 'samples' / 'helpdesk' / 'helpdesk.yaml'}\n"
        "scenarios:\n  - name: new\n    turns:\n      - user: how do I reset my vpn password\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli, ["simulate", str(scenarios), "--replay", str(CASSETTE), "--format", "json"]
    )
    assert result.exit_code != 0
    assert "cassette" in result.stderr.lower()
    assert not result.stdout.strip() or json.loads(result.stdout)
