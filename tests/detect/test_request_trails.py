"""The check's segmenter on a statement that trails a request after its comma, the bot addressed
anew before a request ("..., and bot, ..."), the comma of a date and a part that stands in for
the thing named before it ("... and the other one") (``harness.detect._together``,
``harness.detect.requests``, ``harness.detect._joining``, ``harness.detect._coordination``).
The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    "message",
    [
        "how do I get a new library card, I left mine on the train",
        "where is my suitcase, I flew in from Rome on Monday",
        "book me a cab to the stadium, a shared ride is fine",
        "can you find me a plumber for Tuesday, the kitchen tap is leaking",
    ],
)  # fmt: skip
def test_a_statement_trailing_a_request_is_part_of_it(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # it wants something of its own
        ("book a flight to Lisbon, I need a hotel there too", ["book a flight to Lisbon", "I need a hotel there too"]),
        # it asks to be acted on
        ("what is my checking balance, my card was stolen", ["what is my checking balance", "my card was stolen"]),
        # it asks a question of its own
        ("play some jazz, how warm is it outside", ["play some jazz", "how warm is it outside"]),
    ],
)  # fmt: skip
def test_a_part_that_wants_or_asks_is_no_trailing_statement(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_a_statement_that_leads_into_the_part_after_it_trails_nothing() -> None:
    # the statement is not the sentence's last part: it is what the next one is about
    assert texts("lock my debit card, I am flying to Peru soon, I should tell my bank") == [
        "lock my debit card",
        "I am flying to Peru soon, I should tell my bank",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("set a timer for ten minutes and bot, find me a pizza place nearby", ["set a timer for ten minutes", "bot, find me a pizza place nearby"]),
        ("what is my balance, hey, can you also check the weather", ["what is my balance", "hey, can you also check the weather"]),
        ("order more printer paper plus ai, what time does the post office close", ["order more printer paper", "ai, what time does the post office close"]),
    ],
)  # fmt: skip
def test_the_bot_addressed_anew_opens_a_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_a_plain_word_between_and_and_a_comma_opens_nothing() -> None:
    assert texts("I need salt and pepper, can you add them to my list") == [
        "I need salt and pepper, can you add them to my list"
    ]


@pytest.mark.parametrize(
    "message",
    [
        "rent me a car from June 3, 2027 until June 9, 2027",
        "is there a hotel room free from may 12, 2026 to may 14, 2026",
    ],
)  # fmt: skip
def test_the_comma_of_a_date_cuts_nothing(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("what is the price of the blue lamp and the other one", ["what is the price of the blue lamp", "what is the price of the other one"]),
        ("how much is the rent for the studio and the bigger one", ["how much is the rent for the studio", "how much is the rent for the bigger one"]),
        # no preposition: the frame alone is carried, as before
        ("book the red one and the blue one", ["book the red one", "book the blue one"]),
        # a thing of its own, not one standing in
        ("what is the address and the phone number", ["what is the address", "what is the phone number"]),
    ],
)  # fmt: skip
def test_a_part_standing_in_for_a_thing_carries_the_words_before_it(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "reserve a table for me and my wife",
        "find a hotel room for us and our kids",
    ],
)  # fmt: skip
def test_people_going_with_the_speaker_are_one_group(message: str) -> None:
    assert texts(message) == [message]


def test_people_going_with_the_speaker_end_before_a_question() -> None:
    assert texts("book a table for me and my wife and what is the weather") == [
        "book a table for me and my wife",
        "what is the weather",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "I am moving to Oslo and was wondering if I need a visa",
        "we are stuck at the station and have been waiting for an hour",
    ],
)  # fmt: skip
def test_an_auxiliary_and_a_participle_go_on_with_the_speaker(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("I am in Rome and can I get a taxi", ["I am in Rome", "can I get a taxi"]),
        ("i need a flight and would like to know the weather in Paris", ["i need a flight", "would like to know the weather in Paris"]),
    ],
)  # fmt: skip
def test_a_question_or_a_wish_after_and_is_no_verb_going_on(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests
