"""The duplicate detector's first stage: every message of a conversation analysed, in order.

A bot message becomes an :class:`~harness.detect._candidates.Entry` (its claims, facts and words),
a user's a :class:`~harness.detect._users._User` (what the detector reads of it: did they ask
again?). The analysis of a message depends on its text alone, so a long conversation's messages
can be analysed in shares by forked worker processes (:func:`analysed_in_processes`) and joined
in order, with the same result as in one process.
"""

from __future__ import annotations

import bisect
import itertools
import multiprocessing
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from harness.detect._candidates import Entry, _entry
from harness.detect._users import _User
from harness.detect.findings import request_key
from harness.detect.transcript import Message, Transcript
from harness.text import Analysis, analyse

__all__: list[str] = []


def steps(transcript: Transcript, jobs: int) -> list[Entry | _User]:
    """The conversation's messages analysed, in order: a bot message with text as an
    :class:`Entry`, a user's as a :class:`_User` (with the requests its turn's plan routed).
    With ``jobs`` above 1, the messages are analysed in that many processes."""
    plans = {
        planned.turn: frozenset(request_key(p.request) for p in planned.plan)
        for planned in transcript.turns
    }
    messages = transcript.messages
    analysed = (
        analysed_in_processes(messages, jobs) if jobs > 1 else _analysed(messages, 0, len(messages))
    )
    out: list[Entry | _User] = []
    for position, (message, done) in enumerate(zip(messages, analysed, strict=True)):
        if isinstance(done, _User):
            done.plan = plans.get(message.turn, frozenset())
            out.append(done)
        elif done is not None:
            out.append(_entry(position, message, done))
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


_FORKED: list[Sequence[Message]] = []
"""The messages the forked workers analyse (set in the parent just before they start)."""


def _analyse_share(bounds: tuple[int, int]) -> list[Analysis | _User | None]:
    """In a worker: :func:`_analysed` of one share of the messages (pickled back to the
    parent)."""
    return _analysed(_FORKED[0], *bounds)


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

_CHUNKS_PER_JOB = 8
"""Shares of the messages per process: whichever process is free takes the next one, and a
worker's shares travel back while it analyses the next (the parent loads them meanwhile)."""


def analysed_in_processes(messages: Sequence[Message], jobs: int) -> list[Analysis | _User | None]:
    """:func:`_analysed` of every message, in shares of fewer and fewer characters, analysed by
    ``jobs - 1`` forked workers and this process: the workers take the shares in order and send
    their analyses back (pickled: about a tenth of the analysis's own cost), and this process
    takes each share no worker has started yet. The results equal one process's (the analysis
    is a function of the text alone)."""
    ends = list(itertools.accumulate(len(m.text) for m in messages))
    total = ends[-1] if ends else 0
    cuts = [bisect.bisect_left(ends, at) for at in shrinking(total, jobs * _CHUNKS_PER_JOB)]
    bounds = list(zip([0, *cuts], [*cuts, len(messages)], strict=True))
    _FORKED[:] = [messages]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, _SWITCH_INTERVAL))
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=max(1, jobs - 1), mp_context=context) as pool:
            futures = [pool.submit(_analyse_share, share) for share in bounds]
            try:
                # A share no worker has started can be cancelled: then this process takes it.
                here = {
                    k: _analysed(messages, *share)
                    for k, (future, share) in enumerate(zip(futures, bounds, strict=True))
                    if future.cancel()
                }
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
            analysed: list[Analysis | _User | None] = []
            for k, future in enumerate(futures):
                analysed += here[k] if k in here else future.result()
    finally:
        sys.setswitchinterval(interval)
        _FORKED.clear()
    return analysed
