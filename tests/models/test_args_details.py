"""Details as people write them (s70-args2): a decimal number, a count in words with a noun, an
abbreviated label before a value, a unit written out, and a "label: value" field after a request
that the planner keeps with it."""

from __future__ import annotations

from typing import Any

import pytest

from harness import run_sync
from harness.models._arguments import fill
from harness.planning.split import split_requests
from tests.fixtures.pending.dev import build

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NUM: dict[str, Any] = {"type": "number"}


def _fill(props: dict[str, Any], text: str, tool: str) -> dict[str, Any]:
    return fill(props, list(props), text, tool=tool)


@pytest.mark.parametrize(
    ("props", "text", "name", "value"),
    [
        ({"tonnes": NUM, "date": STR}, "deliver 1.5 tonnes of sand on Friday", "tonnes", 1.5),
        ({"litres": NUM, "tank": STR}, "fill 40.5 litres of diesel into tank B12", "litres", 40.5),
        ({"length_m": NUM, "date": STR}, "moor a 9.5 metre boat on Friday", "length_m", 9.5),
        ({"weight_kg": NUM}, "send a parcel of 2 kilos", "weight_kg", 2),
        ({"eggs": INT}, "order a dozen eggs", "eggs", 12),
        ({"eggs": INT}, "order two dozen eggs", "eggs", 24),
        ({"people": INT, "date": STR}, "book the class for six on Saturday", "people", 6),
        # A price is no amount of another unit; a count right before the noun is its number.
        ({"hours": NUM, "bay": STR}, "book bay 4 for 3 hours at £2.50 an hour", "hours", 3),
        ({"litres": NUM}, "fill 40 litres at 1.45 per litre", "litres", 40),
        # A decimal after the argument's own noun stays whole.
        ({"version": STR}, "upgrade the app to version 2.5", "version", "2.5"),
        (
            {"players": INT, "night": STR},
            "reserve a table for a team of five on Thursday",
            "players",
            5,
        ),
        ({"berth": STR}, "pump out berth no. 7", "berth", "7"),
        ({"berth": STR, "litres": NUM}, "fill diesel at berth C3, qty 60", "litres", 60),
        ({"berth": STR, "litres": NUM}, "fill diesel at berth C3, qty 60", "berth", "C3"),
        (
            {"night": STR, "players": INT},
            "reserve a table for 4 players on Thursday",
            "night",
            "Thursday",
        ),
    ],
)
def test_a_detail_is_read_as_written(
    props: dict[str, Any], text: str, name: str, value: Any
) -> None:
    assert _fill(props, text, "book_it")[name] == value


@pytest.mark.parametrize(
    ("props", "text", "name"),
    [
        # A label or a number in words is never a name the request gives.
        ({"bags": INT, "postcode": STR}, "collect bags, qty 6", "postcode"),
        ({"bags": INT, "area": STR}, "collect a dozen bags", "area"),
        # A count of one noun is no party of another: "for 2 nights", "for 3 adults".
        ({"guests": INT, "nights": INT}, "a cabin for 2 nights for 3 adults", "guests"),
        # "for N things" is a party only when the things are people (``person``'s words).
        ({"passengers": INT, "date": STR}, "a shuttle for 3 suitcases on Friday", "passengers"),
        ({"people": INT, "date": STR}, "a table for 2 highchairs on Saturday", "people"),
        ({"people": INT, "date": STR}, "a table on Friday for 3 courses", "people"),
        # A number counted ("2 of the ...") or where a change starts ("from version 3") is no
        # identifier.
        ({"order_id": STR}, "cancel order 2 of the sandwiches", "order_id"),
        ({"version": STR}, "upgrade the app from version 3 to the latest", "version"),
    ],
)
def test_a_label_or_another_noun_fills_nothing(props: dict[str, Any], text: str, name: str) -> None:
    assert name not in _fill(props, text, "collect_bags")


def _any(_piece: str, _before: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "deliver topsoil to BS7 8PL on Thursday. tonnes: 2",
        "print A5 leaflets, copies: 250",
        "book a bell tent, nights: 3, guests: 2, arriving Sunday",
        "book a groom on Friday. No. of dogs: 3",
        "book bay no. 12 for 2 hours on Saturday",
    ],
)
def test_a_label_value_detail_stays_with_its_request(message: str) -> None:
    assert split_requests(message, _any) == [message]


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("Question: can I pay later? and book a room", 2),
        ("check the weather. Another thing: hey, anyone seen my w-2", 2),
        # A label opening with a determiner leads into a request of its own, even before a
        # value with a number.
        ("order a cake for me please. Another thing: two candles on top.", 2),
        ("find me a plumber please. The other thing: two quotes by Monday.", 2),
    ],
)
def test_a_colon_before_a_request_still_opens_it(message: str, count: int) -> None:
    assert len(split_requests(message, _any)) == count


_GROOMING = {
    "tools": (
        "def book_groom(dogs: int, date: str) -> str:\n"
        '    """Book a dog grooming appointment for a number of dogs on a date."""\n'
        '    return f"{dogs} dogs booked for grooming on {date}."\n\n'
        "def groom_prices() -> str:\n"
        '    """Prices of our dog grooming services."""\n'
        '    return "A full groom is 40 pounds."\n\n'
        "def book_space(bay: str, hours: float, date: str) -> str:\n"
        '    """Book a parking bay for a number of hours on a date."""\n'
        '    return f"Bay {bay} for {hours} hours on {date}."\n'
    ),
    "agents": [
        {
            "name": "groomer",
            "mode": "direct",
            "tools": ["book_groom", "groom_prices", "book_space"],
            "description": "Books dog grooming and parking, gives grooming prices.",
        }
    ],
}


@pytest.mark.parametrize(
    ("message", "tool", "args"),
    [
        (
            "book a space for 2 hours on Saturday. bay: B7",
            "book_space",
            {"bay": "B7", "hours": 2, "date": "Saturday"},
        ),
        ("book a groom on Friday. No. of dogs: 3", "book_groom", {"dogs": 3, "date": "Friday"}),
        ("book a groom for 2 dogs. Date: Friday", "book_groom", {"dogs": 2, "date": "Friday"}),
    ],
)
def test_a_field_after_a_full_stop_fills_exactly_and_nothing_is_asked(
    message: str, tool: str, args: dict[str, Any]
) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    said = run_sync(build(_GROOMING, calls).conversation().send(message)).text
    assert calls == [(tool, args)]
    assert "?" not in said
