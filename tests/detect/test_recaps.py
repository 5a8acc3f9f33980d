"""A later message that says itself it says something again (new text): a claim restated inside a
recap, a summary or a reminder, unprompted, is a duplicate whatever the scorer says; asked for,
or asking the user to confirm, it is not."""

from __future__ import annotations

import pytest

from harness.detect._recaps import says_again
from tests.detect.test_failure_classes import duplicates, pairs

_VET = (
    "Biscuit's **rabies booster** is due on **Tuesday 9 June**; the clinic on Harrow Road has "
    "openings that week from 08:30."
)


@pytest.mark.parametrize(
    "lead",
    [
        "To sum up:",
        "So you have everything in one place:",
        "Just a reminder:",
        "Here's where things stand:",
        "Just so it's clear:",
        "As I mentioned,",
        "In short,",
    ],
)
def test_a_bot_message_that_says_it_says_something_again(lead: str) -> None:
    assert says_again(f"{lead} the booster is due on 9 June.")


@pytest.mark.parametrize(
    "text",
    [
        "We'll send you a reminder a week before it leaves.",
        "I've set a reminder in your calendar for 9 June.",
        "The booster is due on 9 June.",
        "Remembering all of this is hard, so it's in the app too.",
    ],
)
def test_a_message_that_does_not(text: str) -> None:
    assert not says_again(text)


def _visit(user: str, lead: str) -> list[tuple[str, str]]:
    return [
        ("user", "when is biscuit's next jab"),
        ("vet", _VET),
        ("user", "ok. do you sell flea treatment?"),
        ("vet", "Yes, we stock spot-on flea treatment for dogs from £14.50 a pack."),
        ("user", user),
        (
            "vet",
            f"{lead} Biscuit's rabies booster is due on Tuesday 9 June, with openings that week "
            "at the Harrow Road clinic from 08:30, and the flea packs start at £14.50.",
        ),
    ]


@pytest.mark.parametrize(
    "lead", ["To sum up:", "Just a reminder:", "So you have everything in one place:"]
)
def test_a_claim_restated_inside_an_unprompted_recap_is_a_duplicate(lead: str) -> None:
    # Fails before: the scorer read the restatement after the user's thanks as its answer.
    found = duplicates(*_visit("great thanks", lead))
    assert any({"m2", "m6"} <= set(p) for p in pairs(found))


def test_a_recap_the_user_asked_for_is_no_duplicate() -> None:
    found = duplicates(*_visit("can you sum that all up for me?", "To sum up:"))
    assert not any({"m2", "m6"} <= set(p) for p in pairs(found))


def test_a_summary_that_asks_to_confirm_is_left_to_the_scorer() -> None:
    found = duplicates(
        ("user", "when is biscuit's next jab"),
        ("vet", _VET),
        ("user", "ok. do you sell flea treatment?"),
        ("vet", "Yes, we stock spot-on flea treatment for dogs from £14.50 a pack."),
        ("user", "book the booster then"),
        (
            "vet",
            "Just to sum up before I book: Biscuit's rabies booster on Tuesday 9 June at the "
            "Harrow Road clinic at 08:30. Shall I go ahead?",
        ),
    )
    assert not any({"m2", "m6"} <= set(p) for p in pairs(found))


def test_a_recap_names_another_item_and_still_repeats() -> None:
    # Fails before: "the other" in the user's statement read as asking for another option, and
    # the recap names an item the earlier message lacks, so the repeat was excused.
    found = duplicates(
        ("user", "my boiler broke"),
        (
            "home",
            "I've logged repair job **RJ-5521**. An engineer, Tomasz Wilk, will visit on "
            "Thursday 14 May between 08:00 and 12:00.",
        ),
        ("user", "the other flat upstairs has no hot water either, does that matter?"),
        (
            "home",
            "Thanks, I've added a note to RJ-5521 that the upstairs flat at Ferris Court is "
            "affected too, so Tomasz will check the shared pipework.",
        ),
        (
            "home",
            "So you have everything in one place: job RJ-5521, Tomasz Wilk visits on Thursday "
            "14 May between 08:00 and 12:00, and the upstairs flat at Ferris Court is on the "
            "job as well.",
        ),
    )
    assert any({"m2", "m5"} <= set(p) for p in pairs(found))


def test_a_recap_of_the_same_template_about_another_item_is_no_duplicate() -> None:
    # Fails without the names test: the claim rules match the two claims, and the rule must not
    # overrule the scorer's reading of two items, each named only on its side.
    found = duplicates(
        ("user", "am i covered for dental yet?"),
        (
            "benefits",
            "You're not eligible for the Northwind Dental plan until 4 May, and your spouse is "
            "covered.",
        ),
        ("user", "and the other one?"),
        (
            "benefits",
            "To sum up: you're not eligible for the Crestmoor Vision plan until 4 May, and your "
            "spouse is covered. Also, your gym discount renews on 1 June.",
        ),
    )
    assert not any({"m2", "m4"} <= set(p) for p in pairs(found))
