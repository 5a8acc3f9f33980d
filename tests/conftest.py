"""Suite-wide hygiene: each test gets the import path it started with back.

The ``harness`` command appends the working directory to ``sys.path`` (a user's bot module beside
them is importable), which is right for a process that runs one command. Tests invoke the command
in process (``CliRunner``) from temporary folders, and a folder left on the path by one test
changed what a later test on the same worker imported: a folder named like a later test's bot
module was imported as an empty namespace package. Which tests shared a worker depended on
pytest-xdist's scheduling, so the failure came and went.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _import_path_restored() -> Iterator[None]:
    saved = list(sys.path)
    yield
    if sys.path != saved:
        sys.path[:] = saved
