"""The README's tour runs as written, outside a clone: each Python snippet executes and prints what
the README shows, and passes ruff.

A block whose info string names a file (```` ```yaml title="helpdesk.yaml" ````) is that file: it
is written into an empty working directory before the snippets run there, so the README never
leans on the repository's ``samples/``.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
TITLE = re.compile(r'title="([^"]+)"')


def _blocks() -> list[tuple[str, str | None, str]]:
    """(language, file name or None, body) of every fenced block."""
    found = []
    for lang, info, body in BLOCK.findall(README):
        title = TITLE.search(info)
        found.append((lang, title.group(1) if title else None, body))
    return found


def _files() -> dict[str, str]:
    return {name: body for _, name, body in _blocks() if name is not None}


def _pairs() -> list[tuple[str, str]]:
    """(python snippet, the text block right after it) pairs; file blocks are not snippets."""
    blocks = _blocks()
    pairs = []
    for index, (lang, name, body) in enumerate(blocks):
        if lang == "python" and name is None:
            nxt = blocks[index + 1] if index + 1 < len(blocks) else ("", None, "")
            pairs.append((body, nxt[2] if nxt[0] == "text" else ""))
    return pairs


@pytest.mark.parametrize(("snippet", "expected"), _pairs())
def test_readme_snippet_runs_and_prints_what_the_readme_says(
    snippet: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, body in _files().items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "README.md", "exec"), {"__name__": "__readme__"})
    assert out.getvalue().strip() == expected.strip()


def test_readme_python_passes_ruff(tmp_path: Path) -> None:
    if shutil.which("ruff", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("ruff is not installed (extra 'dev')")
    python = [body for lang, _, body in _blocks() if lang == "python"]
    for index, body in enumerate(python):
        (tmp_path / f"snippet_{index}.py").write_text(body, encoding="utf-8")
    config = ["--config", str(ROOT / "pyproject.toml")]
    for command in (["check"], ["format", "--check", "--diff"]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command, *config, str(tmp_path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_readme_needs_no_clone() -> None:
    runnable = "".join(body for lang, _, body in _blocks() if lang in ("python", "sh"))
    tour = runnable.split("make demo")[0]  # the contributors' section comes last
    assert "samples/" not in tour


def test_readme_names_the_two_commands() -> None:
    """The section headed "the two commands" shows two commands, no more (it once showed three)."""
    section = README.split("## Working on the SDK: the two commands", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make demo", "make test"]
