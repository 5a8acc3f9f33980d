"""The project's own test run is quiet: pytest-asyncio's loop-scope deprecation warning does not
show in the dev venv (a project made by ``harness new`` is checked in ``test_new.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_dev_venvs_pytest_shows_no_loop_scope_warning() -> None:
    pytest.importorskip("pytest_asyncio")
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [*command, "-W", "default", "tests/docs/test_readme.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "asyncio_default_fixture_loop_scope" not in output, output
    assert "PytestDeprecationWarning" not in output, output
