"""How the offline planner's split keeps a wanted schedule and the span something is needed for
with the request before it (issue 25, session 47).

On a bot it has never seen, a real turn's one request often goes on with when the speaker wants
to come or go ("..., I want to pick up around 15:00") or how long they need what they asked for
("... and I'll need it until the 13th"); planned as a request of its own, it was routed on its
own words and the request was cut over entries. Every message here is new text.
"""

from __future__ import annotations

import pytest

from harness.planning._conditions import needs_for_span, schedules_wanted
from harness.planning.split import split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "Reserve a compact car in Reno. I want to pick up at 9 am and drop off by Friday.",
        "Find me a ferry to Naxos, we'd like to leave on the 3rd of June.",
        "Get us a coach to Leeds. We need to depart from Victoria around noon.",
        "Book a hotel in Porto and I plan to check in on Thursday.",
        "Rent me a kayak for the weekend. I'll need it until Sunday evening.",
        "Find a van for the move and we need them from the 2nd to the 4th.",
        "Book a table at Ottolenghi. We would like it for 8 pm.",
        # A request that points back at what was offered and names nothing of its own.
        "Could you try that again? I want to leave at 8 from Leeds.",
        "Please book it for me. We want to depart around noon.",
    ],
)
def test_a_wanted_schedule_or_span_is_part_of_the_request(message: str) -> None:
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    ("message", "count"),
    [
        # "pick up" with an object of its own asks on its own.
        ("Book a flight to Oslo. I want to pick up my dry cleaning at 5.", 2),
        # Leaving a place the speaker names is an object: a request of its own.
        ("Book a cab. I need to leave the office at 5.", 2),
        # A question asks on its own.
        ("Rent me a car. Do I need to return it by Monday?", 2),
        # "too" adds a request of its own.
        ("Book a bus to Lyon. I want to leave on Friday too.", 2),
    ],
)
def test_what_asks_on_its_own_is_still_cut(message: str, count: int) -> None:
    assert len(split_requests(message, _always)) == count


@pytest.mark.parametrize(
    "message",
    [
        # The request before names nothing one comes or goes with: the trip is a request of its
        # own, not the schedule of a table, a password or a delivery.
        "Reserve a booth for six at Nando's, I want to leave for Boston on Saturday.",
        "Order me a pizza. We need to depart at 7 for Chicago.",
        "Book a spa treatment for Friday. I need to return to Tulsa by Monday.",
        "Unlock my email account. I want to come in at 10 tomorrow.",
        "Cancel my lunch order and pick up around noon.",
        "Renew my gym membership and drop off by 6.",
        "Book me the table by the window. I want to leave for Denver at 5.",
    ],
)
def test_a_schedule_after_a_request_for_no_trip_is_cut(message: str) -> None:
    assert len(split_requests(message, _always)) == 2


def test_a_span_after_and_is_part_of_the_request() -> None:
    # Cut at "and" but for ``needs_for_span``: the rule that keeps it.
    message = "Reserve a camper van in Perth and we'll need it for five days."
    assert split_requests(message, _always) == [message]


def test_the_shapes() -> None:
    car = "Rent a car at the airport"
    assert schedules_wanted("I want to pick up around 15:00", before=car)
    assert schedules_wanted("we need to leave Monday next week", before="Find me a bus to Derby")
    assert not schedules_wanted("we need to leave Monday next week", before="Book a table for 4")
    assert not schedules_wanted("I want to pick the blue one", before=car)
    assert not schedules_wanted("I want to drop by the shop", before=car)
    assert needs_for_span("I'll need it until the 13th of March")
    assert needs_for_span("We want them for three days")
    assert not needs_for_span("I need it for my boss")
    assert not needs_for_span("I need to go until 5")
