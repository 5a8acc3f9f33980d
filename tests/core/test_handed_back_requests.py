"""A request a sub-agent hands back in ``openQuestions`` goes to another agent only when the
parent's planner would give it to that agent: a word it shares with another agent's description
is no reason to send it there (that agent would answer off topic, and say again what the user
already read)."""

from __future__ import annotations

from typing import Any

from harness import ChildAgent, ConnectedAgent, Parent, ToolContext
from harness.team import Member, MemberReply, patterns

PTO_ANSWER = "You have 12 PTO days left this year (out of 20)."
RESEARCH = "Researches what studies say about work patterns such as four-day work weeks."


def pto_balance() -> str:
    """How many paid time off (vacation, PTO) days are left this year."""
    return PTO_ANSWER


def _pto() -> ChildAgent:
    return ChildAgent(
        name="pto",
        mode="direct",
        tools=[pto_balance],
        description="Answers questions about paid time off (PTO, vacation days).",
        examples=["how many pto days do i have"],
    )


async def _hands_back(ctx: ToolContext) -> dict[str, Any]:
    return {"answered": False, "findings": "No study found.", "openQuestions": [ctx.scoped_request]}


def _bot(research: Any) -> Parent:
    return Parent(name="helpdesk", model="rules", subagents=[_pto(), research])


async def test_a_request_handed_back_is_not_sent_to_an_agent_sharing_a_word() -> None:
    research = ConnectedAgent(
        name="research",
        mode="silent",
        handler=_hands_back,
        description=RESEARCH,
        examples=["what does research say about four-day weeks"],
    )
    question = "What does research say about vacation and burnout in four-day work weeks?"
    turn = await _bot(research).conversation().send(question)
    assert [r.agent for r in turn.results] == ["research"]
    assert all(m.sender != "pto" and PTO_ANSWER not in m.text for m in turn.messages)
    assert "can't help with" in turn.messages[-1].text


async def test_an_unsettled_team_s_request_is_not_answered_by_another_agent() -> None:
    async def solver(state: Any) -> MemberReply:
        return MemberReply(content="Four-day weeks raise output by 40%.")

    async def critic(state: Any) -> MemberReply:
        return MemberReply(content="Unsourced claim; reject.", verdict="reject")

    team = patterns.proposer_critic(
        Member(name="s", role="solver", function=solver),
        Member(name="c", role="critic", function=critic),
        name="research",
    )
    research = team.as_subagent(
        name="research",
        description=RESEARCH,
        examples=["what does research say about four-day weeks"],
    )
    conversation = _bot(research).conversation()
    turn = await conversation.send(
        "How many PTO days do I have left, and what does research say about four-day work weeks?"
    )
    assert [m.text for m in turn.messages].count(PTO_ANSWER) == 1
    assert [r.agent for r in turn.results] == ["pto", "research"]
    turn = await conversation.send("What does research say about four-day work weeks?")
    assert [r.agent for r in turn.results] == ["research"]
    assert all(m.sender != "pto" for m in turn.messages)


async def test_a_request_handed_back_goes_where_the_planner_sends_it() -> None:
    async def payroll(ctx: ToolContext) -> dict[str, Any]:
        return {
            "answered": False,
            "findings": "Your next payday is Friday.",
            "openQuestions": ["how many pto days do I have left"],
        }

    bot = Parent(
        name="helpdesk",
        model="rules",
        subagents=[
            ConnectedAgent(
                name="payroll",
                mode="silent",
                handler=payroll,
                description="Knows the payday dates and payslips.",
                examples=["when is payday"],
            ),
            _pto(),
        ],
    )
    turn = await bot.conversation().send("when is payday")
    assert [r.agent for r in turn.results] == ["payroll", "pto"]
    assert [m.text for m in turn.messages].count(PTO_ANSWER) == 1


def leave_rules() -> str:
    """The company's leave and vacation policy rules: accrual, carry-over and new-hire allowance."""
    return "New employees accrue 1.5 vacation days a month."


def payday() -> str:
    """The next payday date."""
    return "Your next payday is Friday."


def _wiki_bot(handler: Any) -> Parent:
    wiki = ConnectedAgent(
        name="hrwiki",
        mode="silent",
        handler=handler,
        description="Answers questions about HR policies from the HR wiki: vacation policy, "
        "leave rules, benefits.",
        examples=["what is the vacation policy", "what are the leave rules"],
    )
    return Parent(
        name="helpdesk",
        model="rules",
        subagents=[
            wiki,
            ChildAgent(
                name="policy",
                mode="direct",
                tools=[leave_rules],
                description="Answers questions about the vacation and leave policy rules: "
                "accrual, carry-over, new-hire allowance.",
                examples=["how much vacation do new employees get", "what is the vacation policy"],
            ),
            _pto(),
            ChildAgent(
                name="payroll",
                mode="direct",
                tools=[payday],
                description="Knows payday dates and payslips.",
                examples=["when is payday"],
            ),
        ],
    )


async def test_a_request_its_agent_hands_back_goes_to_the_planner_s_next_choice() -> None:
    async def hands_back(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": False, "findings": "", "openQuestions": [ctx.scoped_request]}

    turn = await _wiki_bot(hands_back).conversation().send("What is the HR policy on vacation?")
    assert [r.agent for r in turn.results] == ["hrwiki", "policy"]


async def test_a_two_part_question_handed_back_is_routed_part_by_part() -> None:
    async def hands_back_two(ctx: ToolContext) -> dict[str, Any]:
        return {
            "answered": False,
            "findings": "The four-day week pilot starts in March.",
            "openQuestions": ["how many PTO days do I have left, and when is payday?"],
        }

    bot = _wiki_bot(hands_back_two)
    turn = await bot.conversation().send("What does the HR wiki say about four-day weeks?")
    assert [r.agent for r in turn.results] == ["hrwiki", "pto", "payroll"]
    assert "can't help" not in turn.messages[-1].text
