"""Predicate rewordings (issue 24, failure class 4): a word swapped for a learned rewording of it
("departs" / "leaves") says the same thing, while a word swapped for another value ("departs" /
"arrives", "opens" / "closes") does not. Each conversation is new text written for these tests
(no transcript of the development or blind corpus is used); the table is learned from SGD train
by ``tools/detector/rewordings.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.detect._wording import item_swaps, rewordings
from harness.detect.scorer import swapped_words
from tests.detect.test_failure_classes import duplicates, pairs

ROOT = Path(__file__).resolve().parents[2]
SGD = ROOT.parent / "shared" / "data" / "sgd"
TABLE = ROOT / "harness" / "detect" / "_models" / "rewordings.json"


def test_departs_and_leaves_in_the_same_wording_is_a_repeat() -> None:
    # Fails before the table: one word swapped for another in otherwise the same wording was
    # always read as another value.
    found = duplicates(
        ("user", "When does my train leave?"),
        ("rail", "Your train to Leeds departs at 6:40 pm from platform 4."),
        ("user", "Can I bring a bike?"),
        ("rail", "Bikes travel free but need a reservation."),
        ("assistant", "Your train to Leeds leaves at 6:40 pm from platform 4."),
    )
    assert ("m2", "m5") in pairs(found)


def test_begins_and_starts_sent_by_two_agents_in_one_turn_is_a_repeat() -> None:
    # Fails before the table (the swap rule).
    found = duplicates(
        ("user", "What time is the Copper Sky gig on Friday?"),
        ("events", "The Copper Sky gig begins at 8 pm on Friday at the Roundhouse."),
        ("assistant", "The Copper Sky gig starts at 8 pm on Friday at the Roundhouse."),
    )
    assert ("m2", "m3") in pairs(found)


def test_the_price_reworded_as_the_cost_is_a_repeat() -> None:
    # Fails before the table (the swap rule).
    found = duplicates(
        ("user", "How much is the annual plan?"),
        ("sales", "The annual plan's price is $120 per year, billed once."),
        ("user", "Does it include support?"),
        ("sales", "Yes, email support is included."),
        ("assistant", "The annual plan's cost is $120 per year, billed once."),
    )
    assert ("m2", "m5") in pairs(found)


def test_arrives_after_departs_is_another_fact() -> None:
    found = duplicates(
        ("user", "When does my train leave?"),
        ("rail", "Your train to Leeds departs at 6:40 pm from platform 4."),
        ("user", "And when does it get in?"),
        ("rail", "Your train to Leeds arrives at 6:40 pm at platform 4."),
    )
    assert found == []


def test_closes_after_opens_is_another_fact() -> None:
    found = duplicates(
        ("user", "When does the museum open on Sundays?"),
        ("info", "The Hallam Museum opens at 10 am on Sundays."),
        ("user", "And closing time?"),
        ("info", "The Hallam Museum closes at 10 am on Sundays."),
    )
    assert found == []


def test_a_swapped_value_is_still_a_swap_and_a_rewording_is_not() -> None:
    assert swapped_words("I found 10 events in Lisbon.", "I found 10 hotels in Lisbon.") == 1
    assert swapped_words("Your compact car is ready.", "Your standard car is ready.") == 1
    assert item_swaps("The show begins at 5 pm.", "The show starts at 5 pm.") == 0
    assert item_swaps("The flight departs at 9 am.", "The flight leaves at 9 am.") == 0


def test_the_table_pairs_rewordings_and_no_slot_values() -> None:
    table = rewordings()
    assert "leav" in table["depart"] and "depart" in table["leav"]
    assert "start" in table["begin"]
    for value in ("compact", "standard", "dermatologist", "italian", "arriv"):
        assert value not in table.get("depart", frozenset())
    # Words that SGD uses as slot values (car types, cuisines, specialists) are left out.
    for value in ("compact", "standard", "luxury", "dermatologist", "italian", "mexican"):
        assert value not in table


@pytest.mark.skipif(not SGD.is_dir(), reason="../shared/data/sgd is not beside the repo")
def test_the_shipped_table_is_what_the_builder_learns_from_sgd_train() -> None:
    from tools.detector.rewordings import build

    assert build(SGD) == json.loads(TABLE.read_text(encoding="utf-8"))
