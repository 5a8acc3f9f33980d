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


async def test_only_the_losing_agents_sentences_stating_its_value_are_left_out() -> None:
    result = await aggregate(
        [
            AgentOutput(
                agent="rota",
                data={"shift_start": 7},
                text="The early shift starts at 7. Badge in at gate 9 before it starts.",
                confidence=0.85,
            ),
            AgentOutput(
                agent="handbook",
                data={"shift_start": 9},
                text="The early shift starts at 9.",
                confidence=0.5,
            ),
            AgentOutput(
                agent="canteen",
                text="Breakfast is served from 9 in the east wing.",
                confidence=0.7,
            ),
        ]
    )
    assert result.details["shift_start"] == 7
    assert "starts at 9" not in result.summary
    # the winner's own sentence and an agent that proposed nothing keep their "9"
    assert "Badge in at gate 9 before it starts." in result.summary
    assert "Breakfast is served from 9 in the east wing." in result.summary
    used = {s.agent: (s.used_in_summary, s.reason) for s in result.sources}
    assert used["rota"] == (True, "")
    assert used["canteen"] == (True, "")
    assert used["handbook"][0] is False
    assert "shift_start" in used["handbook"][1] and "9" in used["handbook"][1]


async def test_a_source_with_some_sentences_left_out_says_so_and_stays_used() -> None:
    result = await aggregate(
        [
            AgentOutput(agent="a", data={"rooms": 3}, text="Three rooms: 3 free.", confidence=0.9),
            AgentOutput(
                agent="b",
                data={"rooms": 4},
                text="There are 4 free rooms. Checkout is at noon.",
                confidence=0.4,
            ),
        ]
    )
    assert "4 free rooms" not in result.summary
    assert "Checkout is at noon." in result.summary
    b = next(s for s in result.sources if s.agent == "b")
    assert b.used_in_summary is True
    assert "1 of 2 sentences left out" in b.reason and "rooms" in b.reason
