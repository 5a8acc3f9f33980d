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
NAIVE_RECORDING = (
    ROOT / "docs" / "examples" / "naive-helpdesk.jsonl"
)  # the naive helpdesk's duplicate
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"


def _from_transcript(transcript: Path, out: Path) -> Path:
    result = CliRunner().invoke(
        cli, ["scenario", "from-transcript", str(transcript), "--bot", str(GOOD), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def test_the_scenario_has_the_conversations_user_turns_and_what_went_wrong(tmp_path: Path) -> None:
    scenario = _from_transcript(TRANSCRIPT, tmp_path / "s.yaml")
    text = scenario.read_text(encoding="utf-8")
    (made,) = load_scenarios(scenario).scenarios
    assert [t.user for t in made.turns] == [
        "How many vacation days do I have left, and when is payday?",
        "What is my dental deductible, and can I carry PTO over?",
    ]
    assert "# was: duplicate/containment (error) [pto, helpdesk]" in text
    assert "# was: missed_request (error)" in text
    # The recorded plan's requests, for the agents this bot has; the others as comments.
    assert [r.agent for r in made.turns[0].requests] == ["pto", "payroll"]
    assert [r.agent for r in made.turns[1].requests] == ["pto"]
    assert "went to 'benefits', which this bot does not have" in text
    assert yaml.safe_load(text)["bot"] == str(GOOD)


def test_it_fails_on_the_naive_helpdesk_and_passes_on_the_good_one(tmp_path: Path) -> None:
    """Made from a duplicate the naive helpdesk sent (docs/examples/naive-helpdesk.jsonl)."""
    scenario = _from_transcript(NAIVE_RECORDING, tmp_path / "s.yaml")
    assert "# was: duplicate/containment (error) [pto, helpdesk]" in scenario.read_text()
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


def test_a_relative_bot_is_written_as_seen_from_the_written_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("helpdesk-naive.yaml", "tools.py"):
        (tmp_path / name).write_text((GOOD.parent / name).read_text(encoding="utf-8"))
    (tmp_path / "regress").mkdir()
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    make = ["scenario", "from-transcript", str(NAIVE_RECORDING), "--bot"]
    made = runner.invoke(cli, [*make, "helpdesk-naive.yaml", "-o", "regress/naive.yaml"])
    assert made.exit_code == 0, made.output
    assert yaml.safe_load(Path("regress/naive.yaml").read_text())["bot"] == "../helpdesk-naive.yaml"
    run = runner.invoke(cli, ["simulate", "regress/naive.yaml", "-q"])
    assert run.exit_code == 1, run.output  # the bot is found, and its duplicate comes back
    assert "duplicate" in run.output
    # To standard output the path is left as typed; a module:attr bot is never rewritten.
    printed = runner.invoke(cli, [*make, "helpdesk-naive.yaml"])
    assert yaml.safe_load(printed.stdout)["bot"] == "helpdesk-naive.yaml"
    monkeypatch.syspath_prepend(str(ROOT))
    flaky = "tests.simulate.flaky_bot:make"
    imported = runner.invoke(cli, [*make, flaky, "-o", "regress/flaky.yaml"])
    assert imported.exit_code == 0, imported.output
    assert yaml.safe_load(Path("regress/flaky.yaml").read_text())["bot"] == flaky


@pytest.mark.parametrize("action", ["from-botium", "from-kit"])
def test_an_imported_files_relative_bot_is_written_as_seen_from_it_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    source = tmp_path / ("a.convo.txt" if action == "from-botium" else "a.csv")
    source.write_text(
        "hello\n\n#me\nhi\n\n#bot\nhello\n"
        if action == "from-botium"
        else "Test Utterance,Expected Response\nhi,hello\n"
    )
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(
        cli, ["scenario", action, source.name, "--bot", "bots/desk.yaml", "-o", "out/s.yaml"]
    )
    assert made.exit_code == 0, made.output
    assert yaml.safe_load(Path("out/s.yaml").read_text())["bot"] == "../bots/desk.yaml"


def test_a_missing_transcript_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["scenario", "from-transcript", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_a_conversation_without_a_user_message_is_refused_or_skipped_with_a_warning(
    tmp_path: Path,
) -> None:
    greeting = tmp_path / "greeting.jsonl"
    greeting.write_text(
        '{"id": "b0", "turn": 0, "role": "bot", "sender": "x", "text": "Welcome!"}\n',
        encoding="utf-8",
    )
    out = tmp_path / "empty.yaml"
    alone = CliRunner().invoke(cli, ["scenario", "from-transcript", str(greeting), "-o", str(out)])
    assert alone.exit_code == 2, alone.output
    assert "no conversation with a user message" in alone.stderr and not out.exists()
    mixed = CliRunner().invoke(
        cli, ["scenario", "from-transcript", str(TRANSCRIPT), str(greeting), "-o", str(out)]
    )
    assert mixed.exit_code == 0, mixed.output
    assert (
        f"warning: {greeting}: conversation" in mixed.stderr and "no user message" in mixed.stderr
    )
    assert len(load_scenarios(out).scenarios) == 1
