"""Run a script in fresh processes under several ``PYTHONHASHSEED`` values, for the tests that
check a sum over a set of words gives the same floats whatever the process's string hashing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = (1, 2, 3)


def under_seed(script: str, payload: object, seed: int) -> dict[str, object]:
    """What ``script`` prints (one JSON object) when run with ``payload`` (JSON on its standard
    input) in a new process under ``PYTHONHASHSEED=seed``, the repository on its path."""
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    values: dict[str, object] = json.loads(done.stdout)
    return values


def by_seed(script: str, payload: object) -> dict[int, dict[str, object]]:
    """:func:`under_seed` for each of :data:`SEEDS`."""
    return {seed: under_seed(script, payload, seed) for seed in SEEDS}


def assert_same(values: dict[int, dict[str, object]], part: str) -> None:
    """``values[seed][part]`` is the same under every seed as under the first."""
    first = values[SEEDS[0]][part]
    for seed in SEEDS[1:]:
        assert values[seed][part] == first, (
            f"{part} differ between PYTHONHASHSEED {SEEDS[0]} and {seed}"
        )
