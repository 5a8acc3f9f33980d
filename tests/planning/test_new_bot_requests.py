"""A new bot's short requests: ids and codes are values, a request made only of one agent's own
words goes to it, and a loaded bot routes by its authors' descriptions (not the parent's prompt).

The requests are new text, written for these tests (issue 25, a newcomer's airline bot, and a
parcel bot of our own); no labelled set is read."""

from __future__ import annotations

import pytest

from harness import ChildAgent, ConnectedAgent, Mode, Parent
from harness.models import AgentCard
from harness.planning import PlanInput, RulesPlanner
from harness.planning.concepts import tokens
from harness.planning.match import agent_matcher
from harness.testing import fake_subagent


def flight_status() -> str:
    """Status of a flight: on time, delayed or cancelled, and the gate."""
    return "on time"


def miles_balance() -> str:
    """The customer's loyalty miles balance and tier."""
    return "48,250 miles"


def report_bag() -> str:
    """File a delayed-bag report (asks for the bag tag number first)."""
    return "filed"


def parcel_status() -> str:
    """Where a parcel is and when it is delivered."""
    return "out for delivery"


def start_return() -> str:
    """Open a return or an exchange (asks for the order number first)."""
    return "opened"


def invoice_lines() -> str:
    """The charges and refunds on an invoice."""
    return "two charges"


def _cards(*subagents: ChildAgent | ConnectedAgent) -> tuple[AgentCard, ...]:
    """The cards the bot's planner routes by, as a loaded bot builds them (modes, tools)."""
    return Parent(name="desk", model="rules", subagents=subagents).dependencies.cards


# A newcomer's airline bot (issue 25), as its YAML file built it.
AIRLINE = _cards(
    ChildAgent(
        name="flight_status",
        mode=Mode.DIRECT,
        description="Tells whether a flight is on time, delayed or cancelled, and its gate.",
        tools=[flight_status],
        examples=["is my flight on time", "what is the status of flight AA123"],
    ),
    ConnectedAgent(
        name="loyalty",
        mode=Mode.SILENT,
        description="Looks up the customer's loyalty miles balance and status tier.",
        tools=[miles_balance],
        examples=["how many miles do i have"],
    ),
    ConnectedAgent(
        name="baggage",
        mode=Mode.CONVERSATIONAL,
        description="Files and tracks reports of delayed, lost or damaged checked bags.",
        tools=[report_bag],
        examples=["my bag didn't arrive", "my luggage is lost"],
    ),
)

# A parcel shop's bot of our own, in another domain.
PARCELS = _cards(
    ChildAgent(
        name="tracking",
        mode=Mode.DIRECT,
        description="Says where a parcel is and whether it was shipped, delivered or is late.",
        tools=[parcel_status],
        examples=["where is my package", "track parcel PX2231"],
    ),
    ConnectedAgent(
        name="returns",
        mode=Mode.CONVERSATIONAL,
        description="Starts a return or an exchange of an item the customer bought.",
        tools=[start_return],
        examples=["i want to return these shoes", "can i exchange a jacket for a bigger size"],
    ),
    ConnectedAgent(
        name="billing",
        mode=Mode.SILENT,
        description="Explains the charges and refunds on the customer's invoice.",
        tools=[invoice_lines],
        examples=["why was i charged twice"],
    ),
)


async def _agents(cards: tuple[AgentCard, ...], message: str) -> list[str]:
    given = PlanInput(parent="desk", message=message, agents=cards)
    return [entry.agent for entry in (await RulesPlanner().plan(given)).entries]


def test_ids_and_codes_are_values_not_words() -> None:
    assert tokens("Is DL402 cancelled?") == ["cancell"]
    assert tokens("parcel ZX44102 and order ab12") == ["parcel", "order"]
    # One digit, or digits first: a word ("W-2", "401k"), a day or a time.
    assert tokens("my w2 and 401k on the 3rd at 4pm") == ["w2", "401k", "3rd", "4pm"]


@pytest.mark.parametrize(
    "message",
    ["Is DL402 cancelled?", "is DL402 delayed", "I need to know if DL402 is cancelled"],
)
async def test_a_flight_code_and_one_agents_word_go_to_that_agent(message: str) -> None:
    assert await _agents(AIRLINE, message) == ["flight_status"]


@pytest.mark.parametrize(
    ("message", "agent"),
    [
        ("has PX88123 shipped", "tracking"),
        ("is parcel QK20417 late?", "tracking"),
        ("I'd like to exchange order RT5521", "returns"),
    ],
)
async def test_a_code_in_another_domain_does_not_count_against_a_request(
    message: str, agent: str
) -> None:
    assert await _agents(PARCELS, message) == [agent]


async def test_words_of_no_agent_are_still_kept_with_the_parent() -> None:
    assert await _agents(PARCELS, "what is the weather in Lisbon tomorrow") == ["desk"]
    assert await _agents(AIRLINE, "tell me a joke about AB1234") == ["desk"]


def test_only_words_an_author_wrote_to_say_what_an_agent_does_count() -> None:
    matcher = agent_matcher(PARCELS)
    assert matcher.described("is QK20417 late")  # a word of the description, and a code
    assert matcher.described("refunds?")
    # A word of an example only ("shoes"), or a word of no agent, is not enough.
    assert not matcher.described("nice shoes")
    assert not matcher.described("is the parcel shop open late tonight")
    assert not matcher.described("QK20417")  # nothing but a code says nothing


def test_a_loaded_bot_routes_by_its_authors_descriptions() -> None:
    # The parent's prompt tells each mode's agent apart ("It never talks to the user ..."); those
    # words are about no request and must not be the offline planner's.
    bot = Parent(
        name="desk",
        model="rules",
        subagents=[
            fake_subagent("lookup", mode="silent", description="Looks up order totals."),
            fake_subagent("chat", mode="conversational", description="Books repair visits."),
        ],
    )
    cards = {card.name: card.description for card in bot.dependencies.cards}
    assert cards == {"lookup": "Looks up order totals.", "chat": "Books repair visits."}
    assert "never talks" in bot.dependencies.system  # the parent's prompt still says it


async def test_a_loaded_bot_keeps_a_request_of_mode_words_with_the_parent() -> None:
    bot = Parent(
        name="desk",
        model="rules",
        subagents=[
            fake_subagent("lookup", mode="silent", description="Looks up order totals."),
            fake_subagent("chat", mode="conversational", description="Books repair visits."),
        ],
    )
    given = PlanInput(
        parent="desk", message="my cousin never answers me", agents=bot.dependencies.cards
    )
    plan = await RulesPlanner().plan(given)
    assert [entry.agent for entry in plan.entries] == ["desk"]
