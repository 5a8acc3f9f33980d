"""A tool's exception text is shown: in the result, the turn record, chat, simulate and --debug.

Issue 15, item 5.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import load_bot
from harness.cli import cli

CONFIG = """\
parent:
  name: hd
subagents:
  - name: payroll
    kind: connected
    mode: silent
    pass_history: false
    description: Looks up pay dates and paychecks.
    examples: [when is my next paycheck]
    tools: ["tools.py:next_payday"]
"""
TOOLS = '''\
def next_payday() -> str:
    """When the next paycheck (payday) arrives."""
    raise ValueError("the HR system is down")
'''
SCENARIOS = """\
bot: bot.yaml
scenarios:
  - name: payday
    turns:
      - user: When is my next paycheck?
"""
REASON = "payroll: ValueError: the HR system is down"


@pytest.fixture
def bot_dir(tmp_path: Path) -> Path:
    (tmp_path / "bot.yaml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "tools.py").write_text(TOOLS, encoding="utf-8")
    (tmp_path / "scenarios.yaml").write_text(SCENARIOS, encoding="utf-8")
    return tmp_path


async def test_the_result_and_the_turn_record_carry_the_text(bot_dir: Path) -> None:
    conversation = load_bot(bot_dir / "bot.yaml").conversation()
    turn = await conversation.send("When is my next paycheck?")
    assert turn.results[0].error == "ValueError: the HR system is down"
    assert conversation.transcript.turns[-1].errors == (REASON,)
    restored = load_bot(bot_dir / "bot.yaml").conversation(state=conversation.snapshot())
    assert restored.transcript.turns[-1].errors == (REASON,)


def test_chat_shows_the_text(bot_dir: Path) -> None:
    result = CliRunner().invoke(
        cli, ["chat", str(bot_dir / "bot.yaml")], input="When is my next paycheck?\n"
    )
    assert result.exit_code == 1, result.output  # a failed sub-agent call fails the turn
    assert "failed: payroll (ValueError: the HR system is down)" in result.output
    assert "error: 1 of 1 turn failed" in result.output


def test_simulate_shows_the_text(bot_dir: Path) -> None:
    result = CliRunner().invoke(cli, ["simulate", str(bot_dir / "scenarios.yaml")])
    assert f"payday: turn 1: {REASON}" in result.output, result.output


def test_debug_logs_the_traceback(bot_dir: Path) -> None:
    # A real process: under pytest the root logger already has handlers.
    command = [sys.executable, "-c", "from harness.cli import main; main()", "--debug", "chat"]
    result = subprocess.run(
        [*command, str(bot_dir / "bot.yaml")],
        input="When is my next paycheck?\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "sub-agent payroll failed: ValueError: the HR system is down" in result.stderr
    assert "Traceback" in result.stderr
    assert 'raise ValueError("the HR system is down")' in result.stderr


BROKEN_BOT = """\
from harness import ConnectedAgent, Parent, ToolContext


async def stock(ctx: ToolContext) -> dict:
    # A silent agent must never claim the user has the answer: it cannot message the user.
    return {"answered": True, "findings": "3 laptops in stock.", "openQuestions": []}


bot = Parent(
    name="it",
    subagents=[
        ConnectedAgent(name="inventory", mode="silent", handler=stock,
                       description="Checks laptop stock.", examples=["are there laptops in stock"]),
    ],
)
"""


def test_chat_says_which_agent_broke_its_contract(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sub-agent (often a real model ignoring its instructions) whose outputs break the contract
    is named in the turn's note, with what it broke: otherwise the chat shows nothing wrong."""
    (tmp_path / "brokenbot.py").write_text(BROKEN_BOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(
        cli, ["chat", "brokenbot:bot"], input="are there laptops in stock?\n"
    )
    assert result.exit_code == 0, result.output
    assert "broke the contract: inventory (silent_answered)" in result.stderr, result.stderr


def test_chat_names_the_output_a_broken_result_got_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An undeclared output is named in the note, as ``harness simulate`` names it."""
    source = BROKEN_BOT.replace(
        '{"answered": True, "findings": "3 laptops in stock.", "openQuestions": []}',
        '{"answered": False, "findings": "3 laptops.", "openQuestions": [], "shelf": "B4"}',
    )
    assert source != BROKEN_BOT
    (tmp_path / "shelfbot.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(
        cli, ["chat", "shelfbot:bot"], input="are there laptops in stock?\n"
    )
    assert result.exit_code == 0, result.output
    assert "broke the contract: inventory (invalid_output: shelf)" in result.stderr, result.stderr


def test_a_python_bot_that_fails_while_imported_is_a_config_error_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A misspelt keyword in a bot built in Python: exit 2 with the file and line of the call,
    as a YAML config's mistake is reported (it was a bare TypeError, exit 1)."""
    source = BROKEN_BOT.replace('mode="silent", handler=stock', 'mode="silent", handlr=stock')
    (tmp_path / "typobot_s53.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(cli, ["chat", "typobot_s53:bot"], input="")
    assert result.exit_code == 2, result.output
    line = 1 + source.splitlines().index(
        next(text for text in source.splitlines() if "handlr=" in text)
    )
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'typobot_s53.py'}:{line}: TypeError: "
        "ConnectedAgent.__init__() got an unexpected keyword argument 'handlr'"
    ]
