"""``harness chat --endpoint`` on a real terminal: Ctrl-C during a turn the bot never finishes
ends the chat with 130, as for a local bot."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.core.test_chat_terminal import PROMPT, Terminal


@pytest.fixture
def hanging_bot() -> Iterator[str]:
    """A Bot Framework endpoint that accepts each activity and never answers it."""
    started = threading.Event()
    stop: dict[str, asyncio.Event] = {}
    address: list[str] = []

    async def never(_request: web.Request) -> web.Response:
        await asyncio.Event().wait()
        return web.Response(status=201)

    async def serve() -> None:
        app = web.Application()
        app.router.add_post("/api/messages", never)
        runner = web.AppRunner(app, shutdown_timeout=0.1)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        address.append(f"http://{host}:{port}/api/messages")
        stop["event"] = asyncio.Event()
        started.set()
        await stop["event"].wait()
        await runner.cleanup()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(30)
    try:
        yield address[0]
    finally:
        loop.call_soon_threadsafe(stop["event"].set)
        thread.join(10)
        loop.close()


def test_ctrl_c_during_a_remote_turn_ends_the_chat_with_130(
    hanging_bot: str, tmp_path: Path
) -> None:
    terminal = Terminal(
        "chat",
        "--endpoint",
        hanging_bot,
        "--conversation",
        "c-1",
        cwd=tmp_path,
        history="",
        state=tmp_path / "state",
    )
    try:
        banner = terminal.expect(PROMPT)
        assert b"conversation c-1" in banner
        terminal.type(b"hello\r")
        terminal.expect(b"hello")
        terminal.interrupt()
        assert terminal.exit_code() == 130
        assert b"Traceback" not in terminal.screen
    finally:
        terminal.close()
