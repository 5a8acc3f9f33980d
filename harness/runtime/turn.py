"""The turn as a pipeline: plan, dispatch, compose (and dispatch the routes), guard, record.

Each step takes the turn's one ``TurnState`` and returns it; nothing of the turn is kept on the
conversation between steps. The failure policy is in one place (:func:`_recover` for the
parent's own model calls, :func:`_check` for sub-agent results: lenient, or strict when the
parent is). Usage has one home, ``TurnState.usage``: the parent's plan and replies add to it as
they return, and the sub-agents' results are added once, when the turn is recorded.
docs/architecture.md draws the pipeline.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.exceptions import (
    ContractViolationError,
    ModelBehaviorError,
    ModelRequestError,
    SubagentError,
    SubagentTimeoutError,
)
from harness.models.base import ChatMessage, ComposeContext, ModelRequest, PlanContext
from harness.models.replay import CassetteMissError
from harness.models.rules import RulesModel
from harness.runtime.parts import (
    COMPOSE_SCHEMA,
    PLAN_SCHEMA,
    aggregate_findings,
    fallback_reply,
    result_view,
)
from harness.runtime.runner import SubagentCall, run_subagent
from harness.transcript import Message, PlannedRequest, TurnRecord
from subagents import HistoryEntry, Mode, Subagent, SubagentResult, Usage

if TYPE_CHECKING:
    from harness.runtime.parent import Conversation, Parent

__all__ = ["TurnState", "run_turn"]

log = logging.getLogger("harness")

# ``json.dumps(..., ensure_ascii=False)`` builds a new encoder on every call; this one is built once.
_JSON = json.JSONEncoder(ensure_ascii=False)

_NO_ANSWER = "Sorry, I'm not sure how to help with that. Could you rephrase?"
_OFFLINE_PLANNER = RulesModel()
"""Routes a message by the agents' descriptions and examples when the parent's model cannot plan."""


@dataclass(slots=True, kw_only=True)
class TurnState:
    """Everything one turn knows, passed from step to step."""

    number: int
    """The 1-based turn number."""
    text: str
    """The user's message (stripped)."""
    user: Message
    """The user's message as recorded."""
    start: int
    """The transcript index of the turn's first bot message."""
    history: tuple[HistoryEntry, ...]
    """The conversation before this turn, for sub-agents that receive history."""
    steps_left: int
    """Rounds of routing open questions this turn may still start."""
    plan: list[PlannedRequest] = field(default_factory=list)
    """Every scoped request and who handles it, including routes added later."""
    own: tuple[str, ...] = ()
    """The requests the parent handles itself."""
    pending: list[PlannedRequest] = field(default_factory=list)
    """Planned or routed requests not yet dispatched."""
    routed: list[tuple[str, str]] = field(default_factory=list)
    """``(request, agent)`` of every dispatched request, so a route is never taken twice."""
    results: list[SubagentResult] = field(default_factory=list)
    """Every sub-agent result, in dispatch order."""
    message: str = ""
    """The parent's reply (after the guard)."""
    aggregation: Any = None
    """The last compose step's aggregation of silent findings, or None."""
    usage: Usage = field(default_factory=Usage)
    """The parent's own model usage (plan and replies); sub-agents' is added when recorded."""
    failures: list[str] = field(default_factory=list)
    """Why the parent's own plan or reply failed (the turn then fell back)."""


async def run_turn(conversation: Conversation, text: str) -> TurnState:
    """Run the whole turn for ``text`` and return its final state (recorded in the transcript)."""
    state = await _begin(conversation, text)
    state = await _plan(conversation, state)
    state = await _dispatch(conversation, state)
    while True:
        state = await _compose(conversation, state)
        if not state.pending:
            break
        state = await _dispatch(conversation, state)
    state = await _guard(conversation, state)
    return await _record(conversation, state)


# --- the failure policy ---------------------------------------------------------------------------


def _recover(parent: Parent, state: TurnState, what: str, exc: Exception) -> bool:
    """Whether the turn goes on after the parent's own ``what`` failed (False: re-raise).

    Strict parents raise; a replay cassette miss (a test's setup error) always does.
    """
    if parent.strict or isinstance(exc, CassetteMissError):
        return False
    state.failures.append(f"{what} failed: {type(exc).__name__}: {exc}")
    return True


def _check(parent: Parent, result: SubagentResult) -> None:
    """Strict mode: raise for a sub-agent that broke its contract, timed out or failed."""
    if not parent.strict:
        return
    if result.violations:
        raise ContractViolationError(result.agent, result.violations)
    if result.status == "timed_out":
        timeout = parent.subagents[result.agent].timeout
        raise SubagentTimeoutError(agent=result.agent, timeout=timeout)
    if result.status == "failed":
        raise SubagentError(result.error or "failed", agent=result.agent)


# --- the steps ------------------------------------------------------------------------------------


async def _begin(conversation: Conversation, text: str) -> TurnState:
    number = conversation.transcript.turn_count + 1
    user = await conversation._record(turn=number, role="user", sender="user", text=text)
    return TurnState(
        number=number,
        text=text,
        user=user,
        start=len(conversation.transcript),
        history=conversation._history(),
        steps_left=conversation.parent.max_compose_steps,
    )


async def _plan(conversation: Conversation, state: TurnState) -> TurnState:
    """Split the message into scoped requests, one per agent (the parent's for the rest)."""
    parent = conversation.parent
    text = state.text
    active = conversation.active_agent
    if active is not None and parent.subagents[active].mode is not Mode.CONVERSATIONAL:
        active = None
    system = parent.system
    if active is not None:
        system += (
            f"\n\nRight now the conversational sub-agent `{active}` is in a dialogue with the "
            "user and holds the floor. Still split the user's message into its requests: "
            f"give `{active}` the part that answers or continues its dialogue (as its scoped "
            "request), and route every other request as usual, each to its own agent.\n"
        )
    request = ModelRequest(
        task="plan",
        agent=parent.name,
        system=system,
        messages=(*conversation._recent_chat(), ChatMessage(role="user", content=text)),
        output_schema=PLAN_SCHEMA,
        output_name="plan",
        context=PlanContext(
            parent=parent.name, user_message=text, agents=parent._cards, active_agent=active
        ),
    )
    try:
        try:
            response = await parent.model.request(request)
        except ModelRequestError as exc:
            if parent.strict or isinstance(parent.model, RulesModel):
                raise
            # Unavailable (a timeout, an outage), not confused: the offline planner routes the
            # message, so the healthy sub-agents still answer (never "I can't help with ...").
            state.failures.append(f"plan failed: {type(exc).__name__}: {exc}")
            log.warning("the plan failed (%s); the offline planner routes the message", exc)
            response = await _OFFLINE_PLANNER.request(request)
        output = response.output
        entries = output.get("requests") if isinstance(output, Mapping) else None
        if not isinstance(entries, list) or not entries:
            raise ModelBehaviorError("the plan has no list of requests", agent=parent.name)
        if not all(isinstance(entry, Mapping) for entry in entries):
            raise ModelBehaviorError(
                "each planned request must be an object with 'request' and 'agent'",
                agent=parent.name,
            )
        # One entry per agent: two concurrent calls of one agent would share its state.
        merged: dict[str, list[str]] = {}
        for entry in entries:
            agent = str(entry.get("agent", parent.name))
            if agent not in parent.subagents:
                agent = parent.name
            merged.setdefault(agent, []).append(str(entry.get("request") or text))
        plan = [
            PlannedRequest(request=" and ".join(requests), agent=agent)
            for agent, requests in merged.items()
        ]
        state.usage = state.usage + response.usage
    except Exception as exc:  # a failing planner must not lose the conversation
        if not _recover(parent, state, "plan", exc):
            raise
        log.warning("the plan failed (%s); the parent handles the whole message", exc)
        plan = [PlannedRequest(request=text, agent=parent.name)]
    state.plan = plan
    state.own = tuple(p.request for p in plan if p.agent == parent.name)
    state.pending = [p for p in plan if p.agent != parent.name]
    return state


async def _dispatch(conversation: Conversation, state: TurnState) -> TurnState:
    """Run the pending requests' agents concurrently, each under its own timeout."""
    parent = conversation.parent
    pending, state.pending = state.pending, []
    state.routed.extend((p.request, p.agent) for p in pending)
    calls: list[SubagentCall] = []
    for item in pending:
        agent = parent.subagents[item.agent]
        request = item.request if agent.scoped else state.text

        async def send(message: str, *, _agent: Subagent = agent, _request: str = request) -> None:
            if _agent.mode is Mode.CONVERSATIONAL:
                # It holds the floor from its first message (the result settles it when the
                # call ends): the state saved before this message goes out says so, so a crash
                # after it never forgets the open dialogue.
                conversation.active_agent = _agent.name
            await conversation._record(
                turn=state.number,
                role="bot",
                sender=_agent.name,
                text=message,
                mode=_agent.mode.value,
                request=_request,
            )

        calls.append(
            SubagentCall(
                agent=agent,
                request=request,
                history=state.history,
                model=parent._agent_models[agent.name],
                system=parent.system_prompt_for(agent.name),
                state=conversation.agent_states.setdefault(agent.name, {}),
                send=None if agent.mode is Mode.SILENT else send,
                continuing=agent.name == conversation.active_agent,
                strict=parent.strict,
                prepared=parent._prepared.get(agent.name),
                transport=parent._transports.get(agent.name),
            )
        )
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(run_subagent(call)) for call in calls]
    except ExceptionGroup as group_error:  # strict mode only: surface the first real error
        raise group_error.exceptions[0] from group_error
    results = [task.result() for task in tasks]
    for result in results:
        _check(parent, result)
        _take_floor(conversation, result)
    state.results.extend(results)
    return state


def _take_floor(conversation: Conversation, result: SubagentResult) -> None:
    """A conversational agent that spoke without answering holds the floor; one that answered
    (or failed) gives it back."""
    if conversation.parent.subagents[result.agent].mode is not Mode.CONVERSATIONAL:
        return
    if result.ok and not result.answered and bool(result.messages):
        conversation.active_agent = result.agent
    elif conversation.active_agent == result.agent:
        conversation.active_agent = None


async def _compose(conversation: Conversation, state: TurnState) -> TurnState:
    """Write the parent's reply from the results; queue the open questions it routes."""
    parent = conversation.parent
    text = state.text
    results = state.results
    state.aggregation = await aggregate_findings(results)
    repeated = set()
    if state.aggregation is not None:
        repeated = {s.agent for s in state.aggregation.sources if s.duplicate_of}
    # A silent finding that repeats another agent's is relayed once, not twice.
    views = tuple(
        result_view(r, drop_findings=r.agent in repeated and r.mode is Mode.SILENT) for r in results
    )
    payload = {
        "userMessage": text,
        "handledByYou": list(state.own),
        "results": [v.to_json() for v in views],
    }
    request = ModelRequest(
        task="compose",
        agent=parent.name,
        system=parent.system,
        messages=(
            ChatMessage(role="user", content=text),
            ChatMessage(
                role="user",
                content="Sub-agent results for this turn (JSON):\n" + _JSON.encode(payload),
            ),
        ),
        output_schema=COMPOSE_SCHEMA,
        output_name="reply",
        context=ComposeContext(
            parent=parent.name,
            user_message=text,
            results=views,
            own_requests=state.own,
            agents=parent._cards,
            routed=tuple(state.routed),
            steps_left=state.steps_left,
        ),
    )
    try:
        response = await parent.model.request(request)
        output = response.output if response.output is not None else {}
        if not isinstance(output, Mapping):
            raise ModelBehaviorError("the reply is not an object", agent=parent.name)
    except Exception as exc:  # direct messages stand; findings are relayed as they are
        if not _recover(parent, state, "reply", exc):
            raise
        log.warning("the reply failed (%s); relaying results as they are", exc)
        state.message = fallback_reply(views, apologise=True)
        state.pending = []
        return state
    state.usage = state.usage + response.usage
    state.message = str(output.get("message", response.text or "") or "").strip()
    routes = [
        PlannedRequest(request=str(r["request"]), agent=str(r["agent"]))
        for r in output.get("route", []) or []
        if isinstance(r, Mapping) and r.get("request") and r.get("agent")
    ]
    routes = [
        r
        for r in routes
        if r.agent in parent.subagents and (r.request, r.agent) not in state.routed
    ]
    if routes and state.steps_left > 0:
        state.steps_left -= 1
        state.plan.extend(routes)
        state.pending = routes
    else:
        state.pending = []
    return state


async def _guard(conversation: Conversation, state: TurnState) -> TurnState:
    """Drop (or report) what the parent's draft repeats of what was already sent.

    The comparison is CPU work (bounded by ``harness.text.ANALYSIS_BUDGET``): it runs in a worker
    thread, so one long message never holds the event loop that other conversations share.
    """
    guard = conversation.parent._guard
    if state.message and guard is not None:
        decision = await asyncio.to_thread(
            guard.check,
            state.message,
            sent=list(conversation.transcript.messages),
            turn=state.number,
        )
        state.message = decision.text
    return state


async def _record(conversation: Conversation, state: TurnState) -> TurnState:
    """Record the parent's reply (or an apology when nobody spoke) and the turn's record."""
    transcript = conversation.transcript
    if not state.message and len(transcript.messages) == state.start:
        state.message = _NO_ANSWER
    if state.message:
        await conversation._record(
            turn=state.number, role="bot", sender=conversation.parent.name, text=state.message
        )
    for result in state.results:
        state.usage = state.usage + result.usage
    results = state.results
    transcript.turns.append(
        TurnRecord(
            turn=state.number,
            plan=tuple(state.plan),
            answered_by=tuple(r.agent for r in results if r.answered),
            failed=tuple(r.agent for r in results if r.status in ("failed", "timed_out")),
            error="; ".join(state.failures) or None,
            errors=tuple(f"{r.agent}: {r.error}" for r in results if r.error),
        )
    )
    return state
