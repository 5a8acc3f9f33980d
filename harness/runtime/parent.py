"""The parent agent and its turn loop: plan, dispatch, compose, guard, record (docs/architecture.md).

The parent owns the conversation. For each user message it plans scoped requests, runs the chosen
sub-agents concurrently (each under its own timeout), reads their results (checking ``answered``),
takes up open questions within a bounded number of steps, optionally guards its own draft against
duplicates, and records every message with its sender in the transcript. The steps themselves are
the pipeline in ``harness.runtime.turn``, over the parent's ``Dependencies`` (``harness.runtime.deps``)
and the conversation's ``ConversationState`` (``harness.runtime.state``); this module holds the
parent and the conversation.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from harness.composing import Composer
from harness.detect.transcript import Message, PlannedRequest, Transcript
from harness.exceptions import ConfigError
from harness.models import Model, resolve_model
from harness.planning import Planner
from harness.runtime.deps import Dependencies, build_dependencies
from harness.runtime.runner import run_subagent
from harness.runtime.state import ConversationState, MessageSink
from harness.runtime.turn import run_turn
from harness.transport.base import AgentTransport, Sender
from subagents import HistoryEntry, Subagent, SubagentResult, Usage, UserAnswer
from subagents.config import ParentConfig, validate_options

if TYPE_CHECKING:
    from harness.aggregate import AggregatedResult

__all__ = ["Conversation", "Parent", "Turn", "bot_models", "check_models"]


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
    answered: tuple[PlannedRequest, ...] = ()
    """Each planned request its agent reported answered, per request (a call carrying two
    requests that answered one lists that one)."""
    usage: Usage
    """Model usage of the whole turn."""
    aggregation: AggregatedResult | None = None
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
        history_turns: how many turns of history are passed to sub-agents that receive it, the
            current turn (its user message) included: 1 passes the current message only, 0 none.
        handoff: what the parent adds when it cannot help with a request and no sub-agent takes
            it ("For anything else, call us on 0800 123 456."); by default it only says it cannot
            help with it. The offline composer adds it as written; a model's parent is told to.
        transports: how named sub-agents are called, instead of the default (in-process, or
            HTTP for a ``ConnectedAgent`` with a ``url``): for example a
            ``harness.testing.MockTransport`` in a test. See ``harness.transport``.
        planner: splits each message into scoped requests (``harness.planning``); by default the
            offline ``RulesPlanner`` for the ``rules`` model, else an ``LLMPlanner`` over ``model``.
        composer: writes the parent's reply from the results (``harness.composing``); by default
            the offline ``RulesComposer`` for the ``rules`` model, else an ``LLMComposer`` over
            ``model``.

    Every option but ``subagents``, a ``Model`` object, ``transports``, ``planner`` and ``composer`` is plain data, validated
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
        handoff: str = "",
        transports: Mapping[str, AgentTransport] | None = None,
        planner: Planner | None = None,
        composer: Composer | None = None,
    ) -> None:
        _check_names(name, subagents, transports or {})
        if isinstance(model, Model) and model_settings:
            raise ConfigError(
                "model_settings apply to a model given by name; give the Model object its own",
                field="model_settings",
            )
        self.options: ParentConfig = validate_options(
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
                "handoff": handoff,
            },
        )
        """The validated plain-data options (what a YAML ``parent:`` section would hold)."""
        if not isinstance(model, Model):
            settings = self.options.model_settings
            model = resolve_model(
                self.options.model, **({"settings": settings} if settings else {})
            )
        self.dependencies: Dependencies = build_dependencies(
            self.options,
            subagents,
            model=model,
            planner=planner,
            composer=composer,
            transports=transports,
        )
        """What every turn uses, built once (``harness.runtime.deps``)."""

    @property
    def name(self) -> str:
        """The parent's name; the sender of its own messages."""
        return self.options.name

    @property
    def instructions(self) -> str:
        """The parent's own instructions."""
        return self.options.instructions

    @property
    def subagents(self) -> Mapping[str, Subagent]:
        """The sub-agents by name."""
        return self.dependencies.agents

    @property
    def model(self) -> Model:
        """The parent's model (and the default for sub-agents)."""
        return self.dependencies.model

    @property
    def planner(self) -> Planner:
        """The planner that splits each message into scoped requests."""
        return self.dependencies.planner

    @property
    def composer(self) -> Composer:
        """The composer that writes the parent's reply from the results."""
        return self.dependencies.composer

    @property
    def system(self) -> str:
        """The parent's system prompt (generated instructions plus its own)."""
        return self.dependencies.system

    @property
    def generated_instructions(self) -> bool:
        """Whether the generated top-level instruction is prepended."""
        return self.options.generated_instructions

    @property
    def strict(self) -> bool:
        """Fail fast instead of recovering (see the class docstring)."""
        return self.options.strict

    @property
    def max_compose_steps(self) -> int:
        """Rounds of routing open questions one turn may start."""
        return self.options.max_compose_steps

    @property
    def duplicate_guard(self) -> Literal["off", "warn", "drop"]:
        """The duplicate guard's policy."""
        return self.options.duplicate_guard

    @property
    def history_turns(self) -> int:
        """Recent turns of history passed to sub-agents that receive it."""
        return self.options.history_turns

    def system_prompt_for(self, agent: str) -> str:
        """The system prompt a sub-agent's model receives."""
        return self.dependencies.agent_systems[agent]

    def model_for(self, agent: str) -> Model:
        """The model a sub-agent runs on (the parent's when it names none)."""
        return self.dependencies.agent_models[agent]

    async def run_subagent(
        self,
        name: str,
        request: str,
        *,
        history: Sequence[HistoryEntry] = (),
        state: MutableMapping[str, Any] | None = None,
        dialogue: list[dict[str, str]] | None = None,
        send: Sender | None = None,
        continuing: bool = False,
        requests: Sequence[str] = (),
        answers: Sequence[UserAnswer] = (),
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
            dialogue: a conversational agent's own exchange with the user so far (``role`` and
                ``text`` per message); updated in place.
            send: delivers the agent's messages; None for a silent agent (or to refuse them).
            continuing: the agent holds the floor and gets the user's next message.
            requests: each request the call carries, when there are two or more (``request``
                then numbers them, ``harness.transport.base.join_requests``); the agent's
                ``answeredRequests`` is validated against them.
            answers: the user's answers to what the agent asked about these requests last
                turn (``subagents.UserAnswer``, each naming its request); the request's text
                carries none of them.

        Raises:
            ConfigError: there is no sub-agent named ``name``.
        """
        if name not in self.subagents:
            raise ConfigError(f"no sub-agent named {name!r}", field="name")
        call = self.dependencies.call(
            name,
            request,
            history=history,
            state=state if state is not None else {},
            dialogue=dialogue,
            send=send,
            continuing=continuing,
            requests=requests if len(requests) > 1 else (),
            answers=answers,
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
        for model in bot_models(self):
            seen.add(id(model))
            await model.aclose()
        for transport in self.dependencies.transports.values():
            if id(transport) not in seen:
                seen.add(id(transport))
                await transport.aclose()


def bot_models(bot: Parent) -> tuple[Model, ...]:
    """The distinct models of a bot: the parent's first, then each sub-agent's model once."""
    return bot.dependencies.models


def check_models(bot: Parent) -> None:
    """Fail now, in one line, if a model of the bot cannot work (a hosted model with no API key),
    rather than in every turn or scenario.

    Raises:
        HarnessError: what the failing model's ``check()`` raises.
    """
    for model in bot.dependencies.models:
        model.check()


def _check_names(
    name: str, subagents: Sequence[Subagent], transports: Mapping[str, AgentTransport]
) -> None:
    names = [a.name for a in subagents]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ConfigError(f"sub-agent names must be unique; repeated: {', '.join(repeated)}")
    if name in names:
        raise ConfigError(f"the parent and a sub-agent are both named {name!r}", field="name")
    unknown = sorted(set(transports) - set(names))
    if unknown:
        raise ConfigError(
            f"transports given for unknown sub-agents: {', '.join(unknown)}", field="transports"
        )


class Conversation:
    """One conversation with a parent: its transcript, the floor holder and the agents' memory.

    Use as an async context manager, or call ``send`` directly. Its state (``state``) is kept apart
    from the parent, which serves any number of conversations.
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
        self.state = ConversationState(
            id=id,
            agent_modes={n: a.mode.value for n, a in parent.subagents.items()},
            on_message=on_message,
        )
        """The conversation's transcript, floor holder, agents' memory and message counter."""
        self._lock = asyncio.Lock()
        if state is not None:
            self.state.restore(state, agents=parent.subagents)

    async def __aenter__(self) -> Conversation:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None

    @property
    def id(self) -> str:
        """The conversation id."""
        return self.state.id

    @property
    def transcript(self) -> Transcript:
        """Every message so far, each attributed to its sender, and a record per turn."""
        return self.state.transcript

    @property
    def active_agent(self) -> str | None:
        """The conversational sub-agent that holds the floor, or None."""
        return self.state.active_agent

    @property
    def agent_states(self) -> dict[str, dict[str, Any]]:
        """Each sub-agent's memory in this conversation."""
        return self.state.agent_states

    @property
    def message_count(self) -> int:
        """Messages recorded so far (see ``ConversationState.message_count``)."""
        return self.state.message_count

    @property
    def on_message(self) -> MessageSink | None:
        """Called with every bot message as it is sent."""
        return self.state.on_message

    def snapshot(self) -> dict[str, Any]:
        """A JSON-serialisable copy of the conversation's state (for storage between requests)."""
        return self.state.snapshot()

    async def send(self, text: str) -> Turn:
        """Handle one user message and return the turn's outcome. Turns run one at a time."""
        if not text or not text.strip():
            raise ConfigError("a user message must not be empty", field="text")
        async with self._lock:
            turn = await run_turn(self.parent.dependencies, self.state, text.strip())
            return Turn(
                number=turn.number,
                user=turn.user,
                messages=tuple(self.transcript.messages[turn.start :]),
                plan=tuple(turn.plan),
                results=tuple(turn.results),
                answered=tuple(turn.answered),
                usage=turn.usage,
                aggregation=turn.aggregation,
                error="; ".join(turn.failures) or None,
            )
