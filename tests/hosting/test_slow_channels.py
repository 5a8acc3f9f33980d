"""A slow or dead channel costs only its own conversation (issue 16, item 2), on both adapters.

The checks are orderings, not timings (issue 27, item 9): the 20 other conversations are all
answered while the hung channels (or blocked tools) are still hung, however busy the machine.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from aiohttp import ClientSession

from harness import ChildAgent, Parent
from harness.hosting import EndpointTarget, create_app
from tests.hosting._support import ADAPTERS, activity, helpdesk, running

HUNG = 8
NORMAL = 20
HOLD_S = 600.0
"""How long the hung channels and blocked tools hold on at most: a safety net far longer than the
20 other turns take on a machine loaded 25 deep (tens of seconds); the test releases them itself."""


async def _until(count: Callable[[], int], want: int) -> None:
    """Wait (without a clock) until ``count()`` reaches ``want``: the test's own progress."""
    async with asyncio.timeout(HOLD_S / 2):  # a safety net only
        while count() < want:  # noqa: ASYNC110 - threads and the server bump the count
            await asyncio.sleep(0.01)


@asynccontextmanager
async def hung_channel() -> AsyncIterator[tuple[str, list[asyncio.StreamWriter]]]:
    """A server that accepts connections and reads requests but never answers; yields its URL
    and the connections it holds."""
    held: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        try:
            while await reader.read(65536):
                pass
        finally:  # also a connection accepted as the server stops, not yet held when it closed
            writer.close()

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", held
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


async def _answer_twenty(base: str) -> tuple[float, list[list[str]]]:
    async with EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel:
        started = time.perf_counter()
        async with asyncio.timeout(HOLD_S / 2):  # a safety net; the ordering is the check
            replies = await asyncio.gather(
                *(
                    channel.send_turn(f"normal-{n}", "When will I be getting my next paycheck?")
                    for n in range(NORMAL)
                )
            )
        elapsed = time.perf_counter() - started
    return elapsed, [[r.activity["text"] for r in turn] for turn in replies]


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_8_hung_channels_do_not_delay_20_other_conversations(
    adapter: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="harness.hosting")
    app = create_app(helpdesk(), adapter=adapter, reply_timeout=HOLD_S)  # type: ignore[arg-type]
    async with running(app) as base, ClientSession() as session:
        async with hung_channel() as (hung, held):
            posts = [
                asyncio.create_task(
                    session.post(
                        f"{base}/api/messages",
                        json=activity(
                            "When will I be getting my next paycheck?",
                            conversation=f"hung-{n}",
                            service_url=hung,
                        ),
                    )
                )
                for n in range(HUNG)
            ]
            await _until(lambda: len(held), HUNG)  # every hung turn now waits on its channel
            elapsed, texts = await _answer_twenty(base)
            assert all(t and "payday" in t[0].lower() for t in texts), texts
            assert not any(post.done() for post in posts)  # answered while those still hang
        # The hung channel is gone now: those turns end with a 201/200, not an error.
        for post in posts:
            async with await post as response:
                assert response.status < 300
    hung_logs = [r for r in caplog.records if "could not deliver a reply" in r.getMessage()]
    assert len(hung_logs) == HUNG  # once per conversation
    assert all(r.exc_info is None for r in hung_logs)  # one line, no traceback
    print(f"{adapter}: {NORMAL} conversations answered in {elapsed:.3f}s beside {HUNG} hung")


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_8_blocked_sync_tools_of_one_agent_do_not_delay_20_other_conversations(
    adapter: str,
) -> None:
    gate = threading.Event()
    entered: list[int] = []

    def ticket_status() -> str:
        """Looks up an IT ticket in a system that hangs."""
        entered.append(1)
        gate.wait(HOLD_S)
        return "late"

    def next_payday() -> str:
        """When the next paycheck (payday) arrives."""
        return "Your next payday is Friday."

    bot = Parent(
        name="hd",
        subagents=[
            ChildAgent(
                name="tickets",
                mode="silent",  # type: ignore[arg-type]
                description="Looks up IT ticket status.",
                examples=["what is my ticket status"],
                tools=[ticket_status],
                timeout=HOLD_S,
            ),
            ChildAgent(
                name="payroll",
                mode="silent",  # type: ignore[arg-type]
                description="Looks up pay dates and paychecks.",
                examples=["when will I be getting my next paycheck"],
                tools=[next_payday],
            ),
        ],
    )
    app = create_app(bot, adapter=adapter, shutdown_timeout=5)  # type: ignore[arg-type]
    try:
        async with (
            running(app) as base,
            EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as blocked_channel,
        ):
            blocked = [
                asyncio.create_task(
                    blocked_channel.send_turn(f"blocked-{n}", "what is my ticket status?")
                )
                for n in range(HUNG)
            ]
            await _until(lambda: len(entered), HUNG)  # every blocked tool is running now
            elapsed, texts = await _answer_twenty(base)
            assert all(t == ["Your next payday is Friday."] for t in texts), texts
            print(
                f"{adapter}: {NORMAL} conversations answered in {elapsed:.3f}s beside {HUNG} blocked tools"
            )
            assert not any(task.done() for task in blocked)
            gate.set()
            await asyncio.gather(*blocked)
    finally:
        gate.set()
