"""The check's segmenter on a bare noun phrase asked for after "and" or "also" ("... and gym
membership fees"; ``harness.detect._fragments``), and the names, numbers, dates and two kinds of
one noun that stay with what is before them. The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        ("show me my recent purchases and gym membership fees", ["show me my recent purchases", "gym membership fees"]),
        ("how long is the drive to the coast and toll road costs", ["how long is the drive to the coast", "toll road costs"]),
        ("please cancel the pizza order and also weekend train times", ["please cancel the pizza order", "weekend train times"]),
        ("how many steps did i walk today and nearest pharmacy hours", ["how many steps did i walk today", "nearest pharmacy hours"]),
    ],
)  # fmt: skip
def test_a_bare_noun_phrase_after_and_is_a_request_of_its_own(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        # a name written with capitals either side of "and"
        "book a meeting with Anna and Tom Baker",
        "I want tickets for Simon and Garfunkel tribute night",
        # two things of a pair after "between", numbers, times and days
        "transfer 50 dollars between my checking and savings accounts",
        "set alarms for 6 am and 7 am",
        "order two hundred and fifty business cards",
        # a verb and its object, a possessive pronoun, what goes on with the clause
        "we want to go and see the lights",
        "remind me about dinner with my sister and mine birthday party",
        "tell me the opening hours and so on",
        # one word after a determiner and two after "and": two kinds of one noun
        "what is the price of the blue and green scarves",
    ],
)  # fmt: skip
def test_names_numbers_and_kinds_of_one_noun_stay_whole(message: str) -> None:
    assert texts(message) == [message]
