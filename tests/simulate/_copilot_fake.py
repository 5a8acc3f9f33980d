"""A local stand-in for the Copilot Studio client API, addressed by a direct-connect URL.

``CopilotClient`` posts ``{base}/conversations?api-version=...`` to start and
``{base}/conversations/{id}?api-version=...`` (``{"activity": ...}``) for each turn, and reads the
answer as server-sent events (``event: activity`` / ``data: {json}``), taking the conversation id
from the ``x-ms-conversationid`` header. This fake answers the same way, either bridged to a Bot
Framework bot over HTTP (the bot's replies are streamed as they arrive, and the stream closes when
the bot's HTTP answer comes), or from a function that returns canned activities (plan events around
child and connected agents, silence).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from aiohttp import web

from tests.hosting._support import running

Reply = Callable[[dict[str, Any]], Awaitable[list[dict[str, Any]]]]


class FakeCopilotStudio:
    """The service; :meth:`running` yields its direct-connect URL.

    Args:
        bot: a bot's ``/api/messages`` URL, or an async function from the user's activity to the
            activities to stream back.
        token: the bearer token it accepts.
        greeting: the agent's greeting, streamed when a conversation starts.
    """

    def __init__(
        self, bot: str | Reply, *, token: str = "cs-token", greeting: str | None = None
    ) -> None:
        self.bot = bot
        self.token = token
        self.greeting = greeting
        self.requests: list[str] = []
        self.failures: dict[str, int] = {}
        """``start`` or ``turn`` to the HTTP status it answers with instead."""
        self.hang = False
        """Keep every turn's stream open without sending anything."""
        self._queues: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._root = ""
        self._http: aiohttp.ClientSession | None = None
        self._release = asyncio.Event()

    def _refuse(self, request: web.Request, route: str) -> web.Response | None:
        self.requests.append(route)
        if request.query.get("api-version") is None:
            return web.json_response({"error": "api-version is required"}, status=400)
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            return web.json_response({"error": "Unauthorized"}, status=401)
        if route in self.failures:
            return web.json_response({"error": "failure"}, status=self.failures[route])
        return None

    async def _open_stream(self, request: web.Request, conversation: str) -> web.StreamResponse:
        stream = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "x-ms-conversationid": conversation}
        )
        await stream.prepare(request)
        return stream

    async def _send(
        self, stream: web.StreamResponse, conversation: str, activity: dict[str, Any]
    ) -> None:
        body = dict(activity)
        body.setdefault("id", f"act-{secrets.token_hex(4)}")
        body.setdefault("conversation", {"id": conversation})
        body.setdefault("from", {"id": "agent", "name": "HR Helpdesk", "role": "bot"})
        await stream.write(f"event: activity\ndata: {json.dumps(body)}\n\n".encode())

    async def _start(self, request: web.Request) -> web.StreamResponse:
        if (refused := self._refuse(request, "start")) is not None:
            return refused
        conversation = f"cs-{secrets.token_hex(6)}"
        self._queues[conversation] = asyncio.Queue()
        stream = await self._open_stream(request, conversation)
        if self.greeting:
            await self._send(stream, conversation, {"type": "message", "text": self.greeting})
        await stream.write_eof()
        return stream

    async def _turn(self, request: web.Request) -> web.StreamResponse:
        if (refused := self._refuse(request, "turn")) is not None:
            return refused
        conversation = request.match_info["conversation"]
        if conversation not in self._queues:
            return web.json_response({"error": "no such conversation"}, status=404)
        activity = (await request.json())["activity"]
        activity.update(
            id=f"user-{secrets.token_hex(4)}",
            channelId="pva-studio",
            serviceUrl=self._root,
            conversation={"id": conversation},
            recipient={"id": "agent", "name": "HR Helpdesk", "role": "bot"},
        )
        activity.setdefault("from", {"id": "user", "name": "user", "role": "user"})
        stream = await self._open_stream(request, conversation)
        if self.hang:
            await self._release.wait()
        elif isinstance(self.bot, str):
            await self._bridge(stream, conversation, activity)
        else:
            for reply in await self.bot(activity):
                await self._send(stream, conversation, reply)
        await stream.write_eof()
        return stream

    async def _bridge(
        self, stream: web.StreamResponse, conversation: str, activity: dict[str, Any]
    ) -> None:
        """Post to the bot and stream its replies until its HTTP answer has come."""
        assert self._http is not None and isinstance(self.bot, str)
        queue = self._queues[conversation]

        async def post() -> None:
            assert self._http is not None and isinstance(self.bot, str)
            async with self._http.post(self.bot, json=activity) as answer:
                await answer.read()

        posting = asyncio.create_task(post())
        while not posting.done() or not queue.empty():
            getting = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({getting, posting}, return_when=asyncio.FIRST_COMPLETED)
            if getting in done:
                await self._send(stream, conversation, getting.result())
            else:
                getting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await getting
        await posting

    async def _from_bot(self, request: web.Request) -> web.Response:
        queue = self._queues.get(request.match_info["conversation"])
        if queue is None:
            return web.json_response({"error": "no such conversation"}, status=404)
        reply = await request.json()
        reply["id"] = f"bot-{secrets.token_hex(4)}"
        await queue.put(reply)
        return web.json_response({"id": reply["id"]})

    @asynccontextmanager
    async def running(self) -> AsyncIterator[str]:
        """Serve on 127.0.0.1 (a free port); yield the direct-connect URL."""
        app = web.Application()
        app.router.add_post("/copilotstudio/conversations", self._start)
        app.router.add_post("/copilotstudio/conversations/{conversation}", self._turn)
        app.router.add_post("/v3/conversations/{conversation}/activities", self._from_bot)
        app.router.add_post(
            "/v3/conversations/{conversation}/activities/{reply_to}", self._from_bot
        )
        async with running(app, shutdown_timeout=0.5) as root:
            self._root = root
            self._http = aiohttp.ClientSession()
            try:
                yield f"{root}/copilotstudio"
            finally:
                self._release.set()
                await self._http.close()
