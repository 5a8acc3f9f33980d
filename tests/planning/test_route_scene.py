"""A statement the out-of-scope gate keeps with the parent sets the scene of the request after it.

A new bot of three agents written for this test (no labelled set): "It is my first time in town"
shares "town" with the car-hire agent's description, so the router's words find it, but the
out-of-scope gate keeps it with the parent; planned alone it was an entry that asks nothing.
"""

from __future__ import annotations

import pytest

from harness.models.base import AgentCard
from harness.planning.base import PlanInput
from harness.planning.match import AgentMatcher
from harness.planning.rules import RulesPlanner, _with_scene

CARDS = (
    AgentCard(
        name="car_hire",
        description="Rents a car at an airport or in town for the dates you give.",
        mode="silent",
        examples=(
            "I need a rental car in Denver from Friday.",
            "Can you book me a compact car?",
            "Rent me an SUV for the weekend.",
            "I want to hire a car at the airport.",
        ),
    ),
    AgentCard(
        name="forecast",
        description="Tells you the weather: rain, sun, wind and temperature for a city and a day.",
        mode="silent",
        examples=(
            "Will it rain in Boston tomorrow?",
            "What's the weather like this weekend?",
            "How hot will it be in Phoenix on Monday?",
            "Is it going to be windy today?",
        ),
    ),
    AgentCard(
        name="dentist",
        description="Finds a dentist near you and books a check-up.",
        mode="silent",
        examples=(
            "Find me a dentist in Austin.",
            "I need to see a dentist about a toothache.",
            "Book a cleaning with a dentist on Tuesday.",
            "Is there a dentist open on Saturday?",
        ),
    ),
)


async def _plan(message: str) -> list[tuple[str, str]]:
    plan = await RulesPlanner().plan(PlanInput(parent="assistant", message=message, agents=CARDS))
    return [(e.agent, e.request) for e in plan.entries]


@pytest.mark.parametrize(
    "message",
    [
        "It is my first time in town. Will it rain tomorrow?",
        "It's my first time in town, will it rain tomorrow?",
        "We are new in town. Is it going to be windy today?",
    ],
)
async def test_a_kept_statement_is_the_scene_of_the_request_after_it(message: str) -> None:
    [(agent, request)] = await _plan(message)
    assert agent == "forecast"
    assert request == message.rstrip("?")


@pytest.mark.parametrize(
    "message",
    [
        "1. It is my first time in town.\n2. Will it rain tomorrow?",
        "It is my first time in town.\nWill it rain tomorrow?",
        "It is my first time in town, btw will it rain tomorrow?",
        "It is my first time in town. Also, will it rain tomorrow?",
    ],
)
async def test_a_list_item_a_line_or_a_connective_keeps_them_apart(message: str) -> None:
    entries = await _plan(message)
    assert [agent for agent, _ in entries] == ["assistant", "forecast"]
    assert entries[0][1] == "It is my first time in town"


def test_only_plain_gaps_join_a_kept_statement() -> None:
    parts = [("It is late here", "It is late here"), ("book a car", "book a car")]
    joined = [("It is late here. book a car", "book a car")]
    assert _with_scene("It is late here. book a car", parts, [True, True], [True, False]) == joined
    # The same statement as a line of its own is a request of its own.
    apart = _with_scene("It is late here\nbook a car", parts, [True, True], [True, False])
    assert apart == parts
    # A statement no agent's words find joins across a line, as before.
    found = _with_scene("It is late here\nbook a car", parts, [False, True], [False, False])
    assert found == [("It is late here\nbook a car", "book a car")]


async def test_the_gate_is_asked_once_about_a_request_that_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The scene rule reads the gate only for a statement; a question is weighed once, when routed.
    asked: list[str] = []
    original = AgentMatcher.in_scope

    def in_scope(self: AgentMatcher, text: str) -> float:
        asked.append(text)
        return original(self, text)

    monkeypatch.setattr(AgentMatcher, "in_scope", in_scope)
    [(agent, _)] = await _plan("Will there be snow in Chicago on Friday?")
    assert agent == "forecast"
    assert len(asked) == 1
    asked.clear()
    await _plan("Rent me a van in Tulsa on Monday. Is it going to be foggy tonight?")
    assert len(asked) == 2
