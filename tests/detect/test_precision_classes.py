"""Precision on text written in new domains (issue 24, failure classes 2, 3 and 5): each case is
new text written for these tests (no transcript of the development or blind corpus is used)."""

from __future__ import annotations

from tests.detect.test_failure_classes import duplicates, pairs

# 5. Lower-case domain nouns: one template about another item -------------------------------


def test_another_vaccine_with_the_same_price_and_an_also_is_not_a_duplicate() -> None:
    # Fails before stop words beside a swapped word were let through: "too" undid the swap.
    found = duplicates(
        ("user", "How much is the rabies shot for Bella?"),
        ("vet", "The rabies vaccine costs $45 and the visit takes about 15 minutes."),
        ("user", "What about the distemper one?"),
        ("vet", "The distemper vaccine costs $45 and the visit takes about 15 minutes too."),
    )
    assert found == []


def test_another_coverage_with_the_same_deductible_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "What's my dental deductible?"),
        ("insurance", "Your dental coverage has a $50 deductible per year."),
        ("user", "And for vision?"),
        ("insurance", "Your vision coverage also has a $50 deductible per year."),
    )
    assert found == []


def test_the_same_item_reworded_with_an_also_is_still_a_duplicate() -> None:
    # Control: stop words alone do not make a swap; the same coverage restated is a repeat.
    found = duplicates(
        ("user", "What's my dental deductible?"),
        ("insurance", "Your dental coverage has a $50 deductible per year."),
        ("user", "Can I see any dentist?"),
        (
            "insurance",
            "Any licensed dentist in the network. Your dental coverage also has a $50 "
            "deductible per year.",
        ),
    )
    assert ("m2", "m4") in pairs(found)
