"""How the offline planner's split keeps with a request what only says more about it (issue 25,
session 48): "go ahead and" before its verb, its details or a preference after "and", a
sentence that says more of what it asks for ("More specifically ...", "If you can I would prefer
..."), and a statement that gives its reason before ", so".

On a bot it has never seen, a real turn often says these in a piece of their own, which was then
planned (and routed) as a request of its own: the request was cut over entries or went to the
agent of its context. Every message here is new text.
"""

from __future__ import annotations

import pytest

from harness.planning.split import split_request_parts, split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "I'll go ahead and book the ferry for Saturday.",
        "Okay. Let's go ahead and reserve the corner table for six.",
        "We went ahead and picked the blue van, please rent it from Monday",
        "Fine, I'm going to go ahead and order the lamp.",
    ],
)
def test_go_ahead_and_is_one_verb(message: str) -> None:
    assert len(split_requests(message, _always)) == 1


@pytest.mark.parametrize(
    "message",
    [
        "Go ahead and renew my passport, and book me a dentist",  # ", and" joins two
        "Book the sauna and go ahead and print my boarding pass",
        "I want to go to Lyon and rent a bike there",  # no "ahead": "go" is a verb of its own
    ],
)
def test_other_ands_still_join_requests(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    "message",
    [
        "Find me a campsite near Banff and it will be for three adults.",
        "I need a ferry to Victoria and there are two of us.",
        "Look for a cabin in Vermont and I prefer one with a fireplace.",
        "Search for a sushi place and we'd prefer somewhere quiet.",
        "I want a train to Leeds and I'm leaving on the 4th.",
    ],
)
def test_details_and_a_preference_after_and_stay_with_their_request(message: str) -> None:
    assert len(split_requests(message, _always)) == 1


@pytest.mark.parametrize(
    "message",
    [
        "Book a yoga class and I'd like a taxi to the airport.",  # "I'd like" wants a new thing
        "Reserve a room in Porto and I lost my wallet yesterday.",  # a report of its own
        "Cancel my gym plan and what's the forecast for Monday?",
    ],
)
def test_a_request_after_and_still_stands_on_its_own(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    "message",
    [
        "Can you find me a museum in Oslo? More specifically I want one that is free on Sundays.",
        "Find me a hair salon in Leeds. To be specific, we need one that opens early.",
        "Get me a flight to Rome. If you can, I would prefer an aisle seat.",
        "Look for a rental flat in Turin. If possible I'd prefer one with a balcony.",
        "Find me a bakery nearby. In particular I'm looking for one with rye bread.",
    ],
)
def test_a_sentence_that_says_more_of_the_request_stays_with_it(message: str) -> None:
    assert len(split_requests(message, _always)) == 1


@pytest.mark.parametrize(
    "message",
    [
        "Find me a museum in Oslo. If you can, book me a taxi there too.",  # no preference
        "Get me a flight to Rome. If possible, can you also check the weather?",  # a question
        "Find me a bakery. Specifically, what time does the bank open?",
    ],
)
def test_a_courtesy_before_a_request_of_its_own_still_cuts(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        (
            "I'll be in Quebec next Friday, so I need a hotel room there.",
            "I need a hotel room there.",
        ),
        ("My sister is visiting, so we'd like a table for three.", "we'd like a table for three."),
        ("We are moving to Malmo, so please find us a flat.", "please find us a flat."),
        ("I feel worn out this week, so tell me about spas nearby.", "tell me about spas nearby."),
        # a habit, or what the speaker will do that the bot does not do for them:
        ("I take the ferry at 8, so wake me up at 7", "wake me up at 7"),
        ("They shut at 5, so book the table for 4", "book the table for 4"),
        ("I'll bring my parents, so we need a table for six", "we need a table for six"),
    ],
)
def test_a_reason_before_so_is_one_request_routed_on_what_it_asks(message: str, asked: str) -> None:
    parts = split_request_parts(message, _always)
    assert len(parts) == 1
    whole, asks = parts[0]
    assert whole == message  # every word kept, "so" as well
    assert asks == asked


@pytest.mark.parametrize(
    "message",
    [
        "Can you book a hair cut for Monday, so I need a cab too",  # a question before it
        "Order a pizza, so tell me the weather as well",  # a request before it
        "I lost my wallet. So book me a locksmith",  # no comma: a sentence of its own
        # A want before it is a request of its own (a word of wanting), not a reason:
        "I need a hotel in Boston, so find me a flight there",
        "I'd like to pay my phone bill, so what's my balance?",
        "I need to transfer $200 to savings, so check my balance first",
        "I want to relax this weekend, so tell me about spas nearby.",
        "We need a cab, so I'm wondering what the weather is",
        "I'll be in Quebec next Friday, so book me a hotel there too",  # "too": one more want
        "I'm in Oslo on Friday (or is it Saturday?), so find me a hotel there",  # it asks
        # The speaker telling the bot to act, in the future, is a request of its own:
        "I'll renew my gym pass today, so what is the new expiry date?",
        "We'll book the 6 pm ferry, so remind us to leave the house at 5",
        "I will cancel my magazine subscription, so how much is refunded",
        "I'll just pay the water bill now, so what is my balance after that?",
    ],
)
def test_so_after_a_request_still_cuts(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


def test_a_want_before_so_keeps_its_own_routing_text() -> None:
    parts = split_request_parts("I need a hotel in Boston, so find me a flight there", _always)
    assert [asks for _, asks in parts] == ["I need a hotel in Boston", "find me a flight there"]


@pytest.mark.parametrize(
    "message",
    [
        "Find a hotel in Rome. More specifically, I also need a rental car there.",
        "Find a hotel in Rome. In particular we need a cab from the airport too.",
        "Book a cabin by the lake. In particular we need another boat for the kids.",
        "Book a cabin by the lake. To be specific, we want a canoe as well for Sunday.",
        # no want of the request narrowed, or nothing wanted:
        "Find a hotel in Rome. In particular I lost my passport.",
        "Find me a gym. More specifically, I need.",
    ],
)
def test_a_sentence_that_says_it_wants_one_more_thing_still_cuts(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


def test_a_go_ahead_closed_by_a_comma_joins_with_its_and() -> None:
    message = "Book the spa for Friday, I said go ahead, and order me a cab there"
    assert split_requests(message, _always)[-1] == "order me a cab there"


def test_a_plan_after_and_after_a_question_for_a_fact_is_not_its_detail() -> None:
    message = "what did parking cost me in May, and i'm flying to Oslo on june 3rd"
    assert split_requests(message, _always)[0] == "what did parking cost me in May"
