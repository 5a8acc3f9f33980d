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
from harness.text.words import keyword_texts

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


# A brand's camel case ("iPhone", "eBay") joins no words: the gate keeps the keyword as written
# (review 2 of session 45, finding 1). These failed on ``s45-lead`` 7a26985, where "iPhone" was
# read as "i phone" and "eBay" as "e bay".
BRANDS = (
    AgentCard(
        name="payments",
        description="Refunds, charges and invoices.",
        keywords=("refund", "invoice"),
        mode="silent",
    ),
    AgentCard(
        name="gadgets",
        description="Repairs broken handsets and laptops.",
        keywords=("iPhone", "MacBook", "FedEx"),
        mode="silent",
    ),
    AgentCard(
        name="auctions",
        description="Sells second-hand goods online.",
        keywords=("eBay",),
        mode="silent",
    ),
    AgentCard(
        name="lodging",
        description="Finds and reserves rooms for the night.",
        keywords=("hotel", "room"),
        mode="silent",
    ),
)


async def _brand_agents(message: str, active: str | None = None) -> list[str]:
    plan = await RulesPlanner().plan(
        PlanInput(parent="host", message=message, agents=BRANDS, active_agent=active)
    )
    return [entry.agent for entry in plan.entries]


async def test_a_brand_keyword_is_read_as_written() -> None:
    assert await _brand_agents("The glass on my iPhone shattered.") == ["gadgets"]


async def test_a_brand_keyword_keeps_its_request_beside_the_floor() -> None:
    agents = await _brand_agents(
        "Please refund the duplicate invoice. Also my iPhone keeps restarting.", "payments"
    )
    assert agents == ["payments", "gadgets"]


async def test_a_brand_keyword_is_no_word_it_ends_with() -> None:
    """ "eBay" is not "bay": the follow-up stays with the agent that holds the floor."""
    assert await _brand_agents("Great. Is there one close to the bay?", "lodging") == ["lodging"]


def test_a_keyword_made_of_words_is_read_as_written_and_as_its_words() -> None:
    assert keyword_texts("ReorderPrescription") == ["ReorderPrescription", "Reorder Prescription"]
    assert keyword_texts("SMSAlerts") == ["SMSAlerts", "SMS Alerts"]
    assert keyword_texts("eBay") == ["eBay"]
    assert keyword_texts("lost_luggage") == ["lost luggage"]
    assert keyword_texts("flight status") == ["flight status"]
