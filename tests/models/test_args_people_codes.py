"""People counted by who they are and codes written with a space (s71-args3): "a table for six
friends" gives a count of people, "LS6 2QT" is one postcode; look-alikes keep their values."""

from __future__ import annotations

from typing import Any

import pytest

from harness.models._arg_people import names_people
from harness.models._arguments import fill

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}


def _fill(props: dict[str, Any], text: str, about: str = "") -> dict[str, Any]:
    return fill(props, list(props), text, tool="book_it", about=about)


@pytest.mark.parametrize(
    ("props", "text", "name", "value"),
    [
        ({"people": INT, "day": STR}, "a table for six friends on Saturday", "people", 6),
        ({"guests": INT, "day": STR}, "reserve a table for eight cousins on Sunday", "guests", 8),
        ({"party_size": INT, "day": STR}, "seats for four neighbours on Thursday", "party_size", 4),
        ({"people": INT, "day": STR}, "a session for three teammates tomorrow", "people", 3),
        ({"people": INT, "day": STR}, "a class on Friday with five colleagues", "people", 5),
    ],
)
def test_a_count_of_people_named_by_who_they_are(
    props: dict[str, Any], text: str, name: str, value: int
) -> None:
    assert _fill(props, text)[name] == value


def test_the_docstring_says_an_argument_counts_people() -> None:
    about = "Book a puppy class on a day; owners is how many people come."
    props = {"owners": INT, "day": STR}
    assert _fill(props, "a puppy class for two flatmates on Monday", about)["owners"] == 2
    assert _fill(props, "a puppy class for 2 people on Monday", about)["owners"] == 2
    # Without the docstring, "owners" says nothing of people.
    assert "owners" not in _fill(props, "a puppy class for two flatmates on Monday")


@pytest.mark.parametrize(
    ("props", "text", "name"),
    [
        # Things, not people, after "for": no party.
        ({"people": INT, "day": STR}, "book a table for six chairs on Friday", "people"),
        ({"people": INT, "day": STR}, "a table on Friday for two puppies", "people"),
        # A count another argument takes, a length of time, a kind of person.
        ({"people": INT, "pairs": INT}, "a session for 6 pairs of shoes", "people"),
        ({"guests": INT, "nights": INT}, "a cabin for 2 nights", "guests"),
        ({"people": INT, "day": STR}, "a session on Friday for 3 adults", "people"),
        # A count said elsewhere in the request is no count of people.
        ({"people": INT, "day": STR}, "book on Saturday, we bring six friends' guitars", "people"),
    ],
)
def test_things_and_other_counts_are_no_party(props: dict[str, Any], text: str, name: str) -> None:
    assert _fill(props, text).get(name) in (None, 0)  # 0 beside another count it names


def test_nouns_of_people_come_from_the_shipped_table() -> None:
    assert all(names_people(w) for w in ("friends", "colleagues", "cousins", "neighbours"))
    assert not any(names_people(w) for w in ("suitcases", "highchairs", "courses", "puppies"))


@pytest.mark.parametrize(
    ("props", "text", "name", "value"),
    [
        ({"postcode": STR}, "post my card to LS6 2QT", "postcode", "LS6 2QT"),
        (
            {"postcode": STR, "day": STR},
            "collect it from SW1A 1AA on Friday",
            "postcode",
            "SW1A 1AA",
        ),
        ({"booking_reference": STR}, "find booking AB 12345", "booking_reference", "AB 12345"),
        ({"move_reference": STR}, "track move ZX 40991 please", "move_reference", "ZX 40991"),
        ({"booking_reference": STR}, "find booking AB12345", "booking_reference", "AB12345"),
        (
            {"from_postcode": STR, "to_postcode": STR},
            "move from LS6 2QT to EH1 1YZ",
            "to_postcode",
            "EH1 1YZ",
        ),
    ],
)
def test_a_code_in_two_parts_is_one_value(
    props: dict[str, Any], text: str, name: str, value: str
) -> None:
    assert _fill(props, text)[name] == value


@pytest.mark.parametrize(
    ("props", "text", "name", "value"),
    [
        # Two values that look like a code, for arguments that ask for no code.
        ({"room": STR, "wing": STR}, "show me room 12 B-wing", "room", "12"),
        ({"size": STR}, "slippers in size 10 UK", "size", "10"),
        # A code's part is never a word in lower case or an identifier's label.
        ({"postcode": STR}, "post it to LS6 today", "postcode", "LS6"),
        ({"order_id": STR}, "cancel order ID 55123", "order_id", "55123"),
    ],
)
def test_look_alikes_of_codes_keep_their_values(
    props: dict[str, Any], text: str, name: str, value: str
) -> None:
    assert _fill(props, text)[name] == value
