"""``harness lint module:attr``: a bot built in Python is linted by the same rules as its YAML."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.lint import lint_paths

ROOT = Path(__file__).resolve().parents[2]
FAULTY = ROOT / "docs" / "examples" / "helpdesk-faulty.yaml"


@pytest.fixture
def faulty_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``faultybot.py`` in the current directory: the faulty helpdesk, built from Python."""
    module = tmp_path / "faultybot.py"
    module.write_text(
        f"from harness import load_bot\n\nbot = load_bot({str(FAULTY)!r})\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "faultybot", raising=False)
    return module


def test_a_python_bot_gets_the_findings_of_its_yaml_twin(faulty_bot: Path) -> None:
    from_yaml = lint_paths([FAULTY])
    from_python = lint_paths(["faultybot:bot"])
    assert from_yaml.findings  # the example is faulty on purpose
    assert sorted((f.id, f.agent) for f in from_python.findings) == sorted(
        (f.id, f.agent) for f in from_yaml.findings
    )
    assert {f.file for f in from_python.findings} == {"faultybot.py"}
    assert (from_python.files, from_python.agents) == (1, from_yaml.agents)


def test_lint_command_takes_module_attr_from_the_current_directory(
    faulty_bot: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(faulty_bot.parent)])
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(cli, ["lint", "faultybot:bot"])
    assert result.exit_code == 1, result.output
    assert "HC010" in result.stdout and "faultybot.py" in result.stdout


def test_a_module_that_does_not_import_is_an_invalid_config_finding(faulty_bot: Path) -> None:
    report = lint_paths(["nosuchmodule:bot"])
    [finding] = report.findings
    assert finding.id == "HC100"
    assert "cannot import 'nosuchmodule'" in finding.message


def test_a_missing_file_is_still_a_usage_error(faulty_bot: Path) -> None:
    result = CliRunner().invoke(cli, ["lint", "nothing-here.yaml"])
    assert result.exit_code == 2
    assert "no such file or folder: nothing-here.yaml" in result.stderr


# -- positions, constructor typos, --fix (issue 26) ---------------------------------------------

BOT_SOURCE = """\
from harness import ChildAgent, ConnectedAgent, Parent

pto = ChildAgent(
    name="pto",
    mode="direct",
    description="Answers questions about paid time off.",
    instructions="Look up the balance with the tool.",
    outputs=[],
)
payroll = ConnectedAgent(
    name="payroll",
    mode="silent",
    description="Looks up pay dates.",
    instructions="Compute the payslip and explain it to the employee.",
)
bot = Parent(
    name="helpdesk",
    instructions="You are the HR helpdesk. You are the only agent that talks to the user.",
    subagents=[pto, payroll],
    generated_instructions=True,
)
"""


def _module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> None:
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)


def test_findings_point_at_the_constructor_call_and_the_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(tmp_path, monkeypatch, "linesbot", BOT_SOURCE)
    report = lint_paths(["linesbot:bot"])
    where = {(f.id, f.agent): (f.file, f.line) for f in report.findings}
    assert where[("HC001", "pto")] == ("linesbot.py", 8)  # the `outputs=[]` argument
    assert where[("HC016", "payroll")] == ("linesbot.py", 14)  # the `instructions=` argument
    assert where[("HC011", "helpdesk")] == ("linesbot.py", 18)
    assert "`--fix` cannot change Python" in next(
        f.message for f in report.findings if f.id == "HC001"
    )


def test_a_misspelt_constructor_keyword_gives_file_line_and_did_you_mean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = BOT_SOURCE.replace(
        '    mode="silent",\n', '    mode="silent",\n    pass_histroy=False,\n'
    )
    _module(tmp_path, monkeypatch, "typobot", source)
    [finding] = lint_paths(["typobot:bot"]).findings
    assert finding.id == "HC100"
    assert (finding.file, finding.line) == ("typobot.py", 10)
    assert "'pass_histroy'" in finding.message and "did you mean 'pass_history'?" in finding.message


def test_fix_says_what_it_cannot_change_for_a_python_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(tmp_path, monkeypatch, "fixbot", BOT_SOURCE)
    before = (tmp_path / "fixbot.py").read_text(encoding="utf-8")
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(cli, ["lint", "fixbot:bot", "--fix"])
    assert result.exit_code == 1
    assert "--fix cannot change fixbot:bot (a bot built in Python)" in result.stderr
    assert (tmp_path / "fixbot.py").read_text(encoding="utf-8") == before
