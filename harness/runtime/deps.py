"""What a parent is built from, once: its models, planner, composer, prompts, agents, transports and limits.

``Dependencies`` is frozen and built by ``Parent`` when it is created; every step of a turn is a
function of it and of the conversation's state (``harness.runtime.turn``). It is also the one place
that builds a ``SubagentCall`` (``Dependencies.call``), for a turn's dispatch and for
``Parent.run_subagent`` alike.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.agent.tools import ToolThreads
from harness.composing import Composer, LLMComposer, RulesComposer
from harness.models import Model, RulesModel, resolve_model
from harness.models.base import AgentCard
from harness.planning import LLMPlanner, Planner, RulesPlanner
from harness.runtime.parts import compose_schema
from harness.runtime.runner import PreparedAgent, SubagentCall, default_transport, prepare
from harness.runtime.views import parent_view
from harness.transport.base import AgentTransport, Sender
from harness.transport.local import LocalTransport
from instructions import render_parent_system, render_subagent_system
from subagents import HistoryEntry, Mode, Subagent, UserAnswer
from subagents.config import ParentConfig

if TYPE_CHECKING:
    from harness.detect.guard import DuplicateGuard

__all__ = ["Dependencies", "build_dependencies", "default_composer", "default_planner"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Dependencies:
    """Everything a parent's turns use, built once when the parent is created."""

    name: str
    """The parent's name; the sender of its own messages."""
    system: str
    """The parent's system prompt (generated instructions plus its own)."""
    model: Model
    """The parent's model: it writes the replies (and plans, through an ``LLMPlanner``)."""
    planner: Planner
    """Splits each user message into scoped requests."""
    composer: Composer
    """Writes the parent's reply from the results."""
    agents: Mapping[str, Subagent]
    """The sub-agents by name."""
    agent_models: Mapping[str, Model]
    """Each sub-agent's model (the parent's when it names none)."""
    agent_systems: Mapping[str, str]
    """Each sub-agent's system prompt."""
    prepared: Mapping[str, PreparedAgent]
    """Each sub-agent's tools and output schema, built once."""
    transports: Mapping[str, AgentTransport]
    """Transports given for named sub-agents (the others use the default)."""
    cards: tuple[AgentCard, ...]
    """What the planner and the compose step know of each sub-agent."""
    compose_schema: Mapping[str, Any]
    """The reply's JSON schema, with a route's ``agent`` limited to the sub-agents' names."""
    guard: DuplicateGuard | None
    """Checks the parent's draft against messages already sent; None when off."""
    strict: bool
    """Raise on a sub-agent's or the parent's own failure instead of recovering."""
    max_compose_steps: int
    """Rounds of routing open questions one turn may start."""
    history_turns: int
    """Recent turns of history passed to sub-agents that receive it."""
    handoff: str = ""
    """What the parent adds when it cannot help with a request (``ParentConfig.handoff``)."""
    local: LocalTransport
    """This parent's in-process transport (it keeps the turn's history encoding, for this bot
    only)."""
    tool_threads: ToolThreads
    """This parent's shares of tool threads: its agents' quotas are not another bot's."""

    def call(
        self,
        name: str,
        request: str,
        *,
        history: Sequence[HistoryEntry],
        state: MutableMapping[str, Any],
        send: Sender | None,
        dialogue: list[dict[str, str]] | None = None,
        continuing: bool = False,
        strict: bool = False,
        requests: Sequence[str] = (),
        answers: Sequence[UserAnswer] = (),
    ) -> SubagentCall:
        """The call of sub-agent ``name`` with ``request``: its model, prompt and transport (the
        one place a ``SubagentCall`` is built; a silent agent never gets ``send``)."""
        agent = self.agents[name]
        return SubagentCall(
            agent=agent,
            request=request,
            history=tuple(history),
            model=self.agent_models[name],
            system=self.agent_systems[name],
            state=state,
            dialogue=[] if dialogue is None else dialogue,
            send=None if agent.mode is Mode.SILENT else send,
            continuing=continuing,
            strict=strict,
            requests=tuple(requests),
            answers=tuple(answers),
            prepared=self.prepared.get(name),
            transport=self.transports.get(name) or default_transport(agent, self.local),
            tool_threads=self.tool_threads,
        )

    @property
    def models(self) -> tuple[Model, ...]:
        """The distinct models of the bot: the parent's first, then each sub-agent's once."""
        return tuple({id(m): m for m in (self.model, *self.agent_models.values())}.values())


def default_planner(model: Model) -> Planner:
    """The planner a parent uses with ``model``: the offline ``RulesPlanner`` (with the same
    routing threshold) for a ``RulesModel``, else an ``LLMPlanner`` over the model."""
    if isinstance(model, RulesModel):
        return RulesPlanner(route_threshold=model.route_threshold)
    return LLMPlanner(model)


def default_composer(model: Model, *, planner: Planner | None = None) -> Composer:
    """The composer a parent uses with ``model``: the offline ``RulesComposer`` (with the same
    routing threshold, and the parent's ``planner`` when it is the offline one, so a request an
    agent hands back goes where the parent's own plan would send it) for a ``RulesModel``, else
    an ``LLMComposer`` over the model."""
    if isinstance(model, RulesModel):
        offline = planner if isinstance(planner, RulesPlanner) else None
        return RulesComposer(route_threshold=model.route_threshold, planner=offline)
    return LLMComposer(model)


def _cards(agents: Sequence[Subagent]) -> tuple[AgentCard, ...]:
    """What the offline planner and model route by: each agent's description as its author wrote
    it, not the one the parent's prompt shows (``render_subagent_description`` adds how its
    mode answers, "It never talks to the user ...", words about no request)."""
    return tuple(
        AgentCard(
            name=a.name,
            description=a.description,
            mode=a.mode.value,
            examples=tuple(a.examples),
            instructions=a.instructions,
            tools=tuple(tool.name for tool in a.tool_specs),
            keywords=tuple(
                word
                for tool in a.tool_specs
                for word in (tool.name.replace("_", " "), tool.description, *tool.keywords)
            ),
        )
        for a in agents
    )


def _with_handoff(system: str, handoff: str) -> str:
    """The parent's system prompt, told to add ``handoff`` when it cannot help (if one is set)."""
    if not handoff.strip():
        return system
    return (
        f"{system.rstrip()}\n\nWhen you cannot help with a request and no sub-agent can take it, say so "
        f'and add: "{handoff.strip()}"'
    )


def build_dependencies(
    options: ParentConfig,
    agents: Sequence[Subagent],
    *,
    model: Model,
    planner: Planner | None = None,
    composer: Composer | None = None,
    transports: Mapping[str, AgentTransport] | None = None,
) -> Dependencies:
    """Build a parent's dependencies from its validated options (see ``Parent``)."""
    view = parent_view(options.name, options.instructions, agents)
    planner = planner or default_planner(model)
    by_name = {v.name: v for v in view.subagents}
    guard = None
    if options.duplicate_guard != "off":
        from harness.detect.guard import DuplicateGuard

        guard = DuplicateGuard(policy=options.duplicate_guard)
    return Dependencies(
        name=options.name,
        system=_with_handoff(
            render_parent_system(view, generated=options.generated_instructions), options.handoff
        ),
        model=model,
        planner=planner,
        composer=composer or default_composer(model, planner=planner),
        agents={a.name: a for a in agents},
        agent_models={a.name: model if a.model is None else resolve_model(a.model) for a in agents},
        agent_systems={
            a.name: render_subagent_system(by_name[a.name], generated=a.generated_instructions)
            for a in agents
        },
        prepared={a.name: prepare(a) for a in agents},
        transports=dict(transports or {}),
        cards=_cards(agents),
        compose_schema=compose_schema(tuple(a.name for a in agents)),
        guard=guard,
        strict=options.strict,
        max_compose_steps=options.max_compose_steps,
        history_turns=options.history_turns,
        handoff=options.handoff.strip(),
        local=LocalTransport(),
        tool_threads=ToolThreads(),
    )
