"""The parent aggregates silent findings: two agents returning the same answer are relayed once."""

from __future__ import annotations

from harness import Parent
from harness.testing import fake_subagent
from subagents import Subagent

SAME = "Your next payday is Friday, December 4."


def _payroll() -> Subagent:
    """A silent payroll agent whose findings are ``SAME``."""
    return fake_subagent(
        "payroll",
        outputs={"answered": False, "findings": SAME, "openQuestions": []},
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
    )


async def test_identical_silent_findings_are_relayed_once() -> None:
    bot = Parent(
        name="hd",
        subagents=[
            _payroll(),
            fake_subagent(
                "calendar",
                outputs={"answered": False, "findings": SAME, "openQuestions": []},
                description="Knows the company calendar: holidays and meeting dates.",
                examples=["when is the next holiday"],
            ),
        ],
    )
    turn = await bot.conversation().send("when is payday and when is the next holiday")
    assert {p.agent for p in turn.plan} == {"payroll", "calendar"}
    assert turn.text.count(SAME) == 1
    assert turn.aggregation is not None
    assert turn.aggregation.metadata.exact_duplicates == 1


async def test_a_single_silent_finding_is_not_aggregated() -> None:
    bot = Parent(
        name="hd",
        subagents=[_payroll()],
    )
    turn = await bot.conversation().send("when is payday")
    assert turn.aggregation is None
    assert SAME in turn.text
