"""Work that reads none of the duplicate comparison's analyses (the other detectors' checks),
done in a forked worker process while this process analyses and compares a long conversation.

With two cores, ``harness detect`` used to analyse a long conversation's messages in two
processes and send half of the analyses back (pickled: megabytes, a tenth of the analysis's own
cost, and the parent's reading thread contending for the interpreter's lock), then compare in
two processes with the parent running the other checks first. Now the other checks (the
missed-request check, the awkward acknowledgements, ...: more CPU than the whole analysis) run
in a worker forked before the analysis, while this process analyses alone, so no analysis is
sent back; the comparison's worker is forked after it, as before, and the checks' worker goes on
beside it until it is done. Only the checks' findings come back. The findings are the same:
each check reads the transcript alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

__all__: list[str] = []


@dataclass(slots=True, eq=False)
class Meanwhile:
    """Work done once, in this process or in a forked worker (:func:`beside`): what it does
    must come back as its return value (which must pickle), not as a change of state, since a
    worker's changes stay in the worker."""

    work: Callable[[], Any]
    """The work; its return value becomes :attr:`result`."""
    result: Any = None
    """What :attr:`work` returned, once done."""
    done: bool = False
    """Whether :attr:`work` was done (here or in a worker)."""

    def __call__(self) -> Any:
        """Do the work here unless it was done already; its result."""
        if not self.done:
            self.result = self.work()
            self.done = True
        return self.result


_FORKED: list[Meanwhile] = []
"""The work the forked worker does (set in the parent just before it forks)."""


def _work(writer: Connection) -> None:
    """In the worker: the work done, and its result (or what it raised, with the worker's
    traceback as a note) sent to the parent."""
    try:
        try:
            outcome: tuple[bool, Any] = (True, _FORKED[0].work())
        except BaseException as exc:  # raised in the parent, as a worker pool's call would
            exc.add_note("".join(traceback.format_exception(exc)).rstrip())
            outcome = (False, exc)
        try:
            writer.send(outcome)
        except Exception as exc:  # a result or an error that does not pickle
            writer.send((False, RuntimeError(f"the work beside failed: {exc!r}")))
    finally:
        writer.close()


@contextlib.contextmanager
def beside(meanwhile: Meanwhile | None, *, fork: bool) -> Iterator[bool]:
    """With ``fork`` (and work not done yet), ``meanwhile`` done in a worker process forked
    now, while the block runs in this one; its result is set when the block ends (what it
    raised is raised then). Yields whether a worker does it: the block then has one core
    fewer to itself while the worker runs. An error in the block stops the worker and is
    raised.

    The worker is a plain forked process with a pipe, not a worker pool, so that this process
    runs no thread of its own while the block forks others (the comparison's workers)."""
    if meanwhile is None or meanwhile.done or not fork:
        yield False
        return
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    _FORKED[:] = [meanwhile]
    try:
        process = context.Process(target=_work, args=(writer,), daemon=True)
        process.start()
    finally:
        _FORKED.clear()
        writer.close()
    try:
        try:
            yield True
        except BaseException:
            process.terminate()  # its work changes nothing here: not worth waiting for
            raise
        try:
            ok, value = reader.recv()
        except EOFError:
            process.join()
            raise RuntimeError(
                f"the worker doing the work beside ended without a result "
                f"(exit code {process.exitcode})"
            ) from None
    finally:
        reader.close()
        process.join()
    if not ok:
        raise value
    meanwhile.result, meanwhile.done = value, True
