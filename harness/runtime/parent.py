"""The parent agent and its turn loop: plan, dispatch, compose, guard, record (docs/architecture.md).

The parent owns the conversation. For each user message it plans scoped requests, runs the chosen
sub-agents concurrently (each under its own timeout), reads their results (checking ``answered``),
takes up open questions within a bounded number of steps, optionally guards its own draft against
duplicates, and records every message with its sender in the transcript. The steps themselves are
the pipeline in ``harness.runtime.turn``; this module holds the parent, the conversation and its state.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord
from harness.exceptions import (
    ConfigError,
)
from harness.models import Model, resolve_model
from harness.models.base import (
    AgentCard,
    ChatMessage,
)
from harness.runtime.runner import SubagentCall, prepare, run_subagent
from harness.runtime.turn import run_turn
from harness.runtime.views import parent_view
from harness.transport.base import AgentTransport, Sender
from instructions import render_parent_system, render_subagent_description, render_subagent_system
from subagents import HistoryEntry, Mode, Subagent, SubagentResult, Usage
from subagents.config import ParentConfig, validate_options

__all__ = ["Conversation", "Parent", "Turn"]

MessageSink = Callable[[Message], Awaitable[None]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn:
    """The outcome of one user message."""

    number: int
    """The 1-based turn number."""
    user: Message
    """The user's message."""
    messages: tuple[Message, ...]
    """Every bot message of the turn, in the order sent, each attributed to its sender."""
    plan: tuple[PlannedRequest, ...]
    """The scoped requests and who handled each (including open questions routed later)."""
    results: tuple[SubagentResult, ...]
    """Every sub-agent result of the turn."""
    usage: Usage
    """Model usage of the whole turn."""
    aggregation: Any = None
    """When two or more silent agents returned findings: their ``harness.aggregate``
    ``AggregatedResult`` (duplicates found, sources, conflicts), else None."""
    error: str | None = None
    """Why the parent's own plan or reply failed (the turn then fell back), else None."""

    @property
    def failed(self) -> bool:
        """True when the parent's own plan or reply failed this turn."""
        return self.error is not None

    @property
    def text(self) -> str:
        """All bot messages of the turn joined, for quick checks."""
        return "\n".join(m.text for m in self.messages)


class Parent:
    """A parent agent with its sub-agents.

    Args:
        name: the parent's name; the sender of its own messages.
        instructions: the parent's own instructions.
        subagents: its child and connected agents.
        model: the parent's model (and the default for sub-agents): a ``Model`` or a name such as
            ``rules`` (default), ``openai:gpt-4o-mini`` or a prefix added with
            ``harness.models.register_model``.
        model_settings: settings of a model given by name (``temperature``, ``output_mode``,
            ...; docs/models.md), as ``model_settings`` in YAML. A ``Model`` object carries its own.
        generated_instructions: prepend the generated top-level instruction (the ``answered``
            check). Turn it off only to reproduce a naive parent.
        strict: fail fast instead of recovering: raise ``ContractViolationError`` when a sub-agent
            breaks its contract, ``SubagentError`` / ``SubagentTimeoutError`` when one fails or
            times out, and ``ModelBehaviorError`` when a model's output is unusable.
        max_compose_steps: how many rounds of routing open questions one turn may start.
        duplicate_guard: ``off``, ``warn`` or ``drop``: check the parent's draft against messages
            already sent before sending it (``drop`` removes the duplicated sentences).
        history_turns: how many recent turns of history are passed to sub-agents that receive it
            (0: none).
        transports: how named sub-agents are called, instead of the default (in-process, or
            HTTP for a ``ConnectedAgent`` with a ``url``): for example a
            ``harness.testing.MockTransport`` in a test. See ``harness.transport``.

    Every option but ``subagents``, a ``Model`` object and ``transports`` is plain data, validated
    by the same schema as the YAML config's ``parent:`` section (``subagents.config.ParentConfig``):
    a bad value gets the same ``ConfigError`` message from Python and from a file. The validated
    options are kept as ``options``.

    Raises:
        ConfigError: for a bad option, an unknown model name, or repeated names.
    """

    def __init__(
        self,
        *,
        name: str,
        instructions: str = "",
        subagents: Sequence[Subagent] = (),
        model: Model | str | None = None,
        model_settings: Mapping[str, Any] | None = None,
        generated_instructions: bool = True,
        strict: bool = False,
        max_compose_steps: int = 2,
        duplicate_guard: Literal["off", "warn", "drop"] = "off",
        history_turns: int = 20,
        transports: Mapping[str, AgentTransport] | None = None,
    ) -> None:
        names = [a.name for a in subagents]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ConfigError(f"sub-agent names must be unique; repeated: {', '.join(repeated)}")
        if name in names:
            raise ConfigError(f"the parent and a sub-agent are both named {name!r}", field="name")
        if isinstance(model, Model) and model_settings:
            raise ConfigError(
                "model_settings apply to a model given by name; give the Model object its own",
                field="model_settings",
            )
        options = validate_options(
            ParentConfig,
            {
                "name": name,
                "instructions": instructions,
                "model": None if isinstance(model, Model) else model,
                "model_settings": dict(model_settings or {}),
                "generated_instructions": generated_instructions,
                "strict": strict,
                "max_compose_steps": max_compose_steps,
                "duplicate_guard": duplicate_guard,
                "history_turns": history_turns,
            },
        )
        self.options = options
        """The validated plain-data options (what a YAML ``parent:`` section would hold)."""
        self.name = options.name
        self.instructions = options.instructions
        self.subagents: dict[str, Subagent] = {a.name: a for a in subagents}
        if isinstance(model, Model):
            self.model = model
        elif options.model_settings:
            self.model = resolve_model(options.model, settings=options.model_settings)
        else:
            self.model = resolve_model(options.model)
        self.generated_instructions = options.generated_instructions
        self.strict = options.strict
        self.max_compose_steps = options.max_compose_steps
        self.duplicate_guard = options.duplicate_guard
        self.history_turns = options.history_turns
        unknown = sorted(set(transports or {}) - set(names))
        if unknown:
            raise ConfigError(
                f"transports given for unknown sub-agents: {', '.join(unknown)}", field="transports"
            )
        self._transports: dict[str, AgentTransport] = dict(transports or {})
        self._agent_models: dict[str, Model] = {
            a.name: self.model if a.model is None else resolve_model(a.model) for a in subagents
        }
        self._prepared = {a.name: prepare(a) for a in subagents}
        view = parent_view(self.name, self.instructions, subagents)
        self.system = render_parent_system(view, generated=self.generated_instructions)
        by_name = {v.name: v for v in view.subagents}
        self._agent_systems = {
            a.name: render_subagent_system(by_name[a.name], generated=a.generated_instructions)
            for a in subagents
        }
        self._cards = tuple(
            AgentCard(
                name=a.name,
                description=(
                    render_subagent_description(by_name[a.name])
                    if self.generated_instructions
                    else a.description
                ),
                mode=a.mode.value,
                examples=tuple(a.examples),
                keywords=tuple(
                    word
                    for tool in a.tool_specs
                    for word in (tool.name.replace("_", " "), tool.description, *tool.keywords)
                ),
            )
            for a in subagents
        )
        self._guard: Any = None
        if self.duplicate_guard != "off":
            from harness.detect.guard import DuplicateGuard

            self._guard = DuplicateGuard(policy=self.duplicate_guard)

    def system_prompt_for(self, agent: str) -> str:
        """The system prompt a sub-agent's model receives."""
        return self._agent_systems[agent]

    async def run_subagent(
        self,
        name: str,
        request: str,
        *,
        history: Sequence[HistoryEntry] = (),
        state: MutableMapping[str, Any] | None = None,
        send: Sender | None = None,
        continuing: bool = False,
    ) -> SubagentResult:
        """Run one call of the sub-agent ``name`` outside a turn, as a host serving it does.

        The call runs with the agent's model, system prompt and transport, under its timeout,
        and is validated against its contract; it never raises for a failing agent (the failure
        is on the result) and ignores ``strict``.

        Args:
            name: the sub-agent's name.
            request: its scoped request.
            history: the caller's conversation (used when the agent receives history).
            state: the agent's memory in the caller's conversation; updated in place.
            send: delivers the agent's messages; None for a silent agent (or to refuse them).
            continuing: the agent holds the floor and gets the user's next message.

        Raises:
            ConfigError: there is no sub-agent named ``name``.
        """
        agent = self.subagents.get(name)
        if agent is None:
            raise ConfigError(f"no sub-agent named {name!r}", field="name")
        call = SubagentCall(
            agent=agent,
            request=request,
            history=tuple(history),
            model=self._agent_models[name],
            system=self.system_prompt_for(name),
            state=state if state is not None else {},
            send=None if agent.mode is Mode.SILENT else send,
            continuing=continuing,
            prepared=self._prepared.get(name),
            transport=self._transports.get(name),
        )
        return await run_subagent(call)

    def conversation(
        self,
        *,
        id: str | None = None,
        state: Mapping[str, Any] | None = None,
        on_message: MessageSink | None = None,
    ) -> Conversation:
        """Start (or, with ``state`` from ``Conversation.snapshot()``, resume) a conversation.

        Args:
            id: the conversation id; a random one by default.
            state: a snapshot to resume from (for hosting: restored from storage).
            on_message: called with every bot message as it is sent, before the turn ends.
        """
        conversation_id = id or (state or {}).get("id") or uuid.uuid4().hex[:12]
        return Conversation(self, id=conversation_id, state=state, on_message=on_message)

    async def aclose(self) -> None:
        """Close the models' and transports' resources (HTTP clients)."""
        seen: set[int] = set()
        for model in (self.model, *self._agent_models.values()):
            if id(model) not in seen:
                seen.add(id(model))
                await model.aclose()
        for transport in self._transports.values():
            if id(transport) not in seen:
                seen.add(id(transport))
                await transport.aclose()


class Conversation:
    """One conversation with a parent: its transcript, the floor holder and the agents' memory.

    Use as an async context manager, or call ``send`` directly.
    """

    def __init__(
        self,
        parent: Parent,
        *,
        id: str,
        state: Mapping[str, Any] | None = None,
        on_message: MessageSink | None = None,
    ) -> None:
        self.parent = parent
        self.id = id
        self.on_message = on_message
        self.transcript = Transcript(
            conversation=id, agent_modes={n: a.mode.value for n, a in parent.subagents.items()}
        )
        self.active_agent: str | None = None
        self.agent_states: dict[str, dict[str, Any]] = {}
        self.message_count = 0
        """Messages recorded so far; the next message's id is ``{id}-{message_count + 1}``. A
        counter, not the transcript's length, so a stored window of recent turns keeps ids unique."""
        self._lock = asyncio.Lock()
        # (message, its HistoryEntry) by transcript index, built once per message (see _history).
        self._entries: list[tuple[Message, HistoryEntry] | None] = []
        self._entries_of: list[Message] | None = None
        if state is not None:
            self._restore(state)

    async def __aenter__(self) -> Conversation:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None

    # --- state ----------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """A JSON-serialisable copy of the conversation's state (for storage between requests)."""
        return {
            "version": 1,
            "id": self.id,
            "active_agent": self.active_agent,
            "agent_states": json.loads(json.dumps(self.agent_states)),
            "message_count": self.message_count,
            "messages": [m.to_json() for m in self.transcript.messages],
            "turns": [
                {
                    "turn": t.turn,
                    "plan": [{"request": p.request, "agent": p.agent} for p in t.plan],
                    "answered_by": list(t.answered_by),
                    "failed": list(t.failed),
                    **({"error": t.error} if t.error else {}),
                    **({"errors": list(t.errors)} if t.errors else {}),
                }
                for t in self.transcript.turns
            ],
        }

    def _restore(self, state: Mapping[str, Any]) -> None:
        if state.get("version") != 1:
            raise ConfigError("unsupported conversation state version", field="version")
        self.active_agent = state.get("active_agent")
        if self.active_agent is not None and self.active_agent not in self.parent.subagents:
            self.active_agent = None
        self.agent_states = {k: dict(v) for k, v in state.get("agent_states", {}).items()}
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
                    plan=tuple(PlannedRequest(**p) for p in turn.get("plan", [])),
                    answered_by=tuple(turn.get("answered_by", [])),
                    failed=tuple(turn.get("failed", [])),
                    error=turn.get("error"),
                    errors=tuple(turn.get("errors", [])),
                )
            )

    # --- the turn -------------------------------------------------------------------------------

    async def send(self, text: str) -> Turn:
        """Handle one user message and return the turn's outcome. Turns run one at a time."""
        if not text or not text.strip():
            raise ConfigError("a user message must not be empty", field="text")
        async with self._lock:
            state = await run_turn(self, text.strip())
            return Turn(
                number=state.number,
                user=state.user,
                messages=tuple(self.transcript.messages[state.start :]),
                plan=tuple(state.plan),
                results=tuple(state.results),
                usage=state.usage,
                aggregation=state.aggregation,
                error="; ".join(state.failures) or None,
            )

    async def _record(
        self,
        *,
        turn: int,
        role: Literal["user", "bot"],
        sender: str,
        text: str,
        mode: str | None = None,
        request: str | None = None,
    ) -> Message:
        self.message_count += 1
        message = Message(
            id=f"{self.id}-{self.message_count}",
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

    def _history(self) -> tuple[HistoryEntry, ...]:
        messages = self.transcript.messages
        first_turn = max(1, self.transcript.turn_count - self.parent.history_turns + 1)
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

    def _recent_chat(self, turns: int = 3) -> tuple[ChatMessage, ...]:
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
