"""The check's segmenter on messages written without punctuation between requests, with
emoticons, greetings and closers of their own, and the shared word classes
(``harness.detect.requests``, ``harness.detect._together``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect._request_words import _VERBS, _WH
from harness.detect.requests import segment_requests
from harness.text._shapes import VERBS, WH_SET


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("what's my checking balance :) could you order a pizza", ["what's my checking balance", "could you order a pizza"]),
        ("I need a taxi 🚕 what time does the museum open", ["I need a taxi", "what time does the museum open"]),
        ("where's the nearest pharmacy ;-) book me a dentist", ["where's the nearest pharmacy", "book me a dentist"]),
        ("set a timer for ten minutes 👍", ["set a timer for ten minutes"]),
    ],
)  # fmt: skip
def test_an_emoticon_or_emoji_ends_a_sentence(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_an_emoji_glued_to_a_word_ends_its_sentence_and_is_no_word_of_it() -> None:
    message = "I lost my keys😞 can you call a locksmith"
    first, second = segment_requests(message)
    assert message[first.start : first.end] == "I lost my keys"
    assert second.text == "can you call a locksmith"


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a question after a question or an imperative, with nothing between them
        ("what is my savings balance can you book a taxi to the airport", ["what is my savings balance", "can you book a taxi to the airport"]),
        ("please find a pharmacy nearby what time does the bank close", ["please find a pharmacy nearby", "what time does the bank close"]),
        ("renew my gym pass how many classes do I have left", ["renew my gym pass", "how many classes do I have left"]),
    ],
)  # fmt: skip
def test_a_question_running_on_after_a_request_is_a_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "tell me what time the bank closes",  # an embedded question keeps its order
        "what time can you pick me up",  # the question word is still waiting for its auxiliary
        "I broke my phone how do I get it fixed",  # after a statement
        "if I fly to Oslo do I need a plug adapter",  # after a subordinate clause
        "book me a table for six would you, near the river please",  # a tag question
        "let me know how much do I owe",  # after a verb of knowing
        "book a hotel in Leeds until Sunday can I do that",  # the question points back
        "tell me what the distance between Leeds and York is",  # an embedded question's end
    ],
)
def test_words_that_only_look_like_a_new_question_stay_in_the_request(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("Evening! What's my credit limit? Book a table for two. thx", ["What's my credit limit", "Book a table for two"]),
        ("hiya\nwhere is my parcel\nrenew my insurance\nthat's all", ["where is my parcel", "renew my insurance"]),
        ("Good afternoon. Is the pool open? Order more printer ink. Thanks in advance!", ["Is the pool open", "Order more printer ink"]),
    ],
)  # fmt: skip
def test_a_greeting_or_thanks_standing_alone_is_no_request(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


def test_a_greeting_alone_is_kept_when_nothing_else_is_left() -> None:
    assert texts("Good morning!") == ["Good morning"]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # thanks after something the speaker owns are no title
        ("check my savings and lock my debit card thanks a lot", ["check my savings", "lock my debit card"]),
        ("pay the gas bill and renew my library card thanks in advance", ["pay the gas bill", "renew my library card"]),
        ("find me a bike rental in Porto and what's the tide time in Faro cheers", ["find me a bike rental in Porto", "what's the tide time in Faro"]),
        # what is named or said keeps them
        ("book a cab and find the album thanks a lot", ["book a cab", "find the album thanks a lot"]),
        ("book a cab and send a card saying thanks a lot", ["book a cab", "send a card saying thanks a lot"]),
    ],
)  # fmt: skip
def test_a_closer_with_no_punctuation_before_it(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a taking that names where the thing goes is done before the placing
        ("take the dog to the vet and put it on my calendar", ["take the dog to the vet", "put it on my calendar"]),
        # taking out and placing is one move
        ("take $50 out of checking and put it in savings", ["take $50 out of checking and put it in savings"]),
        # "go ahead and" lets the request after it go ahead
        ("what's my limit, and please go ahead and renew my passport", ["what's my limit", "please go ahead and renew my passport"]),
    ],
)  # fmt: skip
def test_taking_placing_and_going_ahead(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_the_check_reads_by_the_planners_question_words_and_verbs() -> None:
    assert WH_SET <= _WH
    assert frozenset(VERBS.split("|")) - {"mark"} <= _VERBS
    assert texts("call Anna, Mark and Joe") == ["call Anna, Mark and Joe"]  # "Mark": a name
    assert texts("hows the traffic on the bridge, erase my Friday meetings") == [
        "hows the traffic on the bridge",
        "erase my Friday meetings",
    ]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("1 - renew my parking permit 2 - when does the library close", ["renew my parking permit", "when does the library close"]),
        # a range inside an item is no item's number
        ("1 - book a cabin for 2 - 3 nights 2 - is the lake warm", ["book a cabin for 2 - 3 nights", "is the lake warm"]),
        ("what is 7 - 2", ["what is 7 - 2"]),
    ],
)  # fmt: skip
def test_a_numbered_item_inside_a_line(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("two things is the gym open today and book me a squash court", ["is the gym open today", "book me a squash court"]),
        ("hi i have a few questions where do I park", ["where do I park"]),
        # things the speaker speaks of, not an announcement
        ("a few things I need to pack for the trip", ["a few things I need to pack for the trip"]),
        ("any questions I should ask the landlord", ["any questions I should ask the landlord"]),
    ],
)  # fmt: skip
def test_an_announcement_run_into_a_request_is_no_word_of_it(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests
