"""The bot core both hosting adapters share: one user message in, attributed messages out.

``HarnessBot`` knows nothing of Bot Framework types. An adapter hands it a conversation key, the
user's text and three callbacks: ``load`` (the stored snapshot), ``save`` (the new snapshot) and
``send`` (one ``OutgoingMessage`` to the channel). Each bot message goes out as soon as it is sent,
so a sub-agent's direct message reaches the user before the parent's reply.

The conversation's snapshot is stored as one JSON string. The SDKs' state objects detect changes by
walking (botbuilder: jsonpickle-flattening) the whole stored value twice per turn; a string keeps
that cheap however long the transcript grows.

Turns of one conversation run one at a time (a lock per conversation key held from ``load`` to
``save``, and the store's lease when several workers share it); different conversations run
concurrently. The stored state keeps a window of recent turns and the store's log the whole
transcript (see ``_state``); an activity already handled is not run again. The core also counts
in-flight requests so a server can finish them before it stops, and bounds them: at most
``max_turns`` at once in all and ``max_queued_per_conversation`` waiting for one conversation
(``admit`` refuses the rest).

Save before you speak: before each bot message goes to the channel, the conversation's snapshot
(with that message in it) is saved, so a crash never leaves the user with an answer the bot has
forgotten. Each send has ``reply_timeout`` seconds; a channel that fails or hangs is logged once
and gets no more messages this turn (the turn still completes and is saved), so a slow or dead
channel costs only its own conversation.

Honest failures: a store that cannot be reached (``StorageUnavailableError``) before the turn's
first reply went out fails the request with ``UnavailableError``, which the server answers
``503`` with ``Retry-After`` (the channel sends the message again; the user sees nothing). A
turn has ``turn_timeout`` seconds in all, counted from when it holds the conversation; after
that it is cancelled and its lease given up, so one stuck turn never blocks its conversation on
every worker.

Reply ids: each bot message carries ``channelData.replyId``, ``{conversation}/{turn}/{n}`` (the
n-th bot message of that turn). A turn run again after a crash gives its messages the same ids,
so a channel that has seen an id can drop the repeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.exceptions import ConfigError, RunError
from harness.hosting._errors import (
    AuthUnavailableError,
    StorageUnavailableError,
    UnavailableError,
)
from harness.hosting._offloop import sized, text_size
from harness.hosting._outgoing import (
    DEFAULT_REPLY_TIMEOUT,
    ERROR_REPLY,
    PLAN_EVENT,
    MessageSender,
    OutgoingMessage,
    PlanSender,
    describe_send_error,
    plan_value,
    reply_id_for,
    report_turn_error,
    wants_plan,
)
from harness.hosting._state import Stored, activity_key
from harness.hosting.storage import StateStore

if TYPE_CHECKING:
    from harness.detect.transcript import Message
    from harness.runtime.parent import Conversation, Parent, Turn

__all__ = [
    "DEFAULT_REPLY_TIMEOUT",
    "ERROR_REPLY",
    "PLAN_EVENT",
    "SNAPSHOT_PROPERTY",
    "AuthUnavailableError",
    "BusyError",
    "HarnessBot",
    "OutgoingMessage",
    "StorageUnavailableError",
    "TurnTimeoutError",
    "UnavailableError",
    "describe_send_error",
    "not_text",
    "plan_value",
    "report_turn_error",
    "wants_plan",
]

log = logging.getLogger("harness.hosting")

SAVE_FAILED_APOLOGY = (
    "Sorry, something went wrong on our side and I could not finish that. "
    "Please send your last message again."
)
"""Sent once when the conversation could not be saved part-way through a turn (after a reply)."""

NOT_TEXT_REPLY = (
    "Sorry, I can only read text, so I could not read {what}. Please type your message."
)
"""Sent to a message that holds no text, only attachments or a card's submitted values; ``{what}``
is what it held (``not_text``). No turn runs for it."""


def not_text(*, attachments: object, value: object) -> str | None:
    """What a message carried instead of text, in words for the user (``the attachment``,
    ``the attachments``, ``the card you submitted``); None when it carried nothing either.

    Teams sends an image with a ``text/html`` copy of the message beside it: that copy is not
    counted, so one image is "the attachment".
    """
    if isinstance(attachments, list | tuple) and attachments:
        files = [a for a in attachments if _content_type(a) != "text/html"] or attachments
        return "the attachment" if len(files) == 1 else "the attachments"
    if value is not None and value != "" and value != {} and value != []:
        return "the card you submitted"  # an Adaptive Card Action.Submit from Teams or Web Chat
    return None


def _content_type(attachment: object) -> str:
    """An attachment's content type, from either SDK's object or a plain mapping."""
    if isinstance(attachment, Mapping):
        found = attachment.get("contentType")
    else:
        found = getattr(attachment, "content_type", None)
    return found.strip().lower() if isinstance(found, str) else ""


_NOTED_LIMIT = 1_024
"""How many activities a worker remembers having sent the text-only note to (a redelivered
activity gets none the second time)."""


SNAPSHOT_PROPERTY = "harness"
"""The ``ConversationState`` property that holds a conversation's snapshot (both adapters)."""


DEFAULT_WINDOW_TURNS = 50
"""Turns of a conversation kept in its stored state; the full transcript is in the store's log."""


DEFAULT_TURN_TIMEOUT = 300.0
"""Seconds one turn may run in all (from when it holds its conversation) before it is cancelled
and its lease given up."""


class TurnTimeoutError(RunError, TimeoutError):
    """A turn ran longer than ``turn_timeout`` and was cancelled."""


class BusyError(RunError):
    """The server is at its limit of turns in flight, or one conversation has too many queued."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


StateLoader = Callable[[], Awaitable[Any]]
StateSaver = Callable[[str], Awaitable[None]]


@dataclass(slots=True)
class _Progress:
    """How far a turn got: replies delivered to the channel."""

    sent: int = 0


def _dump(snapshot: Mapping[str, Any]) -> str:
    # ASCII JSON: a lone surrogate in a message ("\ud800") is escaped, so every store can keep it.
    return json.dumps(snapshot, ensure_ascii=True)


async def _dumped(snapshot: Mapping[str, Any]) -> str:
    """``_dump(snapshot)``, on a worker thread when it holds long text. Nothing changes it
    meanwhile: ``Conversation.snapshot()`` is a fresh copy, and the bookkeeping ``Stored.pack``
    adds changes only between saves, under the same lock."""
    return await sized(text_size(snapshot), _dump, snapshot)


def _decode(value: Any, conversation_id: str) -> Mapping[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            log.warning(
                "conversation %s: stored state is not JSON; starting afresh", conversation_id
            )
            return None
    if isinstance(value, Mapping):
        return value
    log.warning("conversation %s: stored state is not an object; starting afresh", conversation_id)
    return None


class _KeyedLocks:
    """One asyncio lock per key, dropped again when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            current, count = self._locks[key]
            if count <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (current, count - 1)

    def __len__(self) -> int:
        return len(self._locks)


class HarnessBot:
    """A ``Parent`` served to a channel, independent of the hosting SDK.

    Args:
        parent: the bot. One ``Parent`` serves every conversation; each conversation's state lives
            in the adapter's storage and is restored for each turn.
        store: the durable store behind the adapter's storage, if any: finished turns go to its
            transcript log, and a store shared by several workers hands out the lease that
            makes one worker at a time run a conversation's turn.
        window_turns: how many recent turns the stored state keeps (None: all of them).
        turn_timeout: seconds one turn may run in all (from when it holds its conversation);
            then it is cancelled (``TurnTimeoutError``) and its lease given up.
    """

    def __init__(
        self,
        parent: Parent,
        *,
        reply_timeout: float = DEFAULT_REPLY_TIMEOUT,
        max_turns: int = 256,
        max_queued_per_conversation: int = 8,
        store: StateStore | None = None,
        window_turns: int | None = DEFAULT_WINDOW_TURNS,
        turn_timeout: float = DEFAULT_TURN_TIMEOUT,
        send_plans: bool = False,
    ) -> None:
        if window_turns is not None and window_turns < 1:
            raise ConfigError("window_turns must be at least 1 (or None)", field="window_turns")
        if not turn_timeout > 0:
            raise ConfigError(
                "turn_timeout must be a positive number of seconds", field="turn_timeout"
            )
        self.turn_timeout = turn_timeout
        """Seconds one turn may run in all before it is cancelled and its lease given up."""
        self.parent = parent
        self.store = store
        """Where the transcript log goes and which hands out leases; None: neither."""
        self.window_turns = window_turns
        """Turns kept in the stored state (None: all); older ones are only in the store's log."""
        self.reply_timeout = reply_timeout
        """Seconds one reply may take to reach the channel."""
        self.send_plans = send_plans
        """Send every turn's plan to the channel (a ``harness.plan`` event), asked or not."""
        self.max_turns = max_turns
        """Requests handled at once; more get 503."""
        self.max_queued_per_conversation = max_queued_per_conversation
        """Requests of one conversation in flight at once; more get 429."""
        self._admitted: dict[str, int] = {}
        self._noted: OrderedDict[tuple[str, str], None] = OrderedDict()
        """(conversation key, activity id) of the latest text-only notes sent, oldest first."""
        self._locks = _KeyedLocks()
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.accepting = True
        """False once the server has started to shut down: new requests are refused."""

    @property
    def name(self) -> str:
        """The parent's name."""
        return self.parent.name

    @property
    def in_flight(self) -> int:
        """Requests being handled right now."""
        return self._in_flight

    @asynccontextmanager
    async def request(self) -> AsyncIterator[None]:
        """Count a request as in flight while the block runs (for graceful shutdown)."""
        self._in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    @asynccontextmanager
    async def admit(self, conversation: str) -> AsyncIterator[None]:
        """Count a request against the overall and per-conversation bounds while the block runs.

        Raises:
            BusyError: 503 when ``max_turns`` requests are in flight, 429 when this conversation
                already has ``max_queued_per_conversation``.
        """
        if self._in_flight >= self.max_turns:
            raise BusyError(f"the bot is handling {self.max_turns} requests already", status=503)
        count = self._admitted.get(conversation, 0)
        if count >= self.max_queued_per_conversation:
            raise BusyError(
                f"this conversation already has {count} messages waiting; slow down", status=429
            )
        self._admitted[conversation] = count + 1
        try:
            async with self.request():
                yield
        finally:
            left = self._admitted[conversation] - 1
            if left:
                self._admitted[conversation] = left
            else:
                del self._admitted[conversation]

    async def drain(self, grace_s: float) -> bool:
        """Stop accepting requests and wait up to ``grace_s`` seconds for in-flight ones.

        Returns:
            True when every in-flight request finished in time.
        """
        self.accepting = False
        try:
            async with asyncio.timeout(grace_s):
                await self._idle.wait()
        except TimeoutError:
            log.warning("shutdown: %d request(s) still running after %gs", self._in_flight, grace_s)
            return False
        return True

    async def handle_message(
        self,
        *,
        key: str,
        conversation_id: str,
        text: str,
        load: StateLoader,
        save: StateSaver,
        send: MessageSender,
        activity_id: str | None = None,
        send_plan: PlanSender | None = None,
        instead_of_text: str | None = None,
    ) -> Turn | None:
        """Run one user message through the parent and store the conversation's new state.

        Args:
            key: the conversation's storage key (unique across channels); turns with the same key
                run one at a time (across workers too, when the store hands out leases).
            conversation_id: the channel's conversation id.
            text: what the user wrote. Blank messages run no turn (None is returned).
            load: returns the stored snapshot (as ``save`` was given it), or None for a new
                conversation.
            save: stores the snapshot (a JSON string): before each bot message is sent (with
                that message in it) and after the turn.
            send: delivers one bot message to the channel, in order, as it is sent. It has
                ``reply_timeout`` seconds; a failure is logged once and the turn's later
                messages are not sent (they are still saved).
            activity_id: the channel's id of the user's activity. A message already handled
                (a channel's retry) is not run again (None is returned); a retry of a turn
                whose worker stopped mid-way undoes the partial turn and runs it again.
            send_plan: delivers the turn's plan (:func:`plan_value`) as a ``harness.plan``
                event after its messages; given by the adapter when the activity asked for it
                (:func:`wants_plan`) or ``send_plans`` is set. A failure is logged, not raised.
            instead_of_text: what a message without text held instead (:func:`not_text`): the
                user is told, in one message (``NOT_TEXT_REPLY``), that the bot reads text only.

        Returns:
            The turn, or None for a blank or already handled message.
        """
        if not text or not text.strip():
            if instead_of_text is not None and self._first_note(key, activity_id):
                await self._not_text(conversation_id, instead_of_text, send)
            return None
        progress = _Progress()
        seen_as = await sized(len(text), activity_key, activity_id, text)
        try:
            lease = self.store.lease(key) if self.store is not None else contextlib.nullcontext()
            async with self._locks.hold(key), lease:
                bound = asyncio.timeout(self.turn_timeout)
                try:
                    async with bound:
                        turn = await self._handle(
                            key,
                            conversation_id,
                            text,
                            seen_as,
                            load,
                            save,
                            send,
                            progress,
                        )
                except TimeoutError as exc:
                    if not bound.expired():
                        raise
                    log.error(
                        "conversation %s: the turn ran longer than %gs; it was given up",
                        conversation_id,
                        self.turn_timeout,
                    )
                    raise TurnTimeoutError(
                        f"the turn ran longer than {self.turn_timeout:g}s"
                    ) from exc
        except UnavailableError as exc:
            if progress.sent and not isinstance(exc, StorageUnavailableError):
                # Too late for a 503: the user has part of the answer already. (A storage
                # outage is still a 503: the retry goes on from the last saved reply.)
                raise RuntimeError(f"{exc} (after {progress.sent} replies were sent)") from exc
            raise
        if turn is not None and send_plan is not None:
            try:
                async with asyncio.timeout(self.reply_timeout):
                    await send_plan(plan_value(turn))
            except Exception as exc:  # the plan is for checking; the turn is done and saved
                log.warning(
                    "conversation %s: could not deliver the plan (%s)",
                    conversation_id,
                    describe_send_error(exc),
                )
        return turn

    async def _handle(
        self,
        key: str,
        conversation_id: str,
        text: str,
        seen_as: str | None,
        load: StateLoader,
        save: StateSaver,
        send: MessageSender,
        progress: _Progress,
    ) -> Turn | None:
        loaded = await load()
        size = len(loaded) if isinstance(loaded, str) else 0
        stored = Stored.parse(await sized(size, _decode, loaded, conversation_id))
        if seen_as is not None and seen_as in stored.seen:
            log.info("conversation %s: activity already handled; not run again", conversation_id)
            return None
        already_sent = stored.recover(seen_as)
        outbox = asyncio.Lock()  # one save-then-send at a time, in the order sent
        channel_failed = False
        numbering: dict[str, int] = {}  # message id -> its place among the turn's bot messages
        save_failed: Exception | None = None

        async def deliver(message: Message) -> None:
            nonlocal channel_failed, save_failed
            async with outbox:
                if save_failed is not None:
                    return  # the turn stopped at a failed save: nothing more is sent
                try:
                    packed = stored.pack(conversation.snapshot())
                    await save(await _dumped(packed))  # save before you speak
                except Exception as exc:
                    save_failed = exc
                    log.error(
                        "conversation %s: could not save the conversation before a reply (%s: "
                        "%s); the turn stops here and no more replies are sent",
                        conversation_id,
                        type(exc).__name__,
                        exc,
                    )
                    return
                reply_id = reply_id_for(conversation_id, message, numbering)
                if channel_failed or already_sent.get(message.id) == message.text:
                    return
                try:
                    async with asyncio.timeout(self.reply_timeout):
                        await send(OutgoingMessage.from_message(message, reply_id=reply_id))
                    progress.sent += 1
                except Exception as exc:  # a dead channel costs only its own conversation
                    channel_failed = True
                    log.warning(
                        "conversation %s: could not deliver a reply (%s); no more replies "
                        "are sent this turn",
                        conversation_id,
                        describe_send_error(exc),
                    )

        conversation = self._resume(conversation_id, stored.snapshot, deliver)
        stored.begin(seen_as, conversation.snapshot())
        turn = await conversation.send(text)
        if save_failed is not None:
            # The store holds the turn up to its last saved reply, floor and dialogue step
            # included, so the next message goes on from there; nothing unsaved is sent.
            if not progress.sent or isinstance(save_failed, StorageUnavailableError):
                # Nothing was sent (the adapter answers with an error), or the store is out for
                # now: a 503 with Retry-After, and the channel's retry of this activity finishes
                # the turn from its last saved reply (the replies sent are not sent again).
                raise save_failed
            await self._apologise(conversation_id, send)
            return turn
        async with outbox:
            entries = stored.finish(seen_as, conversation.snapshot(), self.window_turns)
            if self.store is not None and entries:
                # A store outage here is a 503 too: the retry runs the turn again from its last
                # saved reply and writes the entries (by turn number: never twice).
                await self.store.append_log(key, entries)
            stored.logged += len(entries)
            try:
                await save(await _dumped(stored.pack(stored.snapshot or {})))
            except Exception as exc:
                # Every reply went out after its own save: the store has them all, and the
                # next message records this turn as unfinished. Nothing to apologise for.
                log.error(
                    "conversation %s: the turn's replies were sent, but its final save failed "
                    "(%s: %s)",
                    conversation_id,
                    type(exc).__name__,
                    exc,
                )
        return turn

    def _first_note(self, key: str, activity_id: str | None) -> bool:
        """Whether this activity gets the text-only note: not when this worker already sent it
        one (a channel's retry of the same activity). Without an activity id: always."""
        if not activity_id:
            return True
        noted = (key, activity_id)
        if noted in self._noted:
            log.info("activity %s already got the text-only note; not sent again", activity_id)
            return False
        self._noted[noted] = None
        if len(self._noted) > _NOTED_LIMIT:
            self._noted.popitem(last=False)
        return True

    async def _not_text(self, conversation_id: str, what: str, send: MessageSender) -> None:
        """Tell the user that a message without text was not read; no turn, nothing stored."""
        log.info(
            "conversation %s: a message with no text, only %s, runs no turn; the user is told "
            "the bot reads text only",
            conversation_id,
            what,
        )
        await self._tell(
            conversation_id, send, NOT_TEXT_REPLY.format(what=what), "the text-only note"
        )

    async def _apologise(self, conversation_id: str, send: MessageSender) -> None:
        """Tell the user, once, that the turn stopped part-way (its state could not be saved)."""
        await self._tell(conversation_id, send, SAVE_FAILED_APOLOGY, "the apology")

    async def _tell(self, conversation_id: str, send: MessageSender, text: str, what: str) -> None:
        """Send the parent's ``text`` outside a turn; a failure to deliver ``what`` is logged."""
        message = OutgoingMessage(text=text, sender=self.parent.name)
        try:
            async with asyncio.timeout(self.reply_timeout):
                await send(message)
        except Exception as exc:
            log.warning(
                "conversation %s: could not deliver %s (%s)",
                conversation_id,
                what,
                describe_send_error(exc),
            )

    def _resume(
        self,
        conversation_id: str,
        state: Mapping[str, Any] | None,
        on_message: Callable[[Message], Awaitable[None]],
    ) -> Conversation:
        if state:
            try:
                return self.parent.conversation(
                    id=conversation_id, state=state, on_message=on_message
                )
            except (ConfigError, KeyError, TypeError, ValueError) as exc:
                log.warning(
                    "conversation %s: stored state is unusable (%s); starting afresh",
                    conversation_id,
                    exc,
                )
        return self.parent.conversation(id=conversation_id, on_message=on_message)
