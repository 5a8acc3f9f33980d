"""``harness scenario from-transcript``: a recorded conversation that went wrong becomes a scenario
that fails on the bot that made the mistake and passes on the fixed one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from harness.cli import cli
from harness.simulate.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "docs" / "examples" / "transcript.jsonl"  # a duplicate and a missed request
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    out = tmp_path / "from-transcript.yaml"
    result = CliRunner().invoke(
        cli,
        ["scenario", "from-transcript", str(TRANSCRIPT), "--bot", str(GOOD), "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    return out


def test_the_scenario_has_the_conversations_user_turns_and_what_went_wrong(scenario: Path) -> None:
    text = scenario.read_text(encoding="utf-8")
    (file,) = [load_scenarios(scenario)]
    (made,) = file.scenarios
    assert [t.user for t in made.turns] == [
        "How many vacation days do I have left, and when is payday?",
        "What is my dental deductible, and can I carry PTO over?",
    ]
    assert "# was: duplicate/containment (error) [pto, helpdesk]" in text
    assert "# was: missed_request (error) [benefits]" in text
    # The recorded plan's requests, for the agents this bot has; the others as comments.
    assert [r.agent for r in made.turns[0].requests] == ["pto", "payroll"]
    assert [r.agent for r in made.turns[1].requests] == ["pto"]
    assert "went to 'benefits', which this bot does not have" in text
    assert yaml.safe_load(text)["bot"] == str(GOOD)


def test_it_fails_on_the_naive_helpdesk_and_passes_on_the_good_one(scenario: Path) -> None:
    runner = CliRunner()
    naive = runner.invoke(cli, ["simulate", str(scenario), "--bot", str(NAIVE), "-q"])
    assert naive.exit_code == 1, naive.output
    assert "duplicate" in naive.output
    good = runner.invoke(cli, ["simulate", str(scenario), "--bot", str(GOOD), "-q"])
    assert good.exit_code == 0, good.output


def test_without_a_bot_every_recorded_request_is_kept(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["scenario", "from-transcript", str(TRANSCRIPT)])
    assert result.exit_code == 0, result.output
    document = yaml.safe_load(result.stdout)
    assert "bot" not in document
    turns = document["scenarios"][0]["turns"]
    assert [r["agent"] for r in turns[1]["requests"]] == ["benefits", "pto"]


def test_a_missing_transcript_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["scenario", "from-transcript", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "no such file" in result.stderr
