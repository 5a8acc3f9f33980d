"""Contractions spelled out for comparing short messages word for word (new text)."""

from __future__ import annotations

import pytest

from harness.detect._wording import spelled_out


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("It's a folk ballad.", "It is a folk ballad."),
        ("We can't change the date.", "We can not change the date."),
        ("The desk won't open before 9.", "The desk will not open before 9."),
        ("They're on the second floor.", "They are on the second floor."),
        ("You've got 2 tickets left.", "You have got 2 tickets left."),
        ("Let's start with your address.", "Let us start with your address."),
        ("There’s a fee of $5.", "There is a fee of $5."),
    ],
)
def test_a_contraction_and_its_spelled_out_form_are_the_same_words(short: str, long: str) -> None:
    assert spelled_out(short) == spelled_out(long)


def test_a_possessive_is_left_as_it_is() -> None:
    # "'s" after a noun is mostly a possessive ("Max's lead"), not "is".
    assert spelled_out("Max's lead is red.") != spelled_out("Max is lead is red.")
    assert spelled_out("Max's lead is red.") == "maxs lead is red"
