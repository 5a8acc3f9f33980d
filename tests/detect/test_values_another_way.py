"""A restatement whose values are written another way reaches the scorer (new text).

Amounts in words, durations in another unit and an hour without its minutes share no fact with
the earlier message as the fact extractor reads it, so the claim rules found no restatement and
the comparison never met the pair (``docs/detector.md``: candidates and the claim rules)."""

from __future__ import annotations

import pytest

from harness.detect._spelled import spelled_restatement
from harness.detect._spelled_values import same_values, spelled_values
from harness.text import analyse
from tests.detect.test_failure_classes import duplicates, pairs


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("It is four hundred eighty dollars a year.", ("n", 480.0)),
        ("a twelve-hundred-dollar sofa", ("n", 1200.0)),
        ("it comes to fifty-five pounds", ("n", 55.0)),
        ("fifteen percent off every class", ("n", 15.0)),
        ("it takes half an hour", ("m", 30.0)),
        ("it takes 30 minutes", ("m", 30.0)),
        ("the first hour and a half is free", ("m", 90.0)),
        ("covered for two years", ("d", 730.5)),
        ("we'll see you in the morning at 9", ("t", 540.0)),
        ("we'll see you at 9:00 am", ("t", 540.0)),
    ],
)
def test_values_are_read_in_one_form(text: str, value: tuple[str, float]) -> None:
    assert value in {(kind, round(amount, 2)) for kind, amount, _ in spelled_values(text)}


def test_a_number_in_words_alone_counts_only_when_large() -> None:
    # "one of the two desks" states no value; "fourteen" or "two hundred" does.
    assert spelled_values("one of the two desks is free") == frozenset()
    assert ("n", 214.0, 1.0) in spelled_values("two hundred and fourteen seats are left")


def test_durations_in_other_units_agree_roughly() -> None:
    assert same_values("a 24-month warranty", "covered for two years")
    assert same_values("26 weeks at full pay", "six months at full pay")
    assert not same_values("for 2 guests", "for 3 guests")
    assert not same_values("held until 1 pm", "held until noon")
    assert not same_values("valid 30 days", "valid 6 weeks")


def test_values_in_words_are_a_restatement() -> None:
    earlier = analyse(
        "The **Annual Plus** membership is **$480** for 12 months, with 2 guest passes and a 15% "
        "discount on classes."
    )
    later = analyse(
        "In other words, Annual Plus costs four hundred eighty dollars for a full year, "
        "includes two guest passes and takes fifteen percent off every class."
    )
    found = spelled_restatement(earlier, later, 0.75)
    assert found is not None
    assert found.method == "semantic"


def test_another_value_of_the_same_kind_is_no_restatement() -> None:
    earlier = analyse("The Crisp 200 toaster has a 24-month warranty and costs $45.")
    later = analyse("The Crisp 200 kettle is covered for six months and costs forty-five dollars.")
    assert spelled_restatement(earlier, later, 0.75) is None


def test_values_shared_without_a_shared_word_are_no_restatement() -> None:
    earlier = analyse("Parking is $12 for 3 hours.")
    later = analyse("Twelve dollars buys three hours of wifi.")
    assert spelled_restatement(earlier, later, 0.75) is None


def test_a_rewording_with_amounts_in_words_is_a_duplicate() -> None:
    # Fails before: the comparison never met the pair.
    found = duplicates(
        ("user", "how much is the annual gym membership?"),
        (
            "gym",
            "The **Annual Plus** membership is **$480** for 12 months, with 2 guest passes and a "
            "15% discount on classes.",
        ),
        (
            "gym",
            "In other words, Annual Plus costs four hundred eighty dollars for a full year, "
            "includes two guest passes and takes fifteen percent off every class.",
        ),
    )
    assert ("m2", "m3") in pairs(found)


def test_another_item_with_its_values_in_words_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "how much are the tickets?"),
        ("museum", "Adult tickets are $25 and children under 12 pay $10."),
        ("user", "and for the planetarium?"),
        (
            "museum",
            "The planetarium show is thirty dollars for adults and fifteen dollars for children "
            "under twelve.",
        ),
    )
    assert found == []


def test_a_duration_in_another_unit_is_no_template_filled_twice() -> None:
    # Fails before: "24-month" / "two years" read as two values of one kind, so the two claims
    # were one template filled twice and the pair was never compared.
    found = duplicates(
        ("user", "what warranty does the blender have?"),
        (
            "shop",
            "The Vortex 900 blender comes with a 24-month warranty on the motor and 12 months on "
            "the jug.",
        ),
        ("shop", "So the Vortex 900 motor is covered for two years and the jug for one year."),
    )
    assert ("m2", "m3") in pairs(found)


def test_a_rewording_beside_a_shared_name_reaches_the_scorer_as_a_restatement() -> None:
    # Fails before: the shared name made the pair a near miss, never a restatement.
    found = duplicates(
        ("user", "how long can I park at the clinic?"),
        (
            "clinic",
            "Visitor parking at the Elm Road clinic is free for the first 90 minutes, then $3 per "
            "hour up to a maximum of $18.",
        ),
        ("user", "ok"),
        (
            "clinic",
            "Just so you know, the first hour and a half of parking at Elm Road costs nothing; "
            "after that it's three dollars an hour, capped at eighteen dollars.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_another_id_in_the_same_template_stays_another_statement() -> None:
    found = duplicates(
        ("user", "two guest passes for saturday please"),
        ("desk", "Guest pass GP-2201 issued: Saturday, May 9, lot spot K-1, valid 7:00 am–noon."),
        ("desk", "Guest pass GP-2202 issued: Saturday, May 9, lot spot K-2, valid 7:00 am–noon."),
    )
    assert found == []
