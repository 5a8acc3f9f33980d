"""The Direct Line 3.0 target: hold scenario conversations with a deployed bot.

A published Copilot Studio agent, or any bot registered with Azure Bot Service, is reached through
Direct Line. ``DirectLineTarget`` speaks its client protocol:

1. With a secret, ``POST /tokens/generate`` exchanges it for a token (the secret never goes further).
2. ``POST /conversations`` starts a conversation: ``conversationId``, ``token``, ``expires_in`` and a
   WebSocket ``streamUrl``.
3. Each user turn is ``POST /conversations/{id}/activities``. Replies arrive on the WebSocket
   (default), or by polling ``GET /conversations/{id}/activities?watermark=W``.
4. The token is refreshed (``POST /tokens/refresh``) once half its lifetime has passed; a dropped
   socket is reconnected (``GET /conversations/{id}?watermark=W``) up to ``max_reconnects`` times
   before it is an error.

A call that Direct Line answers with HTTP 429 or 5xx is made again, up to ``retries`` times, after
the wait its ``Retry-After`` asks for, else 1, 2, 4... seconds, and never more than ``retry_wait``
seconds of waiting in all: polls, token calls, conversation starts and reconnects. The user's
activity is the exception: it is posted again only after a 429 (the service turned it away), never
after a 5xx, after which the bot may have received it and a second post would run the turn twice.

The user's own echoes and ``typing`` activities are dropped, and so is an activity whose id arrived
already (Direct Line delivers again from the watermark after a reconnect). A turn is over when
replies to it have been quiet for ``quiet_period`` seconds (a ``typing`` activity restarts the
wait: the bot is still working), or on ``endOfConversation``. ``event`` and ``trace`` activities
(Copilot Studio's plan events) are not replies: they neither start the quiet period nor end the
wait for the first reply, and while the plan they announced (``DynamicPlanReceived``) or a step
of it (``DynamicPlanStepTriggered``) has not finished, a turn with a reply stays open as it does
while the bot types (:mod:`harness.simulate._plan_events`). This SDK's own ``harness.plan``
event, sent after a turn's messages, counts as a reply. A turn in which the bot sent only events
ends at ``reply_timeout`` with no message (unless a plan or step is still open: an error), and
one whose only message has no text ends after the quiet period with none; either is logged, and
``harness simulate`` reports the turn's requests as missed. A reply to an earlier turn
(``replyToId``) that comes after that turn was over is kept at the end of the turn it answers,
and logged as late; a message that names no turn belongs to the turn it is received with. A bot
that sends nothing within ``reply_timeout`` is an error. Every failure is a
:class:`~harness.simulate.targets.ConversationError` carrying the messages received so far, which
the scenario runner reports as a failed scenario.

A token serves one conversation: with a secret, each conversation gets a new token; with a token
only, a conversation the service gives back used (one this target started, or one holding another
run's messages) is refused rather than continued.

``DirectLineTarget.conversation()`` holds one conversation a turn at a time (``harness chat
--directline``); ``run_conversation`` is that, for a list of turns. Each user activity asks for the
turn's plan (``channelData``), which a bot served by ``harness serve`` sends as a ``harness.plan``
event; the plan goes into the transcript's turns.

Who sent each message: ``channelData.sender`` (this SDK's bots), else the child or connected agent
whose Copilot Studio plan step is open (``TraceAttribution``), else ``from.name``, else ``unknown``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from harness.detect.activities import (
    PLAN_REQUEST,
    TraceAttribution,
    activity_message,
    plan_record,
    reply_id,
    user_message,
)
from harness.detect.transcript import Message, Transcript
from harness.exceptions import MissingExtraError, RunError, UsageError
from harness.simulate._directline_http import RefusedError, Retry, RetryPolicy, describe
from harness.simulate._directline_receivers import (
    PollingReceiver,
    Receiver,
    Session,
    SocketReceiver,
    replayed,
    take_batch,
)
from harness.simulate._plan_events import PlanSteps, is_trace
from harness.simulate.scenarios import directline_turn_limit
from harness.simulate.targets import ConversationError, Target, _place_in_turn

_log = logging.getLogger(__name__)

try:
    import aiohttp
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError(
        "the Direct Line target (simulate --directline)", extra="hosting"
    ) from exc

__all__ = ["DEFAULT_BASE_URL", "DirectLineConversation", "DirectLineTarget", "Transport"]

DEFAULT_BASE_URL = "https://directline.botframework.com/v3/directline"
"""The global Direct Line endpoint. Regional ones: ``https://europe.directline.botframework.com/v3/
directline``, ``https://india.directline.botframework.com/v3/directline``."""

Transport = Literal["websocket", "polling"]


class DirectLineTarget(Target):
    """A bot behind Direct Line 3.0.

    Args:
        base_url: the Direct Line endpoint up to ``/conversations``
            (``https://directline.botframework.com/v3/directline``, a regional one, or a local
            server such as ``http://127.0.0.1:3000/directline``).
        secret: the channel's Direct Line secret; exchanged for a token per conversation.
        token: a Direct Line token made elsewhere (instead of the secret). Direct Line binds a
            token to one conversation: when the service gives back a conversation this target
            started already, or one that holds another run's messages, it is refused rather
            than continued. A server that ignores tokens starts a new one each time. Without
            either, conversations are started without credentials (local servers).
        transport: ``websocket`` (the ``streamUrl``) or ``polling``. A service that gives no
            ``streamUrl`` (such as ``offline-directline``) is polled either way.
        quiet_period: seconds without a new reply that end a turn.
        typing_limit: how long after the turn's last reply ``typing`` activities may keep the
            turn open; then it ends as if quiet, with a warning that the bot was still typing.
        reply_timeout: the longest wait for a turn's first reply; a bot silent for longer is an
            error.
        turn_timeout: the longest a whole turn may take; None (the default) is
            ``reply_timeout`` plus 60 s, and at least 120 s (``directline_turn_limit``).
        poll_interval: seconds between polls (``polling``), 1 or more against the real service.
        max_reconnects: how many times a dropped WebSocket is reconnected per conversation.
        retries: how many times a call Direct Line answers with HTTP 429 or 5xx is made again
            (the user's activity: only after a 429); 0 never.
        retry_wait: the most seconds one call waits between its attempts, in all; a
            ``Retry-After`` that asks for more ends the retries.
        retry_backoff: the wait before the first retry when Direct Line gives no
            ``Retry-After``; it doubles with each retry.
        user_id: the ``from.id`` of the user's activities (Direct Line wants a ``dl_`` prefix on
            user ids bound to a token).
        clock: seconds on a monotonic clock, for the token's lifetime (tests pass a fake one).
        sleep: how to wait between retries (tests pass one that returns at once).
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        *,
        secret: str | None = None,
        token: str | None = None,
        transport: Transport = "websocket",
        quiet_period: float = 3.0,
        reply_timeout: float = 60.0,
        turn_timeout: float | None = None,
        poll_interval: float = 1.0,
        typing_limit: float = 30.0,
        max_reconnects: int = 2,
        retries: int = 3,
        retry_wait: float = 30.0,
        retry_backoff: float = 1.0,
        user_id: str = "dl_harness-user",
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise UsageError(f"the Direct Line URL must be an http(s) URL, got {base_url!r}")
        if secret and token:
            raise UsageError("give the Direct Line secret or a token, not both")
        if transport not in ("websocket", "polling"):
            raise UsageError(f"the transport must be 'websocket' or 'polling', not {transport!r}")
        if retries < 0 or retry_wait < 0 or retry_backoff < 0:
            raise UsageError("retries, retry_wait and retry_backoff must be >= 0")
        turn_timeout = directline_turn_limit(reply_timeout, turn_timeout)
        if min(quiet_period, reply_timeout, turn_timeout, poll_interval, typing_limit) <= 0:
            raise UsageError(
                "quiet_period, reply_timeout, turn_timeout, poll_interval and typing_limit "
                "must be > 0"
            )
        self.base_url = base_url.rstrip("/")
        self.name = self.base_url
        self.secret = secret
        self.token = token
        self.transport: Transport = transport
        self.quiet_period = quiet_period
        self.reply_timeout = reply_timeout
        self.turn_timeout = turn_timeout
        self.poll_interval = poll_interval
        self.typing_limit = typing_limit
        self.max_reconnects = max_reconnects
        self.retries = retries
        self.retry_wait = retry_wait
        self.retry_backoff = retry_backoff
        self.user_id = user_id
        self._clock = clock
        self.retry_policy = RetryPolicy(retries, retry_wait, retry_backoff, sleep)
        """When a call Direct Line refuses is made again (``retries``, ``retry_wait``...)."""
        self._http: aiohttp.ClientSession | None = None
        self.repeats_dropped = 0
        """Replies dropped because their ``channelData.replyId`` had arrived already."""
        self.replays_dropped = 0
        """Activities dropped because Direct Line delivered their id again (a reconnect)."""
        self._ended: dict[str, int] = {}
        """The turn in which the bot sent ``endOfConversation``, by transcript name."""
        self._started: set[str] = set()
        """The conversations a given token started (the service gives its one back)."""

    def ended_by_bot(self, conversation_id: str) -> int | None:
        return self._ended.get(conversation_id)

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    # --- HTTP ----------------------------------------------------------------------------------

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.turn_timeout)
            )
        return self._http

    async def _request(
        self,
        method: str,
        path: str,
        *,
        auth: str | None,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        retry: Retry = "transient",
    ) -> dict[str, Any]:
        return (
            await self._exchange(method, path, auth=auth, body=body, params=params, retry=retry)
        )[1]

    async def _exchange(
        self,
        method: str,
        path: str,
        *,
        auth: str | None,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        retry: Retry = "transient",
    ) -> tuple[int, dict[str, Any]]:
        """The HTTP status and the JSON object of an answer (an error status raises, once the
        retries ``retry`` allows are spent: ``transient`` retries 429 and 5xx, ``throttled``
        429 only)."""
        url = self.base_url + path
        headers = {"Authorization": f"Bearer {auth}"} if auth else {}
        what = f"{method} {path}"

        async def attempt() -> tuple[int, str]:
            try:
                async with self._client().request(
                    method, url, json=body, params=params, headers=headers
                ) as response:
                    text = await response.text()
                    if response.status >= 400:
                        raise RefusedError(
                            response.status,
                            response.headers.get("Retry-After"),
                            describe(response.status, text, what),
                        )
                    return response.status, text
            except aiohttp.ClientError as exc:
                raise RunError(f"cannot reach Direct Line at {self.base_url}: {exc}") from exc
            except TimeoutError as exc:
                raise RunError(
                    f"Direct Line did not answer {what} within {self.turn_timeout:g}s"
                ) from exc

        status, text = await self.retry_policy.call(attempt, what=what, retry=retry)
        if not text.strip():
            return status, {}
        try:
            parsed = json.loads(text)
        except ValueError as exc:
            raise RunError(f"Direct Line answered {method} {path} with malformed JSON") from exc
        return status, parsed if isinstance(parsed, dict) else {}

    # --- conversations and tokens --------------------------------------------------------------

    def _lifetime(self, data: dict[str, Any]) -> tuple[float | None, float | None]:
        raw = data.get("expires_in", data.get("expiresIn"))
        if not isinstance(raw, int | float) or isinstance(raw, bool) or raw <= 0:
            return None, None
        now = self._clock()
        return now + raw / 2, now + raw

    async def _open(self) -> Session:
        """Start a conversation (with a token made from the secret, when there is one)."""
        token = self.token
        if self.secret:
            made = await self._request(
                "POST",
                "/tokens/generate",
                auth=self.secret,
                body={"user": {"id": self.user_id, "name": "user"}},
            )
            token = made.get("token") if isinstance(made.get("token"), str) else None
            if token is None:
                raise RunError("Direct Line answered POST /tokens/generate without a token")
        status, data = await self._exchange("POST", "/conversations", auth=token)
        conversation_id = data.get("conversationId")
        if not isinstance(conversation_id, str) or not conversation_id:
            raise RunError("Direct Line answered POST /conversations without a conversationId")
        if self.token:
            # A server that ignores tokens (offline-directline) starts a new conversation each
            # time, whatever its status; only one given back used is refused.
            if conversation_id in self._started:
                raise RunError(
                    _one_conversation(
                        f"the service gave back the conversation it started for this target "
                        f"already ({conversation_id})"
                    )
                )
            if status == 200 and await self._holds_user_messages(conversation_id, token):
                raise RunError(
                    _one_conversation(
                        f"its conversation ({conversation_id}) holds another run's messages "
                        "(HTTP 200 on POST /conversations: the conversation exists already)"
                    )
                )
            self._started.add(conversation_id)
        if isinstance(data.get("token"), str):
            token = data["token"]
        refresh_at, expires_at = self._lifetime(data)
        stream = data.get("streamUrl")
        return Session(
            conversation_id=conversation_id,
            token=token,
            refresh_at=refresh_at if token else None,
            expires_at=expires_at if token else None,
            stream_url=stream if isinstance(stream, str) and stream else None,
        )

    async def _holds_user_messages(self, conversation_id: str, token: str | None) -> bool:
        """Whether the conversation holds a user's activity already (another run used it); a
        failed look is no evidence."""
        try:
            data = await self._request(
                "GET", f"/conversations/{conversation_id}/activities", auth=token
            )
        except RunError:
            return False
        activities = data.get("activities")
        return isinstance(activities, list) and any(
            isinstance(a, dict) and _is_from_user(a, self.user_id) for a in activities
        )

    async def _fresh_token(self, session: Session) -> str | None:
        """The session's token, refreshed first once half its lifetime has passed."""
        if session.token is None or session.refresh_at is None:
            return session.token
        if self._clock() < session.refresh_at:
            return session.token
        if session.expires_at is not None and self._clock() >= session.expires_at:
            raise RunError(
                "the Direct Line token expired before it could be refreshed "
                "(a turn took longer than the token's lifetime)"
            )
        data = await self._request("POST", "/tokens/refresh", auth=session.token)
        if not isinstance(data.get("token"), str):
            raise RunError("Direct Line answered POST /tokens/refresh without a token")
        session.token = data["token"]
        session.refresh_at, session.expires_at = self._lifetime(data)
        return session.token

    async def _post(self, session: Session, text: str) -> str | None:
        token = await self._fresh_token(session)
        activity = {
            "type": "message",
            "from": {"id": self.user_id, "name": "user", "role": "user"},
            "text": text,
            "locale": "en-US",
            "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "channelData": PLAN_REQUEST,
        }
        # After a 5xx the bot may have received the activity already: posting it again could run
        # the turn twice (two answers, a duplicate the harness made). A 429 was turned away.
        data = await self._request(
            "POST",
            f"/conversations/{session.conversation_id}/activities",
            auth=token,
            body=activity,
            retry="throttled",
        )
        posted = data.get("id")
        return posted if isinstance(posted, str) and posted else None

    async def _poll(self, session: Session) -> list[dict[str, Any]]:
        token = await self._fresh_token(session)
        params = {"watermark": session.watermark} if session.watermark is not None else None
        data = await self._request(
            "GET", f"/conversations/{session.conversation_id}/activities", auth=token, params=params
        )
        return take_batch(session, data)

    async def _reconnect(self, session: Session) -> str:
        """A new ``streamUrl`` for the conversation, resuming after its watermark."""
        token = await self._fresh_token(session)
        params = {"watermark": session.watermark} if session.watermark is not None else None
        data = await self._request(
            "GET", f"/conversations/{session.conversation_id}", auth=token, params=params
        )
        stream = data.get("streamUrl")
        if not isinstance(stream, str) or not stream:
            raise RunError("Direct Line gave no streamUrl to reconnect to")
        if isinstance(data.get("token"), str):
            session.token = data["token"]
        return stream

    # --- conversations -------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def conversation(
        self, conversation_id: str = "directline"
    ) -> AsyncIterator[DirectLineConversation]:
        """Start a Direct Line conversation and hold it open, a turn at a time::

            async with target.conversation() as talk:
                replies = await talk.send("hello")

        ``conversation_id`` names the transcript (Direct Line picks the conversation's own id:
        ``talk.id``). The socket is closed when the block ends.

        Raises:
            ConversationError: the conversation could not be started.
        """
        transcript = Transcript(conversation=conversation_id)
        self._ended.pop(conversation_id, None)
        try:
            session = await self._open()
        except RunError as exc:
            raise ConversationError(
                f"cannot start a Direct Line conversation: {exc}", transcript=transcript
            ) from exc
        receiver: Receiver = (
            SocketReceiver(self, session)
            if self.transport == "websocket" and session.stream_url
            else PollingReceiver(self, session)
        )
        try:
            yield DirectLineConversation(self, session, receiver, transcript)
        finally:
            await receiver.aclose()

    async def run_conversation(self, turns: Sequence[str], *, conversation_id: str) -> Transcript:
        """Start a Direct Line conversation, send each turn, collect its replies.

        Raises:
            ConversationError: Direct Line or the bot failed; it carries the messages so far.
        """
        async with self.conversation(conversation_id) as talk:
            for text in turns:
                await talk.send(text)
        return talk.transcript

    async def _turn(self, talk: DirectLineConversation, number: int, text: str) -> list[Message]:
        """Post turn ``number``'s message and collect replies until the turn is quiet; return
        the messages received meanwhile, in arrival order (late replies to earlier turns too)."""
        session, receiver, transcript = talk.session, talk.receiver, talk.transcript
        turn_of, used, attribution = talk.turn_of, talk.used, talk.attribution
        loop = asyncio.get_running_loop()
        await receiver.prepare()
        posted = await self._post(session, text)
        if posted:
            turn_of[posted] = number
        started = last_reply = last_message = loop.time()
        replied = False
        steps = PlanSteps()
        """This turn's events, and the plan steps they opened that have not finished."""
        textless: list[str] = []
        received: list[Message] = []
        while True:
            if replied:
                # Typing (or an open plan step) moves last_reply on, but no further than
                # typing_limit after the last message: a bot that types for ever does not hold
                # the turn open for ever.
                quiet_end = math.inf if steps.open else last_reply + self.quiet_period
                typing_end = last_message + max(self.quiet_period, self.typing_limit)
                wait = min(quiet_end, typing_end) - loop.time()
                if wait <= 0 and quiet_end > typing_end:
                    _log.warning(
                        "%s: turn %d: the bot was still %s %gs after its last reply; the turn "
                        "ends there (typing_limit)",
                        transcript.conversation,
                        number,
                        f"running {steps.describe()}" if steps.open else "typing",
                        self.typing_limit,
                    )
            else:
                wait = self.reply_timeout - (loop.time() - started)
            if wait <= 0:
                break
            batch = await receiver.receive(wait)
            if batch is None:
                continue  # the wait ran out; the loop re-checks the deadline
            ended = False
            for activity in batch:
                if replayed(activity, session):
                    self.replays_dropped += 1  # delivered again after a reconnect
                    continue
                known = activity.get("id")
                if isinstance(known, str) and known:
                    session.activity_ids.add(known)
                if _is_from_user(activity, self.user_id):
                    continue  # the user's own echo
                kind = activity.get("type")
                reply_to = activity.get("replyToId")
                turn = turn_of.get(reply_to, number) if isinstance(reply_to, str) else number
                if kind == "typing":
                    if replied and turn == number:
                        last_reply = loop.time()  # still working on this turn: wait on
                    continue
                attribution.observe(activity)
                repeat = reply_id(activity)
                if repeat is not None and repeat in session.reply_ids:
                    self.repeats_dropped += 1  # a turn the bot ran again: seen already
                    continue
                if repeat is not None:
                    session.reply_ids.add(repeat)
                if turn == number:
                    if is_trace(activity):
                        # The bot is working (a plan, a step): no reply yet, but like typing it
                        # keeps a turn that has one open.
                        steps.observe(activity)
                        if replied:
                            last_reply = loop.time()
                    else:
                        replied, last_reply = True, loop.time()
                        last_message = last_reply
                        if kind == "endOfConversation":
                            ended = True
                            self._ended.setdefault(transcript.conversation, number)
                message = activity_message(
                    activity,
                    turn=turn,
                    message_id=_unique_id(activity, used, transcript),
                    sender=attribution.sender,
                )
                if message is not None:
                    message = _place_in_turn(transcript, message, during=number)
                    received.append(message)
                    if message.arrived_during is not None:
                        talk.late.append(message)
                elif kind == "message" and turn == number:
                    textless.append(str(known or "?"))
                record = plan_record(activity, turn)
                if record is not None:
                    transcript.turns.append(record)
            if ended:
                break
        if textless:
            _log.warning(
                "%s: turn %d: the bot sent %d message%s with neither text nor a card with text "
                "(%s); nothing in %s is checked",
                transcript.conversation,
                number,
                len(textless),
                "" if len(textless) == 1 else "s",
                ", ".join(textless[:5]) + (", ..." if len(textless) > 5 else ""),
                "it" if len(textless) == 1 else "them",
            )
        if not replied:
            if steps.open:
                raise RunError(
                    f"the bot sent no reply within {self.reply_timeout:g}s; it was still "
                    f"running {steps.describe()} (a longer reply_timeout gives it more time)"
                )
            if not steps.names:
                raise RunError(f"the bot sent no reply within {self.reply_timeout:g}s")
            _log.warning(
                "%s: turn %d: the bot sent only events (%s) and no message within %gs; the turn "
                "ends without a reply",
                transcript.conversation,
                number,
                ", ".join(steps.names),
                self.reply_timeout,
            )
        return received


class DirectLineConversation:
    """One open Direct Line conversation (from :meth:`DirectLineTarget.conversation`)."""

    def __init__(
        self,
        target: DirectLineTarget,
        session: Session,
        receiver: Receiver,
        transcript: Transcript,
    ) -> None:
        self.target = target
        self.session = session
        self.receiver = receiver
        self.transcript = transcript
        """Every message so far, and the plans the bot sent."""
        self.turn_of: dict[str, int] = {}
        self.used: set[str] = set()
        self.attribution = TraceAttribution()
        self.late: list[Message] = []
        """Replies to an earlier turn received with a later turn's replies; each is in the
        transcript at the end of the turn it answers."""

    @property
    def id(self) -> str:
        """The conversation's Direct Line id."""
        return self.session.conversation_id

    async def send(self, text: str) -> list[Message]:
        """Send one user message; once the turn is quiet, return the bot's messages that
        arrived meanwhile, in arrival order. A late reply to an earlier turn is among them, with
        that turn's number (``message.turn``); the transcript keeps it in that turn.

        Raises:
            ConversationError: Direct Line or the bot failed (the transcript is kept).
        """
        number = self.transcript.turn_count + 1
        self.transcript.append(user_message(self.transcript.conversation, number, text))
        try:
            async with asyncio.timeout(self.target.turn_timeout):
                return await self.target._turn(self, number, text)
        except TimeoutError as exc:
            raise ConversationError(
                f"turn {number} did not finish within {self.target.turn_timeout:g}s",
                transcript=self.transcript,
                turn=number,
            ) from exc
        except RunError as exc:
            raise ConversationError(
                f"turn {number}: {exc}", transcript=self.transcript, turn=number
            ) from exc


def _one_conversation(why: str) -> str:
    return (
        f"a Direct Line token serves one conversation, and {why}; give the channel's secret "
        "instead, so that each conversation gets a token of its own"
    )


def _is_from_user(activity: dict[str, Any], user_id: str) -> bool:
    account = activity.get("from")
    if not isinstance(account, dict):
        return False
    return account.get("id") == user_id or account.get("role") == "user"


def _unique_id(activity: dict[str, Any], used: set[str], transcript: Transcript) -> str:
    raw = activity.get("id")
    candidate = raw if isinstance(raw, str) and raw else transcript.next_id()
    while candidate in used:
        candidate = f"{candidate}-{len(used)}"
    used.add(candidate)
    return candidate
