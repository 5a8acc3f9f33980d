"""A greeting with a name or a group that opens a user's message is no request of its own
(s49-named): "Hi Sam, can you book a cab" is one request, so a reply that books the cab answers
the whole message. Each test is written from new text; each guard of ``_NAMED_HELLO`` and of
its use in ``segment_requests`` has a case only it decides."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def _texts(message: str, *, statement: bool = False) -> list[str]:
    return [r.text for r in segment_requests(message, statement=statement)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Hi Sam, can you book a cab", ["can you book a cab"]),
        ("Good morning Dr Lee, what time is my appointment", ["what time is my appointment"]),
        ("hey there Priya! where is my parcel", ["where is my parcel"]),
        ("Hello Ana Ruiz! please renew my library card", ["please renew my library card"]),
    ],
)
def test_a_greeting_with_a_name_is_no_request(message: str, expected: list[str]) -> None:
    assert _texts(message) == expected


def test_a_greeting_to_a_group_is_no_request() -> None:
    # the group's word need not be capitalised ("team", "all", "folks")
    assert _texts("Hello team! I need a taxi to the station") == ["I need a taxi to the station"]
    assert _texts("hi folks, how do I reset my router") == ["how do I reset my router"]


def test_the_greeting_alone_stays() -> None:
    # a message that only greets keeps its one piece (the needs model says it asks nothing)
    assert _texts("Hi Sam!") == ["Hi Sam"]


def test_a_clause_after_a_greeting_stays() -> None:
    # "Sam" after the comma is the clause's subject, not the name the user greets
    assert _texts("Hi, Sam needs a ride to the clinic") == ["Hi, Sam needs a ride to the clinic"]


def test_three_capitalised_words_are_no_name() -> None:
    # a product's name, not a greeting (the two-word limit)
    assert "Hello Kitty Pink Backpacks" in _texts(
        "Hello Kitty Pink Backpacks, where can I buy them"
    )
    assert "Hello Kitty backpacks" in _texts("Hello Kitty backpacks, where can I buy them")


def test_lowercase_words_after_a_greeting_may_be_a_request() -> None:
    # "check balance" is no name: the words after the greeting ask for something
    assert _texts("hello check balance, and pay my phone bill")[0] != "pay my phone bill"
    assert len(_texts("hello check balance, and pay my phone bill")) == 2


def test_a_name_without_punctuation_may_be_a_title() -> None:
    # no comma, "!" or ":" after the words: "Hey Jude" is a song here
    assert "Hey Jude" in _texts("Hey Jude plus Let It Be, add both to my playlist")


def test_only_at_the_message_start() -> None:
    # a title later in the message that reads like a greeting stays part of its request
    texts = _texts("Play the song Hello Dolly! Then set an alarm for 7")
    assert texts[0] == "Play the song Hello Dolly"


def test_the_statement_reading_keeps_its_pieces() -> None:
    # the rule reads a user's message only: a bot's statement is read as before
    assert _texts("Hi Sam, your cab is booked.", statement=True) == [
        "Hi Sam",
        "your cab is booked",
    ]
