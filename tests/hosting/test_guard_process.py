"""The duplicate guard's worker process (``harness.runtime.guard_process``, issue 27).

A check that reads a long text runs in one reused worker process, so its analysis never holds the
interpreter lock the event loop needs. Checked here: it decides as the check in a thread does and
its log lines reach this process's loggers; a short check never goes there; a dead worker is
replaced, twice dead fails the check; the check's own error comes back as itself; ``serve`` has the
worker loaded before it listens; a served 1 MB message's check runs in no thread of the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

import harness.runtime.guard_process as guard_process
from harness import load_bot
from harness.detect.findings import DetectorConfig
from harness.detect.guard import DuplicateGuard, GuardDecision
from harness.detect.transcript import Message
from harness.hosting import create_app
from harness.runtime.guard_process import (
    PROCESS_THRESHOLD,
    GuardProcessError,
    check_draft,
    reads_long_text,
)
from tests.bench.bench_adversarial import adversarial_body, guarded_helpdesk
from tests.core.test_text_linear import FAMILIES, _text
from tests.hosting._support import activity, running, when_served
from tests.hosting.test_adversarial_message import _Channel, _post

EARLIER = "Your next paycheck arrives on Friday, March 15, by direct deposit to account 4471."
NEW = " ".join(
    f"Office {n} on floor {n % 9 + 1} opens at {n % 12 + 1} am for badge pickup." for n in range(60)
)


def _message(n: int, turn: int, role: str, text: str) -> Message:
    sender = "user" if role == "user" else "payroll"
    return Message(id=f"m{n}", turn=turn, role=role, sender=sender, text=text)  # type: ignore[arg-type]


CASES: dict[str, tuple[str, list[Message], int]] = {
    # A long draft restating an earlier answer among new content: the restated sentence goes.
    "long draft restates": (
        EARLIER + " " + NEW,
        [_message(1, 1, "user", "When is payday?"), _message(2, 1, "bot", EARLIER)],
        2,
    ),
    # The user asked again: the same answer is not a duplicate (a long earlier message too).
    "asked again": (
        EARLIER,
        [
            _message(1, 1, "bot", EARLIER + " " + NEW),
            _message(2, 2, "user", "Sorry, when was payday again?"),
        ],
        2,
    ),
    # A 1 MB fact-dense user message, and a short draft quoting it.
    "megabyte user message": (
        'I can\'t help with "1-1-1-1-1-1-1-1-1-1-1-1…" here.',
        [_message(1, 1, "user", _text(FAMILIES["1-"], 990_000))],
        1,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_the_worker_decides_as_a_thread_does(
    case: str, caplog: pytest.LogCaptureFixture
) -> None:
    draft, sent, turn = CASES[case]
    guard = DuplicateGuard("drop")
    assert reads_long_text(guard, draft, sent, turn)
    here = guard.check(draft, sent=sent, turn=turn)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="harness"):
        there = await check_draft(guard, draft, sent=sent, turn=turn)
    assert there == here
    logged = [r.getMessage() for r in caplog.records if r.name == "harness.guard"]
    # The worker's log lines are replayed on this process's loggers.
    assert logged == [f"duplicate in the draft ({f.method}): {f.evidence}" for f in here.findings]
    if case == "long draft restates":
        assert here.dropped and EARLIER not in here.text and "Office 59" in here.text


async def test_a_short_check_stays_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_worker(request: Any) -> Any:
        raise AssertionError("a short check reached the worker process")

    monkeypatch.setattr(guard_process._WORKER, "call", no_worker)
    guard = DuplicateGuard("drop")
    sent = [_message(1, 1, "bot", EARLIER)]
    decision = await check_draft(guard, EARLIER, sent=sent, turn=1)
    assert decision.text == "" and decision.findings
    # A long message older than the guard's window is not read: the check stays here too.
    windowed = DuplicateGuard("drop", config=DetectorConfig(cross_turn_window=3))
    old = [_message(1, 1, "bot", "x" * (PROCESS_THRESHOLD + 1))]
    assert not reads_long_text(windowed, EARLIER, old, 5)
    assert reads_long_text(windowed, EARLIER, old, 4)
    assert reads_long_text(guard, EARLIER, old, 100)  # no window: every turn is read


def _long_case() -> tuple[DuplicateGuard, str, list[Message], GuardDecision]:
    draft, sent, turn = CASES["long draft restates"]
    guard = DuplicateGuard("drop")
    return guard, draft, sent, guard.check(draft, sent=sent, turn=turn)


def _kill_worker() -> int:
    """SIGKILL the running worker and wait until it has exited; its pid."""
    process = guard_process._WORKER._process
    assert process is not None and process.poll() is None
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    return process.pid


async def test_a_worker_found_dead_is_replaced() -> None:
    # The worker died between two checks (killed, out of memory): the next check starts a new one.
    guard, draft, sent, expected = _long_case()
    await check_draft(guard, draft, sent=sent, turn=2)  # the worker is running
    started = guard_process._WORKER.started
    pid = await asyncio.to_thread(_kill_worker)
    assert await check_draft(guard, draft, sent=sent, turn=2) == expected
    assert guard_process._WORKER.started == started + 1
    assert guard_process._WORKER.pid() not in (None, pid)


async def test_a_worker_that_dies_during_a_check_is_replaced(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker dies after it was chosen for the check (its pipe is broken or closed): the check
    # runs again in a new one, with a warning. Killed from inside the exchange, so that the death
    # always falls between the liveness check and the request (a kill from the test would race
    # with that check and sometimes find the worker dead before it, the case above).
    exchange = guard_process._exchange
    killed: list[int] = []

    def dies_once(process: Any, data: bytes) -> Any:
        if not killed:
            killed.append(_kill_worker())
        return exchange(process, data)

    guard, draft, sent, expected = _long_case()
    await check_draft(guard, draft, sent=sent, turn=2)  # the worker is running
    started = guard_process._WORKER.started
    monkeypatch.setattr(guard_process, "_exchange", dies_once)
    with caplog.at_level(logging.WARNING, logger="harness.guard"):
        assert await check_draft(guard, draft, sent=sent, turn=2) == expected
    assert guard_process._WORKER.started == started + 1
    assert guard_process._WORKER.pid() not in (None, *killed)
    assert "worker process stopped; checking in a new one" in caplog.text


async def test_a_worker_that_dies_twice_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    def dies(process: Any, data: bytes) -> Any:
        process.kill()  # as if the check had killed it
        raise EOFError("the guard's worker process closed its pipe")

    guard, draft, sent, _ = _long_case()
    await check_draft(guard, draft, sent=sent, turn=2)  # a worker is running
    monkeypatch.setattr(guard_process, "_exchange", dies)
    started = guard_process._WORKER.started
    with pytest.raises(GuardProcessError):
        await check_draft(guard, draft, sent=sent, turn=2)
    assert guard_process._WORKER.started == started + 1  # replaced once, then given up


async def test_the_checks_own_error_comes_back_as_itself() -> None:
    guard, draft, sent, _ = _long_case()
    with pytest.raises(TypeError):  # comparing a message's turn with None, in the worker
        await asyncio.to_thread(guard_process._WORKER.call, (guard, draft, sent, None))
    # The worker survived its check's error.
    assert await check_draft(guard, draft, sent=sent, turn=2) == _long_case()[3]


async def test_serve_has_the_worker_loaded_before_it_listens(tmp_path: Path) -> None:
    guard_process._WORKER.close()
    pid = await when_served(load_bot(guarded_helpdesk(tmp_path)), guard_process._WORKER.pid)
    assert pid is not None


async def test_a_served_megabyte_is_checked_outside_the_server_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard's check of a turn that holds a 1 MB message runs in no thread of the server's
    process (there it held the interpreter lock every conversation's loop needs), and the turn is
    answered as before. The choice is the runtime's, the same under both adapters: one is run."""
    in_process: list[int] = []
    check = DuplicateGuard.check

    def counted(self: DuplicateGuard, draft: str, **kwargs: Any) -> Any:
        in_process.append(max((len(m.text) for m in kwargs.get("sent", ())), default=0))
        return check(self, draft, **kwargs)

    monkeypatch.setattr(DuplicateGuard, "check", counted)
    channel = _Channel()
    app = create_app(load_bot(guarded_helpdesk(tmp_path)), adapter="agents-sdk")
    async with running(channel.app()) as service_url, running(app) as base, ClientSession() as s:
        body = adversarial_body(FAMILIES["1-"], service_url, "big", "a1")
        assert await _post(s, base, body) < 300
        short = activity("When is payday?", conversation="other", service_url=service_url, id="b1")
        assert await _post(s, base, json.dumps(short).encode()) < 300
    assert channel.replies.count("a1") >= 1 and "b1" in channel.replies
    # The short conversation's check ran here; none that read the megabyte did.
    assert in_process and max(in_process) < PROCESS_THRESHOLD, in_process
