"""The transcript: every message of a conversation, attributed to its sender, the source of truth.

Each bot message names the component that sent it (the parent or a sub-agent, with its mode) and the
scoped request it answers. Each turn keeps the parent's plan (which request went to which agent), so
"was this request answered?" is decided from the plan, not guessed from text similarity.

Transcripts export to this SDK's JSONL and to a Bot Framework transcript (a JSON array of activities,
as the Bot Framework Emulator and ``TranscriptLoggerMiddleware`` save them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from subagents import UserAnswer

__all__ = [
    "AgentToolCalls",
    "Message",
    "PlannedRequest",
    "Transcript",
    "TurnRecord",
    "answers_from",
    "answers_json",
    "planned_from",
    "planned_json",
    "tool_calls_from_json",
    "tool_calls_json",
]

Role = Literal["user", "bot"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """One message in a conversation."""

    id: str
    """Unique within the transcript (JSONL ``id``, or a Bot Framework activity ``id``)."""
    turn: int
    """The 1-based turn: a user message starts a turn, bot messages belong to it."""
    role: Role
    """``user`` or ``bot``."""
    sender: str
    """``user``, the parent's name, or the sub-agent's name."""
    text: str
    """What was said."""
    mode: str | None = None
    """The sender's mode (``silent``, ``direct``, ``conversational``) for sub-agents; None otherwise."""
    request: str | None = None
    """The scoped request this message answers, when known."""
    timestamp: datetime | None = None
    """When it was sent, when known."""
    arrived_during: int | None = None
    """For a deployed bot's late reply (one answering an earlier turn that came after that turn
    was over): the turn whose replies it was received with; ``turn`` is the turn it answers. It
    arrived after turn ``turn``'s quiet period, while that later turn ran or just before its user
    message was sent. None for every other message. Not part of the JSONL record."""

    def to_json(self) -> dict[str, Any]:
        """The JSONL record of docs/simulate.md (optional keys left out when unset)."""
        record: dict[str, Any] = {
            "id": self.id,
            "turn": self.turn,
            "role": self.role,
            "sender": self.sender,
        }
        if self.mode is not None:
            record["mode"] = self.mode
        if self.request is not None:
            record["request"] = self.request
        record["text"] = self.text
        return record


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedRequest:
    """One scoped request of a turn and the component chosen for it."""

    request: str
    """The scoped request."""
    agent: str
    """The sub-agent's name, or the parent's name when the parent handles it itself."""
    answers: tuple[UserAnswer, ...] = ()
    """The user's answers to what the agent asked about this request in the turn before (the
    value and the question it answers), kept beside the request, never in its text."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentToolCalls:
    """The tools one sub-agent called in one call of a turn."""

    agent: str
    """The sub-agent's name."""
    tools: tuple[str, ...] | None
    """The tools it called, in order (its message tool left out); None when they are not known
    (a handler function, or a remote agent whose host does not report them)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnRecord:
    """What the parent planned for one turn and which agents reported it answered."""

    turn: int
    """The 1-based turn number."""
    plan: tuple[PlannedRequest, ...] = ()
    """The scoped requests and the component chosen for each."""
    answered_by: tuple[str, ...] = ()
    """Sub-agents that reported at least one of their requests answered (validated): ``answered``
    of a call with one request, or an item of ``answeredRequests`` of a call with several."""
    answered: tuple[PlannedRequest, ...] = ()
    """Each planned request its agent reported answered, per request (``answered_by`` is their
    agents); empty when the record holds agents only (an older snapshot or plan event)."""
    failed: tuple[str, ...] = ()
    """Sub-agents whose call failed or timed out."""
    error: str | None = None
    """Why the parent's own plan or reply failed this turn, else None."""
    errors: tuple[str, ...] = ()
    """Why each failed or timed-out sub-agent call failed, as ``agent: error``."""
    tool_calls: tuple[AgentToolCalls, ...] | None = None
    """Each sub-agent call of the turn and the tools it called; None when the turn's tool calls
    were not recorded (a deployed bot, a transcript file), so tool checks cannot be made."""

    def tools_of(self, agent: str) -> tuple[str, ...] | None:
        """The tools ``agent`` called in this turn, in order (every call of it); () when it was
        not called, None when its calls (or the turn's) are not known."""
        if self.tool_calls is None:
            return None
        called: list[str] = []
        for entry in self.tool_calls:
            if entry.agent == agent:
                if entry.tools is None:
                    return None
                called.extend(entry.tools)
        return tuple(called)

    def answered_request(self, entry: PlannedRequest) -> bool:
        """True when ``entry``'s agent reported that request answered; a record that holds agents
        only (no ``answered``) answers for every request of an agent in ``answered_by``."""
        if self.answered:
            return entry in self.answered
        return entry.agent in self.answered_by

    def called(self, agent: str) -> bool:
        """True when ``agent`` was called in this turn (by the plan, or its tool record)."""
        return any(p.agent == agent for p in self.plan) or any(
            entry.agent == agent for entry in self.tool_calls or ()
        )


def tool_calls_json(record: TurnRecord) -> list[dict[str, Any]] | None:
    """A turn's tool calls as JSON: ``[{"agent": ..., "tools": [...] or null}]``; None when they
    were not recorded."""
    if record.tool_calls is None:
        return None
    return [
        {"agent": e.agent, "tools": None if e.tools is None else list(e.tools)}
        for e in record.tool_calls
    ]


def tool_calls_from_json(value: Any) -> tuple[AgentToolCalls, ...] | None:
    """Read :func:`tool_calls_json`'s list back (malformed entries skipped; None when ``value``
    is not a list: not recorded)."""
    if not isinstance(value, list):
        return None
    out = []
    for entry in value:
        if not isinstance(entry, dict) or not isinstance(entry.get("agent"), str):
            continue
        tools = entry.get("tools")
        known: tuple[str, ...] | None = None
        if isinstance(tools, list) and all(isinstance(t, str) for t in tools):
            known = tuple(tools)
        out.append(AgentToolCalls(agent=entry["agent"], tools=known))
    return tuple(out)


@dataclass(slots=True)
class Transcript:
    """An ordered record of a conversation's messages and turn plans.

    Messages are in turn order. Mostly they are appended as they arrive, but the simulator
    inserts a deployed bot's late reply to an earlier turn at the end of that turn, so the order
    of the list is not always the order of arrival (a message's ``timestamp``, when known, is).
    ``detect()`` judges a transcript built out of turn order as its messages in turn order.
    """

    conversation: str = "conversation"
    """An id for the conversation."""
    messages: list[Message] = field(default_factory=list)
    """Every message, in turn order: the order sent, except a late reply, kept in the turn it
    answers."""
    turns: list[TurnRecord] = field(default_factory=list)
    """The plan of each turn, when the transcript comes from this SDK's runtime."""
    agent_modes: dict[str, str] = field(default_factory=dict)
    """The mode of every sub-agent, by name, when known."""

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)

    @property
    def turn_count(self) -> int:
        """The number of turns (user messages): the highest turn, wherever its message is."""
        return max((m.turn for m in self.messages), default=0)

    def turn(self, number: int) -> list[Message]:
        """The messages of one turn, user message first."""
        return [m for m in self.messages if m.turn == number]

    def bot_messages(self, turn: int | None = None) -> list[Message]:
        """The bot's messages, of one turn or of all."""
        return [m for m in self.messages if m.role == "bot" and (turn is None or m.turn == turn)]

    def append(self, message: Message) -> None:
        self.messages.append(message)

    def next_id(self) -> str:
        """A fresh message id (``m1``, ``m2``, ...)."""
        return f"m{len(self.messages) + 1}"

    # --- export -------------------------------------------------------------------------------

    def to_jsonl(self) -> str:
        """This SDK's JSONL: one message per line, each with the ``conversation`` id (so that
        several exports concatenated stay apart) and its ``timestamp`` when known; a user line
        carries its turn's plan (``requests``, each entry as :func:`planned_json` writes it, with
        the user's answers beside their request) when known, so ``harness detect`` can check missed
        requests."""
        plans = {t.turn: t.plan for t in self.turns if t.plan}
        lines = []
        for message in self.messages:
            record = {"conversation": self.conversation, **message.to_json()}
            if message.timestamp is not None:
                record["timestamp"] = _iso(message.timestamp)
            if message.role == "user" and message.turn in plans:
                record["requests"] = [planned_json(p) for p in plans[message.turn]]
            lines.append(json.dumps(record, ensure_ascii=False) + "\n")
        return "".join(lines)

    def to_bot_framework(
        self, *, bot_name: str = "bot", channel_id: str = "harness"
    ) -> list[dict[str, Any]]:
        """A Bot Framework transcript: a JSON-ready list of message activities.

        The user is ``from.role == "user"``; bot messages carry the sending component's name in
        ``from.name`` and the sender and mode in ``channelData``; replies point at the user message
        of their turn with ``replyToId``. A message's ``timestamp`` is written only when it is
        known (``Message.timestamp``); none is made up.
        """
        activities: list[dict[str, Any]] = []
        user_ids: dict[int, str] = {}
        for msg in self.messages:
            activity: dict[str, Any] = {"type": "message", "id": msg.id}
            if msg.timestamp is not None:
                activity["timestamp"] = _iso(msg.timestamp)
            activity |= {
                "channelId": channel_id,
                "conversation": {"id": self.conversation},
                "text": msg.text,
            }
            if msg.role == "user":
                user_ids[msg.turn] = msg.id
                activity["from"] = {"id": "user", "name": "user", "role": "user"}
                activity["recipient"] = {"id": bot_name, "name": bot_name, "role": "bot"}
            else:
                activity["from"] = {"id": bot_name, "name": msg.sender, "role": "bot"}
                activity["recipient"] = {"id": "user", "name": "user", "role": "user"}
                if msg.turn in user_ids:
                    activity["replyToId"] = user_ids[msg.turn]
                channel_data: dict[str, Any] = {"sender": msg.sender}
                if msg.mode:
                    channel_data["mode"] = msg.mode
                if msg.request:
                    channel_data["request"] = msg.request
                activity["channelData"] = channel_data
            activities.append(activity)
        return activities

    def write_jsonl(self, path: str | Path) -> None:
        Path(path).write_text(self.to_jsonl(), encoding="utf-8")

    def write_bot_framework(self, path: str | Path, *, bot_name: str = "bot") -> None:
        Path(path).write_text(
            json.dumps(self.to_bot_framework(bot_name=bot_name), indent=2, ensure_ascii=False),
            encoding="utf-8",
        )

    @classmethod
    def from_messages(
        cls,
        messages: Iterable[Message],
        *,
        conversation: str = "conversation",
        turns: Sequence[TurnRecord] = (),
        agent_modes: dict[str, str] | None = None,
    ) -> Transcript:
        return cls(
            conversation=conversation,
            messages=list(messages),
            turns=list(turns),
            agent_modes=dict(agent_modes or {}),
        )


def _iso(stamp: datetime) -> str:
    """ISO 8601, with ``Z`` for UTC as Bot Framework writes it."""
    return stamp.isoformat().replace("+00:00", "Z")


# A plan entry in JSON (a snapshot's plan, `to_jsonl`'s `requests`, the JSONL reader) keeps the
# user's answers beside their request (``"answers": [{"question", "value"}]``, left out when there
# are none). A record written while answers were joined into the request's text ("top up my
# wallet, answer: 20", before s67) loads as it is: that text is a request like any other, and
# nothing in it is read as an answer.


def answers_json(answers: Sequence[UserAnswer]) -> dict[str, Any]:
    """``{"answers": [{"question", "value"}, ...]}``, or ``{}`` when there are none."""
    if not answers:
        return {}
    return {"answers": [{"question": a.question, "value": a.value} for a in answers]}


def answers_from(record: Mapping[str, Any]) -> tuple[UserAnswer, ...]:
    """The answers of a plan entry's JSON (:func:`answers_json`), each naming its request."""
    if not record.get("answers"):
        return ()
    # Imported here: `harness detect` reads transcripts without loading the agents' contract
    # (tests/detect/test_command_overhead.py), and most plans carry no answers.
    from subagents import UserAnswer

    return tuple(
        UserAnswer(request=record["request"], question=a.get("question") or "", value=a["value"])
        for a in record.get("answers", ())
    )


def planned_json(planned: PlannedRequest) -> dict[str, Any]:
    """A plan entry as JSON: ``{"request", "agent"}`` and its answers when it has any."""
    return {"request": planned.request, "agent": planned.agent, **answers_json(planned.answers)}


def planned_from(record: Mapping[str, Any]) -> PlannedRequest:
    """The plan entry of :func:`planned_json`'s JSON."""
    return PlannedRequest(
        request=record["request"], agent=record["agent"], answers=answers_from(record)
    )
