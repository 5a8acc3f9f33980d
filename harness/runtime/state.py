"""The state of one conversation, apart from the bot that serves it: its transcript, the floor
holder, the agents' memory and the message counter, with the ways a turn reads and writes them."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

from harness.detect.transcript import (
    Message,
    Transcript,
    TurnRecord,
    answers_from,
    answers_json,
    planned_from,
    planned_json,
    tool_calls_from_json,
    tool_calls_json,
)
from harness.exceptions import ConfigError
from harness.models.base import ChatMessage
from harness.planning.base import WaitingRequest
from subagents import HistoryEntry

__all__ = ["MAX_MESSAGE_UNITS", "ConversationState", "MessageSink", "cut_message", "utf16_units"]

MessageSink = Callable[[Message], Awaitable[None]]

MAX_MESSAGE_UNITS = 20_000
"""A bot message longer than this many UTF-16 code units (the parent's reply relaying a huge
finding, a team's answer, a direct agent's message) is cut to it, a note saying so included.
Microsoft Teams measures a bot message in UTF-16: its documentation gives a limit of 40 KB for the
whole message payload (older pages) and, now, about 100 KB, advising 80 KB. 20,000 code units are
40,000 bytes of text in UTF-16, one code unit for most characters and two for a character outside
the Basic Multilingual Plane (most emoji). The activity around the text (ids, ``serviceUrl``,
``channelData``) counts too, and is not measured here: under a 40 KB limit it may not fit."""


def utf16_units(text: str) -> int:
    """How many UTF-16 code units ``text`` takes (what Teams counts; ``len`` counts code points)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2  # a lone surrogate is one unit


def cut_message(text: str, limit: int = MAX_MESSAGE_UNITS) -> str:
    """``text``, or when it is longer than ``limit`` UTF-16 code units its start (cut at a space
    when there is one in the second half, never inside a surrogate pair) and a note saying it was
    cut: ``limit`` code units at most."""
    units = utf16_units(text)
    if units <= limit:
        return text
    note = (
        f"\n\n[The rest of this message was cut: it had {units:,} UTF-16 code units, and a "
        f"message holds at most {limit:,}.]"
    )
    keep = max(limit - utf16_units(note), 0)
    head = text.encode("utf-16-le", "surrogatepass")[: 2 * keep]
    if head and 0xD8 <= head[-1] <= 0xDB:  # a high surrogate whose pair was cut off
        head = head[:-2]
    start = head.decode("utf-16-le", "surrogatepass")
    space = start.rfind(" ", len(start) // 2)
    return (start[:space] if space > 0 else start).rstrip() + note


_OLD_DIALOGUE_KEY = "_dialogue"
"""Where snapshots written before ``dialogues`` existed kept a sub-agent's dialogue."""


class ConversationState:
    """One conversation's state; ``Conversation`` holds one and each turn reads and updates it.

    Args:
        id: the conversation id.
        agent_modes: each sub-agent's mode, recorded in the transcript.
        on_message: called with every bot message as it is recorded.
    """

    __slots__ = (
        "_entries",
        "_entries_of",
        "active_agent",
        "agent_states",
        "awaiting",
        "dialogues",
        "id",
        "message_count",
        "on_message",
        "transcript",
    )

    def __init__(
        self, *, id: str, agent_modes: Mapping[str, str], on_message: MessageSink | None = None
    ) -> None:
        self.id = id
        self.on_message = on_message
        self.transcript = Transcript(conversation=id, agent_modes=dict(agent_modes))
        self.active_agent: str | None = None
        """A conversational sub-agent that holds the floor, or None."""
        self.agent_states: dict[str, dict[str, Any]] = {}
        """Each sub-agent's memory in this conversation (the agent's own; the runtime adds nothing)."""
        self.dialogues: dict[str, list[dict[str, str]]] = {}
        """Each conversational sub-agent's own exchange with the user while it holds the floor
        (runtime state, kept apart from ``agent_states``)."""
        self.awaiting: list[WaitingRequest] = []
        """The requests a sub-agent asked the user a question about in the last turn (a value it
        needs), in the order asked: the next message may only give the value
        (``harness.planning.PlanInput.awaiting``). Set by each turn, so it lasts one turn."""
        self.message_count = 0
        """Messages recorded so far; the next message's id is ``{id}-{message_count + 1}``. A
        counter, not the transcript's length, so a stored window of recent turns keeps ids unique."""
        # (message, its HistoryEntry) by transcript index, built once per message (see history).
        self._entries: list[tuple[Message, HistoryEntry] | None] = []
        self._entries_of: list[Message] | None = None

    def message_id(self, number: int) -> str:
        """The id of this conversation's ``number``-th recorded message (from 1): the id a
        message is recorded with, and the one the duplicate guard is told for a message that
        will be recorded later."""
        return f"{self.id}-{number}"

    async def record(
        self,
        *,
        turn: int,
        role: Literal["user", "bot"],
        sender: str,
        text: str,
        mode: str | None = None,
        request: str | None = None,
    ) -> Message:
        """Record one message (and hand a bot message to ``on_message``); a bot message longer
        than ``MAX_MESSAGE_UNITS`` UTF-16 code units is cut (``cut_message``)."""
        if role == "bot":
            text = cut_message(text)
        self.message_count += 1
        message = Message(
            id=self.message_id(self.message_count),
            turn=turn,
            role=role,
            sender=sender,
            text=text,
            mode=mode,
            request=request,
        )
        self.transcript.append(message)
        if role == "bot" and self.on_message is not None:
            await self.on_message(message)
        return message

    def history(self, turns: int) -> tuple[HistoryEntry, ...]:
        """The messages of the last ``turns`` turns, as sub-agents receive history."""
        messages = self.transcript.messages
        first_turn = max(1, self.transcript.turn_count - turns + 1)
        start = len(messages)
        while start > 0 and messages[start - 1].turn >= first_turn:
            start -= 1
        # Each message's entry is built once and reused by later turns (a pydantic model per
        # message per turn was most of this method's cost in long conversations).
        entries = self._entries
        if self._entries_of is not messages:
            entries.clear()
            self._entries_of = messages
        if len(entries) < len(messages):
            entries.extend([None] * (len(messages) - len(entries)))
        recent: list[HistoryEntry] = []
        for index in range(start, len(messages)):
            m = messages[index]
            cached = entries[index]
            if cached is None or cached[0] is not m:
                entry = HistoryEntry(role=m.role, sender=m.sender, text=m.text, turn=m.turn)
                entries[index] = cached = (m, entry)
            recent.append(cached[1])
        return tuple(recent)

    def recent_chat(self, turns: int = 3) -> tuple[ChatMessage, ...]:
        """The last few turns before this one, for the planner (follow-ups like "yes" need them)."""
        current = self.transcript.turn_count
        first = max(1, current - turns)
        messages = self.transcript.messages
        # Messages are in turn order: walk back from the end (at most 200 messages) to the first
        # one of the window instead of scanning them all.
        start = len(messages)
        floor = max(0, start - 200)
        while start > floor and messages[start - 1].turn >= first:
            start -= 1
        out: list[ChatMessage] = []
        for message in messages[start:]:
            if first <= message.turn < current:
                if message.role == "user":
                    out.append(ChatMessage(role="user", content=message.text))
                else:
                    out.append(
                        ChatMessage(role="assistant", content=f"[{message.sender}] {message.text}")
                    )
        return tuple(out)

    def snapshot(self) -> dict[str, Any]:
        """A JSON-serialisable copy of the state (for storage between requests)."""
        return {
            "version": 1,
            "id": self.id,
            "active_agent": self.active_agent,
            "agent_states": json.loads(json.dumps(self.agent_states)),
            "dialogues": json.loads(json.dumps(self.dialogues)),
            "awaiting": [
                {
                    "request": p.request,
                    "agent": p.agent,
                    "question": p.question,
                    **answers_json(p.answers),
                }
                for p in self.awaiting
            ],
            "message_count": self.message_count,
            "messages": [m.to_json() for m in self.transcript.messages],
            "turns": [
                {
                    "turn": t.turn,
                    "plan": [planned_json(p) for p in t.plan],
                    "answered_by": list(t.answered_by),
                    "requests_answered": [planned_json(p) for p in t.answered],
                    "failed": list(t.failed),
                    **({"error": t.error} if t.error else {}),
                    **({"errors": list(t.errors)} if t.errors else {}),
                    **({} if t.tool_calls is None else {"tool_calls": tool_calls_json(t)}),
                }
                for t in self.transcript.turns
            ],
        }

    def restore(self, state: Mapping[str, Any], *, agents: Mapping[str, object]) -> None:
        """Load a ``snapshot``; a floor holder that is no longer one of ``agents`` is dropped.

        Raises:
            ConfigError: the snapshot's version is not supported.
        """
        if state.get("version") != 1:
            raise ConfigError("unsupported conversation state version", field="version")
        self.active_agent = state.get("active_agent")
        if self.active_agent is not None and self.active_agent not in agents:
            self.active_agent = None
        self.agent_states = {k: dict(v) for k, v in state.get("agent_states", {}).items()}
        self.dialogues = {k: list(v) for k, v in state.get("dialogues", {}).items()}
        self.awaiting = [
            WaitingRequest(
                request=p["request"],
                agent=p["agent"],
                question=p.get("question", ""),
                answers=answers_from(p),
            )
            for p in state.get("awaiting", [])
            if p.get("agent") in agents
        ]
        for name, agent_state in self.agent_states.items():
            # Older snapshots kept the dialogue inside the agent's own state.
            old = agent_state.pop(_OLD_DIALOGUE_KEY, None)
            if isinstance(old, list) and name not in self.dialogues:
                self.dialogues[name] = list(old)
        for record in state.get("messages", []):
            self.transcript.append(
                Message(
                    id=record["id"],
                    turn=record["turn"],
                    role=record["role"],
                    sender=record["sender"],
                    text=record["text"],
                    mode=record.get("mode"),
                    request=record.get("request"),
                )
            )
        # Snapshots written before the counter existed held every message.
        self.message_count = int(state.get("message_count", len(self.transcript)))
        for turn in state.get("turns", []):
            self.transcript.turns.append(
                TurnRecord(
                    turn=turn["turn"],
                    plan=tuple(planned_from(p) for p in turn.get("plan", [])),
                    answered_by=tuple(turn.get("answered_by", [])),
                    answered=tuple(planned_from(p) for p in turn.get("requests_answered", [])),
                    failed=tuple(turn.get("failed", [])),
                    error=turn.get("error"),
                    errors=tuple(turn.get("errors", [])),
                    tool_calls=tool_calls_from_json(turn.get("tool_calls")),
                )
            )
