"""The check's segmenter on a numbered list after a greeting with a name or a group ("Hi Sam, 1 -
...", "Hello team: 1. ..."), on "1." items after a greeting, and on a list's next "N." item that
ends a sentence (``harness.detect._request_tokens``). The sentences are new text; each guard has
a case that only it decides."""

from __future__ import annotations

from typing import Any

import pytest

from harness.detect.requests import segment_requests
from tests.detect.test_request_run_ons import _lines_run


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a greeting, then a name or a group of up to two words before a comma, colon or "!"
        (
            "Hi Priya, 1 - move my dentist visit 2 - what is the bus fare",
            ["move my dentist visit", "what is the bus fare"],
        ),
        (
            "Hello folks: 1 - order more toner 2 - who is on call tonight",
            ["order more toner", "who is on call tonight"],
        ),
        (
            "hey there Tom Reyes, 1 - renew my library card 2 - is the museum open",
            ["renew my library card", "is the museum open"],
        ),
        # the "!" ends a sentence of its own: one that only greets is no request
        (
            "Hi there Marco! 1 - unlock the garage 2 - how far is the airport",
            ["unlock the garage", "how far is the airport"],
        ),
        (
            "Good day Ms Okoro! 1) reset my voicemail pin 2) when do you open",
            ["reset my voicemail pin", "when do you open"],
        ),
        # greetings the closed class now has
        (
            "Good night 1 - dim the hall light 2 - wake me at six",
            ["dim the hall light", "wake me at six"],
        ),
        (
            "Hiya 1 - top up my transit card 2 - when does the market close",
            ["top up my transit card", "when does the market close"],
        ),
        (
            "Howdy, 1 - log my run 2 - what is on my calendar",
            ["log my run", "what is on my calendar"],
        ),
        # "1." after a greeting numbers a list as "1 -" does
        (
            "hello, 1. what is my savings rate 2. call a taxi",
            ["what is my savings rate", "call a taxi"],
        ),
        (
            "Hey Nadia, 1. pay the water bill 2. how long is the ferry ride",
            ["pay the water bill", "how long is the ferry ride"],
        ),
    ],
)
def test_a_list_after_a_named_greeting_is_cut_at_its_numbers(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # more than two words between the greeting and its comma: no greeting alone
        (
            "hi my dear old friend, 1 - water the plants 2 - call my aunt",
            ["hi my dear old friend, 1 - water the plants 2 - call my aunt"],
        ),
        # words after a greeting with no punctuation may be a request's own words
        (
            "hey order 1 - the lentil soup 2 - the rye bread",
            ["hey order 1 - the lentil soup 2 - the rye bread"],
        ),
        # a number after the dash is a range, not an item, after a name too
        ("hi Jonas, 1 - 2 seats at the back please", ["hi Jonas, 1 - 2 seats at the back please"]),
        # a request's own words before its colon are no name: they stay with the list
        (
            "hi renew these: 1 - my library card 2 - my bus pass",
            ["hi renew these: 1 - my library card", "my bus pass"],
        ),
        (
            "hello we need: 1. a plumber 2. an electrician",
            ["hello we need", "a plumber", "an electrician"],
        ),
        # "1." after a greeting with no "2." after it is a choice answered, not a list
        (
            "Hello, 1. Find me a 3- or 4-bed cottage in Wales",
            ["Hello, 1", "Find me a 3- or 4-bed cottage in Wales"],
        ),
    ],
)
def test_what_is_no_greeting_before_a_list_stays(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # the list's next "N." ends a sentence when a capital follows: still an item
        (
            "1. renew my library card 2. Part 1 - which form do I bring",
            ["renew my library card", "Part 1 - which form do I bring"],
        ),
        # a count after a word a count follows stays the count
        ("1. book a court for 2. Then text the coach", ["book a court for 2", "text the coach"]),
        # a number that is not the list's next one stays a number
        (
            "1. queue the album. Play track 5. Then lock the door",
            ["queue the album", "Play track 5", "lock the door"],
        ),
        # "1." after words that are no greeting inside a numbered message is no list's start
        (
            "Hello! 1 - order a cab. Print invoice 1. 2 - call my aunt",
            ["order a cab", "Print invoice 1", "call my aunt"],
        ),
    ],
)
def test_a_numbered_item_ending_a_sentence(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "shape",
    [
        lambda n: "hello, 1. check " + "score 2. go 1. " * n,  # many "1." and "2." items
        lambda n: "Hi Sam, 1 - " + "x 2 - y 1 - " * n,  # a named greeting, many first items
        lambda n: "1. a " + "for 2. B " * n,  # many counts ending their sentences
    ],
)
def test_segmenting_a_long_named_list_grows_with_its_length(shape: Any) -> None:
    # counted, not timed: twice the items, about twice the work (a regex's cost is checked by
    # hand, docs/journal/simulate.md, s49-lists)
    assert _lines_run(shape(200)) < 2.5 * _lines_run(shape(100))
