"""Conventions every ``harness`` command keeps: -q/-v, -o/--output, exit codes and help text."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.cli.options import add_verbosity, reset_logging
from tests.core._support import HELPDESK

TRANSCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "transcript.jsonl"


def _commands() -> list[str]:
    return cli.list_commands(click.Context(cli))


def _command(name: str) -> click.Command:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    return command


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"NO_COLOR": "1", "COLUMNS": "120"})


@pytest.fixture(autouse=True)
def _keep_sys_path() -> Iterator[None]:
    saved = list(sys.path)
    yield
    sys.path[:] = saved


@pytest.mark.parametrize("name", _commands())
def test_every_command_has_quiet_and_verbose(name: str) -> None:
    opts = {o for p in _command(name).params for o in p.opts}
    assert {"-q", "--quiet", "-v", "--verbose"} <= opts


@pytest.mark.parametrize("name", _commands())
def test_every_help_ends_with_the_exit_codes(runner: CliRunner, name: str) -> None:
    result = runner.invoke(cli, [name, "--help"])
    assert result.exit_code == 0
    assert "Exit codes: 0 " in result.output
    assert "2 a usage" in result.output or "2 bad input" in result.output


@pytest.mark.parametrize("name", _commands())
def test_every_option_has_help_text(name: str) -> None:
    missing = [
        p.opts[0]
        for p in _command(name).params
        if isinstance(p, click.Option) and not p.hidden and not (p.help or "").strip()
    ]
    assert not missing, f"harness {name}: options without help: {missing}"


def test_the_group_help_names_the_exit_codes(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert "Exit codes:" in result.output


@pytest.mark.parametrize("name", ["instructions", "lint", "simulate", "detect"])
def test_the_output_file_is_spelt_dash_o_and_output(runner: CliRunner, name: str) -> None:
    opts = {o for p in _command(name).params for o in p.opts}
    assert {"-o", "--output"} <= opts
    help_text = runner.invoke(cli, [name, "--help"]).output
    assert "-o, --output FILE" in help_text
    assert "--out " not in help_text and "--out," not in help_text


def test_the_unreleased_out_spelling_is_gone(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = runner.invoke(cli, ["detect", str(TRANSCRIPT), "--format", "json", "--out", str(out)])
    assert result.exit_code == 2
    assert not out.exists()


@pytest.mark.parametrize("spelling", ["-o", "--output"])
def test_output_spellings_write_the_same_file(
    runner: CliRunner, tmp_path: Path, spelling: str
) -> None:
    out = tmp_path / "report.json"
    result = runner.invoke(cli, ["detect", str(TRANSCRIPT), "--format", "json", spelling, str(out)])
    assert result.exit_code in (0, 1), result.output
    assert result.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["version"] == 1


def test_instructions_output_spelling(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "instructions.md"
    result = runner.invoke(cli, ["instructions", str(HELPDESK), "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("# Generated instructions: helpdesk")


def test_quiet_chat_prints_only_the_messages(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["chat", "-q", str(HELPDESK)], input="how many vacation days do I have left\n"
    )
    assert result.exit_code == 0, result.output
    assert "sub-agents" not in result.output  # no banner
    assert "answered by" not in result.output  # no notes
    assert "pto (direct): You have 12 PTO days left" in result.stdout


def test_verbose_chat_shows_each_turns_plan(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["chat", "-v", str(HELPDESK)], input="how many vacation days do I have left\n"
    )
    assert result.exit_code == 0, result.output
    assert "  pto: how many vacation days do I have left" in result.stderr


def test_verbose_shows_the_sdks_log_records_and_quiet_hides_info(runner: CliRunner) -> None:
    @click.command()
    def speak() -> None:
        logging.getLogger("harness.example").debug("a debug record")
        logging.getLogger("harness.example").info("an info record")
        logging.getLogger("harness.example").warning("a warning record")

    add_verbosity(speak)
    default = runner.invoke(speak, [])
    assert "info record" not in default.stderr
    verbose = runner.invoke(speak, ["-v"])
    assert "INFO harness.example: an info record" in verbose.stderr
    assert "debug record" not in verbose.stderr
    assert "DEBUG harness.example: a debug record" in runner.invoke(speak, ["-vv"]).stderr
    assert "info record" not in runner.invoke(speak, ["-q", "-v"]).stderr
    reset_logging()


def test_quiet_and_verbose_leave_no_logging_state_behind(runner: CliRunner) -> None:
    assert runner.invoke(cli, ["instructions", "-vv", str(HELPDESK)]).exit_code == 0
    assert runner.invoke(cli, ["instructions", "-q", str(HELPDESK)]).exit_code == 0
    assert logging.getLogger("harness").handlers == []
    assert logging.getLogger("harness").propagate
    assert logging.root.manager.disable == logging.NOTSET


def test_ctrl_c_in_any_command_exits_130_without_a_traceback(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import harness.cli.simulate as simulate_cli

    def interrupted(coroutine: object) -> None:
        coroutine.close()  # type: ignore[attr-defined]
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate_cli, "run_sync", interrupted)
    result = runner.invoke(cli, ["simulate", str(HELPDESK)])
    assert result.exit_code == 130
    assert "Aborted" not in result.output and "Traceback" not in result.output
    assert result.stderr.splitlines()[-1] == "interrupted: no report written"


def test_a_local_chats_command_in_a_remote_chat_says_what_it_needs() -> None:
    """`/floor` in a chat with a served or deployed bot: not "unknown command" (it is in the
    docs), but that it needs the bot in this process."""
    import io

    from rich.console import Console

    from harness.cli.chat import run_command
    from harness.cli.remote_chat import REMOTE_COMMANDS

    out = io.StringIO()
    aside = Console(file=out, width=200, color_system=None)
    assert run_command("/floor", {}, REMOTE_COMMANDS, aside)
    assert "/floor needs the bot in this process (harness chat CONFIG)" in out.getvalue()
    assert run_command("/nonsense", {}, REMOTE_COMMANDS, aside)
    assert "unknown command /nonsense" in out.getvalue()
