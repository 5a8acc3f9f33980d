"""The offline planner's word gate reads a CamelCase agent name and a tool name as their words, as
its matcher does (issue 25, session 45): "GiftCards" is "gift cards", not one unknown word.

Every bot and message here is new text. The fixes failed on ``main`` 71bbc8d (the request stayed
with the parent); the guard passes before and after.
"""

from __future__ import annotations

import pytest

from harness.models.base import AgentCard
from harness.planning import RulesPlanner
from harness.planning.base import PlanInput

CARDS = (
    AgentCard(
        name="GiftCards", description="Orders presents and sends them with a note.", mode="silent"
    ),
    AgentCard(
        name="pharmacy",
        description="The chemist's counter.",
        keywords=("ReorderPrescription",),
        mode="silent",
    ),
    AgentCard(name="lost_luggage", description="Traces bags the airline mislaid.", mode="silent"),
)


async def _agents(message: str) -> list[str]:
    plan = await RulesPlanner().plan(PlanInput(parent="host", message=message, agents=CARDS))
    return [entry.agent for entry in plan.entries]


@pytest.mark.parametrize(
    ("message", "agent"),
    [
        ("I want to buy two gift cards for my niece.", "GiftCards"),
        ("Please reorder my prescription for next week.", "pharmacy"),
    ],
)
async def test_a_camel_case_name_or_tool_name_is_read_as_its_words(
    message: str, agent: str
) -> None:
    assert await _agents(message) == [agent]


async def test_a_request_for_no_agent_still_stays_with_the_parent() -> None:
    """The guard: words no agent's name, tool or description has keep the request with the
    parent (passes before and after)."""
    assert await _agents("What will the weather be like on Sunday?") == ["host"]
