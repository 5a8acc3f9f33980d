"""How the offline planner's split keeps a condition on a request, its schedule after "and" and a
search that only narrows it with it (issue 25, session 46).

On a bot it has never seen, a real turn's one request often ends with a condition on what it asks
for, in a sentence or clause of its own ("..., it has to have laundry service", "I need it to
allow pets.") or its schedule after "and" ("... checking in on the 1st and leave by the 7th");
planned as a request of its own, it was routed on its own words. Every message
here is new text. Each fix failed on ``main`` 266651e; the guards pass before and after.
"""

from __future__ import annotations

import pytest

from harness.planning._conditions import narrows, requires, schedules_after_and
from harness.planning.split import split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "Look for a cottage near the lake, it has to have a fireplace.",
        "Find me a cabin in Aspen. It must sleep six.",
        "I want a studio downtown and I need it to accept cats.",
        "Find us a campsite for Friday and we'd like it to include showers.",
        "Book a table at Nando's, we need it to fit a wheelchair.",
        "Get me a van for the move. Please make sure it has a tow hitch.",
        "Search for a guesthouse in Bergen, one that serves breakfast.",
        "Reserve a meeting room on the 4th floor. The room should have a projector.",
    ],
)
def test_a_condition_after_a_request_is_part_of_it(message: str) -> None:
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    ("message", "count"),
    [
        # A possessive reports something of the speaker's: a request of its own.
        ("Book me a cab to the airport. My card has to be replaced.", 2),
        # A question asks on its own.
        ("Find a hotel in Oslo. Does it have to be booked today?", 2),
        # "too" adds a request of its own.
        ("Find a hotel in Oslo. It has to have a gym too.", 2),
        # "one more thing" is no description.
        ("Show my balance. One more thing: when is payday?", 2),
    ],
)
def test_what_asks_on_its_own_is_still_cut(message: str, count: int) -> None:
    assert len(split_requests(message, _always)) == count


@pytest.mark.parametrize(
    ("piece", "expected"),
    [
        ("it has to have a garden", True),
        ("The van must seat nine", True),
        ("I'd like them to include towels", True),
        ("Please ensure the price is under 90 dollars", True),
        ("one with a balcony", True),
        ("make sure my rent is paid", False),
        ("I need to transfer 50 dollars", False),
        ("what does it have to include", False),
        ("it has been declined twice", False),
    ],
)
def test_requires(piece: str, expected: bool) -> None:
    assert requires(piece, before="Rent me a van for Saturday") is expected


@pytest.mark.parametrize(
    "message",
    [
        "Book me a room in Porto. I will be checking in on the 2nd and leave on the 5th.",
        "Find a bus to Reno for two and leave from Sacramento at 9 am.",
        "I need a one way flight to Quito and depart after 6 pm.",
        "Book a flight to Lima and come back on the 9th.",
        "Find me a hotel in Nice. I'm checking in on the 4th.",
    ],
)
def test_the_schedule_after_and_is_part_of_the_request(message: str) -> None:
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    ("message", "count"),
    [
        # "leave" with an object of its own asks on its own.
        ("Get a cab to the pier and leave a note for the driver.", 2),
        # "check" without "in" or "out" checks something.
        ("Book a cab for 6 pm and check my balance at the bank.", 2),
        # A subject of its own: a new clause.
        ("Book a cab for 6 pm. Then where is the nearest ATM?", 2),
    ],
)
def test_what_goes_on_with_its_own_object_is_still_cut(message: str, count: int) -> None:
    assert len(split_requests(message, _always)) == count


@pytest.mark.parametrize(
    ("piece", "expected"),
    [
        ("leave by the 7th", True),
        ("get back on Sunday", True),
        ("check out at 11", True),
        ("return my rental car", False),
        ("get a coffee", False),
        ("leave a review", False),
    ],
)
def test_schedules_after_and(piece: str, expected: bool) -> None:
    assert schedules_after_and(piece, before="Book a room in Porto") is expected


@pytest.mark.parametrize(
    "message",
    [
        "I'd like to find a quiet bar. Look around Soho.",
        "Show me some museums worth seeing. Find something in Vienna.",
        "Can you look up ferry times for me? I want to look on Saturday morning.",
        "Get me a plumber, please find one near Elm Street.",
    ],
)
def test_a_search_with_nothing_new_narrows_the_request(message: str) -> None:
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    ("message", "count"),
    [
        # A search with an object of its own is a request of its own.
        ("Find me a quiet bar. Look for flights from Rome.", 2),
        # "something to" says what is searched for.
        ("Book a cab for 6 pm. Find something to eat in Soho.", 2),
    ],
)
def test_a_search_for_something_new_is_still_cut(message: str, count: int) -> None:
    assert len(split_requests(message, _always)) == count


@pytest.mark.parametrize(
    ("piece", "expected"),
    [
        ("Look in SF", True),
        ("Can you search around Paris", True),
        ("find it on Monday", True),
        ("Search for flights from Rome", False),
        ("Look at my balance", False),
        ("find it in my calendar", False),
        ("Find something in Oslo too", False),
    ],
)
def test_narrows(piece: str, expected: bool) -> None:
    assert narrows(piece, before="Find me a quiet bar") is expected
