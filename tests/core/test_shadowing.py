"""A user's own ``subagents`` or ``instructions`` package must not break ``harness`` in silence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _import_harness(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from harness import Parent; print('imported')"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("name", "path"),
    [("subagents", "subagents/__init__.py"), ("instructions", "instructions.py")],
)
def test_a_users_package_of_the_same_name_is_named_in_one_line(
    tmp_path: Path, name: str, path: str
) -> None:
    shadow = tmp_path / path
    shadow.parent.mkdir(parents=True, exist_ok=True)
    shadow.write_text("MINE = True\n", encoding="utf-8")
    result = _import_harness(tmp_path)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    found = shadow.parent if path.endswith("__init__.py") else shadow
    assert last == (
        f"harness._shadowing.ShadowedPackageError: connected-agent-harness: your {name!r} at "
        f"{found} hides the SDK's own {name!r} package; rename yours (harness, subagents and "
        "instructions are the SDK's top-level packages)"
    )
    assert "_errors" not in result.stderr


def test_a_project_without_such_packages_imports_harness(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()  # other names are fine, and so is a folder without __init__.py
    (tmp_path / "subagents_extra.py").write_text("", encoding="utf-8")
    result = _import_harness(tmp_path)
    assert (result.returncode, result.stdout.strip()) == (0, "imported"), result.stderr


def test_a_namespace_folder_of_the_same_name_does_not_hide_ours(tmp_path: Path) -> None:
    (tmp_path / "subagents").mkdir()  # no __init__.py: a regular package later on sys.path wins
    result = _import_harness(tmp_path)
    assert result.returncode == 0, result.stderr


def test_packages_imported_from_a_zip_file_are_not_judged(tmp_path: Path) -> None:
    import zipfile

    root = Path(__file__).resolve().parents[2]
    archive = tmp_path / "packages.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for package in ("harness", "subagents", "instructions"):
            for file in (root / package).rglob("*.py"):
                bundle.write(file, file.relative_to(root).as_posix())
    code = (
        f"import sys; sys.path.insert(0, {str(archive)!r}); import harness; print(harness.__file__)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{archive}/harness/__init__.py"
