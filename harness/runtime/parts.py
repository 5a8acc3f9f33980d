"""Pieces of the parent's turn that are data, not flow: the plan and reply schemas, the view of a
result the compose step reads, the aggregation of silent findings and the fallback reply."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.models.base import ResultView
from harness.text import quote
from subagents import Mode, SubagentResult

__all__ = [
    "COMPOSE_SCHEMA",
    "PLAN_SCHEMA",
    "aggregate_findings",
    "fallback_reply",
    "result_view",
]

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "requests": {
            "type": "array",
            "description": "One entry per distinct request in the user's message, in order.",
            "items": {
                "type": "object",
                "properties": {
                    "request": {
                        "type": "string",
                        "description": "The scoped request, self-contained.",
                    },
                    "agent": {
                        "type": "string",
                        "description": "The sub-agent's name, or the parent's.",
                    },
                },
                "required": ["request", "agent"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["requests"],
    "additionalProperties": False,
}

COMPOSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {
            "type": "string",
            "description": "What the parent says now: only what the user has not received yet; empty if nothing.",
        },
        "route": {
            "type": "array",
            "description": "Open questions to hand to a sub-agent this turn.",
            "items": {
                "type": "object",
                "properties": {"request": {"type": "string"}, "agent": {"type": "string"}},
                "required": ["request", "agent"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["message", "route"],
    "additionalProperties": False,
}


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
    if result.violations:
        error = "; ".join(str(v) for v in result.violations)
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
    )


COMPOSE_APOLOGY = "Sorry, something went wrong on my side while I was writing my reply."


def fallback_reply(views: Sequence[ResultView], *, apologise: bool = False) -> str:
    """The reply when the parent's model cannot write one: silent findings verbatim, a note for
    each failed request, and (``apologise``) a short apology."""
    parts = [v.findings for v in views if v.mode == "silent" and v.findings]
    parts += [
        f'Sorry, I could not finish "{quote(v.request)}".'
        for v in views
        if v.status in ("failed", "timed_out")
    ]
    if apologise:
        parts.append(COMPOSE_APOLOGY)
    return " ".join(p for p in parts if p)
