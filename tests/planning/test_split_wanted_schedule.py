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


def test_the_shapes() -> None:
    assert schedules_wanted("I want to pick up around 15:00")
    assert schedules_wanted("we need to leave Monday next week")
    assert not schedules_wanted("I want to pick the blue one")
    assert not schedules_wanted("I want to drop by the shop")
    assert needs_for_span("I'll need it until the 13th of March")
    assert needs_for_span("We want them for three days")
    assert not needs_for_span("I need it for my boss")
    assert not needs_for_span("I need to go until 5")
