"""``harness detect`` through click's runner."""

from __future__ import annotations

import builtins
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli.detect import detect_command

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
EMULATOR = FIXTURES / "helpdesk-emulator.transcript"


def _run(*args: str) -> Any:
    return CliRunner().invoke(detect_command, [str(a) for a in args])


def test_a_hand_written_bot_framework_transcript_reports_the_right_message_ids() -> None:
    result = _run(EMULATOR, "--format", "json")
    assert result.exit_code == 1, result.output
    [transcript] = json.loads(result.stdout)["transcripts"]
    found = [
        (f["scope"], tuple(f["message_ids"]), tuple(f["senders"])) for f in transcript["findings"]
    ]
    pto, relay, later_relay = (
        "d2f7b8a3-2b11-11f1-9a41-0d5e6b7c8d90",
        "f4a62e95-2b11-11f1-9a41-0d5e6b7c8d90",
        "426f0bfb-2b12-11f1-9a41-0d5e6b7c8d90",
    )
    # The PTO agent's balance, relayed whole by the helpdesk in turn 1 and restated in turn 3, is
    # one finding naming all three messages: the turn-3 message restates the relay as well (a
    # message whose every claim another states joins that one's finding).
    assert found == [
        (
            "same_turn",
            ("e81c3d54-2b11-11f1-9a41-0d5e6b7c8d90", relay),
            ("Payroll Assistant", "Helpdesk"),
        ),
        (
            "same_turn",
            ("16e2a7b7-2b12-11f1-9a41-0d5e6b7c8d90", "21c5d8c8-2b12-11f1-9a41-0d5e6b7c8d90"),
            ("IT Support", "Helpdesk"),
        ),
        ("cross_turn", (pto, relay, later_relay), ("PTO Assistant", "Helpdesk", "Helpdesk")),
        (
            "same_turn",
            ("378bfaea-2b12-11f1-9a41-0d5e6b7c8d90", later_relay),
            ("PTO Assistant", "Helpdesk"),
        ),
    ]


def test_text_report_by_default() -> None:
    result = _run(EMULATOR)
    assert result.exit_code == 1
    assert "PTO Assistant" in result.stdout and "duplicate" in result.stdout
    assert "4 errors" in result.stdout


def test_a_clean_transcript_exits_0() -> None:
    result = _run(FIXTURES / "clean.jsonl")
    assert result.exit_code == 0, result.output
    assert "no findings" in result.stdout


def test_junit_to_a_file_with_one_case_per_conversation(tmp_path: Path) -> None:
    out = tmp_path / "report.xml"
    result = _run(
        FIXTURES / "clean.jsonl", FIXTURES / "helpdesk.jsonl", "--format", "junit", "--output", out
    )
    assert result.exit_code == 1 and result.stdout == ""
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")


def test_config_tells_the_modes(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"id": "1", "turn": 1, "role": "user", "sender": "user", "text": "payday?"}\n'
        '{"id": "2", "turn": 1, "role": "bot", "sender": "payroll", "text": "Friday, March 13."}\n'
    )
    assert _run(transcript).exit_code == 0
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent: {name: helpdesk, instructions: Helpdesk.}\n"
        "subagents:\n  - {name: payroll, kind: connected, mode: silent, description: Pay.}\n"
    )
    result = _run(transcript, "--config", config, "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["summary"]["silent_leak"] == 1


def test_config_takes_a_python_bot_as_module_attr_and_says_so_for_a_py_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"id": "1", "turn": 1, "role": "user", "sender": "user", "text": "payday?"}\n'
        '{"id": "2", "turn": 1, "role": "bot", "sender": "payroll", "text": "Friday, March 13."}\n'
    )
    (tmp_path / "s53_modes_bot.py").write_text(
        "from harness import ConnectedAgent, Parent\n\n"
        "bot = Parent(name='helpdesk', subagents=[ConnectedAgent(name='payroll', mode='silent',\n"
        "    description='Pay dates.', examples=['when is payday'])])\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = _run(transcript, "--config", "s53_modes_bot:bot", "--format", "json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["summary"]["silent_leak"] == 1
    wrong = _run(transcript, "--config", tmp_path / "s53_modes_bot.py")
    assert wrong.exit_code == 2
    assert "a Python bot is named as module:attr" in wrong.output


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("this is not json", "not JSON"),
        ('{"id": "1", "turn": 1, "role": "user"}\n', "text: missing"),
        (
            '[{"type": "message", "id": "2", "from": {"role": "bot"}, "replyToId": "1"}]',
            "names no activity",
        ),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = _run(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {path}") and words in line


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = _run(tmp_path / "missing.jsonl")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_semantic_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_wordllama(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("wordllama"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wordllama)
    result = _run(FIXTURES / "clean.jsonl", "--semantic")
    assert result.exit_code == 2
    assert "'embeddings' extra" in result.stderr


def test_simulate_semantic_help_says_it_changes_the_missed_request_check_too() -> None:
    from harness.cli.simulate import simulate_command

    result = CliRunner().invoke(simulate_command, ["--help"])
    assert result.exit_code == 0
    shown = " ".join(result.output.split())
    assert "close in meaning each answer is to each request" in shown


def test_a_python_bot_named_in_a_scenario_file_is_found_beside_it(tmp_path: Path) -> None:
    """`bot: module:attr` in a scenario file works from any directory, as `bot: x.yaml` does:
    the module is imported from the scenario file's folder when the import path lacks it."""
    from harness.cli import cli

    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "s53_beside_bot.py").write_text(
        "from harness import ChildAgent, Parent\n\n"
        "bot = Parent(name='bank', subagents=[ChildAgent(name='cards', mode='direct',\n"
        "    description='Freezes and unfreezes debit cards.', examples=['freeze my card'])])\n",
        encoding="utf-8",
    )
    scenarios = folder / "scenarios.yaml"
    scenarios.write_text(
        "bot: s53_beside_bot:bot\nscenarios:\n  - name: freeze\n    turns:\n"
        "      - user: please freeze my card\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["simulate", str(scenarios), "-q"])
    assert result.exit_code in (0, 1), result.output
    assert "1 conversation:" in result.output
    assert "cannot import" not in result.output
