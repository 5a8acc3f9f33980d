"""Where the duplicate guard's check runs: a worker thread, or for long texts a worker process.

The check is pure-Python CPU work. In a worker thread it still holds the interpreter lock, and the
event loop that every conversation shares gets the lock back only when the thread gives it up
(every ``sys.getswitchinterval()``, 5 ms): each time the loop's thread waits on a socket or a
future, it may wait that long again to go on. A check that reads a long text (a user's 1 MB
message: the first ``harness.text.ANALYSIS_BUDGET`` characters of it, which may hold thousands of
numbers or ids) takes a few hundred milliseconds of CPU, and another conversation's turn, which
waits on the loop many times, was delayed by over 100 ms (docs/hosting.md has the figures).

So a check whose draft or recent messages (those within the guard's window) hold a text longer
than ``PROCESS_THRESHOLD`` characters runs in a small pool of reused worker processes (at most
``workers``, 2 by default; ``serve`` starts one before it listens, the others start when two
long checks run at once), so two conversations' long checks do not wait for each other. A thread
sends the pickled arguments to an idle process by pipe and waits, holding nothing. The process
runs the same ``check`` on the same arguments, so its decision is the same, and its log records
are replayed here. Shorter checks, nearly every one, stay in a thread: a round trip to a process
costs more than their analysis.

Every check in a process has a time budget (``timeout``, ``DEFAULT_CHECK_TIMEOUT`` seconds),
counted from when the turn asks for it and covering the wait for an idle process and its start.
When it runs out, the process is killed and reaped (a fresh one is started in its place) and the
draft goes out unchecked, as with the ``warn`` policy, with a warning naming the conversation: the
guard is a safety net, and a check that cannot finish must not cost the user the answer. An error
of the check itself is raised as it would be in a thread; if a process dies, the check is tried
once more in a new one, and a second death raises ``GuardProcessError``.

A process's analysis caches keep the texts they were given (about 1.2 MB per distinct 1 MB
message, measured; the caches are bounded in entries, not bytes). A process that was sent more
than ``recycle_chars`` characters (``DEFAULT_RECYCLE_CHARS``) is replaced after its check, which
bounds them.

The workers are plain ``python -c`` children, not ``multiprocessing``: its "spawn" and
"forkserver" run the program's main module again in the child (a script that runs a bot at
import would run it twice), and a fork of a process running threads (the loop's, the SDKs') may
deadlock.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import inspect
import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from harness.detect.transcript import Message
from harness.exceptions import RunError

if TYPE_CHECKING:
    from harness.detect.guard import DuplicateGuard, GuardDecision

__all__ = [
    "DEFAULT_CHECK_TIMEOUT",
    "DEFAULT_RECYCLE_CHARS",
    "DEFAULT_WORKERS",
    "PROCESS_THRESHOLD",
    "GuardProcessError",
    "GuardProcessInfo",
    "check_draft",
    "configure_guard_process",
    "guard_process_info",
    "reads_long_text",
    "start_guard_process",
    "stop_guard_process",
]

log = logging.getLogger("harness.guard")

PROCESS_THRESHOLD = 2_000
"""Texts longer than this (characters) send the guard's check to a worker process. Most bot
replies and user messages are far shorter; a text this long costs the check a few milliseconds
of CPU at most when it is ordinary prose, up to a few hundred when it is dense with facts."""

DEFAULT_CHECK_TIMEOUT = 10.0
"""Seconds a check in a worker process may take, its wait for an idle process included. The
slowest measured check of a 1 MB message took 0.27 s of CPU on a quiet machine and 2.0 s of wall
time under load 13 on 2 cores; a worker starts in 0.67 s of CPU."""

DEFAULT_WORKERS = 2
"""How many worker processes may run checks at once."""

DEFAULT_RECYCLE_CHARS = 32_000_000
"""A worker process that was sent more characters than this (drafts and messages, counted each
time they are sent) is replaced after its check: its caches hold at most about that many
characters of texts (plus one check's)."""

_START_TIMEOUT = 60.0
"""Seconds ``start_guard_process`` waits for a process to load the detector."""

_HEADER = struct.Struct("!Q")
_READY = pickle.dumps(None, protocol=pickle.HIGHEST_PROTOCOL)  # asks "loaded?"


class GuardProcessError(RunError):
    """The guard's worker process stopped before it answered, twice."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GuardProcessInfo:
    """The worker pool's settings, state and counters since the process started (for metrics
    and tests)."""

    timeout: float
    """Seconds a check in a worker process may take."""
    workers: int
    """How many worker processes may run at once."""
    pids: tuple[int, ...]
    """The ids of the worker processes running now (idle or checking)."""
    busy: int
    """How many checks hold a worker process now."""
    started: int
    """Worker processes started."""
    timed_out: int
    """Checks abandoned because they ran out of time (their drafts went out unchecked)."""
    recycled: int
    """Worker processes replaced because they had been sent ``recycle_chars`` characters."""


def reads_long_text(guard: DuplicateGuard, draft: str, sent: Sequence[Message], turn: int) -> bool:
    """Whether the check reads a text longer than ``PROCESS_THRESHOLD`` characters: the draft,
    or a message of the turns the guard looks at (a message older than its window is skipped)."""
    if len(draft) > PROCESS_THRESHOLD:
        return True
    window = guard.config.cross_turn_window
    oldest = turn - window if window is not None else None
    return any(
        len(m.text) > PROCESS_THRESHOLD
        for m in sent
        if (oldest is None or m.turn >= oldest) and m.turn <= turn
    )


async def check_draft(
    guard: DuplicateGuard,
    draft: str,
    *,
    sent: Sequence[Message],
    turn: int,
    conversation: str | None = None,
    answers: Sequence[str] = (),
) -> GuardDecision:
    """``guard.check(draft, sent=sent, turn=turn, answers=answers)``, off the event loop: in a worker thread, or
    in a worker process when it reads a long text.

    A check in a worker process that runs out of its time budget (``configure_guard_process``)
    is abandoned: the draft is returned unchanged and a warning names ``conversation``.

    Raises:
        GuardProcessError: the worker process died twice during the check.
    """
    if not reads_long_text(guard, draft, sent, turn):
        return await asyncio.to_thread(_check, guard, draft, sent, turn, answers)
    budget = _WORKER.timeout
    deadline = time.monotonic() + budget
    request = _Check(guard, draft, list(sent), turn, deadline, tuple(answers))
    # The thread keeps the budget itself (and kills an overdue process); this bound only covers
    # a thread that started late, when the server's threads were all busy.
    bound = asyncio.timeout(2 * budget)
    try:
        async with bound:
            decision, records = await asyncio.to_thread(_WORKER.call, request)
    except (_OverdueError, TimeoutError) as exc:
        if isinstance(exc, TimeoutError) and not bound.expired():
            raise
        log.warning(
            "conversation %s: the duplicate guard's check ran out of its %gs; "
            "the draft was sent unchecked",
            conversation or "?",
            budget,
        )
        from harness.detect.guard import GuardDecision

        return GuardDecision(text=draft)
    for record in records:
        logger = logging.getLogger(record.name)
        if logger.isEnabledFor(record.levelno):
            logger.handle(record)
    return decision  # type: ignore[no-any-return]


def configure_guard_process(
    *,
    timeout: float = DEFAULT_CHECK_TIMEOUT,
    workers: int = DEFAULT_WORKERS,
    recycle_chars: int = DEFAULT_RECYCLE_CHARS,
) -> None:
    """Set the worker pool's time budget per check, its size, and when a worker is replaced.

    The pool is shared by every bot of the process; ``serve`` calls this with its
    ``guard_timeout`` and ``guard_workers``. Checks already running keep their budget; extra
    idle workers stop when the size shrinks.

    Raises:
        ValueError: for a budget that is not positive, or fewer than one worker or character.
    """
    if not timeout > 0:
        raise ValueError("the guard's check timeout must be a positive number of seconds")
    if workers < 1 or recycle_chars < 1:
        raise ValueError("the guard needs at least one worker process and one character")
    _WORKER.configure(timeout=timeout, workers=workers, recycle_chars=recycle_chars)


async def start_guard_process() -> None:
    """Start a worker process and wait until it has loaded the detector, so that the first long
    message does not wait for it (``serve`` does this before it listens).

    Raises:
        GuardProcessError: the process stopped, or did not load in a minute.
    """
    await asyncio.to_thread(_WORKER.call, None)


def stop_guard_process() -> None:
    """Stop the worker processes (idle ones now, busy ones when their check ends). The next long
    check starts one again. Called at exit."""
    _WORKER.close()


def guard_process_info() -> GuardProcessInfo:
    """The worker pool's processes and counters."""
    return _WORKER.info()


def _check(
    guard: DuplicateGuard, draft: str, sent: Sequence[Message], turn: int, answers: Sequence[str]
) -> GuardDecision:
    """``guard.check``, given ``answers`` only when there are any (a guard of an earlier release,
    subclassed, may not take them)."""
    if answers and "answers" in inspect.signature(guard.check).parameters:
        return guard.check(draft, sent=sent, turn=turn, answers=answers)
    return guard.check(draft, sent=sent, turn=turn)


class _Check(NamedTuple):
    """One check's arguments, and when its budget runs out (``time.monotonic()``)."""

    guard: Any
    draft: str
    sent: list[Message]
    turn: int
    deadline: float
    answers: tuple[str, ...] = ()


class _OverdueError(RunError):
    """The check's budget ran out (its process, if it had one, was killed). Private: the check
    catches it and sends the draft unchecked, so it never reaches a caller; a ``RunError`` only to
    keep every exception the package defines in one tree."""


class _Process:
    """One worker process: requests and answers as length-prefixed pickles on its pipes."""

    def __init__(self, generation: int) -> None:
        root = str(Path(__file__).resolve().parents[2])  # where the harness package is
        path = os.environ.get("PYTHONPATH")
        env = dict(os.environ, PYTHONPATH=root + (os.pathsep + path if path else ""))
        self.popen = subprocess.Popen(
            [sys.executable, "-c", "from harness.runtime.guard_process import _serve; _serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.generation = generation
        self.ready = False
        """Whether it answered that it has loaded the detector."""
        self.chars = 0
        """Characters of text it was sent."""
        self.overdue = False
        """Whether it was killed because a check ran out of time."""

    def exchange(self, data: bytes, deadline: float) -> tuple[bool, Any]:
        """One request and its answer, ``(True, result)`` or ``(False, the check's error)``.

        A watchdog kills the process at ``deadline``: a blocked write or read then fails.

        Raises:
            _OverdueError: the deadline came first.
            OSError, EOFError: the process died.
        """
        if not self.ready:
            self._exchange(_READY, deadline)
            self.ready = True
        return self._exchange(data, deadline)

    def _exchange(self, data: bytes, deadline: float) -> tuple[bool, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _OverdueError
        watchdog = threading.Timer(remaining, self._expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            return _exchange(self.popen, data)
        except (OSError, EOFError):
            if self.overdue:
                raise _OverdueError from None
            raise
        finally:
            watchdog.cancel()
            watchdog.join()

    def _expire(self) -> None:
        self.overdue = True
        with contextlib.suppress(OSError):
            self.popen.kill()

    def close(self, *, kill: bool) -> None:
        """Stop the process, close its pipes and reap it (no zombie, no open pipe)."""
        if kill:
            with contextlib.suppress(OSError):
                self.popen.kill()
        for stream in (self.popen.stdin, self.popen.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            self.popen.wait(timeout=5)  # it exits when its input closes
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


class _Pool:
    """The worker processes: idle ones wait here; a check takes one, or starts one while fewer
    than ``size`` run, or waits for one until its deadline."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._idle: list[_Process] = []
        self._running: dict[int, _Process] = {}  # idle and busy, by pid
        self._generation = 0  # a process of an earlier one (before a close) is not kept
        self.timeout = DEFAULT_CHECK_TIMEOUT
        self.size = DEFAULT_WORKERS
        self.recycle_chars = DEFAULT_RECYCLE_CHARS
        self._started = self._timed_out = self._recycled = 0

    def configure(self, *, timeout: float, workers: int, recycle_chars: int) -> None:
        with self._lock:
            self.timeout, self.size, self.recycle_chars = timeout, workers, recycle_chars
            extra = self._idle[: max(0, len(self._running) - workers)]
            self._idle = self._idle[len(extra) :]
            for process in extra:
                self._running.pop(process.popen.pid, None)
            self._lock.notify_all()
        for process in extra:
            process.close(kill=False)

    def call(self, request: tuple[Any, ...] | None) -> Any:
        """``(decision, log records)`` for ``(guard, draft, sent, turn[, deadline])``; with None,
        have an idle process loaded (or raise ``GuardProcessError``).

        Raises:
            _OverdueError: the budget ran out; the process was killed and replaced.
            GuardProcessError: the process died, and so did its replacement.
        """
        if request is None:
            self._warm()
            return None
        guard, draft, sent, turn = request[:4]
        deadline = request[4] if len(request) > 4 else time.monotonic() + self.timeout
        answers = request[5] if len(request) > 5 else ()
        data = pickle.dumps((guard, draft, sent, turn, answers), protocol=pickle.HIGHEST_PROTOCOL)
        chars = len(draft) + sum(len(m.text) for m in sent)
        for attempt in (1, 2):
            try:
                process = self._take(deadline)
            except _OverdueError:
                self._count_timeout()
                raise
            if time.monotonic() >= deadline:
                self._give_back(process, process)
                self._count_timeout()
                raise _OverdueError
            try:
                ok, value = process.exchange(data, deadline)
            except _OverdueError:
                self._count_timeout()
                self._replace(process)
                raise
            except (OSError, EOFError) as exc:
                self._give_back(process, None)
                process.close(kill=True)
                if attempt == 2:
                    raise GuardProcessError(
                        "the duplicate guard's worker process stopped twice"
                    ) from exc
                log.warning("the duplicate guard's worker process stopped; checking in a new one")
                continue
            process.chars += chars
            if process.overdue:  # killed as the answer came
                self._replace(process)
            elif process.chars > self.recycle_chars:
                with self._lock:
                    self._recycled += 1
                self._replace(process)
            else:
                self._give_back(process, process)
            if not ok:
                raise value  # the check's own error, raised as it would be in a thread
            return value
        raise AssertionError("unreachable")  # pragma: no cover

    def _warm(self) -> None:
        deadline = time.monotonic() + max(_START_TIMEOUT, self.timeout)
        for attempt in (1, 2):
            try:
                process = self._take(deadline)
            except _OverdueError as exc:
                raise GuardProcessError("no duplicate guard worker process was free") from exc
            try:
                process.exchange(_READY, deadline)
            except (_OverdueError, OSError, EOFError) as exc:
                self._give_back(process, None)
                process.close(kill=True)
                if attempt == 2:
                    raise GuardProcessError(
                        "the duplicate guard's worker process did not start"
                    ) from exc
                continue
            self._give_back(process, process)
            return

    def _take(self, deadline: float) -> _Process:
        with self._lock:
            while not self._idle and len(self._running) >= self.size:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise _OverdueError
                self._lock.wait(remaining)
            if self._idle:
                return self._idle.pop()
            process = self._start()
        return process

    def _start(self) -> _Process:
        """A new process, counted as running (with the lock held: Popen returns at once)."""
        try:
            process = _Process(self._generation)
        except OSError as exc:  # no more processes or pipes
            raise GuardProcessError(f"cannot start the guard's worker process: {exc}") from exc
        self._running[process.popen.pid] = process
        self._started += 1
        return process

    def _give_back(self, process: _Process, keep: _Process | None) -> None:
        """``process`` is done with its check; ``keep`` (it) goes back to the idle ones, or it
        stops running (the caller closes it)."""
        closing = None
        with self._lock:
            if keep is not None and (
                keep.generation != self._generation or len(self._running) > self.size
            ):
                closing, keep = keep, None
            if keep is None:
                self._running.pop(process.popen.pid, None)
            else:
                self._idle.append(keep)
            self._lock.notify()
        if closing is not None:
            closing.close(kill=False)

    def _replace(self, process: _Process) -> None:
        """Kill ``process`` and start another in its place, loading while no check needs it."""
        self._give_back(process, None)
        process.close(kill=True)
        with self._lock:
            if len(self._running) < self.size:
                with contextlib.suppress(GuardProcessError):
                    self._idle.append(self._start())
                self._lock.notify()

    def _count_timeout(self) -> None:
        with self._lock:
            self._timed_out += 1

    def info(self) -> GuardProcessInfo:
        with self._lock:
            return GuardProcessInfo(
                timeout=self.timeout,
                workers=self.size,
                pids=tuple(self._running),
                busy=len(self._running) - len(self._idle),
                started=self._started,
                timed_out=self._timed_out,
                recycled=self._recycled,
            )

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            for process in idle:
                self._running.pop(process.popen.pid, None)
            self._generation += 1
            self._lock.notify_all()
        for process in idle:
            process.close(kill=False)


def _exchange(process: subprocess.Popen[bytes], data: bytes) -> tuple[bool, Any]:
    """One request and its answer: (True, the result) or (False, the check's error)."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(_HEADER.pack(len(data)) + data)
    process.stdin.flush()
    answer = _read(process.stdout, _HEADER.unpack(_read(process.stdout, _HEADER.size))[0])
    return pickle.loads(answer)  # type: ignore[no-any-return]


def _read(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the guard's worker process closed its pipe")
    return data


_WORKER = _Pool()
atexit.register(_WORKER.close)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        # Formatted here: the arguments may not pickle, and the record goes back by pipe.
        record.msg, record.args = record.getMessage(), None
        record.exc_info = record.exc_text = None
        self.records.append(record)


def _serve() -> None:
    """A worker process: answer requests until the server closes the pipe."""
    from harness.detect.guard import DuplicateGuard

    # Ctrl-C in a terminal reaches the whole process group: the server stops, and this process
    # with it when its pipe closes, without a KeyboardInterrupt traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    # A stray print (Python's or a C library's) goes to stderr and never corrupts the answers.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    DuplicateGuard().check("Warm up.", sent=[], turn=1)  # load the detector's model now
    root = logging.getLogger()
    handler = _Records()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    while True:
        header = requests.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        request = pickle.loads(_read(requests, _HEADER.unpack(header)[0]))
        handler.records = []
        try:
            answer: tuple[bool, Any] = (True, None)  # None asks "ready?": it is, loaded above
            if request is not None:
                guard, draft, sent, turn, asked = request
                decision = _check(guard, draft, sent, turn, asked)
                answer = (True, (decision, handler.records))
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # the check's error goes back to the caller
            try:
                data = pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # an error that does not pickle goes back as its text
                error = RuntimeError(f"{type(exc).__name__}: {exc}")
                data = pickle.dumps((False, error), protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(_HEADER.pack(len(data)) + data)
        answers.flush()
