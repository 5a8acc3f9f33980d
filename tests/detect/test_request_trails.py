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
)
def test_a_statement_trailing_a_request_is_part_of_it(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # it wants something of its own
        (
            "book a flight to Lisbon, I need a hotel there too",
            ["book a flight to Lisbon", "I need a hotel there too"],
        ),
        # it asks to be acted on
        (
            "what is my checking balance, my card was stolen",
            ["what is my checking balance", "my card was stolen"],
        ),
        # it asks a question of its own
        ("play some jazz, how warm is it outside", ["play some jazz", "how warm is it outside"]),
    ],
)
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
        (
            "set a timer for ten minutes and bot, find me a pizza place nearby",
            ["set a timer for ten minutes", "bot, find me a pizza place nearby"],
        ),
        (
            "what is my balance, hey, can you also check the weather",
            ["what is my balance", "hey, can you also check the weather"],
        ),
        (
            "order more printer paper plus ai, what time does the post office close",
            ["order more printer paper", "ai, what time does the post office close"],
        ),
    ],
)
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
)
def test_the_comma_of_a_date_cuts_nothing(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what is the price of the blue lamp and the other one",
            ["what is the price of the blue lamp", "what is the price of the other one"],
        ),
        (
            "how much is the rent for the studio and the bigger one",
            ["how much is the rent for the studio", "how much is the rent for the bigger one"],
        ),
        # no preposition: the frame alone is carried, as before
        ("book the red one and the blue one", ["book the red one", "book the blue one"]),
        # a thing of its own, not one standing in
        (
            "what is the address and the phone number",
            ["what is the address", "what is the phone number"],
        ),
    ],
)
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
)
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
)
def test_an_auxiliary_and_a_participle_go_on_with_the_speaker(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("I am in Rome and can I get a taxi", ["I am in Rome", "can I get a taxi"]),
        (
            "i need a flight and would like to know the weather in Paris",
            ["i need a flight", "would like to know the weather in Paris"],
        ),
    ],
)
def test_a_question_or_a_wish_after_and_is_no_verb_going_on(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


# s46-fixseg: the review's findings on the rules above (new text; each case failed before the fix)


@pytest.mark.parametrize(
    "message",
    [
        # a list item, not the bot addressed
        "recommend podcasts about history, AI, and science",
        "find me courses on statistics, AI, or databases",
        # a topic coordinated with the words before "and"
        "I am curious about startups and AI, what do you suggest",
        "show me articles about drones and AI, sort them by date",
        "I need a tutor and assistant, who would you suggest",
    ],
)
def test_the_bots_name_as_a_topic_or_list_item_addresses_nothing(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "remind me to call mom and then bot, find me a florist",
            ["remind me to call mom", "bot, find me a florist"],
        ),
        (
            "order new checks for my account, and ai, what is my routing number",
            ["order new checks for my account", "ai, what is my routing number"],
        ),
        (
            "search flights to Oslo, ai, what is the weather there",
            ["search flights to Oslo", "ai, what is the weather there"],
        ),
    ],
)
def test_the_bots_name_between_clauses_still_addresses_it(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "I want a sandwich and is catering open today",
            ["I want a sandwich", "is catering open today"],
        ),
        ("we are at the hotel and is parking free", ["we are at the hotel", "is parking free"]),
        (
            "I need a ferry ticket and is boarding at noon",
            ["I need a ferry ticket", "is boarding at noon"],
        ),
        (
            "I am at the station and is boarding on time",
            ["I am at the station", "is boarding on time"],
        ),
    ],
)
def test_an_auxiliary_that_does_not_agree_with_the_speaker_asks_its_own_question(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "tell me the price of the chair by the window and the other one",
            ["tell me the price of the chair by the window", "tell me the price of the other one"],
        ),
        (
            "what is the rating of the hotel near the beach and the other one",
            [
                "what is the rating of the hotel near the beach",
                "what is the rating of the other one",
            ],
        ),
        # a counted noun ("for one") stands in for nothing
        (
            "what is the menu of the cafe in town and a room for one",
            ["what is the menu of the cafe in town", "what is a room for one"],
        ),
    ],
)
def test_a_stand_in_replaces_the_object_of_the_first_preposition(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "play some jazz, a bit of blues would be nice",
            ["play some jazz", "a bit of blues would be nice"],
        ),
        (
            "what time is it in Oslo, a coffee would be great",
            ["what time is it in Oslo", "a coffee would be great"],
        ),
        (
            "book a table, a window seat could use some sun",
            ["book a table", "a window seat could use some sun"],
        ),
    ],
)
def test_a_wish_said_as_would_be_nice_is_no_trailing_statement(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "book me a cab, a shared ride is fine 😊",
        "book me a cab, a shared ride is fine :)",
        "find me a plumber, the kitchen tap is leaking (again)",
    ],
)
def test_a_trailing_statement_may_end_in_an_emoji_or_a_bracket(message: str) -> None:
    assert len(texts(message)) == 1


def test_spaces_before_a_comma_do_not_end_the_sentence() -> None:
    assert texts("lock my debit card, I am flying to Peru soon   , I should tell my bank") == [
        "lock my debit card",
        "I am flying to Peru soon   , I should tell my bank",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "turn it up to 11, 2022 songs are what I want",
            ["turn it up to 11", "2022 songs are what I want"],
        ),
        (
            "set the timer to 15, 2021 movies what are the best",
            ["set the timer to 15", "2021 movies what are the best"],
        ),
    ],
)
def test_a_number_and_a_year_with_no_month_are_no_date(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_a_day_with_its_ending_after_the_is_a_date() -> None:
    message = "is a room free from the 3rd, 2027 until the 9th"
    assert texts(message) == [message]
