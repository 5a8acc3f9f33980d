"""Pieces of the parent's turn that are data, not flow: the reply schema, the plan per request and
its grouping per agent, the view of a result the compose step reads, the aggregation of silent findings and the
fallback reply."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any

from harness.composing import COMPOSE_SCHEMA, ResultView, compose_schema
from harness.composing.base import quote_each
from harness.detect.transcript import PlannedRequest
from harness.planning import PlanEntry
from harness.text.claims import ANALYSIS_BUDGET, analysed_part
from subagents import Mode, SubagentResult

log = logging.getLogger("harness")

__all__ = [
    "COMPOSE_SCHEMA",
    "aggregate_findings",
    "answered_requests",
    "answering_agents",
    "asked_requests",
    "compose_schema",
    "failed_agents",
    "fallback_reply",
    "group_by_agent",
    "plan_requests",
    "result_view",
    "unplanned_rest",
]


def plan_requests(
    entries: Sequence[PlanEntry], *, parent: str, agents: Collection[str], message: str = ""
) -> list[PlannedRequest]:
    """The turn's plan: one entry per request, in the user's order, each with its own text.

    An entry naming no known sub-agent is the parent's own; a request planned twice for the same
    agent (same text) is kept once. A planner reads at most ``harness.text.ANALYSIS_BUDGET``
    characters of a ``message``; the rest it never read (``unplanned_rest``) is the parent's own
    last entry, so it is answered ("I can't help with ...", quoting its start) instead of left out.
    """
    plan: list[PlannedRequest] = []
    for entry in entries:
        known = entry.agent in agents
        item = PlannedRequest(
            request=entry.request,
            agent=entry.agent if known else parent,
            answers=entry.answers if known else (),
        )
        if item not in plan:
            plan.append(item)
    rest = unplanned_rest(message)
    if rest:
        log.warning(
            "a message of %d characters was planned on its first %d; the parent answers the rest",
            len(message),
            len(message) - len(rest),
        )
        plan.append(PlannedRequest(request=rest, agent=parent))
    return plan


def unplanned_rest(message: str) -> str:
    """The end of ``message`` a planner does not read (past ``harness.text.ANALYSIS_BUDGET``
    characters, ``analysed_part``), stripped; empty for a message within the budget."""
    if len(message) <= ANALYSIS_BUDGET:
        return ""
    return message[len(analysed_part(message)) :].strip()


def group_by_agent(items: Sequence[PlannedRequest]) -> list[tuple[str, tuple[str, ...]]]:
    """``(agent, its requests)`` per agent, in the order of each agent's first request.

    Two concurrent calls of one agent would share its state, so each agent gets one call carrying
    all of its requests (``harness.transport.base.join_requests`` writes them into one
    ``scopedRequest``).
    """
    grouped: dict[str, list[str]] = {}
    for item in items:
        grouped.setdefault(item.agent, []).append(item.request)
    return [(agent, tuple(requests)) for agent, requests in grouped.items()]


def answered_requests(result: SubagentResult, planned: Sequence[str]) -> tuple[str, ...]:
    """The ``planned`` requests of one call that its agent reported answered, per request.

    With ``answeredRequests`` (one item per request, in order) each item decides its own request;
    without it (one request, or an agent that returns only ``answered``), ``answered`` covers every
    request the agent did not hand back in ``openQuestions``.
    """
    answers = result.request_answers
    if answers is not None and len(answers) == len(planned):
        return tuple(r for r, a in zip(planned, answers, strict=True) if a.answered)
    if not result.answered or result.outputs is None:
        return ()
    open_ = {" ".join(q.casefold().split()) for q in result.outputs.open_questions or ()}
    return tuple(r for r in planned if " ".join(r.casefold().split()) not in open_)


def asked_requests(result: SubagentResult, planned: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The ``planned`` requests of one call whose agent asked the user a question about them (a
    value it needs), each with what it asked: not answered, not handed back in
    ``openQuestions``, and what it said for the request (its item's findings, its findings, or
    its messages) ends with a question. A conversational agent is left out: it holds the floor
    instead, and reads the answer itself (docs/agents.md)."""
    if not result.ok or result.outputs is None or result.mode is Mode.CONVERSATIONAL:
        return ()
    done = set(answered_requests(result, planned))
    handed = {" ".join(q.casefold().split()) for q in result.outputs.open_questions or ()}
    items = result.request_answers
    asked: list[tuple[str, str]] = []
    for number, request in enumerate(planned):
        if request in done or " ".join(request.casefold().split()) in handed:
            continue
        if items is not None and len(items) == len(planned):
            said = items[number].findings or ""
        elif result.mode is Mode.SILENT:
            said = result.outputs.findings or ""
        else:
            said = " ".join(result.messages)
        if said.rstrip().endswith("?"):
            asked.append((request, said.strip()))
    return tuple(asked)


def answering_agents(answered: Sequence[PlannedRequest]) -> tuple[str, ...]:
    """The agents that answered at least one request of the turn, in order, each once: the turn
    record's ``answered_by`` and the plan event's (one derivation for both)."""
    return tuple(dict.fromkeys(p.agent for p in answered))


def failed_agents(results: Sequence[SubagentResult]) -> tuple[str, ...]:
    """The agents whose call failed or timed out, in call order: the turn record's ``failed`` and
    the plan event's (one derivation for both)."""
    return tuple(r.agent for r in results if r.status in ("failed", "timed_out"))


async def aggregate_findings(results: Sequence[SubagentResult]) -> Any:
    """Aggregate the turn's silent findings when there are two or more (docs/teams.md, Aggregation)."""
    silent = [
        r for r in results if r.mode is Mode.SILENT and r.ok and r.outputs and r.outputs.findings
    ]
    if len(silent) < 2:
        return None
    from harness.aggregate import AgentOutput, aggregate

    outputs = [
        AgentOutput(
            agent=r.agent,
            status=r.status,
            text=r.outputs.findings if r.outputs else None,
            duration_s=r.duration_s,
        )
        for r in silent
    ]
    return await aggregate(outputs, top_k=7)


def result_view(result: SubagentResult, *, drop_findings: bool = False) -> ResultView:
    outputs = result.outputs
    error = result.error
    if result.broken:
        error = "; ".join(str(v) for v in result.broken)
    answers = result.request_answers or ()
    return ResultView(
        agent=result.agent,
        mode=result.mode.value,
        request=result.request,
        status=result.status,
        answered=result.answered,
        interaction_summary=outputs.interaction_summary if outputs else None,
        findings=outputs.findings if outputs and not drop_findings else None,
        open_questions=tuple(outputs.open_questions or ()) if outputs else (),
        error=error,
        request_answers=answers,
        requests=result.requests if len(result.requests) > 1 else (),
        sent=result.messages,
        broke_contract=bool(result.broken),
        said_answered=bool(outputs and outputs.answered),
        said_answered_requests=_said_answered_requests(result),
    )


def _said_answered_requests(result: SubagentResult) -> tuple[str, ...]:
    """The requests a result's own ``answeredRequests`` items say answered, read even when its
    outputs broke the contract: by the planned text when there is one item per request, else by
    the items' own text."""
    items = result.outputs.answered_requests if result.outputs else None
    planned = result.requests
    if not items or len(planned) < 2:
        return ()
    if len(items) == len(planned):
        return tuple(p for p, item in zip(planned, items, strict=True) if item.answered)
    return tuple(item.request for item in items if item.answered and item.request.strip())


COMPOSE_APOLOGY = "Sorry, something went wrong on my side while I was writing my reply."


def fallback_reply(views: Sequence[ResultView], *, apologise: bool = False) -> str:
    """The reply when the parent's model cannot write one: silent findings verbatim, then one
    apology naming every failed request and (``apologise``) saying the reply itself failed."""
    parts = [v.findings for v in views if v.mode == "silent" and v.findings]
    lost = [
        request for v in views if v.status in ("failed", "timed_out") for request in v.each_request
    ]
    if lost and apologise:
        parts.append(
            f"Sorry, I could not finish {quote_each(lost)}, and something went wrong on my side "
            "while I was writing my reply."
        )
    elif lost:
        parts.append(f"Sorry, I could not finish {quote_each(lost)}.")
    elif apologise:
        parts.append(COMPOSE_APOLOGY)
    return " ".join(p for p in parts if p)
