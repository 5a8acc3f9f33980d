"""Weekday and month names are parts of dates, not names of items (new text)."""

from __future__ import annotations

from harness.detect.scorer import FEATURES, PairContext, message_values, pair_features
from harness.text import analyse


def test_abbreviated_days_and_months_are_no_item_names() -> None:
    # Fails before the calendar words were left out: "Sun" and "Feb" read as two names that
    # "Sunday, February 15" does not state.
    short = analyse("Your form was uploaded on Sun, Feb 15 and has been checked.")
    long = analyse("Your form (uploaded on Sunday, February 15) has been checked.")
    features = pair_features(
        short, long, None, PairContext(same_turn=False, turns_apart=1, same_sender=True), [], None
    )
    assert features[FEATURES.index("names_differ")] == 0.0
    names = {v for v in message_values(short) | message_values(long) if v.startswith("word:")}
    assert not names & {"word:sun", "word:feb", "word:sunday", "word:february"}


def test_a_capitalised_name_is_still_an_item_and_a_month_is_not() -> None:
    values = message_values(analyse("Your order from Brightwell ships on Monday, March 3."))
    assert "word:brightwell" in values
    assert "word:monday" not in values and "word:march" not in values
