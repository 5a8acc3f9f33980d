"""Phone numbers written in digit groups are one fact (``harness.text.facts``)."""

from __future__ import annotations

import pytest

from harness.text import extract_facts


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("Call +44 20 7946 0018 today.", "442079460018"),
        ("Their number is +254 719 096000.", "254719096000"),
        ("You can call them at 1 71 19 33 33.", "171193333"),
        ("It's (650) 341-6888.", "6503416888"),
        ("+1 415-546-3110", "14155463110"),
        ("Dial 20 7071 5029 for tickets", "2070715029"),
        ("Their phone number is 925 686 6868.", "9256866868"),
    ],
)
def test_a_phone_number_in_digit_groups_is_one_id(text: str, digits: str) -> None:
    assert [(f.kind, f.value) for f in extract_facts(text)] == [("id", digits)]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("rooms 1 2 3", ["1", "2", "3"]),  # too few digits for a phone number
        ("between 5 and 6", ["5", "6"]),
        ("12 34 56 78.5", ["12", "34", "56", "78.5"]),  # a decimal ends no phone number
        # Long enough for a phone number, but not written as one (no "+", no brackets, no word
        # for a phone before it): a list of numbers, a price, a date in digits.
        ("rooms 101 102 103 104 105 106 107", ["101", "102", "103", "104", "105", "106", "107"]),
        ("seats 12 14 16 18", ["12", "14", "16", "18"]),
        ("Tables 4 5 6 7 8 9 10", ["4", "5", "6", "7", "8", "9", "10"]),
        ("Price: 1 299 000", ["1", "299", "000"]),
        ("on 12 05 2024", ["12", "05"]),
    ],
)
def test_short_digit_groups_stay_numbers(text: str, values: list[str]) -> None:
    assert [f.value for f in extract_facts(text) if f.kind == "number"] == values
