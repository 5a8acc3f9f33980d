"""Parts of a message that ask nothing (a greeting, thanks, an apology, "I have two questions.")
are not planned as requests of their own; parts that ask stay requests."""

from __future__ import annotations

import pytest

from harness.planning import PlanInput, RulesPlanner
from harness.planning._nonrequest import asks_nothing
from tests.planning.nonrequest_eval import bot


@pytest.mark.parametrize(
    "piece",
    [
        "Sorry to bother you on a Sunday",
        "Thanks so much for the help yesterday",
        "Hiya, hope you can help",
        "I have a few things to ask",
        "Good evening. A couple of questions for you",
        "Thanks in advance.",
    ],
)
def test_a_social_formula_asks_nothing(piece: str) -> None:
    assert asks_nothing(piece)


@pytest.mark.parametrize(
    "piece",
    [
        "Sorry, can you check my bill",
        "Thanks, I need a refund",
        "Hope you can fix my line",
        "Sorry my card was declined",
        "Hello, I want a refund",
        "Thanks for nothing, my internet is down",
    ],
)
def test_a_piece_that_asks_or_states_a_problem_is_no_formula(piece: str) -> None:
    assert not asks_nothing(piece)


async def _plan(name: str, message: str) -> list[tuple[str, str]]:
    parent, cards = bot(name)
    plan = await RulesPlanner().plan(PlanInput(parent=parent, message=message, agents=cards))
    return [(e.agent, e.request) for e in plan.entries]


async def test_an_apology_goes_with_the_request_after_it_not_to_the_parent() -> None:
    entries = await _plan(
        "council", "Sorry to bother you. How much council tax do I owe, and how do I pay a fine?"
    )
    assert [agent for agent, _ in entries] == ["council_tax", "parking"]
    assert entries[0][1].startswith("Sorry to bother you.")


async def test_thanks_at_the_end_go_with_the_last_request() -> None:
    entries = await _plan(
        "council",
        "How do I appeal a parking ticket? When is my black bin collected? Thanks in advance.",
    )
    assert [agent for agent, _ in entries] == ["parking", "waste"]
    assert entries[-1][1].endswith("Thanks in advance.")


async def test_a_problem_statement_after_a_greeting_stays_a_request() -> None:
    entries = await _plan(
        "council",
        "Hello. My bin wasn't collected again this week. Also what are the library hours?",
    )
    assert [agent for agent, _ in entries] == ["waste", "libraries"]


@pytest.mark.parametrize(
    "social",
    [
        "Sorry about my parking ticket.",
        "Thanks for sorting my council tax bill.",
        "I have a question about my parking permit.",
    ],
)
async def test_a_social_part_naming_another_agents_topic_stays_a_request_of_its_own(
    social: str,
) -> None:
    # Joined to the bin request, the topic would go to the waste agent and be lost.
    entries = await _plan("council", f"{social} When is my black bin collected?")
    assert len(entries) == 2
    assert entries[0][1] == social.rstrip(".")
    assert entries[0][0] not in ("waste", "town_council")
    assert entries[1] == ("waste", "When is my black bin collected")


async def test_a_repeated_social_word_joins_each_request_once() -> None:
    message = "Sorry. When is my black bin collected? Sorry. And how do I pay a parking fine?"
    entries = await _plan("council", message)
    assert [agent for agent, _ in entries] == ["waste", "parking"]
    # Each entry starts at its own "Sorry.", not at the message's first one.
    assert entries[1][1].startswith("Sorry. And how do I pay")
    assert sum("black bin" in request for _, request in entries) == 1
