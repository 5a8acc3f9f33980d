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
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

import harness.runtime.guard_process as guard_process
from harness import load_bot
from harness.cli.serve import serve_command
from harness.detect.findings import DetectorConfig
from harness.detect.guard import DuplicateGuard, GuardDecision
from harness.detect.transcript import Message
from harness.hosting import create_app
from harness.runtime.guard_process import (
    DEFAULT_CHECK_TIMEOUT,
    DEFAULT_WORKERS,
    PROCESS_THRESHOLD,
    GuardProcessError,
    check_draft,
    configure_guard_process,
    guard_process_info,
    reads_long_text,
    stop_guard_process,
)
from tests.bench.bench_adversarial import adversarial_body, guarded_helpdesk
from tests.core.test_text_linear import FAMILIES, _text
from tests.hosting._guards import CacheCountingGuard, DyingGuard, HangingGuard, MeetingGuard
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


@pytest.fixture(autouse=True)
def _patient_pool() -> Iterator[None]:
    """A budget no honest check reaches even on a busy machine (a test that wants a short one
    sets it); the process-wide pool is left with its default settings."""
    configure_guard_process(timeout=120.0)
    yield
    configure_guard_process()


def _reaped(pid: int) -> bool:
    """Whether ``pid`` is no longer a child of this process (exited and waited for: no zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _pipes() -> int:
    """How many pipes this process has open (Linux)."""
    folder = Path("/proc/self/fd")
    return sum(1 for fd in folder.iterdir() if _link(fd).startswith("pipe:"))


def _link(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:  # the directory's own descriptor, closed by now
        return ""


async def test_a_dead_worker_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    guard, draft, sent, expected = _long_case()
    stop_guard_process()  # one worker from here on, the one this check starts
    await check_draft(guard, draft, sent=sent, turn=2)
    (pid,) = guard_process_info().pids
    started = guard_process_info().started
    os.kill(pid, signal.SIGKILL)
    with caplog.at_level(logging.WARNING, logger="harness.guard"):
        assert await check_draft(guard, draft, sent=sent, turn=2) == expected
    info = guard_process_info()
    assert info.started == started + 1
    assert pid not in info.pids and len(info.pids) == 1
    assert _reaped(pid)
    assert "worker process stopped" in caplog.text


async def test_a_worker_that_dies_twice_fails_the_check() -> None:
    _, draft, sent, _ = _long_case()
    stop_guard_process()
    started = guard_process_info().started
    with pytest.raises(GuardProcessError):
        await check_draft(DyingGuard("drop"), draft, sent=sent, turn=2)
    info = guard_process_info()
    assert info.started == started + 2  # replaced once, then given up
    assert info.pids == ()


async def test_the_checks_own_error_comes_back_as_itself() -> None:
    guard, draft, sent, _ = _long_case()
    with pytest.raises(TypeError):  # comparing a message's turn with None, in the worker
        await asyncio.to_thread(guard_process._WORKER.call, (guard, draft, sent, None))
    # The worker survived its check's error.
    assert await check_draft(guard, draft, sent=sent, turn=2) == _long_case()[3]


async def test_a_hanging_worker_is_killed_and_replaced_and_the_draft_goes_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A check that never ends is abandoned when its budget runs out: the draft goes out as it
    is (the guard fails open), the stuck process is killed and reaped, its pipes closed, a new
    one takes its place, and the next check decides as before."""
    guard, draft, sent, expected = _long_case()
    stop_guard_process()
    await check_draft(guard, draft, sent=sent, turn=2)  # a loaded worker, so only the hang counts
    (stuck,) = guard_process_info().pids
    before = guard_process_info()
    pipes = _pipes()
    configure_guard_process(timeout=2.0)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="harness.guard"):
        decision = await check_draft(
            HangingGuard("drop"), draft, sent=sent, turn=2, conversation="conv-7"
        )
    assert decision == GuardDecision(text=draft)  # delivered unchecked
    warnings = [r.getMessage() for r in caplog.records if r.name == "harness.guard"]
    assert len(warnings) == 1 and "conv-7" in warnings[0] and "2s" in warnings[0]
    info = guard_process_info()
    assert info.timed_out == before.timed_out + 1
    assert stuck not in info.pids and _reaped(stuck)
    assert len(info.pids) == 1 and info.started == before.started + 1  # its replacement
    assert _pipes() == pipes  # the stuck one's two pipes closed, the new one's two open
    configure_guard_process(timeout=120.0)
    assert await check_draft(guard, draft, sent=sent, turn=2) == expected


async def test_a_turn_whose_guard_hangs_is_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Through a whole turn: the reply is the one an unguarded bot sends, and the warning names
    the conversation."""
    text = "When is payday? " + NEW
    plain = load_bot(guarded_helpdesk(tmp_path))
    plain.dependencies = replace(plain.dependencies, guard=None)
    expected = [m.text for m in (await plain.conversation(id="c-plain").send(text)).messages]
    bot = load_bot(guarded_helpdesk(tmp_path))
    bot.dependencies = replace(bot.dependencies, guard=HangingGuard("drop"))
    configure_guard_process(timeout=2.0)
    with caplog.at_level(logging.WARNING, logger="harness.guard"):
        turn = await bot.conversation(id="c-hang").send(text)
    assert [m.text for m in turn.messages] == expected
    assert any("c-hang" in r.getMessage() for r in caplog.records if r.name == "harness.guard")


async def test_two_long_checks_run_at_once(tmp_path: Path) -> None:
    """Two conversations' long checks do not wait for each other: each of these two checks goes
    on only once the other has started (or gives up after a minute); one worker would run them
    one after the other, so the first would give up."""
    _, draft, sent, expected = _long_case()
    configure_guard_process(timeout=120.0, workers=2)
    guards = [
        MeetingGuard(folder=tmp_path, name=name, other=other, patience=60.0)
        for name, other in (("a", "b"), ("b", "a"))
    ]
    decisions = await asyncio.gather(
        *(check_draft(g, draft, sent=sent, turn=2, conversation=g.name) for g in guards)
    )
    assert (tmp_path / "a.met").exists() and (tmp_path / "b.met").exists()
    assert decisions == [expected, expected]


async def test_one_worker_runs_long_checks_one_after_the_other(tmp_path: Path) -> None:
    """The other side of the test above: with ``workers=1`` the checks do not meet (so the
    meeting is what the pool of two makes possible)."""
    _, draft, sent, expected = _long_case()
    configure_guard_process(timeout=120.0, workers=1)
    guards = [
        MeetingGuard(folder=tmp_path, name=name, other=other, patience=1.0)
        for name, other in (("a", "b"), ("b", "a"))
    ]
    decisions = await asyncio.gather(
        *(check_draft(g, draft, sent=sent, turn=2, conversation=g.name) for g in guards)
    )
    met = [(tmp_path / f"{name}.met").exists() for name in ("a", "b")]
    assert met.count(True) == 1  # the second one found the first one's mark
    assert decisions == [expected, expected]
    assert len(guard_process_info().pids) == 1


async def test_the_workers_analysis_cache_is_bounded() -> None:
    """A worker that was sent more than ``recycle_chars`` characters is replaced after its check,
    so its analysis cache (which keeps every text it analysed) never grows past that."""
    stop_guard_process()
    texts = [f"Request {n}: " + NEW for n in range(8)]  # distinct long texts
    per_check = len("Noted.") + len(texts[0])
    configure_guard_process(timeout=120.0, recycle_chars=int(3.5 * per_check))
    before = guard_process_info()
    sizes = []
    for text in texts:
        sent = [_message(1, 1, "bot", text)]
        decision = await check_draft(CacheCountingGuard("drop"), "Noted.", sent=sent, turn=2)
        sizes.append(int(decision.text))
    assert guard_process_info().recycled == before.recycled + 2  # after the 4th and the 8th
    # Each of the first four checks added to one worker's cache; the fifth ran in a fresh one.
    assert sizes[0] < sizes[1] < sizes[2] < sizes[3]
    assert sizes[4:] == sizes[:4]


async def test_serve_has_the_worker_loaded_before_it_listens(tmp_path: Path) -> None:
    stop_guard_process()
    info = await when_served(load_bot(guarded_helpdesk(tmp_path)), guard_process_info)
    assert len(info.pids) == 1
    # serve's defaults are the documented ones (harness serve's too).
    assert (info.timeout, info.workers) == (DEFAULT_CHECK_TIMEOUT, DEFAULT_WORKERS)
    assert _cli_default("--guard-timeout") == DEFAULT_CHECK_TIMEOUT
    assert _cli_default("--guard-workers") == DEFAULT_WORKERS


def _cli_default(option: str) -> Any:
    (found,) = [p for p in serve_command.params if option in getattr(p, "opts", ())]
    return found.default


def test_the_budget_and_the_size_are_checked() -> None:
    for bad in ({"timeout": 0.0}, {"workers": 0}, {"recycle_chars": 0}):
        with pytest.raises(ValueError):
            configure_guard_process(**bad)  # type: ignore[arg-type]
    configure_guard_process(timeout=3.5, workers=1)
    assert (guard_process_info().timeout, guard_process_info().workers) == (3.5, 1)


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
