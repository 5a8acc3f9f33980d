"""The research team of the sample: a planner, two solvers and a critic, all deterministic.

Each member is a plain async function of the ``TeamState`` over a tiny fake library, so the sample
runs offline and gives the same output every time. The library's figures are illustrative sample
data, not citations. The run goes: the planner splits the question in two, each solver answers one
half, the critic rejects an answer without a source and hands it back, the solver revises with its
source, the critic accepts and says DONE. The two solvers disagree on one field (how many companies
took part), which the aggregation resolves by confidence and the convergence report records.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from harness.team import (
    Member,
    MemberReply,
    RoundRobin,
    StopToken,
    Team,
    TeamRole,
    TeamState,
    ValidationFailures,
)
from subagents import ChildAgent, ConnectedAgent, Mode

__all__ = ["LIBRARY", "build_team", "research_subagent"]

LIBRARY: dict[str, dict[str, Any]] = {
    "output": {
        "claim": "Trials of a four-day week mostly report that output held steady or rose.",
        "source": "Sample library, note 12: 2022 pilot programme report",
        "companies": 61,
    },
    "wellbeing": {
        "claim": "Staff in four-day-week trials report less burnout and better sleep.",
        "source": "Sample library, note 31: follow-up survey of trial staff",
        "companies": 60,
    },
}
"""Illustrative sample data standing in for a search index."""


async def plan(state: TeamState) -> MemberReply:
    questions = [
        f"What happened to output and productivity? ({state.task})",
        f"What happened to staff wellbeing? ({state.task})",
    ]
    steps = "\n".join(f"{n}. {q}" for n, q in enumerate(questions, 1))
    return MemberReply(content=f"Plan:\n{steps}", notes={"subquestions": questions})


def _solver(
    topic: str, *, confidence: float, cite_first: bool
) -> Callable[[TeamState], Awaitable[MemberReply]]:
    async def solve(state: TeamState) -> MemberReply:
        entry = LIBRARY[topic]
        own = [m for m in state.journal if m.sender == state.speaker]
        cite = cite_first or bool(own)  # a revision always cites
        text = entry["claim"] + (f" (source: {entry['source']})" if cite else "")
        return MemberReply(
            content=text,
            confidence=confidence if cite else confidence - 0.2,
            fields={f"{topic}_finding": entry["claim"], "companies_in_trial": entry["companies"]},
        )

    return solve


async def critique(state: TeamState) -> MemberReply:
    solvers = [n for n in state.members if state.roles[n] is TeamRole.SOLVER]
    silent = [n for n in solvers if state.latest(sender=n) is None]
    if silent:
        return MemberReply(content=f"{silent[0]} has not answered yet.", handoff=silent[0])
    uncited = [
        name
        for name in state.members
        if state.roles[name] is TeamRole.SOLVER
        and (latest := state.latest(sender=name)) is not None
        and "source:" not in latest.content
    ]
    if uncited:
        return MemberReply(
            content=f"{uncited[0]} states a finding without a source; cite it.",
            verdict="reject",
            handoff=uncited[0],
        )
    return MemberReply(content="Both findings are sourced and consistent. DONE", verdict="accept")


def build_team(**team_options: Any) -> Team:
    """The research team; keyword arguments go to ``Team`` (``on_event``, ``on_result``...)."""
    members = [
        Member(name="planner", role=TeamRole.PLANNER, goal="Split the question", function=plan),
        Member(
            name="solver_output",
            role=TeamRole.SOLVER,
            goal="Answer the productivity half",
            function=_solver("output", confidence=0.85, cite_first=True),
        ),
        Member(
            name="solver_wellbeing",
            role=TeamRole.SOLVER,
            goal="Answer the wellbeing half",
            function=_solver("wellbeing", confidence=0.8, cite_first=False),
        ),
        Member(name="critic", role=TeamRole.CRITIC, goal="Check sources", function=critique),
    ]
    return Team(
        name="research",
        members=members,
        policy=RoundRobin(),
        termination=StopToken(senders=["critic"]) | ValidationFailures(3),
        max_turns=10,
        quality_threshold=0.75,
        **team_options,
    )


def research_subagent(team: Team | None = None) -> ConnectedAgent | ChildAgent:
    """The team as a silent connected sub-agent of a parent."""
    return (team or build_team()).as_subagent(
        name="research",
        description=(
            "Researches workplace studies and evidence (four-day work week, remote work, "
            "productivity and wellbeing research) and reports findings with sources."
        ),
        mode=Mode.SILENT,
        pass_history=False,
        examples=[
            "what does research say about four-day work weeks",
            "is there evidence that a shorter work week helps productivity",
            "what do studies say about remote work and wellbeing",
        ],
    )
