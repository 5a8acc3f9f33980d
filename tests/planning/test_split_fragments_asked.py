"""When a fragment after a request (a schedule, where or when, a description) is part of it, and
when it is not (review 2 of session 45, findings 2 to 5).

Every message here is new text. Each fix case failed on ``s45-lead`` 7a26985, where the fragment
joined the request before it; the guards pass before and after.
"""

from __future__ import annotations

import pytest

from harness.planning.split import split_requests


def _never(piece: str, previous: str) -> bool:
    return False


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # A schedule before a comma sets the scene of the question after it (finding 2).
        (
            "Order me a pizza. Departing Lisbon tomorrow morning, is it going to be sunny there?",
            [
                "Order me a pizza",
                "Departing Lisbon tomorrow morning, is it going to be sunny there",
            ],
        ),
        (
            "Get me a table for two. Flying to Oslo on Monday, will it snow there?",
            ["Get me a table for two", "Flying to Oslo on Monday, will it snow there"],
        ),
        # A where or when that asks, with its question mark, is a question of its own (finding 3).
        ("Order a pizza for dinner. In Madrid?", ["Order a pizza for dinner", "In Madrid"]),
        (
            "What is the forecast for Chicago? For Miami? For Austin?",
            ["What is the forecast for Chicago", "For Miami", "For Austin"],
        ),
        # A relative word that asks (finding 4).
        (
            "Rent me a bike. Staying two nights which campsite do you recommend?",
            ["Rent me a bike", "Staying two nights which campsite do you recommend"],
        ),
        (
            "Book a train to Porto. In Porto where can I leave my bags?",
            ["Book a train to Porto", "In Porto where can I leave my bags"],
        ),
        (
            "Book a bus to Reno. For the room that you booked is there a gym?",
            ["Book a bus to Reno", "For the room that you booked is there a gym"],
        ),
        # "About" a topic, and a fragment that adds a request (finding 5).
        (
            "Order flowers for mum. About my parcel from Tuesday.",
            ["Order flowers for mum", "About my parcel from Tuesday."],
        ),
        (
            "Call me a taxi to the pier. At the station a locker too.",
            ["Call me a taxi to the pier", "At the station a locker too."],
        ),
    ],
)
def test_a_fragment_that_asks_or_opens_its_own_request_is_not_joined(
    message: str, requests: list[str]
) -> None:
    assert split_requests(message, _never) == requests


@pytest.mark.parametrize(
    "message",
    [
        "Find me a hotel, leaving Friday morning, returning Sunday.",
        "Book me a flight to Quito, departing on the 4th, around noon.",
        "Find a hotel room, preferably one which allows pets.",
        "Get me a room there. Around the old harbour.",
        "Set an alarm for the morning. About 6 am.",
        "Let's get seats for three of us, flying Business, please.",
    ],
)
def test_a_fragment_that_goes_on_with_its_request_is_still_joined(message: str) -> None:
    """The guard: a schedule before another schedule or before a comma and what asks nothing, a
    relative clause that asks nothing, a where or when that is a statement, "about" before a
    number stay with their request."""
    assert split_requests(message, _never) == [message]


def test_about_after_a_comma_still_narrows_the_request() -> None:
    """The guard: "about" that does not open a sentence is not a topic of its own (the pieces
    are the same before and after, with a gate that routes every piece)."""
    message = "I'd like to see my points; particularly, about my travel card."
    assert split_requests(message, lambda piece, previous: True) == [
        "I'd like to see my points",
        "particularly, about my travel card.",
    ]
