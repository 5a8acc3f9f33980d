"""``-o FILE`` makes missing folders, for ``harness instructions`` as for every command that
writes a file, and each command's ``--help`` says so (audit s59, finding 11)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli

CONFIG = (
    "parent:\n  name: desk\n  instructions: Help staff.\n"
    "subagents:\n  - name: pto\n    kind: child\n    mode: direct\n"
    "    description: Answers paid time off questions.\n"
)


@pytest.mark.parametrize("command", ["instructions", "lint", "simulate", "detect", "compare"])
def test_the_help_of_o_says_missing_folders_are_made(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Missing folders of FILE are made." in " ".join(result.output.split())


def test_instructions_o_makes_the_missing_folders(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    target = tmp_path / "new" / "folder" / "desk.md"
    result = CliRunner().invoke(cli, ["instructions", str(config), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "pto" in target.read_text(encoding="utf-8")
