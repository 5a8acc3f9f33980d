"""The duplicate detector's first stage: every message of a conversation analysed, in order.

A bot message becomes an :class:`~harness.detect._candidates.Entry` (its claims, facts and words),
a user's a :class:`~harness.detect._users._User` (what the detector reads of it: did they ask
again?). The analysis of a message depends on its text alone, so a long conversation's messages
can be analysed in shares by forked worker processes (:func:`analysed_in_processes`) and joined
in order, with the same result as in one process.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import multiprocessing
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from harness.detect._candidates import Entry, _entry
from harness.detect._users import _User
from harness.detect.findings import request_key
from harness.detect.transcript import Message, Transcript
from harness.text import Analysis, analyse

__all__: list[str] = []


def steps(
    transcript: Transcript,
    jobs: int,
    *,
    ends: Ends | None = None,
    before_waiting: Callable[[], object] | None = None,
) -> list[Entry | _User]:
    """The conversation's messages analysed, in order: a bot message with text as an
    :class:`Entry`, a user's as a :class:`_User` (with the requests its turn's plan routed).
    With ``jobs`` above 1, the messages are analysed in that many processes; with ``ends`` (and
    ``jobs`` 1), this process takes their shares from the start and a helper from the end.

    ``before_waiting``, when given, is called once after this process's own analyses: with
    ``ends``, after its shares have become entries and before it waits for the helper's last
    ones (work that needs none of them, done while the helper ends its last share instead of
    after)."""
    plans = {
        planned.turn: frozenset(request_key(p.request) for p in planned.plan)
        for planned in transcript.turns
    }
    messages = transcript.messages
    if jobs > 1:
        analysed = analysed_in_processes(messages, jobs)
    elif ends is not None:
        # This process's shares are the first messages: they become entries while the helper
        # ends its last share, and the helper's (the last messages) when they come.
        own = ends.own()
        out = _joined(messages, 0, own, plans)
        if before_waiting is not None:
            before_waiting()
        rest = ends.rest()
        if len(own) + len(rest) != len(messages):
            raise RuntimeError("the shares analysed do not cover the messages")
        return out + _joined(messages, len(own), rest, plans)
    else:
        analysed = _analysed(messages, 0, len(messages))
    if before_waiting is not None:
        before_waiting()
    if len(analysed) != len(messages):
        raise RuntimeError("the shares analysed do not cover the messages")
    return _joined(messages, 0, analysed, plans)


def _joined(
    messages: Sequence[Message],
    start: int,
    analysed: Sequence[Analysis | _User | None],
    plans: dict[int, frozenset[str]],
) -> list[Entry | _User]:
    """The steps of ``messages[start:]``'s first ``len(analysed)`` messages, from their analyses:
    a user's :class:`_User` with its turn's plan, a bot message with text as an :class:`Entry`
    (at its position in ``messages``)."""
    out: list[Entry | _User] = []
    for position, done in enumerate(analysed, start):
        if isinstance(done, _User):
            done.plan = plans.get(messages[position].turn, frozenset())
            out.append(done)
        elif done is not None:
            out.append(_entry(position, messages[position], done))
    return out


def _analysed(messages: Sequence[Message], start: int, stop: int) -> list[Analysis | _User | None]:
    """What the detector reads of ``messages[start:stop]``: a user's message as a :class:`_User`,
    a bot message's text analysed (None when it has none)."""
    return [
        _User.of(message)
        if message.role == "user"
        else analyse(message.text)
        if message.text.strip()
        else None
        for message in messages[start:stop]
    ]


_FORKED: list[Any] = []
"""The messages, their shares and the number of the next share no process has taken (a
``multiprocessing.Value`` the processes share), set in the parent just before the workers fork."""


def take_next(counter: Any, limit: int) -> int | None:
    """The next number of ``counter`` (a ``multiprocessing.Value`` the processes share), taking
    it, or None when every number below ``limit`` is taken."""
    with counter.get_lock():
        k = counter.value
        counter.value = k + 1
    return k if k < limit else None


def take_all(counter: Any, limit: int) -> None:
    """Every number of ``counter`` below ``limit`` taken: the processes stop after their
    current one."""
    with counter.get_lock():
        counter.value = max(counter.value, limit)


def _next_share() -> int | None:
    """The number of the next share no process has taken (taking it), or None when none is left."""
    _, shares, counter = _FORKED
    return take_next(counter, len(shares))


def _analyse_share() -> tuple[int, list[Analysis | _User | None]] | None:
    """In a worker: the next share no process has taken, its number and :func:`_analysed` of it
    (pickled back to the parent); None when every share is taken."""
    k = _next_share()
    return None if k is None else (k, _analysed(_FORKED[0], *_FORKED[1][k]))


def shrinking(total: int, count: int) -> list[int]:
    """Where to cut ``total`` units of work into ``count`` shares that shrink from the first to
    the last (the last about ``1 / count**2`` of the whole): the process that takes the last
    share ends soon after the others."""
    count = max(1, count)
    return [total - total * (count - k) ** 2 // count**2 for k in range(1, count)]


_SWITCH_INTERVAL = 0.0005
"""The interpreter's thread switch interval, in seconds, while workers send analyses back (the
default is 0.005). The parent's executor thread reads a share's pickled analyses (megabytes) from
a pipe that holds 64 KB, taking the interpreter's lock back after every read, while this thread
analyses with the lock held: at the default interval a worker waits on the full pipe for about a
third of a second per share. Set for the fan-out only, and put back (measured on 100,000
real-text messages: the analysis stage about 0.2 s shorter, the same analyses)."""

_PIPE_BYTES = 1 << 20
"""The capacity asked for the pipe the workers' results come back through (Linux's default is
64 KB, its limit for an unprivileged process 1 MB): see :func:`roomy`."""


def roomy(pool: ProcessPoolExecutor) -> ProcessPoolExecutor:
    """``pool`` with the pipe its workers' results come back through enlarged to
    :data:`_PIPE_BYTES` where the platform allows it (Linux's ``F_SETPIPE_SZ``; elsewhere, or
    when refused, it stays as it was). The parent reads a result in as many reads as the pipe
    holds, each taking the interpreter's lock back while this process analyses or compares:
    fewer, larger reads leave a worker waiting on a full pipe less (measured on 100,000
    real-text messages: the command about 0.15 s shorter). Transport only: the same results."""
    reader = getattr(getattr(pool, "_result_queue", None), "_reader", None)
    if reader is not None:
        widen(reader.fileno())
    return pool


def widen(pipe: int) -> None:
    """The pipe of the file descriptor ``pipe`` enlarged to :data:`_PIPE_BYTES` where the
    platform allows it (Linux's ``F_SETPIPE_SZ``; elsewhere, or when refused, it stays as it
    was): a writer whose data fits goes on at once instead of waiting for the reader."""
    try:
        import fcntl
    except ImportError:  # not a POSIX platform
        return
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is not None:
        # Over the system's limit it is refused: the default pipe works, only slower.
        with contextlib.suppress(OSError):
            fcntl.fcntl(pipe, setsize, _PIPE_BYTES)


_CHUNKS_PER_JOB = 8
"""Shares of the messages per process: whichever process is free takes the next one, and a
worker's shares travel back while it analyses the next (the parent loads them meanwhile)."""


def analysed_in_processes(messages: Sequence[Message], jobs: int) -> list[Analysis | _User | None]:
    """:func:`_analysed` of every message, in shares of fewer and fewer characters, analysed by
    ``jobs - 1`` forked workers and this process: each process takes the next share no other
    has taken when it is free to analyse it (a share never waits queued for a busy worker, so
    the processes end close together); the workers send their analyses back (pickled: about a
    tenth of the analysis's own cost), and this process loads them while it analyses its own.
    The results equal one process's (the analysis is a function of the text alone)."""
    ends = list(itertools.accumulate(len(m.text) for m in messages))
    total = ends[-1] if ends else 0
    cuts = [bisect.bisect_left(ends, at) for at in shrinking(total, jobs * _CHUNKS_PER_JOB)]
    bounds = list(zip([0, *cuts], [*cuts, len(messages)], strict=True))
    context = multiprocessing.get_context("fork")
    _FORKED[:] = [messages, bounds, context.Value("i", 0)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, _SWITCH_INTERVAL))
    try:
        pool = roomy(ProcessPoolExecutor(max_workers=max(1, jobs - 1), mp_context=context))
        with pool:
            # As many calls as shares: a worker's call takes a share only when it starts.
            futures = [pool.submit(_analyse_share) for _ in bounds]
            shares: dict[int, list[Analysis | _User | None]] = {}
            try:
                while (k := _next_share()) is not None:
                    shares[k] = _analysed(messages, *bounds[k])
            finally:
                take_all(_FORKED[2], len(bounds))  # every share taken (on an error too)
                for future in futures:
                    future.cancel()  # the calls not started
            for future in futures:
                if not future.cancelled() and (done := future.result()) is not None:
                    shares[done[0]] = done[1]
    finally:
        sys.setswitchinterval(interval)
        _FORKED.clear()
    return [analysis for k in range(len(bounds)) for analysis in shares[k]]


_END_SHARES = 64
"""Shares of the messages when this process and a helper take them from opposite ends
(:class:`Ends`): the helper comes late, so the shares near the middle, where the two meet, are
small (a few hundredths of a second each on 100,000 messages), and so is the wait for the
helper's last one."""


@dataclass(slots=True, eq=False)
class Ends:
    """A conversation's messages in shares that shrink from the first to the last
    (:func:`shrinking`), taken from opposite ends: this process takes them from the first on
    (:meth:`analysed`), a helper process forked after this object was made from the last on
    once it is free (:meth:`helped`; the work beside the analysis, :mod:`._meanwhile`, done
    early). Each share is taken once, by the process that analyses it; the helper's analyses
    come back pickled (a tenth of their cost) and are joined in order: the result equals one
    process's (the analysis is a function of the text alone)."""

    messages: Sequence[Message]
    """The conversation's messages."""
    bounds: list[tuple[int, int]]
    """Each share's first message and the one after its last."""
    taken: Any
    """``[first, last]``: the shares ``first`` to ``last - 1`` are not taken yet (a
    ``multiprocessing.Array`` the processes share, with its lock)."""
    helper: Callable[[], dict[int, list[Analysis | _User | None]]] | None = None
    """Waits for the helper's analyses (by share); set by the parent before :meth:`analysed`."""
    mine: int = 0
    """The shares this process took (:meth:`own`): the first ``mine``."""

    @classmethod
    def of(cls, messages: Sequence[Message]) -> Ends:
        """``messages`` cut into :data:`_END_SHARES` shares of fewer and fewer characters; to
        be made before the helper forks."""
        ends = list(itertools.accumulate(len(m.text) for m in messages))
        total = ends[-1] if ends else 0
        cuts = [bisect.bisect_left(ends, at) for at in shrinking(total, _END_SHARES)]
        bounds = list(zip([0, *cuts], [*cuts, len(messages)], strict=True))
        taken = multiprocessing.get_context("fork").Array("i", [0, len(bounds)])
        return cls(messages, bounds, taken)

    def _take(self, *, last: bool) -> int | None:
        """The first (or the last) share not taken yet, taking it; None when none is left."""
        with self.taken.get_lock():
            first, stop = int(self.taken[0]), int(self.taken[1])
            if first >= stop:
                return None
            if last:
                self.taken[1] = stop - 1
                return stop - 1
            self.taken[0] = first + 1
            return first

    def helped(self) -> dict[int, list[Analysis | _User | None]]:
        """In the helper: the last shares not taken yet, analysed (by number), until none is
        left."""
        done: dict[int, list[Analysis | _User | None]] = {}
        while (k := self._take(last=True)) is not None:
            done[k] = _analysed(self.messages, *self.bounds[k])
        return done

    def analysed(self) -> list[Analysis | _User | None]:
        """In this process: the first shares not taken yet analysed until none is left, then the
        helper's, when it took any (waiting for its last: :attr:`helper`). :meth:`own`, then
        :meth:`rest`."""
        own = self.own()
        return own + self.rest()

    def own(self) -> list[Analysis | _User | None]:
        """In this process: the first shares not taken yet analysed until none is left, in
        order: the first messages, up to the first the helper analyses (it takes the shares from
        the last)."""
        done: list[Analysis | _User | None] = []
        try:
            while (k := self._take(last=False)) is not None:
                done += _analysed(self.messages, *self.bounds[k])
                self.mine = k + 1  # taken in order from the first: shares 0 to k
        finally:
            with self.taken.get_lock():  # every share taken (on an error too)
                self.taken[0] = self.taken[1]
        return done

    def rest(self) -> list[Analysis | _User | None]:
        """After :meth:`own`: the helper's analyses of the shares after this process's, in order
        (waiting for its last: :attr:`helper`); none when this process took every share."""
        if self.mine == len(self.bounds):
            return []
        if self.helper is None:
            raise RuntimeError("shares were taken by a helper that sends none back")
        helped = self.helper()
        return [a for k in range(self.mine, len(self.bounds)) for a in helped[k]]


JOBS: ContextVar[int] = ContextVar("harness_detect_jobs", default=1)
"""The processes a long conversation is spread over (:func:`worker_processes`)."""
KEPT: ContextVar[list[object] | None] = ContextVar("harness_detect_kept", default=None)
"""Where the last conversation's analysed messages are held (:func:`worker_processes`)."""


@contextlib.contextmanager
def worker_processes(jobs: int, *, kept: list[object] | None = None) -> Iterator[None]:
    """Spread the analysis and the comparisons of long conversations (at least
    :data:`~harness.detect.duplicates.PARALLEL_MESSAGES` bot messages) over ``jobs`` processes, inside the block. For
    commands, not the library's default: the workers are forked (where the platform forks;
    elsewhere, for the judge, for fitting and with embeddings, whose runtime keeps threads, one
    process runs), which a caller with threads of its own must not do.

    ``kept``, when given, holds the last conversation's analysed messages until the next one
    starts, instead of their being freed when its comparison ends: a command whose process ends
    without freeing its objects saves freeing them one by one (about 0.05 s per 100,000
    messages, on the serial path after the comparison)."""
    token = JOBS.set(max(1, jobs))
    held = KEPT.set(kept)
    try:
        yield
    finally:
        KEPT.reset(held)
        JOBS.reset(token)


def forks() -> bool:
    """Whether this platform can fork worker processes."""
    return "fork" in multiprocessing.get_all_start_methods()
