"""A request about something the concept table never saw, on a bot the table otherwise knows.

The table (``harness.planning.concepts``) is learnt from the requests of 187 intents; a user's bot
often has an agent whose subject none of them covered. When a request uses such an agent's own
words ("farrier", "saddle"), the table's closeness by meaning is no evidence about it: it was
low, and the out-of-scope decision (whose largest coefficient is that closeness) kept the request
with the parent. Such a request is now scored as for a bot the table does not know
(``AgentMatcher.blind``: ``match.WEIGHTS`` and ``scope.PLAIN``). The bot and the requests are
written here, for these tests.
"""

from __future__ import annotations

import pytest

from harness.models.base import AgentCard
from harness.planning.base import PlanInput
from harness.planning.match import WEIGHTS, agent_matcher
from harness.planning.rules import RulesPlanner
from harness.planning.scope import CONCEPTS, PLAIN

CARDS = (
    AgentCard(
        name="flights",
        description="Searches airline flights, one way or return, and books seats.",
        mode="silent",
        examples=("Find me a flight to Denver on Friday", "I need a one way ticket to Boston"),
    ),
    AgentCard(
        name="weather",
        description="Gives the forecast: temperature, rain and wind for a place and day.",
        mode="silent",
        examples=("Will it rain in Seattle tomorrow?", "What's the temperature in Miami"),
    ),
    AgentCard(
        name="restaurants",
        description="Finds places to eat by cuisine and city and reserves a table.",
        mode="silent",
        examples=("Book a table for two at an Italian place", "Find me a sushi restaurant nearby"),
    ),
    AgentCard(
        name="stables",
        description="Books a farrier to trim and shoe a horse, or a saddle fitting.",
        mode="silent",
        examples=("My mare threw a shoe, can someone come out?", "Get the farrier here next week"),
    ),
)


async def _agents(message: str) -> list[str]:
    plan = await RulesPlanner().plan(PlanInput(parent="assistant", message=message, agents=CARDS))
    return [entry.agent for entry in plan.entries]


def test_the_table_knows_the_bot_but_not_every_word_of_it() -> None:
    matcher = agent_matcher(CARDS)
    assert matcher.uses_concepts and matcher.scope is CONCEPTS
    assert matcher.blind("Help me find a farrier.")  # "farrier" is the bot's, not the table's
    assert not matcher.blind("Is it going to rain in Austin?")
    assert not matcher.blind("What's the capital of France?")  # no word of the bot's at all


def test_a_blind_request_is_scored_and_judged_as_for_a_bot_the_table_does_not_know() -> None:
    matcher = agent_matcher(CARDS)
    text = "Can you find a farrier for Tuesday?"
    assert matcher.scope_for(text) is PLAIN
    assert matcher.scope_for("Is it going to rain in Austin?") is CONCEPTS
    best, score = matcher.scores(text)[0]
    figures = dict(matcher.features(text))[best]
    assert best == "stables"
    assert score == pytest.approx(sum(w * x for w, x in zip(WEIGHTS, figures, strict=True)))


@pytest.mark.parametrize(
    "message",
    [
        "Help me find a farrier.",
        "I need someone to trim my pony's hooves",
        "I need a farrier to look at my gelding",
    ],
)
async def test_a_request_in_the_agents_own_words_the_table_never_saw_goes_to_it(
    message: str,
) -> None:
    assert await _agents(message) == ["stables"]


@pytest.mark.parametrize(
    "message", ["What's the capital of France?", "Tell me a joke", "How many points do I have?"]
)
async def test_a_request_for_no_agent_is_still_kept_with_the_parent(message: str) -> None:
    assert await _agents(message) == ["assistant"]


async def test_a_request_the_table_knows_is_routed_as_before() -> None:
    assert await _agents("Is it going to rain in Austin?") == ["weather"]
    assert await _agents("My horse needs new shoes.") == ["stables"]
