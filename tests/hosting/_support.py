"""Helpers for the hosting tests: real servers on 127.0.0.1 with free ports."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from harness import Parent, load_bot

HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"

ADAPTERS = ("botbuilder", "agents-sdk")

T = TypeVar("T")

HARNESS = [sys.executable, "-c", "from harness.cli import main; main()"]
"""The ``harness`` command, run by this interpreter."""

STOP_WITHIN_S = 300.0
"""How long a stopped ``harness serve`` may take to exit: a safety net, not a measurement. On a
busy machine a graceful stop (and the interpreter's exit) takes seconds, not the idle fraction;
only a process that never exits fails here."""


def helpdesk() -> Parent:
    """The helpdesk sample on the offline rules model."""
    return load_bot(HELPDESK)


@asynccontextmanager
async def running(app: web.Application, *, shutdown_timeout: float = 60.0) -> AsyncIterator[str]:
    """Serve ``app`` on 127.0.0.1 (a free port) and yield its base URL; stop it afterwards.

    ``shutdown_timeout``: seconds the stop waits for open requests (aiohttp's default: 60).
    """
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=shutdown_timeout)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


def activity(
    text: str = "hello",
    *,
    conversation: str = "c1",
    service_url: str = "http://127.0.0.1:9",
    **extra: Any,
) -> dict[str, Any]:
    """A user message activity as a channel would post it."""
    body: dict[str, Any] = {
        "type": "message",
        "id": "a1",
        "channelId": "test",
        "serviceUrl": service_url,
        "conversation": {"id": conversation},
        "from": {"id": "user", "name": "user", "role": "user"},
        "recipient": {"id": "bot", "name": "bot", "role": "bot"},
        "text": text,
    }
    body.update(extra)
    return body


@contextmanager
def serving(
    tmp_path: Path, *options: str, config: Path = HELPDESK, command: Sequence[str] = HARNESS
) -> Iterator[tuple[subprocess.Popen[str], str, Path]]:
    """``harness serve CONFIG --port 0 OPTIONS`` as a process; yields it, its URL and its log file.

    ``command`` runs ``harness`` (``HARNESS``, or a variant set up for one test). The process is
    killed afterwards if it is still running.
    """
    log = tmp_path / "serve.log"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with log.open("w") as errors:
        process = subprocess.Popen(
            [*command, "serve", str(config), "--port", "0", *options],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
        )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "/api/messages" in line, line + log.read_text()
        yield process, line.split(" on ", 1)[1].split()[0], log
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=STOP_WITHIN_S)
        if process.stdout is not None:
            process.stdout.close()


async def when_served(bot: Parent, observe: Callable[[], T]) -> T:
    """Run ``harness.hosting.app.serve(bot)`` on a free port until it is ready to listen, return
    what ``observe()`` gives at that moment, and stop it. ``serve`` freezes what it loaded out of
    the collector's full passes; this unfreezes it so the rest of the run collects as usual."""
    from harness.hosting.app import serve

    seen: list[T] = []
    ready = asyncio.Event()

    def on_ready(_url: str) -> None:
        seen.append(observe())
        ready.set()

    task = asyncio.create_task(serve(bot, port=0, on_ready=on_ready))
    try:
        await asyncio.wait_for(ready.wait(), 120)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        gc.unfreeze()
    return seen[0]
