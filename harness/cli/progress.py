"""A progress bar on standard error for long simulator runs; silent when stderr is no terminal
or the command runs with ``-q``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.cli.options import verbosity

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["ProgressBar"]


class ProgressBar:
    """Counts units of work (messages, scenarios) with rich; a no-op when not wanted.

    A spinner and the time elapsed move while one long piece of work (a conversation of 100,000
    messages) leaves the count where it is, and :meth:`describe` names what is being done.

    Args:
        label: what is running ("detecting").
        unit: what is counted ("messages").
        total: how many units there are.
        wanted: False makes it a no-op (too little work to be worth a bar); so does ``-q``.
        console: where to draw (standard error by default); drawn only on a terminal.
    """

    def __init__(
        self,
        label: str,
        unit: str,
        total: int,
        *,
        wanted: bool = True,
        console: Console | None = None,
    ) -> None:
        self._bar: Any = None
        self._task: Any = None
        if not wanted or verbosity() < 0:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        console = console or Console(stderr=True)
        if console.is_terminal:
            self._bar = Progress(
                SpinnerColumn(),
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                TimeElapsedColumn(),
                TextColumn("{task.description}"),  # last: a narrow terminal cuts it first
                console=console,
                transient=True,
            )
            self._task = self._bar.add_task("", total=total)

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

    def describe(self, what: str) -> None:
        """Name the piece of work being done, at the end of the line ("big.jsonl::c1")."""
        if self._bar is not None:
            self._bar.update(self._task, description=what)

    @property
    def description(self) -> str | None:
        """What the bar says is being done (None when no bar is drawn)."""
        if self._bar is None:
            return None
        return str(self._bar.tasks[0].description)
