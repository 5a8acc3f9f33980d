"""A Direct Line 3.0 service for the tests: tokens with a lifetime, conversations, a WebSocket
stream, polling with watermarks, reconnects, and switches for the failures a client must survive.

It stands in front of a bot the way the real service does: either a Bot Framework bot over HTTP (it
posts each activity to the bot's ``/api/messages`` with its own ``serviceUrl``, and the bot's
replies come back to ``/v3/conversations/{id}/activities``), or a Python function that returns the
replies (for scripted behaviour: silence, typing, ``endOfConversation``).

Time is a :class:`FakeClock` the test and the target share, so token expiry needs no sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
from aiohttp import web

from tests.hosting._support import running

Reply = Callable[[dict[str, Any]], Awaitable[list[dict[str, Any]]]]


class FakeClock:
    """Seconds that pass only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class _Conversation:
    id: str
    activities: list[dict[str, Any]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    started: bool = False
    """Whether ``POST /conversations`` started it (a second start answers 200, not 201)."""


@dataclass
class _Token:
    conversation: str | None
    expires_at: float


class FakeDirectLine:
    """The service. Start it with :meth:`running`; its base URL ends in ``/v3/directline``.

    Args:
        bot: a bot's ``/api/messages`` URL, or an async function from the user's activity to the
            reply activities.
        secret: the Direct Line secret it accepts.
        clock: the shared clock; tokens live ``token_lifetime`` seconds on it.
        token_lifetime: the ``expires_in`` of every token.
        advance_per_post: seconds the clock moves on with every user activity posted.
    """

    def __init__(
        self,
        bot: str | Reply,
        *,
        secret: str = "test-secret",
        clock: FakeClock | None = None,
        token_lifetime: float = 1800,
        advance_per_post: float = 0.0,
    ) -> None:
        self.bot = bot
        self.secret = secret
        self.clock = clock or FakeClock()
        self.token_lifetime = token_lifetime
        self.advance_per_post = advance_per_post
        self.conversations: dict[str, _Conversation] = {}
        self.tokens: dict[str, _Token] = {}
        self.requests: list[str] = []
        """Every request, as ``METHOD route`` (``POST /tokens/refresh``, ``WS stream``...)."""
        self.failures: dict[str, tuple[int, dict[str, Any]]] = {}
        """Route (as in ``requests``) to the status and JSON body it answers with instead."""
        self.transient: dict[str, list[tuple[int, dict[str, str]]]] = {}
        """Route to the failures it answers its next requests with, one each (a status and
        headers, such as ``Retry-After``), before it works again."""
        self.drop_sockets = 0
        """How many of the next WebSockets to close (code 1011) after their first batch."""
        self.allow_reconnect = True
        self.resend = 0
        """How many activities before the watermark asked for a poll or a reconnected
        WebSocket delivers again (Direct Line's replay from a stale watermark)."""
        self.bind_tokens = True
        """Whether a token's conversation is given back on a second start; False is a server
        that ignores tokens (``offline-directline``): every start is a new conversation."""
        self.start_status: int | None = None
        """The status every start answers with, instead of 201 (new) or 200 (given back):
        ``offline-directline`` passes on the bot's own status."""
        self.base_url = ""
        self._root = ""
        self._sockets: set[web.WebSocketResponse] = set()
        self._http: aiohttp.ClientSession | None = None

    # --- tokens ----------------------------------------------------------------------------

    def issue_token(self, conversation: str | None = None) -> str:
        token = "tok-" + secrets.token_hex(8)
        self.tokens[token] = _Token(conversation, self.clock() + self.token_lifetime)
        return token

    def _bearer(self, request: web.Request) -> str | None:
        header = request.headers.get("Authorization", "")
        return header[7:] if header.startswith("Bearer ") else None

    def _check_token(self, request: web.Request, conversation: str | None) -> web.Response | None:
        """None when the request carries a live token for ``conversation`` (or the secret)."""
        bearer = self._bearer(request) or request.query.get("t")
        if bearer == self.secret:
            return None
        token = self.tokens.get(bearer or "")
        if token is None:
            return _error(401, "Unauthorized", "missing or unknown token")
        if self.clock() >= token.expires_at:
            return _error(403, "TokenExpired", "Token expired")
        if conversation and self.bind_tokens and token.conversation not in (None, conversation):
            return _error(403, "Forbidden", "the token is for another conversation")
        return None

    def _failure(self, route: str) -> web.Response | None:
        self.requests.append(route)
        if self.transient.get(route):
            status, headers = self.transient[route].pop(0)
            body = {"error": {"code": "ServiceError", "message": "try again later"}}
            return web.json_response(body, status=status, headers=headers)
        if route in self.failures:
            status, body = self.failures[route]
            return web.json_response(body, status=status)
        return None

    def _conversation(self, request: web.Request, route: str) -> _Conversation | web.Response:
        """The request's conversation, or the failure, refusal or 404 to answer instead."""
        if (failed := self._failure(route)) is not None:
            return failed
        name = request.match_info["conversation"]
        if (refused := self._check_token(request, name)) is not None:
            return refused
        conversation = self.conversations.get(name)
        if conversation is None:
            return _error(404, "BadArgument", "no such conversation")
        return conversation

    # --- the client API ----------------------------------------------------------------------

    async def _generate(self, request: web.Request) -> web.Response:
        if (failed := self._failure("POST /tokens/generate")) is not None:
            return failed
        if self._bearer(request) != self.secret:
            return _error(401, "Unauthorized", "a Direct Line secret is required")
        conversation = self._new_conversation()
        token = self.issue_token(conversation.id)
        return web.json_response(
            {"conversationId": conversation.id, "token": token, "expires_in": self.token_lifetime}
        )

    async def _refresh(self, request: web.Request) -> web.Response:
        if (failed := self._failure("POST /tokens/refresh")) is not None:
            return failed
        if (refused := self._check_token(request, None)) is not None:
            return refused
        old = self.tokens[self._bearer(request) or ""]
        token = self.issue_token(old.conversation)
        return web.json_response(
            {"conversationId": old.conversation, "token": token, "expires_in": self.token_lifetime}
        )

    def _new_conversation(self) -> _Conversation:
        conversation = _Conversation(id=f"conv-{secrets.token_hex(6)}")
        self.conversations[conversation.id] = conversation
        return conversation

    def _stream_url(self, conversation: str, token: str | None) -> str:
        ws = self._root.replace("http://", "ws://", 1)
        return f"{ws}/v3/directline/conversations/{conversation}/stream?t={token or ''}"

    async def _start(self, request: web.Request) -> web.Response:
        if (failed := self._failure("POST /conversations")) is not None:
            return failed
        if (refused := self._check_token(request, None)) is not None:
            return refused
        bearer = self._bearer(request)
        bound = self.tokens[bearer].conversation if bearer in self.tokens else None
        bound = bound if self.bind_tokens else None
        conversation = (
            self.conversations[bound] if bound in self.conversations else self._new_conversation()
        )
        token = bearer if bearer in self.tokens else self.issue_token(conversation.id)
        # As Direct Line: a token whose conversation was started already gets it back, with 200.
        created = not conversation.started
        conversation.started = True
        return web.json_response(
            {
                "conversationId": conversation.id,
                "token": token,
                "expires_in": self.token_lifetime,
                "streamUrl": self._stream_url(conversation.id, token),
            },
            status=self.start_status or (201 if created else 200),
        )

    async def _reconnect(self, request: web.Request) -> web.Response:
        if (failed := self._failure("GET /conversations/{id}")) is not None:
            return failed
        conversation = request.match_info["conversation"]
        if (refused := self._check_token(request, conversation)) is not None:
            return refused
        if not self.allow_reconnect or conversation not in self.conversations:
            return _error(404, "BadArgument", "no such conversation")
        token = self._bearer(request)
        watermark = request.query.get("watermark", "")
        url = self._stream_url(conversation, token) + f"&watermark={watermark}"
        return web.json_response(
            {
                "conversationId": conversation,
                "token": token,
                "expires_in": self.token_lifetime,
                "streamUrl": url,
            }
        )

    async def _activities(self, request: web.Request) -> web.Response:
        conversation = self._conversation(request, "GET activities")
        if isinstance(conversation, web.Response):
            return conversation
        start = max(int(request.query.get("watermark") or 0) - self.resend, 0)
        activities = conversation.activities[start:]
        return web.json_response(
            {"activities": activities, "watermark": str(len(conversation.activities))}
        )

    async def _post(self, request: web.Request) -> web.Response:
        conversation = self._conversation(request, "POST activities")
        if isinstance(conversation, web.Response):
            return conversation
        activity = await request.json()
        activity.update(
            id=f"{conversation.id}|{len(conversation.activities):07d}",
            channelId="directline",
            conversation={"id": conversation.id},
            serviceUrl=self._root,
            recipient={"id": "bot", "name": "bot", "role": "bot"},
        )
        self._append(conversation, activity)
        self.clock.advance(self.advance_per_post)
        if isinstance(self.bot, str):
            assert self._http is not None
            async with self._http.post(self.bot, json=activity) as answer:
                if answer.status >= 400:
                    return _error(502, "BotError", f"the bot answered HTTP {answer.status}")
        else:
            for reply in await self.bot(activity):
                self._record(conversation, reply, activity["id"])
        return web.json_response({"id": activity["id"]})

    # --- the bot's side (Bot Framework connector) -------------------------------------------

    async def _from_bot(self, request: web.Request) -> web.Response:
        conversation = self.conversations.get(request.match_info["conversation"])
        if conversation is None:
            return _error(404, "BadArgument", "no such conversation")
        reply = await request.json()
        activity = self._record(conversation, reply, request.match_info.get("reply_to"))
        return web.json_response({"id": activity["id"]})

    def _record(
        self, conversation: _Conversation, reply: dict[str, Any], reply_to: str | None
    ) -> dict[str, Any]:
        activity = dict(reply)
        activity["id"] = f"{conversation.id}|{len(conversation.activities):07d}"
        activity.setdefault("from", {"id": "bot", "name": "bot"})
        if reply_to and not activity.get("replyToId"):
            activity["replyToId"] = reply_to
        activity.setdefault("timestamp", datetime.now(UTC).isoformat().replace("+00:00", "Z"))
        self._append(conversation, activity)
        return activity

    def _append(self, conversation: _Conversation, activity: dict[str, Any]) -> None:
        conversation.activities.append(activity)
        conversation.changed.set()

    # --- the WebSocket ----------------------------------------------------------------------

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        conversation = self._conversation(request, "WS stream")
        if isinstance(conversation, web.Response):
            return conversation
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.add(socket)
        asked = request.query.get("watermark")
        position = max(int(asked) - self.resend, 0) if asked else len(conversation.activities)
        drop = self.drop_sockets > 0
        self.drop_sockets -= 1 if drop else 0

        async def write() -> None:
            nonlocal position
            sent = 0
            while not socket.closed:
                if position < len(conversation.activities):
                    if drop and sent >= 1:
                        await socket.close(code=1011, message=b"dropped by the fake")
                        return
                    batch = conversation.activities[position:]
                    position = len(conversation.activities)
                    await socket.send_str(
                        json.dumps({"activities": batch, "watermark": str(position)})
                    )
                    sent += 1
                    continue
                conversation.changed.clear()
                await socket.send_str("")  # a keep-alive, as the real service sends
                try:
                    async with asyncio.timeout(0.5):
                        await conversation.changed.wait()
                except TimeoutError:
                    pass

        writer = asyncio.create_task(write())
        try:
            async for _message in socket:  # answers the client's close frame
                pass
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionResetError):
                await writer
            self._sockets.discard(socket)
        return socket

    # --- running -------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        prefix = "/v3/directline"
        app.router.add_post(f"{prefix}/tokens/generate", self._generate)
        app.router.add_post(f"{prefix}/tokens/refresh", self._refresh)
        app.router.add_post(f"{prefix}/conversations", self._start)
        app.router.add_get(f"{prefix}/conversations/{{conversation}}", self._reconnect)
        app.router.add_get(f"{prefix}/conversations/{{conversation}}/activities", self._activities)
        app.router.add_post(f"{prefix}/conversations/{{conversation}}/activities", self._post)
        app.router.add_get(f"{prefix}/conversations/{{conversation}}/stream", self._stream)
        app.router.add_post("/v3/conversations/{conversation}/activities", self._from_bot)
        app.router.add_post(
            "/v3/conversations/{conversation}/activities/{reply_to}", self._from_bot
        )
        return app

    @asynccontextmanager
    async def running(self) -> AsyncIterator[str]:
        """Serve on 127.0.0.1 (a free port); yield the base URL ``http://.../v3/directline``."""
        async with running(self.app(), shutdown_timeout=0.5) as root:
            self._root = root
            self.base_url = f"{root}/v3/directline"
            self._http = aiohttp.ClientSession()
            try:
                yield self.base_url
            finally:
                for socket in list(self._sockets):
                    await socket.close()
                await self._http.close()


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=status)


@contextlib.contextmanager
def in_thread(fake: Any) -> Iterator[str]:
    """Run a fake's ``running()`` on its own event loop in a thread (for CLI tests, whose
    ``run_sync`` wants no running loop); yield its base URL."""
    started = threading.Event()
    stop: dict[str, Any] = {}
    urls: list[str] = []

    async def main() -> None:
        stop["event"] = asyncio.Event()
        stop["loop"] = asyncio.get_running_loop()
        async with fake.running() as base:
            urls.append(base)
            started.set()
            await stop["event"].wait()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError("the fake did not start")
    try:
        yield urls[0]
    finally:
        stop["loop"].call_soon_threadsafe(stop["event"].set)
        thread.join(10)
