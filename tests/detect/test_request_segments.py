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
