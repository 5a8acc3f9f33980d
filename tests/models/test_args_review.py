"""The review of s69-args, kept: "hire" opens no acting name (read-only ``hire_*`` tools keep
reading, and "hire a car" still reaches ``rent_car``), a party with children in it gives a
single count of people neither number, and a number after a place that counts the noun after
it is the count's. The bots are the review's probes (new text, no corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from harness import run_sync
from harness.models._arguments import fill
from tests.fixtures.pending.dev import build

_S: dict[str, Any] = {"type": "string"}
_I: dict[str, Any] = {"type": "integer"}

_VANS = {
    "tools": '''
from typing import Literal
def hire_van(size: Literal["small", "large"], date: str) -> str:
    """Hire a van of a size on a date."""
    return f"A {size} van is booked for {date}."
def van_hire_prices() -> str:
    """Prices of van hire."""
    return "A small van is 60 pounds a day."
def hire_availability(date: str) -> str:
    """Which vans are free to hire on a date."""
    return f"Two vans are free on {date}."
def hire_options() -> str:
    """The kinds of vans we hire out."""
    return "Small and large vans."
''',
    "agents": [
        {
            "name": "vans",
            "mode": "direct",
            "tools": ["hire_van", "van_hire_prices", "hire_availability", "hire_options"],
            "description": "Hires out vans and tells prices, availability and options.",
        }
    ],
}
_BIKES = {
    "tools": '''
def hire_bikes(bikes: int, hours: int, date: str) -> str:
    """Hire bikes for a number of hours on a date."""
    return f"{bikes} bikes for {hours} hours on {date}."
def bike_hire_locations() -> str:
    """Where our bike hire stations are."""
    return "Station Road and the Quay."
def hire_fleet() -> str:
    """The bikes in our hire fleet."""
    return "City bikes and e-bikes."
''',
    "agents": [
        {
            "name": "bikes",
            "mode": "direct",
            "tools": ["hire_bikes", "bike_hire_locations", "hire_fleet"],
            "description": "Hires bikes and says where and which.",
        }
    ],
}
_CARS = {
    "tools": '''
def rent_car(date: str, days: int) -> str:
    """Rent a car from a date for a number of days."""
    return f"Car rented from {date} for {days} days."
def car_prices() -> str:
    """Prices of car rental."""
    return "A car is 40 pounds a day."
def hire_status(booking_ref: str) -> str:
    """Status of a car hire booking."""
    return f"Booking {booking_ref} is confirmed."
def hire_availability(date: str) -> str:
    """Which cars are free on a date."""
    return f"Three cars are free on {date}."
''',
    "agents": [
        {
            "name": "cars",
            "mode": "direct",
            "tools": ["rent_car", "car_prices", "hire_status", "hire_availability"],
            "description": "Rents cars and tells prices, status and availability.",
        }
    ],
}
_PARTIES = {
    "tools": '''
def book_table(people: int, date: str, time: str) -> str:
    """Book a table for some people on a date at a time."""
    return f"Table for {people} on {date} at {time}."
def book_tour(people: int, date: str) -> str:
    """Book a guided tour for some people on a date."""
    return f"Tour for {people} on {date}."
''',
    "agents": [
        {
            "name": "bookings",
            "mode": "direct",
            "tools": ["book_table", "book_tour"],
            "description": "Books tables and guided tours.",
        }
    ],
}


def _send(spec: dict[str, Any], text: str) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    said = run_sync(build(spec, calls).conversation().send(text)).text
    return said, calls


@pytest.mark.parametrize(
    ("spec", "text", "tool", "args"),
    [
        (_VANS, "which vans are free to hire on Friday", "hire_availability", {"date": "Friday"}),
        (_VANS, "what kinds of vans do you hire out", "hire_options", {}),
        (_VANS, "what hire options do you have", "hire_options", {}),
        (_BIKES, "which bikes are in the hire fleet", "hire_fleet", {}),
        (
            _CARS,
            "I'd like to hire a car on Friday for 3 days",
            "rent_car",
            {"date": "Friday", "days": 3},
        ),
        (_CARS, "what's free to hire on Saturday", "hire_availability", {"date": "Saturday"}),
    ],
)
def test_hire_keeps_the_tools_that_read(
    spec: dict[str, Any], text: str, tool: str, args: dict[str, Any]
) -> None:
    _, calls = _send(spec, text)
    assert (tool, args) in calls, calls


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("book a tour on Sunday for 2 adults and 3 children", "book_tour"),
        ("book a table on Friday at 7pm, 3 adults 1 child", "book_table"),
    ],
)
def test_adults_beside_children_give_a_single_count_of_people_neither(text: str, tool: str) -> None:
    said, calls = _send(_PARTIES, text)
    assert all(name != tool for name, _ in calls), calls
    assert "How many people" in said


def test_children_named_keep_a_people_count_from_any_other_word() -> None:
    props = {"people": _I, "date": _S}
    args = fill(
        props, list(props), "book a tour for 4 guests and 2 kids on Sunday", tool="book_tour"
    )
    assert "people" not in args


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # The number counts the lower-case noun after it: no house number.
        ("deliver to Ash Grove 12 boxes", {"address": "Ash Grove", "boxes": 12}),
        ("deliver to Ash Grove 12 boxes on Friday", {"address": "Ash Grove", "boxes": 12}),
        # A joining word after it: the place's number.
        ("deliver boxes to Willow Crescent 2 on Friday", {"address": "Willow Crescent 2"}),
    ],
)
def test_a_number_after_a_place_is_the_count_of_the_noun_after_it(
    text: str, want: dict[str, Any]
) -> None:
    props = {"address": _S, "boxes": _I}
    args = fill(props, list(props), text, tool="deliver_boxes")
    assert {k: args.get(k) for k in want} == want


def test_one_number_fills_a_place_or_a_count_never_both() -> None:
    props = {"address": _S, "quantity": _I}
    args = fill(props, list(props), "deliver sand to Ash Grove 4 please", tool="order_sand")
    assert args == {"address": "Ash Grove", "quantity": 4}
