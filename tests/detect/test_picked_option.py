"""A later message that keeps only the option the user picked from the earlier one's list
confirms the choice, whatever acts the tagger reads in it (``harness.detect._excuses``'
``keeps_the_pick``). The rule is checked apart from the learned scorer: a scorer double that calls
every candidate pair a duplicate leaves the rules alone to decide. New text written for these
tests."""

from __future__ import annotations

from harness.detect.duplicates import find_duplicates
from harness.detect.findings import DetectorConfig
from harness.detect.scorer import FEATURES, PairScorer
from tests.detect.test_failure_classes import conversation, pairs

EVERY_PAIR = PairScorer({"features": list(FEATURES), "trees": [], "bias": 10.0})
"""A scorer that calls every candidate pair a duplicate (probability 0.99995)."""

_SLOTS = (
    "groom",
    "Openings with the groomer (nail trim, 20 minutes): • **Wednesday, May 6, 11:40 am** "
    "• **Friday, May 8, 2:15 pm**",
)


def _found(*lines: tuple[str, str]) -> set[tuple[str, ...]]:
    return pairs(find_duplicates(conversation(*lines), DetectorConfig(), pair_model=EVERY_PAIR))


def test_an_outcome_keeping_the_picked_slot_is_no_duplicate_of_the_slot_list() -> None:
    # Fails before the rule: "Booked: ..." is tagged as informing only (no outcome act), and
    # the slot list asked no question, so no rule excused the pair.
    found = _found(
        ("user", "can you book Rex in for his nail trim?"),
        _SLOTS,
        ("user", "friday"),
        ("groom", "Booked: Rex, nail trim, **Friday, May 8 at 2:15 pm**. Reference **GR-4471**."),
    )
    assert ("m2", "m4") not in found


def test_the_pick_by_its_time_in_lower_case_words_is_kept_too() -> None:
    found = _found(
        ("user", "any slots for a nail trim for Rex?"),
        _SLOTS,
        ("user", "the 2:15 one on friday works"),
        ("groom", "Reserved — Friday, May 8 at 2:15 pm for Rex. Reference GR-4471."),
    )
    assert ("m2", "m4") not in found


def test_the_whole_list_sent_again_after_the_pick_is_still_a_duplicate() -> None:
    found = _found(
        ("user", "can you book Rex in for his nail trim?"),
        _SLOTS,
        ("user", "friday"),
        (
            "groom",
            "Openings with the groomer (nail trim, 20 minutes): Wednesday, May 6, 11:40 am or "
            "Friday, May 8, 2:15 pm.",
        ),
    )
    assert ("m2", "m4") in found


def test_an_outcome_of_a_value_the_list_did_not_offer_is_still_a_duplicate() -> None:
    # The user named no listed value, so nothing was picked from the list.
    found = _found(
        ("user", "can you book Rex in for his nail trim?"),
        _SLOTS,
        ("user", "anything on monday?"),
        (
            "groom",
            "Openings with the groomer (nail trim, 20 minutes): Friday, May 8, 2:15 pm. "
            "Nothing on Monday.",
        ),
    )
    assert ("m2", "m4") in found


def test_a_later_message_keeping_the_picked_day_with_another_options_time_is_a_duplicate() -> None:
    # Fails before the fix: only a listed kind stated twice was caught, so Wednesday's time
    # beside the picked Friday was read as the pick kept.
    found = _found(
        ("user", "can you book Rex in for his nail trim?"),
        _SLOTS,
        ("user", "friday"),
        ("groom", "Openings with the groomer (nail trim, 20 minutes): Friday, May 8, 11:40 am."),
    )
    assert ("m2", "m4") in found


def test_options_set_apart_by_or_are_told_apart_too() -> None:
    slots = ("groom", "Openings: Wednesday, May 6, 11:40 am or Friday, May 8, 2:15 pm.")
    kept = _found(
        ("user", "can you book Rex in for his nail trim?"),
        slots,
        ("user", "friday"),
        ("groom", "Booked: Rex, nail trim, Friday, May 8 at 2:15 pm. Reference GR-4471."),
    )
    mixed = _found(
        ("user", "can you book Rex in for his nail trim?"),
        slots,
        ("user", "friday"),
        ("groom", "Booked: Rex, nail trim, Friday, May 8 at 11:40 am. Reference GR-4471."),
    )
    assert ("m2", "m4") not in kept
    assert ("m2", "m4") in mixed
