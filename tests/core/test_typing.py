"""The public API type-checks as the docs use it: ``mypy --strict`` passes the README's snippets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def _mypy(*files: Path) -> tuple[str, int]:
    api = pytest.importorskip("mypy.api", reason="mypy is in the dev extra")
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            "--strict",
            "--no-error-summary",
            *map(str, files),
        ]
    )
    return out + err, status


def test_the_readme_snippets_pass_mypy_strict(tmp_path: Path) -> None:
    snippets = BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert any('mode="direct"' in s for s in snippets)
    files = []
    for index, snippet in enumerate(snippets):
        file = tmp_path / f"readme_{index}.py"
        file.write_text(snippet, encoding="utf-8")
        files.append(file)
    output, status = _mypy(*files)
    assert status == 0, output


def test_a_misspelt_mode_is_a_type_error(tmp_path: Path) -> None:
    file = tmp_path / "bad_mode.py"
    file.write_text(
        "from harness import ChildAgent\n\n"
        'agent = ChildAgent(name="pto", description="PTO.", mode="quiet")\n'
        "reveal_type(agent.mode)\n",
        encoding="utf-8",
    )
    output, status = _mypy(file)
    assert status == 1
    assert 'Argument "mode" to "ChildAgent" has incompatible type "Literal[\'quiet\']"' in output
    assert 'Revealed type is "subagents.contract.Mode"\n' in output
