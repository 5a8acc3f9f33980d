"""The synthesised summary states the winning value of a resolved conflict, not the losing one."""

from __future__ import annotations

from harness.aggregate import AgentOutput, aggregate


async def test_the_summary_drops_sentences_with_a_losing_value() -> None:
    result = await aggregate(
        [
            AgentOutput(
                agent="hr_db",
                data={"pto_days": 20},
                text="You have 20 PTO days left. Payday is Friday.",
                confidence=0.9,
            ),
            AgentOutput(
                agent="cache",
                data={"pto_days": 18},
                text="You have 18 PTO days left.",
                confidence=0.5,
            ),
        ]
    )
    assert result.details["pto_days"] == 20
    assert "20 PTO days" in result.summary
    assert "18" not in result.summary
    assert "Payday is Friday." in result.summary


async def test_unrelated_numbers_that_merely_contain_the_losing_value_stay() -> None:
    result = await aggregate(
        [
            AgentOutput(
                agent="a", data={"n": 2}, text="Two items: 2 left, ticket 1234.", confidence=0.9
            ),
            AgentOutput(agent="b", data={"n": 12}, text="Twelve items remain.", confidence=0.4),
        ]
    )
    assert "ticket 1234" in result.summary
