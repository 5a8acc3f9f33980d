"""``harness chat --endpoint`` on a real terminal: Ctrl-C during a turn the bot never finishes
ends the chat with 130, as for a local bot."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.core.test_chat_terminal import DEADLINE, PROMPT, Terminal


class _HangingBot:
    """A Bot Framework endpoint on its own thread and event loop that accepts each activity and
    never answers it. ``received`` is set once an activity has reached the handler."""

    def __init__(self) -> None:
        self.received = threading.Event()
        self.url = ""
        self._started = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        # asyncio.run, not run_until_complete: what is still pending at the stop (the handler
        # that never answers) is cancelled before the loop is closed.
        asyncio.run(self._serve())

    async def _never(self, _request: web.Request) -> web.Response:
        self.received.set()
        await asyncio.Event().wait()
        return web.Response(status=201)

    async def _serve(self) -> None:
        app = web.Application()
        app.router.add_post("/api/messages", self._never)
        runner = web.AppRunner(app, shutdown_timeout=0.1)
        await runner.setup()
        try:
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            host, port = runner.addresses[0][:2]
            self.url = f"http://{host}:{port}/api/messages"
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            self._started.set()
            await self._stop.wait()
        finally:
            await runner.cleanup()

    def __enter__(self) -> _HangingBot:
        self._thread.start()
        assert self._started.wait(30)
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(60)  # a safety net: the stop takes a fraction of a second
        assert not self._thread.is_alive()


@pytest.fixture
def hanging_bot() -> Iterator[_HangingBot]:
    with _HangingBot() as bot:
        yield bot


def test_ctrl_c_during_a_remote_turn_ends_the_chat_with_130(
    hanging_bot: _HangingBot, tmp_path: Path
) -> None:
    terminal = Terminal(
        "chat",
        "--endpoint",
        hanging_bot.url,
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
        # Ctrl-C once the bot holds the turn, so that it falls during the turn. Sent earlier, it
        # could come while the chat's connection waited to be accepted; the bot, stopped then,
        # accepted it too late to close it, and its socket leaked into a later test.
        assert hanging_bot.received.wait(DEADLINE), terminal.screen.decode()
        terminal.interrupt()
        assert terminal.exit_code() == 130
        assert b"Traceback" not in terminal.screen
    finally:
        terminal.close()
