"""How the offline planner's split keeps a reaction to what was offered with the request after it
(issue 25, session 47).

On a bot it has never seen, a real turn often opens by taking what the bot offered ("That would
be ideal.", "Sounds like a plan,") and then asks. Planned as a request of its own, the reaction
went to the parent or to an agent by a word of it, and the request was cut over entries. A
reaction has a demonstrative subject (or none before "sounds", "seems", "looks"), a linking verb
and a short predicate that asks nothing. Every message here is new text.
"""

from __future__ import annotations

import pytest

from harness.models.base import AgentCard
from harness.planning._asking import asks
from harness.planning.match import agent_texts
from harness.planning.split import split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "That would be perfect. Please book two seats on it.",
        "Sounds like a deal, reserve the blue sedan for me.",
        "Those look lovely. Can you order a dozen of them?",
        "This one seems fair. Put it on my calendar for Monday.",
        "That's my pick! Get me a ticket for the late show.",
        "That’s my choice. Book the ferry for Tuesday.",  # a curly apostrophe
        "That sounds ideal, add a wake-up call at 6.",
        "That sounds lovely, reserve the window seats.",
    ],
)
def test_a_reaction_opens_the_request_after_it(message: str) -> None:
    assert len(split_requests(message, _always)) == 1


@pytest.mark.parametrize(
    "piece",
    [
        "This one is broken",  # a past participle reports a fault
        "That was charged twice",
        "That is not what I ordered",  # a negation
        "That is too much to pay",  # a clause ("to")
        "This is 300 dollars",  # a number
        "That sounds like my card was stolen",  # longer than a reaction, a report
        "Is that right",  # a question
        "That is my new landlord",  # a predicate naming a thing, not judging one
        "That would be the Lisbon hotel",
        "Those are my expense receipts",
        "That is wrong",  # a complaint
        "That was slow",
        "This looks like a printer fault",
    ],
)
def test_what_only_looks_like_a_reaction_still_asks(piece: str) -> None:
    assert asks(piece)


@pytest.mark.parametrize(
    "message",
    [
        "That would be the Lisbon hotel. Book a train to Bath.",
        "Those are my expense receipts. Reset my email password.",
        "That was slow. Order me a taxi.",
    ],
)
def test_a_statement_naming_a_thing_is_cut_from_the_next_request(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


def test_a_report_after_a_reaction_is_cut_from_the_next_request() -> None:
    message = "That's my pick. My monitor is flickering. Also, when is payday?"
    assert split_requests(message, _always) == [
        "That's my pick. My monitor is flickering",
        "when is payday",
    ]


def test_the_matcher_keeps_a_reaction_in_an_agents_examples() -> None:
    """A reaction to an offer ("That would be ideal.") opens the request after it in a user's
    message, but in an agent's example it says what the agent was offering: the matcher keeps
    it. A plain acknowledgement is still dropped."""
    card = AgentCard(
        name="ferries",
        description="Books ferry crossings.",
        mode="silent",
        examples=("That would be ideal. Book two seats.", "Thanks. Book a cabin."),
    )
    texts = agent_texts(card)
    assert "That would be ideal. Book two seats." in texts
    assert "Book a cabin." in texts
