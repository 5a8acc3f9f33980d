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
        ({"people": INT, "day": STR}, "a class on Friday for five colleagues", "people", 5),
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
        # A code's part is never an identifier's label.
        ({"order_id": STR}, "cancel order ID 55123", "order_id", "55123"),
    ],
)
def test_look_alikes_of_codes_keep_their_values(
    props: dict[str, Any], text: str, name: str, value: str
) -> None:
    assert _fill(props, text)[name] == value


# The mend (s71-args3, after review): postal codes by their shape, codes by their own label,
# no common word in a code, no staff after "with", nouns that name only people.

CRATES: dict[str, Any] = {"postcode": STR, "crates": INT}
PALLETS: dict[str, Any] = {"zip": STR, "pallets": INT}


@pytest.mark.parametrize(
    ("props", "text", "value"),
    [
        (CRATES, "ship 7 crates to 42 Mill Road, BD7 1DP", "BD7 1DP"),
        (CRATES, "ship 9 crates to bd7 1dp", "bd7 1dp"),
        (CRATES, "ship 30 crates to 18 Quay Street NE1 3DX by Friday", "NE1 3DX"),
        (PALLETS, "move 300 pallets to 60614", "60614"),
        (PALLETS, "move 12 pallets to 60614-2201", "60614-2201"),
        (PALLETS, "move 12 pallets to 40 Lake Drive, Evanston, IL 60201", "60201"),
    ],
)
def test_a_postal_code_is_read_by_its_shape(props: dict[str, Any], text: str, value: str) -> None:
    assert _fill(props, text)[next(iter(props))] == value


@pytest.mark.parametrize(
    ("props", "text"),
    [
        # A count a noun follows, a house number, half of a code: asked for.
        (CRATES, "ship 300 crates please"),
        (CRATES, "ship 5 crates to 42 Mill Road, Bradford"),
        (CRATES, "ship five crates to BD7 on Monday"),
        (PALLETS, "move 30210 pallets next month"),
        (PALLETS, "ring 01632 960001 and move 4 pallets"),
    ],
)
def test_no_postal_code_without_its_shape(props: dict[str, Any], text: str) -> None:
    assert next(iter(props)) not in _fill(props, text)


def test_a_postcode_is_no_identifier_beside_it() -> None:
    props = {"invoice_id": STR, "postcode": STR}
    got = _fill(props, "bill it to CF24 4HQ, invoice 88213")
    assert got == {"invoice_id": "88213", "postcode": "CF24 4HQ"}


@pytest.mark.parametrize("reverse", [False, True])
def test_codes_go_by_the_word_before_them_in_any_parameter_order(reverse: bool) -> None:
    names = ["from_postcode", "to_postcode"]
    props = {n: STR for n in (names[::-1] if reverse else names)}
    assert _fill(props, "a van from BS1 4DJ to NE1 7RU") == {
        "from_postcode": "BS1 4DJ",
        "to_postcode": "NE1 7RU",
    }
    assert _fill(props, "a van to NE1 7RU from BS1 4DJ")["from_postcode"] == "BS1 4DJ"
    # Nothing says which is which: both are asked for.
    assert _fill(props, "a van between BS1 4DJ and NE1 7RU") == {}
    ids = ["member_number", "club_code", "fee"]
    typed = {"member_number": STR, "club_code": STR, "fee": {"type": "number"}}
    props = {n: typed[n] for n in (ids[::-1] if reverse else ids)}
    got = _fill(props, "renew with club code 431920 and member 77120034")
    assert (got["club_code"], got["member_number"]) == ("431920", "77120034")


def test_a_common_word_in_capitals_is_no_part_of_a_code() -> None:
    props = {"parcel_reference": STR}
    assert _fill(props, "WHERE IS MY PARCEL? IT IS 58812")["parcel_reference"] == "58812"
    assert _fill(props, "FIND PARCEL REF KT 58812")["parcel_reference"] == "KT 58812"


@pytest.mark.parametrize(
    "text",
    [
        "a boat trip on Monday with three drivers",
        "a boat trip on Monday with 2 heaters",
        "a boat trip on Monday for 4 tenders",
        "a boat trip on Monday for two doubles",
        "a boat trip on Monday for two scouts' picnics",
    ],
)
def test_staff_things_and_possessions_are_no_party(text: str) -> None:
    assert _fill({"people": INT, "day": STR}, text).get("people") is None


def test_person_nouns_name_only_people_and_the_docstring_describes_the_argument() -> None:
    assert all(names_people(w) for w in ("lodgers", "nannies", "neighbours", "cousins"))
    assert not any(names_people(w) for w in ("tenders", "doubles", "monitors", "parties"))
    about = "Reserve cabins on a day; a cabin sleeps any number of people."
    assert "cabins" not in _fill({"cabins": INT, "day": STR}, "cabins for four lodgers", about)
    about = "Reserve cabins on a day; cabins is the number of people staying."
    assert _fill({"cabins": INT, "day": STR}, "cabins for four lodgers", about)["cabins"] == 4


def test_a_number_another_argument_counts_is_no_reference() -> None:
    props = {"locker_reference": STR, "bags": INT}
    assert "locker_reference" not in _fill(props, "store 140 bags in my locker")
    assert _fill(props, "store 3 bags in locker ref QX 44120")["locker_reference"] == "QX 44120"
