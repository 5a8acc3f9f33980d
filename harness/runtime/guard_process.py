"""Where the duplicate guard's check runs: a worker thread, or for long texts a worker process.

The check is pure-Python CPU work. In a worker thread it still holds the interpreter lock, and the
event loop that every conversation shares gets the lock back only when the thread gives it up
(every ``sys.getswitchinterval()``, 5 ms): each time the loop's thread waits on a socket or a
future, it may wait that long again to go on. A check that reads a long text (a user's 1 MB
message: the first ``harness.text.ANALYSIS_BUDGET`` characters of it, which may hold thousands of
numbers or ids) takes a few hundred milliseconds of CPU, and another conversation's turn, which
waits on the loop many times, was delayed by over 100 ms (docs/hosting.md has the figures).

So a check whose draft or recent messages (those within the guard's window) hold a text longer
than ``PROCESS_THRESHOLD`` characters runs in one worker process, started once per server
(``start_guard_process``, which ``serve`` calls when the guard is on) or at the first such check,
and reused: a thread sends it the pickled arguments by pipe and waits, holding nothing. The
process runs the same ``check`` on the same arguments, so its decision is the same, and its log
records are replayed here. Shorter checks, nearly every one, stay in a thread: a round trip to
the process costs more than their analysis. Checks go to the process one at a time, in order.
If the process dies, the check is tried once more in a new one; if that dies too the error is
raised, as an error of the check itself would be.

The worker is a plain ``python -c`` child, not ``multiprocessing``: its "spawn" and "forkserver"
run the program's main module again in the child (a script that runs a bot at import would run
it twice), and a fork of a process running threads (the loop's, the SDKs') may deadlock.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from harness.detect.transcript import Message
from harness.exceptions import RunError

if TYPE_CHECKING:
    from harness.detect.guard import DuplicateGuard, GuardDecision

__all__ = [
    "PROCESS_THRESHOLD",
    "GuardProcessError",
    "check_draft",
    "reads_long_text",
    "start_guard_process",
]

log = logging.getLogger("harness.guard")

PROCESS_THRESHOLD = 2_000
"""Texts longer than this (characters) send the guard's check to the worker process. Most bot
replies and user messages are far shorter; a text this long costs the check a few milliseconds
of CPU at most when it is ordinary prose, up to a few hundred when it is dense with facts."""

_HEADER = struct.Struct("!Q")


class GuardProcessError(RunError):
    """The guard's worker process stopped before it answered."""


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
    guard: DuplicateGuard, draft: str, *, sent: Sequence[Message], turn: int
) -> GuardDecision:
    """``guard.check(draft, sent=sent, turn=turn)``, off the event loop: in a worker thread, or
    in the worker process when it reads a long text."""
    if not reads_long_text(guard, draft, sent, turn):
        return await asyncio.to_thread(guard.check, draft, sent=sent, turn=turn)
    decision, records = await asyncio.to_thread(_WORKER.call, (guard, draft, list(sent), turn))
    for record in records:
        logger = logging.getLogger(record.name)
        if logger.isEnabledFor(record.levelno):
            logger.handle(record)
    return decision  # type: ignore[no-any-return]


async def start_guard_process() -> None:
    """Start the guard's worker process and wait until it has loaded the detector, so that the
    first long message does not wait for it (``serve`` does this before it listens)."""
    await asyncio.to_thread(_WORKER.call, None)


class _Worker:
    """The one worker process: requests and answers as length-prefixed pickles on its pipes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self.started = 0
        """How many processes were started (for tests: a dead one is replaced)."""

    def _running(self) -> subprocess.Popen[bytes]:
        process = self._process
        if process is not None and process.poll() is None:
            return process
        if process is not None:
            _close(process)
        root = str(Path(__file__).resolve().parents[2])  # where the harness package is
        path = os.environ.get("PYTHONPATH")
        env = dict(os.environ, PYTHONPATH=root + (os.pathsep + path if path else ""))
        self._process = subprocess.Popen(
            [sys.executable, "-c", "from harness.runtime.guard_process import _serve; _serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.started += 1
        return self._process

    def call(self, request: tuple[Any, ...] | None) -> Any:
        """Send ``request`` and wait for the answer; once more in a new process if it died."""
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            for attempt in (1, 2):
                process = self._running()
                try:
                    ok, value = _exchange(process, data)
                except (OSError, EOFError) as exc:
                    _close(process)
                    self._process = None
                    if attempt == 2:
                        raise GuardProcessError(
                            "the duplicate guard's worker process stopped twice"
                        ) from exc
                    log.warning(
                        "the duplicate guard's worker process stopped; checking in a new one"
                    )
                    continue
                if not ok:
                    raise value  # the check's own error, raised as it would be in a thread
                return value
        raise AssertionError("unreachable")  # pragma: no cover

    def pid(self) -> int | None:
        """The running process's id (for tests)."""
        with self._lock:
            return self._process.pid if self._process is not None else None

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                _close(self._process)
                self._process = None


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


def _close(process: subprocess.Popen[bytes]) -> None:
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    try:
        process.wait(timeout=5)  # it exits when its input closes
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


_WORKER = _Worker()
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
    """The worker process: answer requests until the server closes the pipe."""
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
                guard, draft, sent, turn = request
                answer = (True, (guard.check(draft, sent=sent, turn=turn), handler.records))
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # the check's error goes back to the caller
            try:
                data = pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # an error that does not pickle goes back as its text
                error = RuntimeError(f"{type(exc).__name__}: {exc}")
                data = pickle.dumps((False, error), protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(_HEADER.pack(len(data)) + data)
        answers.flush()
