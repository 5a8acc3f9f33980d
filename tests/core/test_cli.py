"""The ``chat`` and ``instructions`` commands, driven through click's runner."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import harness
from harness import __version__, load_bot, render_instructions
from harness.cli import cli
from harness.exceptions import UsageError
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
    assert "helpdesk with 4 sub-agents" in result.stderr
    assert "pto (direct): You have 12 PTO days left this year" in result.stdout
    assert "answered by pto" in result.stderr


def test_chat_shows_the_parent_relaying_a_silent_agent(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chat", str(HELPDESK)], input="when is my next payday?\n")
    assert result.exit_code == 0, result.output
    assert "helpdesk: Your next payday is Friday, December 4" in result.stdout
    assert "findings from payroll" in result.stderr


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


# --- Python-defined bots ----------------------------------------------------------------------

_PYTHON_BOT = '''
from harness import ChildAgent, Parent


def pto_balance() -> str:
    """How many paid time off (vacation) days are left this year."""
    return "You have 12 PTO days left this year."


def make() -> Parent:
    return Parent(
        name="campus",
        subagents=[
            ChildAgent(name="pto", mode="direct", tools=[pto_balance],
                       description="Answers questions about vacation days."),
        ],
    )


bot = make()
'''


@pytest.fixture
def python_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bot defined in ``campusbot.py`` in the current directory, which is not on sys.path."""
    (tmp_path / "campusbot.py").write_text(_PYTHON_BOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "campusbot", raising=False)
    return tmp_path


def test_chat_finds_a_python_bot_in_the_current_directory(
    runner: CliRunner, python_bot: Path
) -> None:
    result = runner.invoke(cli, ["chat", "campusbot:bot"], input="how many vacation days left\n")
    assert result.exit_code == 0, result.output
    assert "campus with 1 sub-agent: pto (direct)" in result.stderr
    assert "pto (direct): You have 12 PTO days left this year." in result.stdout


@pytest.mark.parametrize("target", ["campusbot:bot", "campusbot:make"])
def test_instructions_of_a_python_bot(runner: CliRunner, python_bot: Path, target: str) -> None:
    result = runner.invoke(cli, ["instructions", target])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Generated instructions: campus")
    assert "## Sub-agent: pto" in result.stdout
    assert "scopedRequest" in result.stdout


def test_render_instructions_is_what_the_command_prints(runner: CliRunner) -> None:
    bot = load_bot(HELPDESK)
    for fmt in ("md", "copilot-studio"):
        printed = runner.invoke(cli, ["instructions", str(HELPDESK), "--format", fmt]).stdout
        assert render_instructions(bot, format=fmt) == printed  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nobody"):
        render_instructions(bot, agent="nobody")
    for wrong in ({"agent": "nobody"}, {"format": "html"}):  # a user's mistake is in the tree
        with pytest.raises(UsageError):
            render_instructions(bot, **wrong)  # type: ignore[arg-type]


def test_a_missing_python_bot_is_one_clear_line(runner: CliRunner, python_bot: Path) -> None:
    result = runner.invoke(cli, ["instructions", "nosuchmodule:bot"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot import 'nosuchmodule'")


def test_the_current_directory_comes_after_the_installed_packages(
    runner: CliRunner, python_bot: Path
) -> None:
    # A user's own `subagents` package must not shadow the SDK's.
    (python_bot / "subagents").mkdir()
    (python_bot / "subagents" / "__init__.py").write_text("raise ImportError('shadowed')\n")
    result = runner.invoke(cli, ["chat", "campusbot:bot"], input="exit\n")
    assert result.exit_code == 0, result.output
    assert sys.path.index(str(python_bot)) > sys.path.index(str(Path(harness.__file__).parents[1]))


def test_a_piped_chats_standard_output_is_the_bots_alone(runner: CliRunner) -> None:
    """Banner, notes and plans go to standard error; standard output has only the messages."""
    result = runner.invoke(
        cli,
        ["chat", "-v", str(HELPDESK)],
        input="how many vacation days do I have left, and when is payday?\n/plan\n/floor\n",
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines, result.output
    assert all(line.startswith(("pto (direct): ", "helpdesk: ")) for line in lines), lines
    for note in ("helpdesk with 4 sub-agents", "answered by pto", "pto:", "has the floor"):
        assert note in result.stderr


def test_chat_from_a_pipe_prints_no_prompt(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chat", "-q", str(HELPDESK)], input="when is my next payday?\n")
    assert result.exit_code == 0, result.output
    assert (
        result.stdout.strip()
        == "helpdesk: Your next payday is Friday, December 4; you are paid every other Friday."
    )


def test_lint_and_chat_count_the_same_bot_alike(runner: CliRunner) -> None:
    """Lint counts the parent apart from its sub-agents, as chat's banner does (not "5 agents")."""
    linted = runner.invoke(cli, ["lint", str(HELPDESK)])
    chatted = runner.invoke(cli, ["chat", str(HELPDESK)], input="exit\n")
    assert linted.exit_code == 0 and chatted.exit_code == 0, linted.output + chatted.output
    assert "(1 file, 1 parent, 4 sub-agents)" in linted.stdout
    assert "helpdesk with 4 sub-agents" in chatted.stderr
    assert "5 agents" not in linted.stdout


def test_python_dash_m_harness_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "harness", "--version"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(harness.__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr
    assert __version__ in done.stdout


_UNREACHABLE_BOT = """
from harness import ChildAgent, FunctionModel, Parent
from harness.exceptions import ModelRequestError


async def unreachable(request):
    raise ModelRequestError("cannot reach the model", attempts=3)


def pto_balance() -> str:
    \"\"\"How many PTO days are left.\"\"\"
    return "You have 12 PTO days left."


bot = Parent(
    name="campus",
    model=FunctionModel(unreachable),
    subagents=[ChildAgent(name="pto", mode="direct", description="PTO days.", tools=[pto_balance])],
)
"""


def test_a_chat_whose_every_turn_failed_exits_1(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model that cannot be reached: each turn falls back to an apology, and a script reading
    ``harness chat bot.yaml < questions.txt`` learns it from the exit code."""
    (tmp_path / "unreachablebot.py").write_text(_UNREACHABLE_BOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "unreachablebot", raising=False)
    result = runner.invoke(
        cli,
        ["chat", "-q", "unreachablebot:bot"],
        input="How many PTO days do I have?\nAnd when is payday?\n",
    )
    assert result.exit_code == 1, result.output
    assert "error: 2 of 2 turns failed" in result.stderr
    assert result.stdout.count("campus: ") == 2  # each turn still answered the user


def test_a_chat_whose_model_misses_its_cassette_exits_1(runner: CliRunner, tmp_path: Path) -> None:
    """A turn that got no answer at all (a cassette miss ends the turn with an error line)."""
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("", encoding="utf-8")
    result = runner.invoke(
        cli,
        ["chat", "-q", str(HELPDESK), "--model", f"replay:{cassette}"],
        input="When is payday?\n",
    )
    assert result.exit_code == 1, result.output
    assert "error: 1 of 1 turn failed" in result.stderr


def test_a_chat_with_some_failed_turns_exits_1_and_says_how_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.console import Console

    from harness.cli.chat import talk
    from harness.exceptions import RunError

    class Session:
        aside = Console(file=io.StringIO(), width=200)
        verbosity = -1
        sent = 0

        async def turn(self, text: str) -> bool:
            self.sent += 1
            if self.sent == 1:
                raise RunError("cannot reach the bot")
            return False

        def show_plan(self) -> None: ...

        def notes(self) -> None: ...

        def command(self, text: str) -> bool:
            return False

    lines = iter(["hello", "again", "exit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    session = Session()
    with asyncio.Runner() as loop:
        assert talk(session, loop) == 1
    output = session.aside.file.getvalue()  # type: ignore[attr-defined]
    assert "error: 1 of 2 turns failed" in output


def test_a_chat_whose_turns_all_worked_exits_0(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chat", "-q", str(HELPDESK)], input="When is payday?\n")
    assert result.exit_code == 0, result.output
    assert "failed" not in result.stderr
