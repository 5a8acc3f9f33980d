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
each check reads the transcript alone. A worker done before this process's analysis takes its
last shares (``then``: :class:`~._analysis.Ends`), so neither core waits for the other.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from harness.detect._analysis import widen

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


_FORKED: list[Any] = []
"""The work the forked worker does and what it does after (set in the parent just before it
forks)."""


def _work(writer: Connection) -> None:
    """In the worker: the work done, then the help (when asked), and both results (or what was
    raised, with the worker's traceback as a note) sent to the parent."""
    meanwhile, then = _FORKED
    try:
        try:
            result = meanwhile.work()
            outcome: tuple[bool, Any] = (True, (result, then() if then is not None else None))
        except BaseException as exc:  # raised in the parent, as a worker pool's call would
            exc.add_note("".join(traceback.format_exception(exc)).rstrip())
            outcome = (False, exc)
        try:
            writer.send(outcome)
        except Exception as exc:  # a result or an error that does not pickle
            writer.send((False, RuntimeError(f"the work beside failed: {exc!r}")))
    finally:
        writer.close()


@dataclass(slots=True, eq=False)
class Aside:
    """The worker process doing the work beside (:func:`beside`)."""

    meanwhile: Meanwhile
    process: Any
    reader: Connection
    helped: Any = None
    """What the worker's ``then`` returned, once collected."""
    collected: bool = False

    def collect(self) -> Any:
        """Waits for the worker's results (once): sets the work's result and returns what its
        ``then`` returned; raises what the worker raised."""
        if not self.collected:
            self.collected = True
            try:
                ok, value = self.reader.recv()
            except EOFError:
                self.process.join()
                raise RuntimeError(
                    f"the worker doing the work beside ended without a result "
                    f"(exit code {self.process.exitcode})"
                ) from None
            if not ok:
                raise value
            (self.meanwhile.result, self.helped), self.meanwhile.done = value, True
        return self.helped


@contextlib.contextmanager
def beside(
    meanwhile: Meanwhile | None, *, fork: bool, then: Callable[[], Any] | None = None
) -> Iterator[Aside | None]:
    """With ``fork`` (and work not done yet), ``meanwhile`` done in a worker process forked
    now, while the block runs in this one; its result is set when the block ends (what it
    raised is raised then), or earlier by :meth:`Aside.collect`. Yields the worker (None when
    none does it): the block then has one core fewer to itself while the worker runs. An error
    in the block stops the worker and is raised.

    ``then``, when given, is done by the worker after the work (help for this process, which
    must have been set up before the fork: the work may end before the block's own); what it
    returns comes back with the work's result (:meth:`Aside.collect`).

    The worker is a plain forked process with a pipe, not a worker pool, so that this process
    runs no thread of its own while the block forks others (the comparison's workers)."""
    if meanwhile is None or meanwhile.done or not fork:
        yield None
        return
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    # The worker's results (the checks' findings, about 0.4 MB on 100,000 real-text messages,
    # and the analyses it took) are read when this process is done with its own work: in a
    # pipe of the default 64 KB the worker waits, alive, until then, and this process reads
    # them in as many exchanges as the pipe holds, on the path to the report.
    widen(writer.fileno())
    _FORKED[:] = [meanwhile, then]
    try:
        process = context.Process(target=_work, args=(writer,), daemon=True)
        process.start()
    finally:
        _FORKED.clear()
        writer.close()
    aside = Aside(meanwhile, process, reader)
    try:
        try:
            yield aside
        except BaseException:
            process.terminate()  # its work changes nothing here: not worth waiting for
            raise
        aside.collect()
    finally:
        reader.close()
        process.join()
