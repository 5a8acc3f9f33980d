"""The ``chat`` and ``instructions`` commands, driven through click's runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import __version__
from harness.cli import cli
from tests.core._support import CONFIGS, HELPDESK


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"harness, version {__version__}\n"


def test_help_lists_the_commands(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for command in ("chat", "instructions", "lint", "simulate", "detect", "serve"):
        assert command in result.output


def test_instructions_in_markdown(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["instructions", str(HELPDESK)])
    assert result.exit_code == 0, result.output
    for name in ("pto", "payroll", "password", "direct_deposit"):
        assert name in result.stdout
    assert "answered" in result.stdout
    assert "scopedRequest" in result.stdout


def test_instructions_for_copilot_studio_and_one_agent(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "pto.yaml"
    result = runner.invoke(
        cli,
        [
            "instructions",
            str(HELPDESK),
            "--format",
            "copilot-studio",
            "--agent",
            "pto",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    text = out.read_text(encoding="utf-8")
    assert "kind: AgentDialog" in text
    assert "direct_deposit" not in text


def test_instructions_for_an_unknown_agent_is_one_clear_line(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["instructions", str(HELPDESK), "--agent", "nobody"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ") and "nobody" in lines[0]
    assert "Traceback" not in result.output


def test_instructions_never_import_the_tools(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["instructions", str(CONFIGS / "missing_tool.yaml")])
    assert result.exit_code == 0, result.output


def test_chat_shows_who_sent_each_message(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["chat", str(HELPDESK)], input="how many vacation days do I have left\nexit\n"
    )
    assert result.exit_code == 0, result.output
    assert "helpdesk with 4 sub-agents" in result.stdout
    assert "pto (direct): You have 12 PTO days left this year" in result.stdout
    assert "answered by pto" in result.stdout


def test_chat_shows_the_parent_relaying_a_silent_agent(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chat", str(HELPDESK)], input="when is my next payday?\n")
    assert result.exit_code == 0, result.output
    assert "helpdesk: Your next payday is Friday, December 4" in result.stdout
    assert "findings from payroll" in result.stdout


@pytest.mark.parametrize("command", ["chat", "instructions"])
def test_a_broken_config_exits_2_with_file_and_line(runner: CliRunner, command: str) -> None:
    path = CONFIGS / "unknown_kind.yaml"
    result = runner.invoke(cli, [command, str(path)], input="exit\n")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {path}:5: subagents[0].kind: Input should be 'child' or 'connected'"
    ]


def test_debug_shows_the_traceback(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--debug", "chat", str(CONFIGS / "unknown_kind.yaml")])
    assert result.exit_code != 0
    assert result.exception is not None
    assert type(result.exception).__name__ == "ConfigError"


def test_chat_refuses_an_unknown_model(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chat", str(HELPDESK), "--model", "bogus"], input="exit\n")
    assert result.exit_code == 2
    assert "unknown model 'bogus'" in result.stderr
