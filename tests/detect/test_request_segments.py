"""Where the check's own segmenter (``harness.detect.requests``) cuts a user message and where it
does not: shapes that cut one request in two (a title's dot, ...). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Book me in with Dr. Okafor on Friday and what time does the clinic open",
            ["Book me in with Dr. Okafor on Friday", "what time does the clinic open"],
        ),
        (
            "Is Mrs. Almeida in the office today. When does Prof. Varga teach?",
            ["Is Mrs. Almeida in the office today", "When does Prof. Varga teach"],
        ),
    ],
)
def test_a_title_before_a_name_ends_no_request(message: str, expected: list[str]) -> None:
    assert texts(message) == expected


def test_a_title_ending_a_sentence_still_ends_it() -> None:
    # no name after the dot: the sentence ends there
    assert texts("I need to see the dr. what is the weather") == [
        "I need to see the dr",
        "what is the weather",
    ]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a lower-case title is no title before a name: the sentence ends there
        (
            "I have to phone my dr. Where is the nearest pharmacy?",
            ["I have to phone my dr", "Where is the nearest pharmacy"],
        ),
        (
            "my upload lag is 40 ms. What plan am I on?",
            ["my upload lag is 40 ms", "What plan am I on"],
        ),
        # a capital title before a word that opens a question or a request
        (
            "I need a sick note from the Dr. When does the surgery open?",
            ["I need a sick note from the Dr", "When does the surgery open"],
        ),
    ],
)
def test_a_title_ending_a_sentence_before_a_capital_still_ends_it(
    message: str, expected: list[str]
) -> None:
    # Fails before the fix: any title's dot before a capital was read as a title before a name.
    assert texts(message) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "how much is left on my gift card & when does the store close",
            ["how much is left on my gift card", "when does the store close"],
        ),
        (
            "freeze my debit card right now + book a table for four at 8",
            ["freeze my debit card right now", "book a table for four at 8"],
        ),
    ],
)
def test_a_sign_standing_for_and_or_plus_joins_two_requests(
    message: str, expected: list[str]
) -> None:
    assert texts(message) == expected


def test_a_sign_inside_a_name_joins_nothing() -> None:
    # what follows opens no request: one request, as with "and"
    assert texts("find a Marks & Spencer near me") == ["find a Marks & Spencer near me"]
    assert texts("book the Ritz & Co bistro for two") == ["book the Ritz & Co bistro for two"]


@pytest.mark.parametrize(
    "message",
    [
        # "have" possessing, "has been" of a perfect tense, "may" the month: a statement still
        "I have a new landlord, can you help me set up a standing order",
        "there has been a strange charge on my account and I need to dispute it",
        "I will be in Leeds on may 3, can you book me a hotel",
    ],
)
def test_a_statement_with_have_or_a_month_is_the_context_of_its_request(message: str) -> None:
    assert texts(message) == [message]


def test_a_statement_that_asks_on_its_own_stays_a_request() -> None:
    # "I have lost my card" needs an answer of its own (the needs model): two requests
    assert len(texts("I have lost my card, can you check my balance")) == 2


@pytest.mark.parametrize(
    "message",
    [
        "up to this point, how many sick days have I taken",
        "the next time it snows, remind me to salt the drive",
        "whenever my flight lands, send my sister a text",
    ],
)
def test_a_phrase_of_time_before_a_comma_sets_the_scene(message: str) -> None:
    assert texts(message) == [message]


def test_a_question_after_a_phrase_of_time_stays_a_request() -> None:
    assert texts("so far how many sick days have I taken, next tell me my apr") == [
        "so far how many sick days have I taken",
        "tell me my apr",
    ]


@pytest.mark.parametrize(
    "message",
    [
        # a look-up and the telling of what it finds
        "pull up my diary and tell me what I have on Thursday",
        "could you check my savings and let me know how much interest I earned",
        "search for plays at the Lyceum and tell me the play times",
        "look up my lease and show me the results",
        # a "why" about a statement that opens with neither "I" nor "my"
        "so it turns out the parcel was sent back and I want to know why",
        # a statement going on with a wish of no subject of its own
        "I am visiting Porto next week and would like a hotel by the river",
    ],
)
def test_pieces_of_one_request_stay_together(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a second action, not the telling of what was looked up
        ("check my balance and send it to my brother", 2),
        ("book a table at Nando's and tell me a joke", 2),
        # a look-up, then the telling of something it does not find: two requests (fails
        # before the fix, which joined any look-up and "tell me the ...")
        ("check my pension pot and tell me the weather in Leeds", 2),
        ("open my inbox and let me know when my passport expires", 2),
        ("look up trains to York and give me the exchange rate for yen", 2),
    ],
)
def test_two_actions_stay_two_requests(message: str, expected: int) -> None:
    assert len(texts(message)) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "what is my gas bill and can you move my dentist appointment thanks a lot",
            ["what is my gas bill", "can you move my dentist appointment"],
        ),
        (
            "how much is a return to Hull and lock my card right away thx",
            ["how much is a return to Hull", "lock my card right away"],
        ),
        # what is said or played, not a closer
        (
            "what time is it and send a note saying thanks a lot",
            ["what time is it", "send a note saying thanks a lot"],
        ),
    ],
)
def test_a_closer_with_no_comma_is_no_word_of_the_request(
    message: str, expected: list[str]
) -> None:
    assert texts(message) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # written as a title
        (
            "when is my rent due and find the film Thank You Very Much",
            ["when is my rent due", "find the film Thank You Very Much"],
        ),
        (
            "what is my overdraft limit and look for Thanks a Bunch by the Rooftops",
            ["what is my overdraft limit", "look for Thanks a Bunch by the Rooftops"],
        ),
        # after a noun of what is watched or a verb of playing
        (
            "how much do I owe and find the album thanks a lot",
            ["how much do I owe", "find the album thanks a lot"],
        ),
        (
            "what time is it in Oslo and put on thanks so much",
            ["what time is it in Oslo", "put on thanks so much"],
        ),
    ],
)
def test_thanks_named_as_a_title_are_no_closer(message: str, expected: list[str]) -> None:
    # Fails before the fix: the bare closer was cut whatever named it.
    assert texts(message) == expected


def test_a_bare_closer_in_capitals_is_still_cut() -> None:
    message = "what is my gas bill and can you move my dentist appointment THANKS A LOT"
    assert texts(message) == ["what is my gas bill", "can you move my dentist appointment"]


@pytest.mark.parametrize(
    "message",
    [
        # taking something out and placing it: one move
        "take $300 from my ISA and put it in my current account",
        # a greeting or thanks before the imperative
        "Thanks, alert my landlord and let them know the boiler is broken",
        "Great, call the garage and tell them the car is ready",
        # a greeting before a phrase that sets the scene
        "Hi, up to today, how many overtime hours have I logged",
        # "now that" leads into the request after its comma
        "now that I have moved house, I need my address changed",
        # a "why" after a statement that opens as no request does
        "Turns out my parcel went to the wrong depot and i wanna know why",
    ],
)
def test_more_pieces_of_one_request_stay_together(message: str) -> None:
    assert texts(message) == [message]


def test_a_second_action_on_what_was_taken_stays_a_request() -> None:
    assert len(texts("check my balance and send it to my brother")) == 2
    assert len(texts("book a flight to Rome and I want to know why")) == 2
