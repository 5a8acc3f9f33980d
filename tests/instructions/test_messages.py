"""Two messages of the instructions command and API (audit s59, finding 9): a ``module:attr`` whose
module lacks the attribute is named as such, and ``InstructionsLength.warning()`` says nothing for
instructions within the limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from instructions import AgentView, ParentView, copilot_studio_lengths


def test_a_missing_attribute_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "s59_fixlint_tools.py").write_text(
        "def lookup():\n    return 1\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(cli, ["instructions", "s59_fixlint_tools:nothing"])
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "s59_fixlint_tools has no attribute 'nothing'" in message
    assert "is not a harness.Parent" not in message


def test_an_attribute_that_is_no_parent_is_still_called_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "s59_fixlint_other.py").write_text("VALUE = 3\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(cli, ["instructions", "s59_fixlint_other:VALUE"])
    assert result.exit_code == 2
    assert "is not a harness.Parent" in result.stderr


def test_the_warning_of_a_field_within_the_limit_is_empty() -> None:
    view = ParentView(
        name="desk",
        instructions="Help staff.",
        subagents=(AgentView(name="pay", kind="connected", mode="silent", description="Pay."),),
    )
    lengths = copilot_studio_lengths(view)
    assert lengths and not any(x.over_limit for x in lengths)
    assert [x.warning() for x in lengths] == [""] * len(lengths)
    over = ParentView(name="desk", instructions="Follow the handbook. " * 400)
    assert "over the 8,000 characters" in copilot_studio_lengths(over)[0].warning()


@pytest.mark.parametrize("target", ["s59_fixlint_tools:", ":bot", " :bot"])
def test_a_spec_without_module_or_attribute_asks_for_module_attr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    (tmp_path / "s59_fixlint_tools.py").write_text("VALUE = 3\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(cli, ["instructions", target])
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "is not module:attr: give the module and the attribute" in message
    assert "has no attribute ''" not in message
