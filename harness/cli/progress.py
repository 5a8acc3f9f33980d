"""A progress bar on standard error for long simulator runs. Off a terminal (a CI log) it draws
nothing, or, when asked (``lines``), writes one line per unit done, so a long run shows it is
alive; silent with ``-q``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import click

from harness.cli import options
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
        lines: off a terminal, a line on standard error per :meth:`advance` (each unit is long:
            a scenario, not a message).
    """

    def __init__(
        self,
        label: str,
        unit: str,
        total: int,
        *,
        wanted: bool = True,
        console: Console | None = None,
        lines: bool = False,
    ) -> None:
        self._bar: Any = None
        self._task: Any = None
        self._lines: tuple[str, str, int] | None = None
        """Off a terminal with ``lines``: the label, unit and total of each line."""
        self._done = 0
        self._started = time.monotonic()
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
        elif lines and not options.stderr_is_terminal():
            self._lines = (label, unit, total)

    def __enter__(self) -> ProgressBar:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, count: int = 1, *, note: str | None = None) -> None:
        """Count ``count`` more units done; off a terminal with ``lines``, say so in a line
        ending in ``note`` (what was done: ``scenarios.yaml::pto: failed``)."""
        self._done += count
        if self._bar is not None:
            self._bar.advance(self._task, count)
        elif self._lines is not None:
            label, unit, total = self._lines
            seconds = time.monotonic() - self._started
            line = f"{label}: {self._done} of {total} {unit} done ({seconds:.0f}s)"
            click.echo(line + (f"; {note}" if note else ""), err=True)

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
