"""Graceful shutdown finishes in-flight turns; ``harness serve`` runs as a real process."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from harness import ChildAgent, Mode, Parent, ToolContext
from harness.hosting import EndpointTarget, create_app
from tests.hosting._support import ADAPTERS, STOP_WITHIN_S, serving


def _slow_bot(started: asyncio.Event, release: asyncio.Event) -> Parent:
    async def slow(ctx: ToolContext) -> Mapping[str, Any]:
        started.set()
        await release.wait()
        return {"answered": True, "interactionSummary": "The report is ready.", "openQuestions": []}

    return Parent(
        name="desk",
        model="rules",
        subagents=[
            ChildAgent(
                name="reports",
                mode=Mode.DIRECT,
                description="Builds the quarterly report.",
                examples=["build the quarterly report"],
                handler=slow,
            )
        ],
    )


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_shutdown_finishes_the_turn_in_flight(adapter: str) -> None:
    started, release = asyncio.Event(), asyncio.Event()
    app = create_app(_slow_bot(started, release), adapter=adapter)  # type: ignore[arg-type]
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    async with EndpointTarget(f"http://{host}:{port}/api/messages", quiet_period=0.05) as channel:
        turn = asyncio.create_task(channel.send_turn("c", "please build the quarterly report"))
        await asyncio.wait_for(started.wait(), 5)
        stopping = asyncio.create_task(runner.cleanup())
        await asyncio.sleep(0.2)
        assert not stopping.done()  # shutdown waits for the turn
        release.set()
        received = await asyncio.wait_for(turn, 5)
        await asyncio.wait_for(stopping, 5)
    assert [r.activity["text"] for r in received] == ["The report is ready."]


def test_harness_serve_runs_and_stops_on_sigint(tmp_path: Path) -> None:
    with serving(tmp_path, "--storage", str(tmp_path / "s.sqlite")) as (process, url, _log):

        async def talk() -> list[str]:
            async with EndpointTarget(url, quiet_period=0.05) as channel:
                transcript = await channel.run_conversation(
                    ["where can I locate my W-2 form"], conversation_id="cli"
                )
            return [m.text for m in transcript.bot_messages()]

        texts = asyncio.run(talk())
        assert "Tax forms" in texts[0]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=STOP_WITHIN_S) == 0
