"""The one exit path of every ``harness`` command.

Each command is a :class:`HarnessCommand`: its callback returns its exit code (None for 0) and
raises on errors; :meth:`HarnessCommand.invoke` is the only place that turns either into the
process's exit code. A ``HarnessError`` becomes one ``error: ...`` line and its ``exit_code``
(2 for usage and input errors, 1 for run errors), Ctrl-C exit code 130, SIGTERM (from the console
script, :func:`on_sigterm`) exit code 143, any other exception one line and exit code 1;
``harness --debug`` shows the traceback instead.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from harness.cli.options import EXIT_INTERRUPTED, EXIT_TERMINATED, check_output
from harness.exceptions import HarnessError

__all__ = [
    "HarnessCommand",
    "end_without_collecting",
    "interrupt_code",
    "on_sigterm",
    "paused_gc",
    "process_end",
    "process_start",
]

_SKIP_LAST_COLLECTION: list[object] = []
"""Set by a command whose process should end without the collector's last pass and the
interpreter's teardown: ``True``, then the objects it keeps to the end."""


def process_start() -> None:
    """Called by the console script before its command runs: what an earlier command run in
    this process asked of its end (:func:`end_without_collecting`) is forgotten, so that a
    ``harness detect`` run in-process (a test's runner) cannot end a later ``main()`` call's
    host process at once."""
    _SKIP_LAST_COLLECTION.clear()
    _SIGTERM.clear()
    _OWNER[:] = [os.getpid()]


def end_without_collecting(*kept: object) -> None:
    """Ask the console script to end this process without the cyclic collector's last pass
    and without the interpreter's teardown (:func:`process_end`). At exit the interpreter walks
    every object still alive, and then frees them one by one; after a long ``harness detect``
    (its caches hold millions of small objects, none in a cycle worth reclaiming) the pass costs
    seconds and the freeing a tenth of one. ``kept``: objects (a run's results) held to the
    process's end, so that they are not freed one by one before it either. Only the console
    script's exit reads this, so a command run in-process (a test's runner) keeps its collector
    and its exit as they were (and these objects until the next command that asks)."""
    _SKIP_LAST_COLLECTION[:] = [True, *kept]


def process_end(code: object = None) -> None:
    """Called by the console script as its process ends with exit code ``code``. When a
    command asked for it (:func:`end_without_collecting`), every object left goes to the
    collector's permanent generation, which the last pass at exit does not walk
    (``gc.freeze``); and with no other thread running and a numeric code, the process ends
    here, the exit handlers run and the standard streams flushed (``os._exit``): the
    interpreter's teardown, which frees every object still alive one by one (about 0.1 s
    after 100,000 messages), is skipped. Otherwise it returns, and the process ends as usual."""
    if not _SKIP_LAST_COLLECTION:
        return
    gc.freeze()
    if threading.active_count() > 1 or not (code is None or isinstance(code, int)):
        return  # a thread to join, or a message to print: the usual exit
    atexit._run_exitfuncs()  # what a usual exit runs (logging's flush, among others)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return  # a closed or broken stream: the usual exit reports it
    os._exit(code or 0)


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused, for a command's process only (the library never
    switches it: that is process-wide state the caller owns). The detector builds many small
    objects and no cycles, and on long conversations the collector's passes cost a fifth of the
    time.

    When the collector resumes, the objects made inside are moved to its oldest generation
    (``gc.freeze`` then ``gc.unfreeze``): left in the youngest, where the paused collector kept
    them, its next pass would walk every one of them (seconds of CPU after 100,000 messages).
    They are still collected (in a later full pass) and freed by their reference counts."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()  # every tracked object to the permanent generation (a list splice)...
            gc.unfreeze()  # ...and from there to the oldest one: none is left young
            gc.enable()


_SIGTERM: list[int] = []
"""Set by :func:`on_sigterm`: the ``KeyboardInterrupt`` being handled came from SIGTERM."""
_OWNER: list[int] = []
"""The console script's process (set by :func:`process_start`): a process forked from it (a
``detect --jobs`` worker) inherits :func:`on_sigterm` but is not it."""


def on_sigterm(signum: int, frame: object) -> None:
    """The console script's SIGTERM handler (a CI job cancelled or timed out): the command ends
    as after Ctrl-C (its tasks cancelled, no report written, an old ``-o`` file left as it was),
    with exit code 143 and ``terminated`` on stderr (:func:`interrupt_code`).

    A worker process forked from the command (``detect --jobs``), stopped with SIGTERM when the
    command ends early, exits at once with code 143 and says nothing: the command says it once,
    and a ``KeyboardInterrupt`` in a worker would print its traceback."""
    if _OWNER and os.getpid() != _OWNER[0]:
        os._exit(EXIT_TERMINATED)
    _SIGTERM[:] = [signum]
    raise KeyboardInterrupt


def interrupt_code() -> int:
    """The exit code of a command ended by ``KeyboardInterrupt``: 143 after SIGTERM, else 130."""
    return EXIT_TERMINATED if _SIGTERM else EXIT_INTERRUPTED


def _debug(ctx: click.Context) -> bool:
    return bool(isinstance(ctx.obj, dict) and ctx.obj.get("debug"))


class HarnessCommand(click.Command):
    """A command whose callback returns its exit code; errors end it here, in one way."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            output = ctx.params.get("output")
            if isinstance(output, Path):  # -o FILE: refused now, not after a long run
                check_output(output)
            result = super().invoke(ctx)
        except HarnessError as exc:
            if _debug(ctx):
                raise
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            if _debug(ctx):
                raise
            # A new line (after a progress bar or a prompt), then say so. A report is written
            # only at the end, so an interrupted check wrote none (and left an old one as it was).
            reports = ctx.command.name in ("detect", "simulate", "lint")
            how = "terminated" if _SIGTERM else "interrupted"
            click.echo(f"\n{how}" + (": no report written" if reports else ""), err=True)
            ctx.exit(interrupt_code())
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # a bug, not an input error: still one line without --debug
            if _debug(ctx):
                raise
            click.echo(
                f"error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", err=True
            )
            ctx.exit(1)
        ctx.exit(int(result or 0))
