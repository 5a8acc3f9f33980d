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
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
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


def _work() -> Any:
    """In the worker: the work's result (pickled back to the parent)."""
    return _FORKED[0].work()


@contextlib.contextmanager
def beside(meanwhile: Meanwhile | None, *, fork: bool) -> Iterator[bool]:
    """With ``fork`` (and work not done yet), ``meanwhile`` done in a worker process forked
    now, while the block runs in this one; its result is set when the block ends (what it
    raised is raised then). Yields whether a worker does it: the block then has one core
    fewer to itself while the worker runs. An error in the block waits for the worker to end
    and is raised, not the worker's."""
    if meanwhile is None or meanwhile.done or not fork:
        yield False
        return
    _FORKED[:] = [meanwhile]
    try:
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
        with pool:
            future = pool.submit(_work)  # the worker forks here, holding the work
            _FORKED.clear()
            yield True
            result = future.result()
    finally:
        _FORKED.clear()
    meanwhile.result, meanwhile.done = result, True
