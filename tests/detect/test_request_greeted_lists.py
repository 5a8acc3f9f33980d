"""The check's segmenter on a numbered list after a greeting ("hi 1 - ...";
``harness.detect._request_tokens``) and on short participles, "may" after a preposition and
"shopping for" in a phrase that leads in (``harness.detect._leads``). The sentences are new
text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "Good afternoon! 1 - when does the pool open 2 - book me a massage",
            ["when does the pool open", "book me a massage"],
        ),
        (
            "hey there 1 - renew my parking permit 2 - what is the tram fare",
            ["renew my parking permit", "what is the tram fare"],
        ),
        (
            "good evening, 1 - cancel my spa visit 2 - how windy is it tomorrow",
            ["cancel my spa visit", "how windy is it tomorrow"],
        ),
        # one list of greetings for the message and its tokens: "there" after any of them, and
        # the greeting with its comma belongs to no item
        (
            "hi there 1 - water the ferns 2 - when is the next full moon",
            ["water the ferns", "when is the next full moon"],
        ),
        (
            "Hello there, 1 - mute the doorbell 2 - find a vegan bakery",
            ["mute the doorbell", "find a vegan bakery"],
        ),
        (
            "hey, 1 - pause my gym plan 2 - what time is sunset",
            ["pause my gym plan", "what time is sunset"],
        ),
        # a number before a dash and a number is a range, not an item
        ("hi 1 - 2 rooms for tonight please", ["hi 1 - 2 rooms for tonight please"]),
        (
            "I installed version 3.1 - does it fix the login bug",
            ["I installed version 3.1 - does it fix the login bug"],
        ),
        # in a numbered message, "1 -" after words that are no greeting is no item
        (
            "1. book a table for tonight. Table 1 - is it by the window",
            ["book a table for tonight", "Table 1 - is it by the window"],
        ),
    ],
)
def test_a_numbered_list_after_a_greeting_is_cut_at_its_numbers(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        "Going to Lisbon in April, do I need an adapter",
        "Going to the dentist at noon, how long is the bus ride",
        "Looking at May, how much did I spend on taxis",
        "Shopping at the market, my phone died",
        # "shopping" seeks only with "for" or "to": at the mall it leads in
        "Shopping at the outlet mall today, is it open until nine",
    ],
)
def test_a_short_participle_and_may_after_a_preposition_lead_in(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # "shopping for" seeks as "looking for" does
        (
            "Shopping for a new desk lamp, please set a timer for ten minutes",
            ["Shopping for a new desk lamp", "please set a timer for ten minutes"],
        ),
        # "going to" and a request verb is an infinitive: the request said in -ing
        (
            "Going to book a ferry, what is the weather in Split",
            ["Going to book a ferry", "what is the weather in Split"],
        ),
        # a short word in -ing that is a verb's own form, no participle: an imperative
        (
            "Swing by the bakery, what time does it close",
            ["Swing by the bakery", "what time does it close"],
        ),
        (
            "Wring out the towels, then set a timer for ten minutes",
            ["Wring out the towels", "set a timer for ten minutes"],
        ),
    ],
)
def test_seeking_and_going_to_do_something_stay_apart(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        # a greeting with a name and no punctuation, or ended by a full stop, before the list
        "Hi Sam 1) renew my parking permit 2) what is the tram fare",
        "Hi Sam. 1) renew my parking permit 2) what is the tram fare",
        "Hey team 1. renew my parking permit 2. what is the tram fare",
        "Good morning Dr Lee 1 - renew my parking permit 2 - what is the tram fare",
    ],
)
def test_a_named_greeting_in_any_shape_is_no_item_of_the_list(message: str) -> None:
    assert texts(message) == ["renew my parking permit", "what is the tram fare"]
