"""The simulator as a Bot Framework channel: talk to any bot over HTTP, as the Emulator does.

``EndpointTarget`` posts each user turn as a ``message`` activity to the bot's endpoint with a
``serviceUrl`` pointing at its own callback server (aiohttp, on ``127.0.0.1``, a free port). The bot
answers by posting activities to ``/v3/conversations/{id}/activities[/{replyToId}]``; the channel
records each with its arrival time, waits until the turn settles (the POST to the bot has returned
and no activity arrived for ``quiet_period`` seconds), and builds a ``Transcript``. It works with any
Bot Framework bot, including plain botbuilder bots that know nothing of this SDK: attribution comes
from ``channelData`` when the bot sets it, from ``from.name`` otherwise. A reply whose
``channelData.replyId`` arrived already (a harness bot that ran a turn again after a crash) is
acknowledged but not recorded, and counted in ``repeats_dropped``. A reply to an earlier turn
(``replyToId``) that comes after that turn was over is kept at the end of the turn it answers,
and logged as late. What arrives between two turns (after a turn's quiet period, before the next
message) comes with the next turn; one that names no message of the conversation in
``replyToId`` (a proactive message) belongs to that next turn, as Direct Line places it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from harness.detect.activities import PLAN_REQUEST, plan_record, reply_id
from harness.detect.transcript import Message, Transcript
from harness.exceptions import MissingExtraError, RunError, UsageError
from harness.simulate.targets import Target, _place_in_turn

_log = logging.getLogger(__name__)

try:
    import aiohttp
    from aiohttp import web
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError(
        "the Bot Framework channel (simulate --endpoint)", extra="hosting"
    ) from exc

__all__ = ["EndpointTarget", "ReceivedActivity"]

CHANNEL_ID = "harness-sim"
_UNSAFE_ID = re.compile(r"[\s/\\?#%\x00-\x1f]+|\.\.+")


@dataclass(frozen=True, slots=True, kw_only=True)
class ReceivedActivity:
    """One activity the bot sent to the channel."""

    turn: int
    """The user turn it answers (its ``replyToId``; else the turn it comes with), 0 for a
    conversation the channel is not running."""
    activity: dict[str, Any]
    """The activity as posted, with the id the channel assigned."""
    latency_s: float
    """Seconds from posting the user's activity to receiving this one."""
    received_at: datetime
    """When it arrived (UTC)."""


@dataclass(slots=True)
class _Conversation:
    activities: list[ReceivedActivity]
    turn: int
    posted_at: float
    arrived: asyncio.Event
    user_ids: dict[str, int]
    delivered: int = 0
    """How many of ``activities`` a turn has returned: what came after a turn was over (after its
    quiet period, before the next message) is returned with the next turn's."""


class EndpointTarget(Target):
    """A live Bot Framework bot at ``url`` (its ``/api/messages`` endpoint).

    Args:
        url: the bot's messaging endpoint, e.g. ``http://127.0.0.1:3978/api/messages``.
        quiet_period: a turn is over when the bot's HTTP answer has arrived and no activity came
            for this many seconds.
        turn_timeout: the longest a turn may take; a slower bot is an error.
        callback_host: the interface of the callback server (its port is picked free).
        headers: extra HTTP headers for every post to the bot (an ``Authorization`` header for a
            bot that requires one).
        bot_name: the bot's account name, used as the sender when a reply names none.
        unique_ids: give every conversation a random suffix on the wire, so each run is a new
            conversation even for a bot that keeps state (``harness simulate --endpoint`` does
            this). Off by default: ``run_conversation(conversation_id="x")`` is conversation
            ``x`` on the wire, so a later run with the same id continues it.
        ask_plan: ask the bot for each turn's plan (``channelData: {"harness": {"plan": true}}``);
            a bot served by ``harness serve`` answers with a ``harness.plan`` event, which goes
            into the transcript's turns so missed requests and wrong scopes can be checked
            (``send_turn`` then returns that event too). Other bots ignore the field.
            ``harness simulate --endpoint`` and ``harness chat --endpoint`` turn it on.
    """

    def __init__(
        self,
        url: str,
        *,
        quiet_period: float = 0.5,
        turn_timeout: float = 30.0,
        callback_host: str = "127.0.0.1",
        headers: dict[str, str] | None = None,
        bot_name: str = "bot",
        unique_ids: bool = False,
        ask_plan: bool = False,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise UsageError(f"the endpoint must be an http(s) URL, got {url!r}")
        if quiet_period <= 0 or turn_timeout <= 0:
            raise UsageError("quiet_period and turn_timeout must be positive")
        self.url = url
        self.name = url
        self.quiet_period = quiet_period
        self.turn_timeout = turn_timeout
        self.callback_host = callback_host
        self.headers = dict(headers or {})
        self.bot_name = bot_name
        self.unique_ids = unique_ids
        self.ask_plan = ask_plan
        self._used_ids: set[str] = set()
        self.replies: dict[str, list[ReceivedActivity]] = {}
        """Every activity received, per conversation id, in arrival order (with timings)."""
        self.repeats_dropped: dict[str, int] = {}
        """Per conversation, replies dropped because their ``channelData.replyId`` had arrived
        already (a turn the bot ran again); they are acknowledged, not recorded."""
        self._reply_ids: dict[str, dict[str, str]] = {}
        self._conversations: dict[str, _Conversation] = {}
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._service_url: str | None = None
        self._start_lock = asyncio.Lock()

    @property
    def service_url(self) -> str | None:
        """The callback server's base URL, once started."""
        return self._service_url

    async def __aenter__(self) -> EndpointTarget:
        await self.start()
        return self

    async def start(self) -> None:
        """Start the callback server and the HTTP client (done on first use otherwise)."""
        async with self._start_lock:
            if self._runner is not None:
                return
            app = web.Application()
            app.router.add_post("/v3/conversations/{conversation}/activities", self._receive)
            app.router.add_post(
                "/v3/conversations/{conversation}/activities/{reply_to}", self._receive
            )
            app.router.add_put(
                "/v3/conversations/{conversation}/activities/{activity}", self._accept
            )
            app.router.add_delete(
                "/v3/conversations/{conversation}/activities/{activity}", self._accept
            )
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, self.callback_host, 0)
            await site.start()
            host, port = runner.addresses[0][:2]
            self._service_url = f"http://{host}:{port}"
            self._runner = runner
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.turn_timeout)
            )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            self._service_url = None

    # --- the callback server --------------------------------------------------------------------

    async def _receive(self, request: web.Request) -> web.Response:
        try:
            activity = await request.json()
        except ValueError:
            return web.json_response({"error": {"message": "malformed JSON"}}, status=400)
        if not isinstance(activity, dict):
            return web.json_response({"error": {"message": "expected an object"}}, status=400)
        conversation_id = request.match_info["conversation"]
        state = self._conversations.get(conversation_id)
        repeat = reply_id(activity)
        if repeat is not None:
            first = self._reply_ids.setdefault(conversation_id, {}).get(repeat)
            if first is not None:  # the bot ran a turn again: this reply arrived already
                self.repeats_dropped[conversation_id] = (
                    self.repeats_dropped.get(conversation_id, 0) + 1
                )
                return web.json_response({"id": first})
        seen = {r.activity.get("id") for r in self.replies.get(conversation_id, ())}
        activity_id = activity.get("id")
        if not isinstance(activity_id, str) or not activity_id or activity_id in seen:
            activity_id = f"bot-{uuid.uuid4().hex[:12]}"
        activity["id"] = activity_id
        if repeat is not None:
            self._reply_ids[conversation_id][repeat] = activity_id
        if state is not None:
            turn = state.user_ids.get(str(activity.get("replyToId") or ""), state.turn)
            latency = time.perf_counter() - state.posted_at
        else:  # a conversation this channel is not running (proactive, or a late reply)
            turn, latency = 0, 0.0
        received = ReceivedActivity(
            turn=turn, activity=activity, latency_s=latency, received_at=datetime.now(UTC)
        )
        self.replies.setdefault(conversation_id, []).append(received)
        if state is not None:
            state.activities.append(received)
            state.arrived.set()
        return web.json_response({"id": activity_id})

    async def _accept(self, request: web.Request) -> web.Response:
        return web.json_response({"id": request.match_info["activity"]})

    # --- conversations --------------------------------------------------------------------------

    def _user_activity(self, conversation_id: str, activity_id: str, text: str) -> dict[str, Any]:
        return {
            "type": "message",
            "id": activity_id,
            "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "channelId": CHANNEL_ID,
            "serviceUrl": self._service_url,
            "conversation": {"id": conversation_id},
            "from": {"id": "user", "name": "user", "role": "user"},
            "recipient": {"id": self.bot_name, "name": self.bot_name, "role": "bot"},
            "text": text,
            "locale": "en-US",
            **({"channelData": PLAN_REQUEST} if self.ask_plan else {}),
        }

    async def _post(self, activity: dict[str, Any]) -> None:
        assert self._session is not None
        try:
            async with self._session.post(self.url, json=activity, headers=self.headers) as resp:
                body = await resp.text()
                if resp.status >= 400:
                    raise RunError(
                        f"the bot at {self.url} answered HTTP {resp.status}: {body.strip()[:300]}"
                    )
        except aiohttp.ClientConnectorError as exc:  # aiohttp says "ssl:default" even for http
            error = exc.os_error
            refused = isinstance(error, ConnectionRefusedError)
            reason = "connection refused" if refused else (error.strerror or str(error))
            raise RunError(
                f"cannot reach the bot at {self.url}: {reason} (is it running?)"
            ) from exc
        except aiohttp.ClientError as exc:
            raise RunError(f"cannot reach the bot at {self.url}: {exc}") from exc

    async def _settle(self, state: _Conversation, post: asyncio.Task[None]) -> None:
        """Wait until the POST returned and no activity arrived for the quiet period."""
        async with asyncio.timeout(self.turn_timeout):
            await post
            while True:
                state.arrived.clear()
                try:
                    async with asyncio.timeout(self.quiet_period):
                        await state.arrived.wait()
                except TimeoutError:
                    return

    async def send_turn(
        self, conversation_id: str, text: str, *, activity_id: str | None = None
    ) -> list[ReceivedActivity]:
        """Post one user message and return the activities the bot sent for it, in order; first,
        any that arrived since the last turn was over (each with the turn it answers).

        Raises:
            RunError: the bot answered with an HTTP error, could not be reached, or did not
                settle within ``turn_timeout``.
        """
        await self.start()
        state = self._conversations.setdefault(
            conversation_id,
            _Conversation(
                activities=[], turn=0, posted_at=0.0, arrived=asyncio.Event(), user_ids={}
            ),
        )
        state.turn += 1
        start = state.delivered
        self._to_this_turn(conversation_id, state, start)
        activity_id = activity_id or f"user-{uuid.uuid4().hex[:12]}"
        state.user_ids[activity_id] = state.turn
        state.posted_at = time.perf_counter()
        post = asyncio.create_task(
            self._post(self._user_activity(conversation_id, activity_id, text))
        )
        try:
            await self._settle(state, post)
        except TimeoutError as exc:
            raise RunError(
                f"the bot at {self.url} did not finish turn {state.turn} "
                f"within {self.turn_timeout:g}s"
            ) from exc
        finally:
            if not post.done():
                post.cancel()
        state.delivered = len(state.activities)
        return state.activities[start:]

    def _to_this_turn(self, conversation_id: str, state: _Conversation, start: int) -> None:
        """Give what arrived since the last turn was over and answers none of the conversation's
        messages (no ``replyToId``, or an unknown one) the turn it now comes with
        (``state.turn``), as Direct Line does; ``_receive`` gave it the turn that was over."""
        log = self.replies.get(conversation_id, [])
        for index in range(start, len(state.activities)):
            received = state.activities[index]
            if str(received.activity.get("replyToId") or "") in state.user_ids:
                continue
            moved = dataclasses.replace(received, turn=state.turn)
            state.activities[index] = moved
            log[:] = [moved if kept is received else kept for kept in log]

    async def run_conversation(self, turns: Sequence[str], *, conversation_id: str) -> Transcript:
        """Send each user turn, wait for it to settle, and return the attributed transcript.

        The conversation is ``conversation_id`` on the wire, so a bot that keeps state continues
        it. Two cases change the id, each with a warning that names the id used: characters a
        channel would not put in an id (spaces, slashes) become ``-``, and an id this target
        already ran gets a numbered suffix. With ``unique_ids`` every run gets a random suffix.
        """
        wire_id = self._wire_id(conversation_id)
        # Unique per run: a continued conversation's first message is not a retry of an old one.
        run = uuid.uuid4().hex[:8]
        transcript = Transcript(conversation=conversation_id)
        try:
            for text in turns:
                number = transcript.turn_count + 1
                user_id = f"{wire_id}-{run}-u{number}"
                transcript.append(
                    Message(
                        id=user_id,
                        turn=number,
                        role="user",
                        sender="user",
                        text=text,
                        timestamp=datetime.now(UTC),
                    )
                )
                for received in await self.send_turn(wire_id, text, activity_id=user_id):
                    message = self._message(received)
                    if message is not None:
                        _place_in_turn(transcript, message, during=number)
                    record = plan_record(received.activity, received.turn)
                    if record is not None:
                        transcript.turns.append(record)
        finally:
            self._conversations.pop(wire_id, None)
        return transcript

    def _wire_id(self, conversation_id: str) -> str:
        """The id the conversation has on the wire (see :meth:`run_conversation`)."""
        # Ids as channels make them: a scenario's name may hold spaces or slashes.
        wire_id = _UNSAFE_ID.sub("-", conversation_id)[:200]
        if self.unique_ids:
            return f"{wire_id}-{uuid.uuid4().hex[:8]}"
        base, number = wire_id, 1
        while wire_id in self._used_ids:
            number += 1
            wire_id = f"{base}-{number}"
        self._used_ids.add(wire_id)
        if wire_id != conversation_id:
            why = (
                "was already run by this target" if base == conversation_id else "is no channel id"
            )
            _log.warning(
                "conversation id %r %s; it is %r on the wire", conversation_id, why, wire_id
            )
        return wire_id

    def _message(self, received: ReceivedActivity) -> Message | None:
        return self.message(received)

    def message(self, received: ReceivedActivity) -> Message | None:
        """The transcript message of a received ``message`` activity (None for other kinds)."""
        activity = received.activity
        if activity.get("type") != "message" or not isinstance(activity.get("text"), str):
            return None
        data = activity.get("channelData")
        data = data if isinstance(data, dict) else {}
        account = activity.get("from")
        account = account if isinstance(account, dict) else {}
        sender = data.get("sender") or account.get("name") or account.get("id") or self.bot_name
        mode = data.get("mode")
        request = data.get("request")
        return Message(
            id=str(activity["id"]),
            turn=received.turn,
            role="bot",
            sender=str(sender),
            text=activity["text"],
            mode=mode if isinstance(mode, str) else None,
            request=request if isinstance(request, str) else None,
            timestamp=received.received_at,
        )
