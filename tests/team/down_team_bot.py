"""A bot double whose ``research`` sub-agent is a team with one member that always raises
(``--bot tests.team.down_team_bot:make``), beside a working ``pto`` agent."""

from __future__ import annotations

from harness import ChildAgent, Parent
from harness.team import Member, MemberReply, Team, TeamState


async def _down(state: TeamState) -> MemberReply:
    raise RuntimeError("HR backend down (HTTP 503)")


def pto_balance() -> str:
    """How many paid time off (vacation, PTO) days are left this year."""
    return "You have 12 PTO days left this year (out of 20)."


def make() -> Parent:
    team = Team(name="research", members=[Member(name="s", role="solver", function=_down)])
    return Parent(
        name="helpdesk",
        model="rules",
        subagents=[
            ChildAgent(
                name="pto",
                mode="direct",
                tools=[pto_balance],
                description="Answers questions about paid time off (PTO, vacation days).",
                examples=["how many pto days do i have"],
            ),
            team.as_subagent(
                name="research",
                description="Researches what studies say about work patterns such as four-day "
                "work weeks.",
                examples=["what does research say about four-day weeks"],
            ),
        ],
    )
