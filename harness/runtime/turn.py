"""The turn as a pipeline: plan, dispatch, compose (and dispatch the routes), guard, record.

Each step is a function of the parent's ``Dependencies`` (built once), the conversation's
``ConversationState`` and the turn's one ``TurnState``, which it returns; nothing of the turn is
kept on the conversation between steps. The failure policy is in one place (:func:`_recover` for the
parent's own model calls, :func:`_check` for sub-agent results: lenient, or strict when the
parent is). Usage has one home, ``TurnState.usage``: the parent's plan and replies add to it as
they return, and the sub-agents' results are added once, when the turn is recorded.
docs/architecture.md draws the pipeline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from harness.composing import ComposeInput
from harness.detect.transcript import AgentToolCalls, Message, PlannedRequest, TurnRecord
from harness.exceptions import (
    ContractViolationError,
    ModelRequestError,
    SubagentError,
    SubagentTimeoutError,
)
from harness.models.base import ModelSetupError
from harness.planning import PlanInput, RulesPlanner, WaitingRequest
from harness.runtime.deps import Dependencies
from harness.runtime.guard_process import check_draft
from harness.runtime.parts import (
    aggregate_findings,
    answered_requests,
    answering_agents,
    asked_requests,
    failed_agents,
    fallback_reply,
    group_by_agent,
    plan_requests,
    result_view,
)
from harness.runtime.runner import SubagentCall, run_subagent
from harness.runtime.state import ConversationState
from harness.transport.base import join_requests
from subagents import HistoryEntry, Mode, Subagent, SubagentResult, Usage

if TYPE_CHECKING:
    from harness.aggregate import AggregatedResult

__all__ = ["TurnState", "run_turn"]

log = logging.getLogger("harness")

_NO_ANSWER = "Sorry, I'm not sure how to help with that. Could you rephrase?"
_OFFLINE_PLANNER = RulesPlanner()
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
    answered: list[PlannedRequest] = field(default_factory=list)
    """Each dispatched request its agent reported answered (per request, ``answeredRequests``)."""
    asked: list[WaitingRequest] = field(default_factory=list)
    """Each dispatched request its agent asked the user a question about (``asked_requests``):
    the next turn's ``ConversationState.awaiting``."""
    message: str = ""
    """The parent's reply (after the guard)."""
    aggregation: AggregatedResult | None = None
    """The last compose step's aggregation of silent findings, or None."""
    usage: Usage = field(default_factory=Usage)
    """The parent's own model usage (plan and replies); sub-agents' is added when recorded."""
    failures: list[str] = field(default_factory=list)
    """Why the parent's own plan or reply failed (the turn then fell back)."""
    held: list[Message] = field(default_factory=list)
    """A conversational agent's messages held back while others share the turn: sent when it
    answers, or after the parent's reply when it asks the user something (the question is the
    turn's last message), as :func:`_hold` decides. Their ids are placeholders until they are
    recorded (the duplicate guard sees them under the ids they are recorded with)."""


async def run_turn(deps: Dependencies, chat: ConversationState, text: str) -> TurnState:
    """Run the whole turn for ``text`` and return its final state (recorded in the transcript)."""
    state = await _begin(deps, chat, text)
    try:
        state = await _plan(deps, chat, state)
        state = await _dispatch(deps, chat, state)
        while True:
            state = await _compose(deps, chat, state)
            if not state.pending:
                break
            state = await _dispatch(deps, chat, state)
        state = await _guard(deps, chat, state)
        return await _record(deps, chat, state)
    except BaseException:
        # The turn ends early (a strict parent raises, the turn is cancelled or times out, an
        # ``on_message`` callback fails on the parent's reply): a conversational agent's question
        # held for the end of the turn (:func:`_hold`) still goes out, as it would have without
        # the hold, since the conversation's state already says that agent holds the floor.
        await _flush(chat, state)
        raise


# --- the failure policy ---------------------------------------------------------------------------


def _recover(deps: Dependencies, state: TurnState, what: str, exc: Exception) -> bool:
    """Whether the turn goes on after the parent's own ``what`` failed (False: re-raise).

    Strict parents raise; a setup error (a replay cassette miss in a test) always does.
    """
    if deps.strict or isinstance(exc, ModelSetupError):
        return False
    state.failures.append(f"{what} failed: {type(exc).__name__}: {exc}")
    return True


def _check(deps: Dependencies, result: SubagentResult) -> None:
    """Strict mode: raise for a sub-agent that broke its contract, timed out or failed."""
    if not deps.strict:
        return
    if result.broken:  # an advisory violation (one 'answered' for several requests) is read as is
        raise ContractViolationError(result.agent, result.broken)
    if result.status == "timed_out":
        timeout = deps.agents[result.agent].timeout
        raise SubagentTimeoutError(agent=result.agent, timeout=timeout)
    if result.status == "failed":
        raise SubagentError(result.error or "failed", agent=result.agent)


# --- the steps ------------------------------------------------------------------------------------


async def _begin(deps: Dependencies, chat: ConversationState, text: str) -> TurnState:
    number = chat.transcript.turn_count + 1
    user = await chat.record(turn=number, role="user", sender="user", text=text)
    return TurnState(
        number=number,
        text=text,
        user=user,
        start=len(chat.transcript),
        history=chat.history(deps.history_turns),
        steps_left=deps.max_compose_steps,
    )


async def _plan(deps: Dependencies, chat: ConversationState, state: TurnState) -> TurnState:
    """Ask the planner for the message's requests: one plan entry per request."""
    text = state.text
    active = chat.active_agent
    if active is not None and deps.agents[active].mode is not Mode.CONVERSATIONAL:
        active = None
    given = PlanInput(
        parent=deps.name,
        message=text,
        agents=deps.cards,
        system=deps.system,
        recent=chat.recent_chat(),
        active_agent=active,
        awaiting=tuple(chat.awaiting),
    )
    try:
        try:
            planned = await deps.planner.plan(given)
        except ModelRequestError as exc:
            if deps.strict or isinstance(exc, ModelSetupError):
                raise  # a setup error is never fallen back from
            if isinstance(deps.planner, RulesPlanner):
                raise  # the offline planner itself failed
            # Unavailable (a timeout, an outage), not confused: the offline planner routes the
            # message, so the healthy sub-agents still answer (never "I can't help with ...").
            state.failures.append(f"plan failed: {type(exc).__name__}: {exc}")
            log.warning("the plan failed (%s); the offline planner routes the message", exc)
            planned = await _OFFLINE_PLANNER.plan(given)
        plan = plan_requests(planned.entries, parent=deps.name, agents=deps.agents, message=text)
        state.usage = state.usage + planned.usage
    except Exception as exc:  # a failing planner must not lose the conversation
        if not _recover(deps, state, "plan", exc):
            raise
        log.warning("the plan failed (%s); the parent handles the whole message", exc)
        plan = [PlannedRequest(request=text, agent=deps.name)]
    state.plan = plan
    state.own = tuple(p.request for p in plan if p.agent == deps.name)
    state.pending = [p for p in plan if p.agent != deps.name]
    return state


async def _dispatch(deps: Dependencies, chat: ConversationState, state: TurnState) -> TurnState:
    """Run the pending requests' agents concurrently, each under its own timeout: one call per
    agent, carrying all of its requests."""
    pending, state.pending = state.pending, []
    state.routed.extend((p.request, p.agent) for p in pending)
    calls: list[SubagentCall] = []
    groups = group_by_agent(pending)
    for name, requests in groups:
        agent = deps.agents[name]
        request = join_requests(requests) if agent.scoped else state.text
        # The user's answers to what the agent asked last turn travel beside its requests.
        answers = tuple(a for p in pending if p.agent == name for a in p.answers)

        async def send(message: str, *, _agent: Subagent = agent, _request: str = request) -> None:
            if _agent.mode is Mode.CONVERSATIONAL:
                # It holds the floor from its first message (the result settles it when the
                # call ends): the state saved before this message goes out says so, so a crash
                # after it never forgets the open dialogue.
                chat.active_agent = _agent.name
                if _hold(state, _agent.name):
                    state.held.append(
                        Message(
                            id=f"{chat.id}-held-{len(state.held) + 1}",
                            turn=state.number,
                            role="bot",
                            sender=_agent.name,
                            text=message,
                            mode=_agent.mode.value,
                            request=_request,
                        )
                    )
                    return
            await chat.record(
                turn=state.number,
                role="bot",
                sender=_agent.name,
                text=message,
                mode=_agent.mode.value,
                request=_request,
            )

        calls.append(
            deps.call(
                agent.name,
                request,
                history=state.history,
                state=chat.agent_states.setdefault(agent.name, {}),
                dialogue=chat.dialogues.setdefault(agent.name, []),
                send=send,
                continuing=agent.name == chat.active_agent,
                strict=deps.strict,
                requests=requests if agent.scoped else (),
                answers=answers,
            )
        )
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(run_subagent(call)) for call in calls]
    except ExceptionGroup as group_error:  # strict mode only: surface the first real error
        raise group_error.exceptions[0] from group_error
    results = [task.result() for task in tasks]
    for result in results:
        _check(deps, result)
        _take_floor(deps, chat, result)
        if chat.active_agent != result.agent:  # it answered (or failed): no question to hold
            await _release(chat, state, result.agent)
    planned = {(p.agent, p.request): p for p in pending}
    for (name, requests), result in zip(groups, results, strict=True):
        answered = answered_requests(result, requests)
        state.answered.extend(planned[name, r] for r in answered)
        asked = asked_requests(result, requests)
        state.asked.extend(
            WaitingRequest(request=r, agent=name, question=q, answers=planned[name, r].answers)
            for r, q in asked
        )
    state.results.extend(results)
    return state


def _hold(state: TurnState, agent: str) -> bool:
    """Whether conversational ``agent``'s message waits: when the turn has other requests (another
    agent's, or the parent's own), a question it asks would otherwise be followed by their
    answers or the parent's reply, and scroll out of the user's view before it is answered. Alone
    in the turn, it is sent at once."""
    return any(p.agent != agent for p in state.plan)


async def _release(chat: ConversationState, state: TurnState, agent: str | None = None) -> None:
    """Send the held messages (of ``agent`` only, when given) in the order they were written.
    Each leaves ``state.held`` before it is recorded, so a failure part-way sends none twice."""
    for message in [m for m in state.held if agent is None or m.sender == agent]:
        state.held.remove(message)
        await chat.record(
            turn=message.turn,
            role="bot",
            sender=message.sender,
            text=message.text,
            mode=message.mode,
            request=message.request,
        )


async def _flush(chat: ConversationState, state: TurnState) -> None:
    """Send every held message of a turn that ends early, each recorded in the transcript even
    when handing one to ``on_message`` fails (the turn's own error is the one raised)."""
    while state.held:
        with contextlib.suppress(Exception):
            await _release(chat, state)


def _take_floor(deps: Dependencies, chat: ConversationState, result: SubagentResult) -> None:
    """A conversational agent that spoke without answering holds the floor; one that answered
    (or failed) gives it back."""
    if deps.agents[result.agent].mode is not Mode.CONVERSATIONAL:
        return
    if result.ok and not result.answered and bool(result.messages):
        chat.active_agent = result.agent
    elif chat.active_agent == result.agent:
        chat.active_agent = None


async def _compose(deps: Dependencies, chat: ConversationState, state: TurnState) -> TurnState:
    """Write the parent's reply from the results; queue the open questions it routes."""
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
    given = ComposeInput(
        parent=deps.name,
        system=deps.system,
        user_message=text,
        results=views,
        own_requests=state.own,
        agents=deps.cards,
        routed=tuple(state.routed),
        steps_left=state.steps_left,
        schema=deps.compose_schema,
        handoff=deps.handoff,
    )
    try:
        composed = await deps.composer.compose(given)
    except Exception as exc:  # direct messages stand; findings are relayed as they are
        if not _recover(deps, state, "reply", exc):
            raise
        log.warning("the reply failed (%s); relaying results as they are", exc)
        state.message = fallback_reply(views, apologise=True)
        state.pending = []
        return state
    state.usage = state.usage + composed.usage
    state.message = composed.message.strip()
    routes = [PlannedRequest(request=r.request, agent=r.agent) for r in composed.routes]
    routes = [
        r for r in routes if r.agent in deps.agents and (r.request, r.agent) not in state.routed
    ]
    if routes and state.steps_left > 0:
        state.steps_left -= 1
        state.plan.extend(routes)
        state.pending = routes
    else:
        state.pending = []
    return state


async def _guard(deps: Dependencies, chat: ConversationState, state: TurnState) -> TurnState:
    """Drop (or report) what the parent's draft repeats of what was already sent.

    The comparison is CPU work (bounded by ``harness.text.ANALYSIS_BUDGET``): it runs in a worker
    thread, or in a worker process when it reads a long text (``guard_process``), so one long
    message never holds the event loop that other conversations share. A check in a process that
    runs out of its time budget lets the draft through unchecked (and logs a warning).
    """
    guard = deps.guard
    if state.message and guard is not None:
        # A message still held goes out after the parent's reply (:func:`_record`): the guard
        # sees it under the id it is recorded with, the reply taking the next one (one id ahead
        # when the guard then drops the whole reply; its findings are only logged, without ids).
        first = chat.message_count + 1
        held = [replace(m, id=chat.message_id(first + 1 + i)) for i, m in enumerate(state.held)]
        decision = await check_draft(
            guard,
            state.message,
            sent=[*chat.transcript.messages, *held],
            turn=state.number,
            conversation=chat.id,
            answers=_answers(state.results),
        )
        if decision.text or len(chat.transcript.messages) > state.start or state.held:
            state.message = decision.text
        else:
            # Everything the draft says was said before, and nothing else goes out this turn:
            # the draft is sent as it is (a repeat, not silence or an apology asking the user
            # to rephrase); the guard has logged what it repeats.
            log.info("the duplicate guard let a repeated reply through: the turn's only message")
    return state


def _answers(results: list[SubagentResult]) -> list[str]:
    """What the sub-agents answered this turn (their messages and findings): the answers the
    user asked for in it, which the guard does not take for duplicates of earlier turns."""
    texts: list[str] = []
    for result in results:
        texts += result.messages
        if result.outputs is not None and result.outputs.findings:
            texts.append(result.outputs.findings)
    return texts


async def _record(deps: Dependencies, chat: ConversationState, state: TurnState) -> TurnState:
    """Record the parent's reply (or an apology when nobody spoke) and the turn's record."""
    transcript = chat.transcript
    if not state.message and len(transcript.messages) == state.start and not state.held:
        state.message = _NO_ANSWER
    if state.message:
        await chat.record(turn=state.number, role="bot", sender=deps.name, text=state.message)
    await _release(chat, state)  # a question asked this turn comes last
    chat.awaiting = list(state.asked)  # what was asked this turn; an earlier question lapses
    for result in state.results:
        state.usage = state.usage + result.usage
    results = state.results
    transcript.turns.append(
        TurnRecord(
            turn=state.number,
            plan=tuple(state.plan),
            answered_by=answering_agents(state.answered),
            answered=tuple(state.answered),
            failed=failed_agents(results),
            error="; ".join(state.failures) or None,
            errors=tuple(f"{r.agent}: {r.error}" for r in results if r.error),
            tool_calls=tuple(AgentToolCalls(agent=r.agent, tools=r.tool_calls) for r in results),
        )
    )
    return state
