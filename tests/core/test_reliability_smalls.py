"""Smaller reliability defects of issue 27: echoes, bad input paths, hanging models, failed plans."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import load_bot
from harness.cli import cli
from harness.exceptions import UsageError
from harness.text import QUOTE_LIMIT, quote

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"


def test_quote_cuts_long_text_at_a_word() -> None:
    assert quote("How do I reset my password?") == "How do I reset my password?"
    long = quote("please " * 1_000)
    assert len(long) <= QUOTE_LIMIT and long.endswith("…")
    assert quote("line one\n\n  line two") == "line one line two"


async def test_the_bot_does_not_echo_a_long_message() -> None:
    text = "Tell me about the migration of the aquarium fish " + "zebra " * 40_000
    turn = await load_bot(HELPDESK).conversation().send(text)
    assert turn.messages
    assert all(len(m.text) < 1_000 for m in turn.messages)


def test_lint_names_a_broken_link_and_a_name_too_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.yaml").symlink_to(tmp_path / "gone.yaml")
    long = "a" * 300 + ".yaml"
    runner = CliRunner()
    for name, why in (("broken.yaml", "broken symbolic link"), (long, "file name too long")):
        result = runner.invoke(cli, ["lint", name], prog_name="harness")
        assert result.exit_code == 2, result.output
        assert f"error: {why}" in result.output
        assert "Traceback" not in result.output and "OSError" not in result.output


def test_load_paths_refuses_a_name_too_long(tmp_path: Path) -> None:
    from harness.lint._engine import load_paths

    with pytest.raises(UsageError, match="no such file or folder"):
        load_paths([tmp_path / ("a" * 300 + ".yaml")])
