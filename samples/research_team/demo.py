"""The research-team sample: a team of agents answers one part of a multi-intent turn.

A helpdesk parent has two sub-agents: ``pto`` (a direct child agent with a tool) and ``research``, a
silent connected agent that is a team (a planner, two solvers and a critic). One user message asks
both things. The parent splits it, the team works its part out internally, the parent relays the
team's findings once. ``run_demo`` returns the printable account: the turn, the team's journal, the
aggregation of the two solvers' answers and the convergence report.
"""

from __future__ import annotations

import asyncio

from harness import ChildAgent, Mode, Parent, RulesModel
from harness.aggregate import AggregatedResult
from harness.convergence import format_report
from harness.team import TeamResult
from samples.research_team.team import build_team, research_subagent

__all__ = ["QUESTION", "format_aggregation", "run_demo"]

QUESTION = "How many PTO days do I have left, and what does research say about four-day work weeks?"


def pto_balance() -> str:
    """How many paid time off (vacation, PTO) days are left this year."""
    return "You have 12 PTO days left this year (out of 20)."


def format_aggregation(result: AggregatedResult) -> str:
    """A readable account of one aggregation."""
    lines = ["summary:"]
    lines += [f"  {line}" for line in result.summary.splitlines()]
    lines.append("sources:")
    for s in result.sources:
        conf = "unknown" if s.confidence is None else f"{s.confidence:.2f}"
        score = "-" if s.score is None else f"{s.score:.3f}"
        used = "in summary" if s.used_in_summary else ""
        dup = f"duplicate of {s.duplicate_of} ({s.duplicate_kind})" if s.duplicate_of else ""
        lines.append(
            f"  {s.agent:<17} confidence {conf}  {s.category:<7} score {score}  {used}{dup}".rstrip()
        )
    for c in result.conflicts_resolved:
        values = " vs ".join(f"{cand.value!r} ({cand.agent})" for cand in c.candidates)
        verdict = f"{c.value!r} by {c.strategy}: {c.reason}" if c.resolved else "UNRESOLVED"
        lines.append(f"conflict {c.field}: {values} -> {verdict}")
    meta = result.metadata
    lines.append(
        f"confidence (minimum, not mean): {result.confidence:.2f}; agents {meta.agent_count}, "
        f"success rate {meta.success_rate:.0%}"
    )
    issues = "; ".join(i.message for i in result.qa_issues) or "passed"
    lines.append(f"QA: {issues}")
    return "\n".join(lines)


async def run_demo() -> str:
    """Run the sample turn offline and return what to print."""
    runs: list[TeamResult] = []
    team = build_team(on_result=runs.append)
    pto = ChildAgent(
        name="pto",
        description="Answers questions about paid time off (PTO, vacation days).",
        mode=Mode.DIRECT,
        tools=[pto_balance],
        examples=["how many vacation days do i have left", "how many pto days do i have"],
    )
    parent = Parent(
        name="helpdesk",
        instructions="You are the HR helpdesk of Contoso. Be brief.",
        subagents=[pto, research_subagent(team)],
        model=RulesModel(),
    )
    async with parent.conversation(id="research-demo") as conversation:
        turn = await conversation.send(QUESTION)
    out = ["== research team: a team answers part of a multi-intent turn ==", f"user: {QUESTION}"]
    for message in turn.messages:
        who = f"{message.sender} ({message.mode})" if message.mode else message.sender
        lines = message.text.splitlines() or [""]
        out.append(f"  {who}: {lines[0]}")
        out.extend(f"  {' ' * (len(who) + 2)}{line}" for line in lines[1:])
    out.append("plan: " + "; ".join(f"{p.request!r} -> {p.agent}" for p in turn.plan))
    if not runs:
        out.append("(the research team did not run)")
        return "\n".join(out)
    run = runs[-1]
    out.append("")
    out.append(f"-- team journal (correlation id {run.correlation_id[:12]}) --")
    for m in run.journal:
        verdict = f" [{m.signals.verdict}]" if m.signals.verdict else ""
        text = " ".join(m.content.split())
        text = text if len(text) <= 90 else text[:87] + "..."
        out.append(f"  {m.turn:>2} {m.sender:<17}{verdict} {text}")
    out.append(f"  stopped: {run.stop.kind} ({run.stop.detail})")
    if run.aggregated is not None:
        out.append("")
        out.append("-- aggregation of the solvers' answers --")
        out.append(format_aggregation(run.aggregated))
    out.append("")
    out.append("-- convergence report --")
    out.append(format_report(run.report))
    types = [e["type"] for e in run.events]
    same_id = all(e["correlation_id"] == run.correlation_id for e in run.events)
    out.append(
        f"events: {len(types)} ({types[0]} ... {types[-1]}), "
        f"all with the run's correlation id: {same_id}"
    )
    return "\n".join(out)


if __name__ == "__main__":
    print(asyncio.run(run_demo()))
