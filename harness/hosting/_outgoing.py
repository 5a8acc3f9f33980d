"""What the hosting core sends to a channel: the bot's messages (``OutgoingMessage``, with their
stable reply ids), the plan event, and the one message a failed turn gets.

Both adapters and the core use these; the core (``core``) runs the turn and decides when each goes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.detect.activities import PLAN_EVENT
from harness.detect.transcript import planned_json
from harness.hosting._errors import UnavailableError
from harness.runtime.parts import answering_agents, failed_agents

if TYPE_CHECKING:
    from harness.detect.transcript import Message
    from harness.runtime.parent import Turn

__all__ = [
    "DEFAULT_REPLY_TIMEOUT",
    "ERROR_REPLY",
    "PLAN_EVENT",
    "MessageSender",
    "OutgoingMessage",
    "PlanSender",
    "describe_send_error",
    "plan_value",
    "reply_id_for",
    "report_turn_error",
    "wants_plan",
]

log = logging.getLogger("harness.hosting")

ERROR_REPLY = "Sorry, something went wrong on my side. Please try again."
"""What the user is told when a turn fails inside an adapter."""

DEFAULT_REPLY_TIMEOUT = 15.0
"""Seconds one reply may take to reach the channel before the channel counts as failed."""


# PLAN_EVENT names the ``event`` activity that carries a turn's plan to the channel, sent after
# the turn's messages when the user's activity asks for it (``channelData: {"harness": {"plan":
# true}}``) or the server sends it always (``harness serve --send-plan``); its ``value`` is
# plan_value's object. The transcript readers (harness.detect.activities) read it back.


def wants_plan(channel_data: Any) -> bool:
    """True when an incoming activity's ``channelData`` asks for the turn's plan."""
    if not isinstance(channel_data, Mapping):
        return False
    asked = channel_data.get("harness")
    return isinstance(asked, Mapping) and asked.get("plan") is True


def plan_value(turn: Turn) -> dict[str, Any]:
    """The plan event's ``value``: ``{"plan": [{"request", "agent", "answers"?}],
    "answered_by": [...], "requests_answered": [{"request", "agent", "answers"?}], "failed":
    [...], "tool_calls": [{"agent", "tools"}]}``, what a transcript reader needs to check missed
    requests, scope and the scenario's tool checks.

    Plan entries are in the one plan-entry JSON form (``harness.detect.transcript.planned_json``):
    a request the user answered an agent's question about carries ``"answers": [{"question",
    "value"}]``, so a transcript of a served bot shows the value beside the request.
    """
    return {
        "plan": [planned_json(p) for p in turn.plan],
        "answered_by": list(answering_agents(turn.answered)),
        "requests_answered": [planned_json(p) for p in turn.answered],
        "failed": list(failed_agents(turn.results)),
        "tool_calls": [
            {"agent": r.agent, "tools": None if r.tool_calls is None else list(r.tool_calls)}
            for r in turn.results
        ],
    }


def describe_send_error(error: BaseException) -> str:
    """One line for a failed send: the exception's type and message, never a traceback."""
    if isinstance(error, TimeoutError):
        return "no answer in time"
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def report_turn_error(
    conversation_id: str,
    error: BaseException,
    *,
    bot_name: str,
    send: Callable[[str, dict[str, Any]], Awaitable[Any]],
) -> None:
    """Log a failed turn and tell the user, through the adapter's own ``send(text, channel_data)``.

    An ``UnavailableError`` is not reported: it is re-raised for the server to answer 503 with
    ``Retry-After`` (nothing of the turn was sent, and the channel will send the message again).
    """
    if isinstance(error, UnavailableError):
        log.warning("conversation %s: %s; answered 503", conversation_id, error)
        raise error
    log.error(
        "turn failed in conversation %s",
        conversation_id,
        exc_info=(type(error), error, error.__traceback__),
    )
    try:
        async with asyncio.timeout(DEFAULT_REPLY_TIMEOUT):
            await send(ERROR_REPLY, {"sender": bot_name, "error": True})
    except Exception as exc:  # the channel may be what failed
        log.warning(
            "conversation %s: could not tell the user about the error (%s)",
            conversation_id,
            describe_send_error(exc),
        )


MessageSender = Callable[["OutgoingMessage"], Awaitable[None]]
PlanSender = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True, slots=True, kw_only=True)
class OutgoingMessage:
    """One bot message on its way to the channel, attributed to the component that sent it."""

    text: str
    """What the user reads."""
    sender: str
    """The parent's name or the sub-agent's name; the activity's ``from.name``."""
    mode: str | None = None
    """The sub-agent's mode (``silent``, ``direct``, ``conversational``); None for the parent."""
    request: str | None = None
    """The scoped request the message answers, when known."""

    reply_id: str | None = None
    """The message's stable id, ``{conversation}/{turn}/{n}``: the same when a turn is run again,
    so a channel can drop a repeat."""

    @classmethod
    def from_message(cls, message: Message, *, reply_id: str | None = None) -> OutgoingMessage:
        """The outgoing form of a transcript message."""
        return cls(
            text=message.text,
            sender=message.sender,
            mode=message.mode,
            request=message.request,
            reply_id=reply_id,
        )

    @property
    def channel_data(self) -> dict[str, Any]:
        """The activity's ``channelData``: ``sender``, plus ``mode``, ``request`` and
        ``replyId`` when set."""
        data: dict[str, Any] = {"sender": self.sender}
        if self.reply_id is not None:
            data["replyId"] = self.reply_id
        if self.mode is not None:
            data["mode"] = self.mode
        if self.request is not None:
            data["request"] = self.request
        return data


def reply_id_for(conversation_id: str, message: Message, numbering: dict[str, int]) -> str:
    """``{conversation}/{turn}/{n}``: the n-th (1-based) bot message of the turn.

    A turn run again after a crash produces its messages in the same order, so each gets the
    id it had the first time.
    """
    number = numbering.setdefault(message.id, len(numbering) + 1)
    return f"{conversation_id}/{message.turn}/{number}"
