"""Sync tool calls reuse idle daemon threads instead of starting one per call."""

from __future__ import annotations

import threading
import time

import pytest

from harness.agent import _workers


def _run(name: str) -> threading.Thread:
    """Run one job on a worker and return the thread it ran on (checking its name meanwhile)."""
    ran: list[threading.Thread] = []
    done = threading.Event()

    def job() -> None:
        thread = threading.current_thread()
        assert thread.name == name
        ran.append(thread)
        done.set()

    _workers.run_in_worker(job, name=name)
    assert done.wait(5)
    return ran[0]


def _wait_idle(thread: threading.Thread) -> None:
    for _ in range(500):
        if thread.name == "harness-tool-idle":
            return
        time.sleep(0.002)
    raise AssertionError(f"{thread.name} never went idle")


def test_calls_one_after_another_run_on_one_daemon_thread_named_for_each_call() -> None:
    threads = []
    for index in range(20):
        thread = _run(f"harness-tool-payroll-lookup-{index}")
        assert thread.daemon
        _wait_idle(thread)
        threads.append(thread)
    assert len({id(t) for t in threads}) == 1


def test_a_blocked_call_does_not_hold_up_the_next_one() -> None:
    gate = threading.Event()
    started = threading.Event()

    def stuck() -> None:
        started.set()
        gate.wait(10)

    _workers.run_in_worker(stuck, name="harness-tool-tickets-stuck")
    assert started.wait(5)
    try:
        assert _run("harness-tool-payroll-lookup").daemon
    finally:
        gate.set()


def test_a_job_that_raises_leaves_its_worker_usable() -> None:
    def crash() -> None:
        raise SystemExit(3)

    _workers.run_in_worker(crash, name="harness-tool-crash")
    assert _run("harness-tool-after-crash").is_alive()


def test_idle_workers_end_after_a_while_and_at_most_a_few_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_workers, "IDLE_S", 0.2)
    gate = threading.Event()
    count = _workers.IDLE_WORKERS + 4
    started = threading.Barrier(count + 1)
    finished = threading.Semaphore(0)

    def busy() -> None:
        started.wait(5)
        gate.wait(5)
        finished.release()

    for index in range(count):  # all at once: each needs a thread of its own
        _workers.run_in_worker(busy, name=f"harness-tool-burst-{index}")
    started.wait(5)  # (idle workers left by earlier tests were taken first)
    gate.set()
    for _ in range(count):
        assert finished.acquire(timeout=5)
    assert len(_workers._idle) <= _workers.IDLE_WORKERS

    def ours() -> list[str]:
        return [
            t.name
            for t in threading.enumerate()
            if t.name.startswith("harness-tool-burst") or t.name == "harness-tool-idle"
        ]

    for _ in range(500):
        if not ours():
            break
        time.sleep(0.01)
    assert ours() == []


async def test_concurrent_agents_with_quick_sync_tools_answer_in_the_same_order_every_time() -> (
    None
):
    """Each quick sync tool is done before the event loop goes on (as with a thread per call), so
    a conversation replayed gives the same messages in the same order: simulations reproduce."""
    from pathlib import Path

    from harness import load_bot

    bot = load_bot(Path(__file__).parents[2] / "samples" / "helpdesk" / "helpdesk.yaml")
    dialogue = (
        "How many vacation days do I have remaining, and when will I be getting my next paycheck?",
        "I want to change my direct deposit account",
        "It's 123456789, and also how many vacation days have I taken?",
    )
    seen = set()
    for _ in range(20):
        conversation = bot.conversation()
        for text in dialogue:
            await conversation.send(text)
        seen.add(tuple((m.sender, m.text) for m in conversation.transcript.messages))
    (messages,) = seen
    # The conversational agent's question is held to the end of the turn (it asks the user).
    assert tuple(sender for sender, _ in messages[-3:] if sender in ("direct_deposit", "pto")) == (
        "pto",
        "direct_deposit",
    )
