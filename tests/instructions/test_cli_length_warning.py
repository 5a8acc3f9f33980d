"""``harness instructions --format copilot-studio`` says on stderr which fragment is over Copilot
Studio's editor limit (the fragment's ``# WARNING`` comment is easy to miss in a paste), and
still exits 0: the fragments are written either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli

SENTENCE = "Follow the HR policy handbook closely, and cite the section you used."
LONG = " ".join([SENTENCE] * 100)  # 7,000 characters: over 8,000 with the generated block


def _yaml(folder: Path) -> Path:
    path = folder / "bot.yaml"
    path.write_text(
        "parent:\n  name: desk\n"
        f"  instructions: {json.dumps(LONG)}\n"
        "subagents:\n  - name: pto\n    kind: child\n    mode: direct\n"
        "    description: Answers paid time off questions.\n"
        "    instructions: Use the pto tool.\n",
        encoding="utf-8",
    )
    return path


def test_an_over_limit_fragment_is_a_warning_on_stderr_and_exit_0(tmp_path: Path) -> None:
    path = _yaml(tmp_path)
    result = CliRunner().invoke(cli, ["instructions", "--format", "copilot-studio", str(path)])
    assert result.exit_code == 0, result.output
    assert "# WARNING: these instructions are" in result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith("warning: the instructions of the parent agent 'desk' are ")
    assert "over the 8,000 characters Copilot Studio's web editor accepts" in line
    markdown = CliRunner().invoke(cli, ["instructions", str(path)])
    assert markdown.exit_code == 0 and markdown.stderr == ""
    one_agent = CliRunner().invoke(
        cli, ["instructions", "--format", "copilot-studio", "--agent", "pto", str(path)]
    )
    assert one_agent.exit_code == 0 and one_agent.stderr == ""


def test_a_python_bot_over_the_limit_warns_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "s58_long_desk.py").write_text(
        "from harness import ChildAgent, Parent\n\n"
        f"bot = Parent(name='desk', instructions={LONG!r}, subagents=[ChildAgent(\n"
        "    name='pto', mode='direct', description='Answers paid time off questions.')])\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(
        cli, ["instructions", "--format", "copilot-studio", "s58_long_desk:bot"]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("warning: the instructions of the parent agent 'desk' are ")
