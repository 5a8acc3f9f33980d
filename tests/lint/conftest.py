"""Helpers for the linter tests: write configs, lint them, look at findings."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.lint import LintFinding, lint_paths

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
COPILOT = FIXTURES / "copilot-studio"
LINT = FIXTURES / "lint"

PARENT = """\
parent:
  name: helpdesk
  instructions: You are the HR helpdesk.
subagents:
"""


def ids(
    findings: tuple[LintFinding, ...] | list[LintFinding], agent: str | None = None
) -> list[str]:
    """The rule ids found, for one agent when given, in report order."""
    return [f.id for f in findings if agent is None or f.agent == agent]


Writer = Callable[..., Path]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Findings show paths relative to the working directory; pin it."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def write(tmp_path: Path) -> Writer:
    """Write a file under tmp_path (dedented) and return its path."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return _write


@pytest.fixture
def lint_sdk(write: Writer) -> Callable[..., tuple[LintFinding, ...]]:
    """Lint one of this SDK's configs made of PARENT (or a given parent) and sub-agent YAML."""

    def _lint(
        subagents: str, *, parent: str = PARENT, **options: object
    ) -> tuple[LintFinding, ...]:
        path = write("bot.yaml", parent + textwrap.indent(textwrap.dedent(subagents), "  "))
        return lint_paths([path], **options).findings  # type: ignore[arg-type]

    return _lint
