"""The progress bar of long runs: it moves (a spinner, the time elapsed) and names the long
conversation it is checking, even when the count waits for that conversation to end."""

from __future__ import annotations

import io

from rich.console import Console

from harness.cli.progress import ProgressBar


def _terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=120)


def test_the_bar_moves_while_the_count_waits() -> None:
    bar = ProgressBar("detecting", "messages", 128_256, console=_terminal())
    columns = [type(c).__name__ for c in bar._bar.columns]
    assert "SpinnerColumn" in columns and "TimeElapsedColumn" in columns
    with bar:
        bar.describe("big.jsonl::c1")
        assert bar.description == "big.jsonl::c1"


def test_no_bar_off_a_terminal() -> None:
    bar = ProgressBar("detecting", "messages", 10, console=Console(file=io.StringIO()))
    bar.describe("x")  # a no-op
    assert bar.description is None
