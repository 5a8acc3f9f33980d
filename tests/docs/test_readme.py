"""The README's tour runs as written: each Python snippet executes and prints what the README shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def _pairs() -> list[tuple[str, str]]:
    """(python snippet, the text block right after it) pairs."""
    blocks = BLOCK.findall(README)
    pairs = []
    for index, (lang, body) in enumerate(blocks):
        if lang == "python":
            nxt = blocks[index + 1] if index + 1 < len(blocks) else ("", "")
            pairs.append((body, nxt[1] if nxt[0] == "text" else ""))
    return pairs


@pytest.mark.parametrize(("snippet", "expected"), _pairs())
def test_readme_snippet_runs_and_prints_what_the_readme_says(
    snippet: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "README.md", "exec"), {"__name__": "__readme__"})
    assert out.getvalue().strip() == expected.strip()


def test_readme_names_the_two_commands() -> None:
    assert "make demo" in README
    assert "make test" in README
