"""Where a Direct Line conversation's activities come from: its WebSocket (``streamUrl``) or
polling (``GET .../activities?watermark=W``), and the conversation's state on the wire."""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.exceptions import MissingExtraError, RunError
from harness.simulate._directline_http import RefusedError, without_secrets

try:
    import aiohttp
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError(
        "the Direct Line target (simulate --directline)", extra="hosting"
    ) from exc

if TYPE_CHECKING:
    from harness.simulate.directline import DirectLineTarget

__all__ = ["PollingReceiver", "Receiver", "Session", "SocketReceiver", "replayed", "take_batch"]


@dataclass(slots=True)
class Session:
    """One Direct Line conversation on the wire."""

    conversation_id: str
    token: str | None
    refresh_at: float | None
    expires_at: float | None
    stream_url: str | None
    watermark: str | None = None
    reconnects: int = 0
    reply_ids: set[str] = field(default_factory=set)
    """The bot's reply ids seen in this conversation (a repeat is dropped)."""
    activity_ids: set[str] = field(default_factory=set)
    """The Direct Line ids of the activities received (one delivered again is dropped)."""


def take_batch(session: Session, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The activities of an answer (a poll's or a socket message's), its watermark kept."""
    watermark = data.get("watermark")
    if isinstance(watermark, str | int) and not isinstance(watermark, bool):
        session.watermark = str(watermark)
    activities = data.get("activities")
    if not isinstance(activities, list):
        return []
    return [a for a in activities if isinstance(a, dict)]


def replayed(activity: dict[str, Any], session: Session) -> bool:
    """Whether Direct Line delivered this activity (by its id) in the conversation already."""
    known = activity.get("id")
    return isinstance(known, str) and known in session.activity_ids


class Receiver(ABC):
    """Where a conversation's activities come from: the WebSocket or polling."""

    async def prepare(self) -> None:  # noqa: B027 - optional hook
        """Called before each turn's post (the socket connects before the first one)."""

    @abstractmethod
    async def receive(self, within: float) -> list[dict[str, Any]] | None:
        """The next activities, an empty list for a keep-alive, None when ``within`` seconds passed."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Close the socket."""


class PollingReceiver(Receiver):
    def __init__(self, target: DirectLineTarget, session: Session) -> None:
        self.target = target
        self.session = session

    async def receive(self, within: float) -> list[dict[str, Any]] | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            batch = await self.target._poll(self.session)
            # A poll that brings only activities received already is nothing new: wait before
            # the next one rather than poll again at once.
            fresh = [a for a in batch if not replayed(a, self.session)]
            self.target.replays_dropped += len(batch) - len(fresh)
            if fresh:
                return fresh
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            await asyncio.sleep(min(self.target.poll_interval, remaining))


class SocketReceiver(Receiver):
    def __init__(self, target: DirectLineTarget, session: Session) -> None:
        self.target = target
        self.session = session
        self.socket: aiohttp.ClientWebSocketResponse | None = None

    async def _connect(self, url: str) -> None:
        async def attempt() -> aiohttp.ClientWebSocketResponse:
            try:
                return await self.target._client().ws_connect(url, autoping=True)
            except aiohttp.WSServerHandshakeError as exc:
                # The stream URL carries the conversation's token (?t=...): never print it.
                raise RefusedError(
                    exc.status,
                    exc.headers.get("Retry-After") if exc.headers else None,
                    f"cannot open the Direct Line WebSocket: {without_secrets(str(exc), url)}",
                ) from None
            except aiohttp.ClientError as exc:
                raise RunError(
                    f"cannot open the Direct Line WebSocket: {without_secrets(str(exc), url)}"
                ) from None

        self.socket = await self.target.retry_policy.call(attempt, what="the WebSocket handshake")

    async def prepare(self) -> None:
        if self.socket is None:
            assert self.session.stream_url is not None
            await self._connect(self.session.stream_url)

    async def receive(self, within: float) -> list[dict[str, Any]] | None:
        assert self.socket is not None
        try:
            message = await self.socket.receive(timeout=within)
        except TimeoutError:
            return None
        if message.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
            if not message.data.strip():
                return []  # Direct Line's keep-alive
            try:
                data = json.loads(message.data)
            except ValueError as exc:
                raise RunError("the Direct Line WebSocket sent malformed JSON") from exc
            return take_batch(self.session, data) if isinstance(data, dict) else []
        if message.type in (aiohttp.WSMsgType.PING, aiohttp.WSMsgType.PONG):
            return []
        # CLOSE, CLOSING, CLOSED or ERROR: the socket dropped
        code = self.socket.close_code
        await self.socket.close()
        self.socket = None
        if self.session.reconnects >= self.target.max_reconnects:
            raise RunError(
                f"the Direct Line WebSocket closed (code {code}) and was already reconnected "
                f"{self.session.reconnects} time(s)"
            )
        self.session.reconnects += 1
        try:
            url = await self.target._reconnect(self.session)
            await self._connect(url)
        except RunError as exc:
            raise RunError(
                f"the Direct Line WebSocket closed (code {code}) and reconnecting failed: {exc}"
            ) from exc
        return []

    async def aclose(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None
