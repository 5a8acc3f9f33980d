"""A new status of the same tracked item is an update, not a repeat (issue 24, failure class 2),
and a status said again in other words is still a repeat. New text written for these tests (no
corpus transcript, none of the pairs of the read-only diagnosis before them)."""

from __future__ import annotations

import pytest

from harness.detect._updates import new_stage
from harness.detect._wording import swapped_words
from harness.text import analyse
from harness.text._lifecycle import same_status, stages
from tests.detect.test_failure_classes import duplicates, pairs

U = "user"

UPDATES_SAME_TURN = {
    "leave request, submitted then approved": [
        (U, "did my leave go in?"),
        ("hr", "Leave request LV-2093 for 12-16 August was submitted this morning."),
        (
            "assistant",
            "Your leave request LV-2093 for 12-16 August has been approved by your manager.",
        ),
    ],
    "parcel, dispatched then delivered": [
        (U, "where's my blender"),
        ("parcels", "Parcel TRK-559102 with your blender was dispatched on 2 March."),
        (
            "assistant",
            "Parcel TRK-559102 with your blender, dispatched 2 March, was delivered to your porch "
            "at 14:05.",
        ),
    ],
    "grant, under review then rejected": [
        (U, "any word on the grant"),
        ("grants", "Grant application GA-1204 for the community garden, £4,800, is under review."),
        (
            "assistant",
            "Grant application GA-1204 for the community garden, £4,800, was rejected by the panel.",
        ),
    ],
}

UPDATES_ACROSS_TURNS = {
    "refund, being processed then paid": [
        (U, "where's my refund"),
        ("payments", "Refund RF-20554 of €63.40 for your returned kettle is being processed."),
        (U, "has it gone through now?"),
        (
            "payments",
            "Refund RF-20554 of €63.40 for your returned kettle has been paid to your card.",
        ),
    ],
    "timesheet, submitted then approved": [
        (U, "did my timesheet go in"),
        ("payroll", "Timesheet TS-40518 for week 23, 37.5 hours, was submitted on Friday."),
        (U, "ok, let me know when it's through"),
        ("payroll", "Timesheet TS-40518 for week 23, 37.5 hours, from Friday has been approved."),
    ],
    "parking appeal, under review then rejected": [
        (U, "my parking appeal?"),
        ("parking", "Appeal PCN-88104 against the £70 fine from 2 July is under review."),
        (U, "what did they decide"),
        ("parking", "Appeal PCN-88104 against the £70 fine from 2 July was rejected."),
    ],
}


@pytest.mark.parametrize("lines", UPDATES_SAME_TURN.values(), ids=UPDATES_SAME_TURN.keys())
def test_a_newer_status_relayed_in_the_same_turn_is_an_update(
    lines: list[tuple[str, str]],
) -> None:
    # Fails before the lifecycle stages: every earlier value comes back, so the scorer took it.
    assert duplicates(*lines) == []


@pytest.mark.parametrize("lines", UPDATES_ACROSS_TURNS.values(), ids=UPDATES_ACROSS_TURNS.keys())
def test_a_newer_status_in_a_later_turn_is_an_update(lines: list[tuple[str, str]]) -> None:
    # Fails before the lifecycle stages, as above.
    assert duplicates(*lines) == []


def test_one_status_in_another_word_is_still_a_repeat_in_the_same_turn() -> None:
    # Fails before the swap rule read status synonyms: "approved" / "granted" counted as a
    # swapped value.
    found = duplicates(
        (U, "was my leave ok?"),
        ("hr", "Leave request LV-3310 for 2-6 June has been approved."),
        ("assistant", "Your leave request LV-3310 for 2-6 June has been granted."),
    )
    assert ("m2", "m3") in pairs(found)


def test_one_status_in_another_word_is_still_a_repeat_after_another_answer() -> None:
    # Fails before the swap rule read status synonyms ("dispatched" / "shipped").
    found = duplicates(
        (U, "has my kettle gone out?"),
        ("parcels", "Parcel TRK-88120 with your kettle was dispatched on 9 May."),
        (U, "and what's your returns window?"),
        ("parcels", "You can send things back within 28 days."),
        ("parcels", "Parcel TRK-88120 with your kettle was shipped on 9 May."),
    )
    assert ("m2", "m5") in pairs(found)


RESTATEMENTS = {
    "an ambiguous word (received) for the same filing": [
        (U, "did my claim go in"),
        ("claims", "Claim CLM-1203 for £320 was submitted on 4 April."),
        ("assistant", "We received claim CLM-1203 for £320 on 4 April."),
    ],
    "said to repeat": [
        (U, "visa status?"),
        ("visas", "Visa application VA-5521 was lodged on 1 May."),
        ("assistant", "As I said, visa application VA-5521 from 1 May has been approved."),
    ],
    "an older stage added to the same status": [
        (U, "was my expense paid"),
        ("expenses", "Expense EX-80917 for $96 was approved on 3 June."),
        ("assistant", "Expense EX-80917 for $96, submitted 1 June, was approved on 3 June."),
    ],
    "a phrase of the same status": [
        (U, "where's my lamp"),
        ("orders", "Order OR-66120 for the desk lamp has shipped."),
        ("assistant", "Order OR-66120 for the desk lamp is on its way."),
    ],
}


@pytest.mark.parametrize("lines", RESTATEMENTS.values(), ids=RESTATEMENTS.keys())
def test_the_same_status_said_again_is_still_a_repeat(lines: list[tuple[str, str]]) -> None:
    assert ("m2", "m3") in pairs(duplicates(*lines))


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # an ambiguous word is no stage on either side
        ("Form TX-4471 was submitted on 3 March.", "Form TX-4471 was received on 3 March."),
        ("Return RMA-2204 was received on 4 May.", "Return RMA-2204 has been refunded."),
        ("Job JB-3391 is booked for Friday.", "Job JB-3391 is confirmed for Friday."),
        # another status of the same stage
        ("Invoice INV-5520 for $80 was paid.", "Invoice INV-5520 for $80 was completed."),
        # a stage not reached yet, or a modifier
        ("Order OR-4410 is ready.", "Order OR-4410 can be picked up from Monday."),
        ("Request LV-7719 was submitted.", "Your paid leave request LV-7719 went in."),
        # the status of another item
        ("Ticket INC-1101 was logged.", "Ticket INC-1102 has been resolved."),
        # a negated status
        ("Claim CL-6610 was lodged.", "Claim CL-6610 has not been approved yet."),
    ],
)
def test_no_new_stage(earlier: str, later: str) -> None:
    assert not new_stage(analyse(earlier), analyse(later))


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("Card 8832 is pending activation.", "Card 8832 was cancelled today."),
        ("Permit PM-2210 was approved.", "Permit PM-2210 was revoked on 2 May."),
        ("Ticket INC-1101 was logged.", "Ticket INC-1101 has been resolved."),
        ("Application AP-71 was approved.", "Sorry, application AP-71 was declined after all."),
    ],
)
def test_a_new_stage(earlier: str, later: str) -> None:
    assert new_stage(analyse(earlier), analyse(later))


def test_status_words_of_one_status_are_no_swapped_value() -> None:
    assert same_status("granted", "approved")
    assert same_status("Dispatched", "shipped")
    assert not same_status("paid", "refunded")
    assert swapped_words("Permit 4 was granted today.", "Permit 4 was approved today.") == 0
    assert swapped_words("Permit 4 was granted today.", "Permit 4 was refused today.") == 1


def test_stages_read_phrases_and_skip_modifiers() -> None:
    assert {s.status for s in stages("It is under review and on hold")} == {"pending"}
    assert stages("the approved supplier list") == frozenset()
    assert stages("it will be delivered on Friday") == frozenset()
