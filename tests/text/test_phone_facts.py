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
    ],
)
def test_short_digit_groups_stay_numbers(text: str, values: list[str]) -> None:
    assert [f.value for f in extract_facts(text) if f.kind == "number"] == values
