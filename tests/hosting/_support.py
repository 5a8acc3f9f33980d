"""Helpers for the hosting tests: real servers on 127.0.0.1 with free ports."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import web

from harness import Parent, load_bot

HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"

ADAPTERS = ("botbuilder", "agents-sdk")


def helpdesk() -> Parent:
    """The helpdesk sample on the offline rules model."""
    return load_bot(HELPDESK)


@asynccontextmanager
async def running(app: web.Application) -> AsyncIterator[str]:
    """Serve ``app`` on 127.0.0.1 (a free port) and yield its base URL; stop it afterwards."""
    runner = web.AppRunner(app, access_log=None)
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
