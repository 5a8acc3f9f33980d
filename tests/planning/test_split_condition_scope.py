"""How far the split's condition, schedule and narrowing joins reach (review of session 46,
findings 5 to 9): each joins a piece to the request before it only when the piece is about what
that request asks for. "The X must ..." names the thing of the request before it, "and stay/fly
..." goes on only after a stay or a flight, "Find something in ..." narrows only a search, "check
out <a thing>" is no check-out of a stay, and "one which ..." describes as "one that ..." does.

Every message here is new text (the review's reproducers and more of the same shape). Each cut
below failed on s46-lead be8e727 (one request), and so did the two joins of "one which/where";
the other joins pass before and after.
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
        # Finding 5: "the X" names something other than what the request before it asks for.
        "Book a flight to Boston. The hotel must have a pool.",
        "Transfer 200 dollars to savings. The rent has to be paid by Friday.",
        "Check my balance. The card has to be replaced.",
        "Transfer 200 dollars to savings. Please make sure the rent is paid by Friday.",
        "Find me a flight to Rome. Please make sure the hotel has a spa.",
        "Order a pizza for tonight. The garage door has to be fixed.",
        "Play some reggae. The speaker has to be turned up.",
        # Finding 6: "stay" and "fly" book a stay or a flight of their own; "check in for" checks in.
        "Book a flight to Vegas and stay at the Bellagio for three nights.",
        "Book a hotel in Rome for 3 nights and fly to Rome on the 3rd.",
        "Book me a cab to the airport and check in for my flight.",
        "Rent me a car in Denver and stay at the Hyatt until Sunday.",
        "Get me a taxi to the station and check in to the lounge.",
        # Finding 7: a search after a request that searches nothing, or "something for".
        "Transfer 50 dollars to savings. Find something in Los Angeles.",
        "Play some jazz. Look in SF.",
        "Book me a flight to Paris. Find something for dinner tonight.",
        "Pay my phone bill. Search around Tucson.",
        "Find me a bakery. Find something for breakfast near the office.",
        # Finding 8: "check out" a thing is a plan of its own, not the end of a stay.
        "Book a hotel in Paris. I will check out the Louvre on the 5th.",
        "Reserve a room in Madrid. We will check out the Prado on Monday.",
    ],
)
def test_a_piece_about_something_else_is_cut(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    "message",
    [
        "Find me a hotel in Austin. The hotel must allow dogs.",
        "Reserve a meeting room on the 4th floor. The room should have a projector.",
        "Find a cabin near Tahoe. Please make sure the cabin has a hot tub.",
        "Book me a rental car for Friday. Please ensure the price is under 60 dollars.",
        "Book a flight to Lima and fly back on the 9th.",
        "Book a room at the Marriott and stay until the 8th.",
        "Book me a room in Oslo and check in on the 2nd.",
        "I'd like to find a taco place. Find something in Oakland.",
        "Get me a plumber, please find one near Elm Street.",
        "I am in need of a dentist, please find something near the station.",
        "I want to know when the film is on. Search at the Roxie on Friday.",
        "Find me a B&B in York. Please ensure the rating is above 4.",
        "I'd like to return on Monday and fly via United from Oslo.",
        "Book a hotel in Rome. I will be checking out on the 5th.",
        # Finding 9: "which" and "where" describe after "one" as "that" does.
        "Find me a hotel in Austin, one which allows pets.",
        "Look for a flat in Leeds, one where dogs are allowed.",
    ],
)
def test_a_piece_about_the_same_thing_still_joins(message: str) -> None:
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    ("piece", "before", "expected"),
    [
        ("The hotel must have a pool", "Book a flight to Boston", False),
        ("The hotel must have a pool", "Find a hotel in Boston", True),
        ("The rooms must have a view", "Book a room in Nice", True),
        ("make sure the rent is paid", "Transfer 200 dollars", False),
        ("make sure it is quiet", "Find a flat in Leeds", True),
        ("make sure it was paid", "Find a flat in Leeds", False),
        ("one which allows pets", "Find a hotel", True),
    ],
)
def test_requires_reads_the_request_before(piece: str, before: str, expected: bool) -> None:
    assert requires(piece, before=before) is expected


@pytest.mark.parametrize(
    ("piece", "before", "expected"),
    [
        ("stay at the Bellagio", "Book a flight to Vegas", False),
        ("stay until Sunday", "Book a hotel room in Vegas", True),
        ("fly to Rome on the 3rd", "Book a hotel in Rome", False),
        ("fly back on the 3rd", "Find me a flight to Rome", True),
        ("check in for my flight", "Book me a flight", False),
        ("check out at 11", "Book a hotel", True),
    ],
)
def test_schedules_after_and_reads_the_request_before(
    piece: str, before: str, expected: bool
) -> None:
    assert schedules_after_and(piece, before=before) is expected


@pytest.mark.parametrize(
    ("piece", "before", "expected"),
    [
        ("Find something in Oslo", "Play some jazz", False),
        ("Find something in Oslo", "Show me some museums", True),
        ("find one near the pier", "Book me a plumber", True),
        ("Find something for dinner", "Find me a place to eat", False),
        ("Look for one in SF", "Get me a bike shop", True),
    ],
)
def test_narrows_reads_the_request_before(piece: str, before: str, expected: bool) -> None:
    assert narrows(piece, before=before) is expected
