"""Daemon threads for sync tool calls, reused from one call to the next.

Starting a thread for every call cost about 0.13 ms of CPU time (the simulator benchmark, sync
tools), more than the rest of a simulated tool call; a reused worker costs about 0.05 ms.
A worker that finishes a call waits (up to ``IDLE_S`` seconds) for the next one instead of ending;
at most ``IDLE_WORKERS`` wait at once, so a burst of calls leaves few threads behind. A worker whose
call blocks is simply busy: new calls go to an idle worker or to a new thread, never behind it.
The workers are daemon threads (they never hold up the process's exit), and none of this bounds
how many calls run at once: ``harness.agent.tools`` does that with its slots.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable

__all__ = ["IDLE_S", "IDLE_WORKERS", "run_in_worker"]

IDLE_WORKERS = 8
"""Idle workers kept waiting for a call; a worker that finishes when this many wait ends."""
IDLE_S = 30.0
"""How long an idle worker waits for a call before it ends."""

Job = Callable[[], None]

_lock = threading.Lock()
_idle: list[queue.SimpleQueue[Job]] = []
"""The job queues of the idle workers (most recently idle last)."""


def _reset_after_fork() -> None:  # the parent's workers do not exist in a forked child
    global _lock
    _lock = threading.Lock()
    _idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def _serve(jobs: queue.SimpleQueue[Job]) -> None:
    thread = threading.current_thread()
    while True:
        try:
            job = jobs.get(timeout=IDLE_S)
        except queue.Empty:
            with _lock:
                if jobs in _idle:  # still idle: end; else a job was just handed over
                    _idle.remove(jobs)
                    return
            continue
        with contextlib.suppress(BaseException):  # a job handles its own errors; stay usable
            job()
        thread.name = "harness-tool-idle"
        with _lock:
            if len(_idle) >= IDLE_WORKERS:
                return
            _idle.append(jobs)


def run_in_worker(job: Job, *, name: str) -> None:
    """Run ``job`` on an idle worker thread, or on a new daemon thread when none is idle.

    ``name`` names the thread while it runs the job. ``job`` must not raise (what it raises is
    dropped).
    """

    taken = threading.Lock()
    taken.acquire()

    def named() -> None:
        threading.current_thread().name = name
        taken.release()
        job()

    with _lock:
        jobs = _idle.pop() if _idle else None
    if jobs is None:
        jobs = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(jobs,), name=name, daemon=True).start()
    jobs.put(named)
    # Wait until the worker has the job, as ``Thread.start`` waits for a new thread: the worker
    # then holds the interpreter until the job blocks or ends, so a quick tool is done before the
    # event loop goes on, and concurrent agents' messages keep the order they had with a thread
    # per call (a simulation stays reproducible).
    taken.acquire()
