"""A progress bar on standard error for long simulator runs; silent when stderr is no terminal
or the command runs with ``-q``."""

from __future__ import annotations

from typing import Any

from harness.cli.options import verbosity

__all__ = ["ProgressBar"]


class ProgressBar:
    """Counts units of work (messages, scenarios) with rich; a no-op when not wanted.

    Args:
        label: what is running ("detecting").
        unit: what is counted ("messages").
        total: how many units there are.
        wanted: False makes it a no-op (too little work to be worth a bar); so does ``-q``.
    """

    def __init__(self, label: str, unit: str, total: int, *, wanted: bool = True) -> None:
        self._bar: Any = None
        self._task: Any = None
        if not wanted or verbosity() < 0:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        console = Console(stderr=True)
        if console.is_terminal:
            self._bar = Progress(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                console=console,
                transient=True,
            )
            self._task = self._bar.add_task(label, total=total)

    def __enter__(self) -> ProgressBar:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more units done."""
        if self._bar is not None:
            self._bar.advance(self._task, count)
