"""Golden files: the generated instructions for a fixed helpdesk, one file per output.

A change to a template shows up here as a diff a reviewer can read. After an intended change,
regenerate the files and review the diff before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/instructions/test_golden.py

With ``UPDATE_GOLDEN=1`` each golden test rewrites its file (and passes) instead of comparing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from instructions import (
    AgentView,
    render_copilot_studio,
    render_markdown,
    render_parent_system,
    render_subagent_instructions,
    render_top_level_instruction,
)
from tests.instructions._helpdesk import HELPDESK, IT_TICKET, PAYROLL, PTO

GOLDEN = Path(__file__).with_name("golden")


def check_golden(name: str, text: str, *, directory: Path = GOLDEN) -> None:
    """Compare ``text`` with the golden file ``name``, or rewrite it when UPDATE_GOLDEN=1."""
    path = directory / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file {path} is missing; run with UPDATE_GOLDEN=1 to create it")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file; UPDATE_GOLDEN=1 regenerates it"


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        (PAYROLL, "subagent_silent.md"),
        (PTO, "subagent_direct.md"),
        (IT_TICKET, "subagent_conversational.md"),
    ],
    ids=["silent", "direct", "conversational"],
)
def test_subagent_instructions_per_mode(agent: AgentView, name: str) -> None:
    check_golden(name, render_subagent_instructions(agent))


@pytest.mark.parametrize(
    ("render", "name"),
    [
        (render_top_level_instruction, "top_level.md"),
        (render_parent_system, "parent_system.md"),
        (lambda parent: render_parent_system(parent, generated=False), "parent_system_naive.md"),
        (render_markdown, "markdown.md"),
        (render_copilot_studio, "copilot_studio.yaml"),
    ],
    ids=["top-level", "parent-system", "parent-system-naive", "markdown", "copilot-studio"],
)
def test_parent_outputs(render: Callable[..., str], name: str) -> None:
    check_golden(name, render(HELPDESK))


def test_update_golden_rewrites_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    (tmp_path / "x.md").write_text("old\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="UPDATE_GOLDEN=1"):
        check_golden("x.md", "new\n", directory=tmp_path)

    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    check_golden("x.md", "new\n", directory=tmp_path)
    check_golden("created.md", "fresh\n", directory=tmp_path)
    assert (tmp_path / "x.md").read_text(encoding="utf-8") == "new\n"
    assert (tmp_path / "created.md").read_text(encoding="utf-8") == "fresh\n"

    monkeypatch.delenv("UPDATE_GOLDEN")
    check_golden("x.md", "new\n", directory=tmp_path)


def test_missing_golden_file_fails_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    with pytest.raises(pytest.fail.Exception, match="UPDATE_GOLDEN=1"):
        check_golden("absent.md", "text\n", directory=tmp_path)
