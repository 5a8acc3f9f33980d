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
