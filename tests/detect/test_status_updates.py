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
    assert same_status("resolved", "closed")
    assert not same_status("paid", "refunded")
    # two statuses of one kind are not one status (they were, read by facts._STATES's kinds)
    assert not same_status("unpaid", "overdue")
    assert not same_status("opened", "reopened")
    assert not same_status("expired", "cancelled")
    assert not same_status("withdrawn", "revoked")
    assert swapped_words("Permit 4 was granted today.", "Permit 4 was approved today.") == 0
    assert swapped_words("Permit 4 was granted today.", "Permit 4 was refused today.") == 1


def test_stages_read_phrases_and_skip_modifiers() -> None:
    assert {s.status for s in stages("It is under review and on hold")} == {"pending"}
    assert stages("the approved supplier list") == frozenset()
    assert stages("it will be delivered on Friday") == frozenset()


# The review of s59-status: a status word counts only as what the claim states about the item.
# Its reproducers (tuning data) first, then new text. Each failed on 3c416c3, where any status word
# of a claim naming the item counted.

STATUS_WORD_NOT_THE_ITEMS = {
    "verbatim, and a condition (once approved)": [
        (U, "did my leave go in"),
        ("hr", "Leave request LV-5108 for 3-7 March was submitted this morning."),
        (
            "assistant",
            "Leave request LV-5108 for 3-7 March was submitted this morning and will show in your "
            "calendar once approved.",
        ),
    ],
    "verbatim, and another item's status": [
        (U, "my refund?"),
        ("refunds", "Refund RF-40112 of £120 was approved on 3 May."),
        (
            "assistant",
            "Refund RF-40112 of £120 was approved on 3 May because flight BA-2291 was cancelled.",
        ),
    ],
    "verbatim, and a question": [
        (U, "where's the lamp"),
        ("orders", "Order OR-55120 for the desk lamp shipped on 5 May."),
        (
            "assistant",
            "Order OR-55120 for the desk lamp shipped on 5 May - has it been delivered yet?",
        ),
    ],
    "a description (of paid leave), no verbatim": [
        (U, "did my leave go in"),
        ("hr", "Leave request LV-6120 for 5 days was submitted on 3 June."),
        ("assistant", "Leave request LV-6120 for 5 days of paid leave was submitted on 3 June."),
    ],
    # new text
    "a future ('ll)": [
        (U, "is the boiler job logged"),
        ("facilities", "Work order WO-7731 for the boiler was raised on Monday."),
        (
            "assistant",
            "Work order WO-7731 for the boiler was raised on Monday and it'll be completed by "
            "Thursday.",
        ),
    ],
    "a guess (may have been)": [
        (U, "what about my appeal"),
        ("appeals", "Appeal AP-3390 about the £60 fine was lodged on 2 May."),
        (
            "assistant",
            "Appeal AP-3390 about the £60 fine was lodged on 2 May and may have been accepted "
            "already.",
        ),
    ],
    "a time clause (until), no verbatim": [
        (U, "and the invoice?"),
        ("billing", "Invoice INV-9120 for £340 from the roofer was approved on 8 July."),
        (
            "assistant",
            "Invoice INV-9120 for £340 from the roofer, approved on 8 July, stays on hold until it "
            "is paid.",
        ),
    ],
    "a participle that describes (signed and completed)": [
        (U, "did the form go through"),
        ("forms", "Form DS-2210 for the parking permit was lodged on 3 May."),
        (
            "assistant",
            "Form DS-2210 for the parking permit, signed and completed, was lodged on 3 May.",
        ),
    ],
}


@pytest.mark.parametrize(
    "lines", STATUS_WORD_NOT_THE_ITEMS.values(), ids=STATUS_WORD_NOT_THE_ITEMS.keys()
)
def test_a_status_word_that_is_not_the_items_status_is_no_update(
    lines: list[tuple[str, str]],
) -> None:
    assert ("m2", "m3") in pairs(duplicates(*lines))


def test_the_earlier_status_is_read_from_the_sentence_that_refers_back() -> None:
    # The review's reproducer: "It is now under review." is the earlier message's status too.
    found = duplicates(
        (U, "my claim?"),
        ("claims", "Claim CL-30441 for £90 was lodged on 4 April. It is now under review."),
        ("assistant", "Claim CL-30441 for £90 is under review."),
    )
    assert ("m2", "m3") in pairs(found)
    # new text, read directly
    earlier = analyse("Work order WO-5120 for the lift was raised on 2 May. It has been completed.")
    assert not new_stage(earlier, analyse("Work order WO-5120 for the lift was completed."))


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # the review's reproducers
        (
            "Invoice INV-4471 for $80 from the plumber is unpaid.",
            "Invoice INV-4471 for $80 from the plumber is overdue.",
        ),
        (
            "Ticket INC-4410 about the printer was opened on 3 May.",
            "Ticket INC-4410 about the printer was reopened on 3 May.",
        ),
    ],
)
def test_two_statuses_of_one_kind_are_not_one_status(earlier: str, later: str) -> None:
    lines = [(U, "what's the state of it?"), ("agent", earlier), ("assistant", later)]
    assert duplicates(*lines) == []


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Work order WO-7731 for the boiler has now been completed.", {"completed"}),
        ("Work order WO-7731 completed at 3pm.", {"completed"}),
        (
            "Work order WO-7731 was raised on Monday and completed on Tuesday.",
            {"submitted", "completed"},
        ),
        (
            "Work order WO-7731 was raised on Monday, and it is now completed.",
            {"submitted", "completed"},
        ),
        ("Work order WO-7731, with the completed form, was raised on Monday.", {"submitted"}),
        ("Work order WO-7731 was raised; it should have been completed since.", {"submitted"}),
        ("Work order WO-7731 is due to be completed on Friday.", set()),
        ("Work order WO-7731 is going to be cancelled.", set()),
        ("Work order WO-7731 was raised while job WO-8800 was cancelled.", {"submitted"}),
        ("Work order WO-7731 was raised; job WO-8800 was cancelled.", {"submitted"}),
        ("Was work order WO-7731 completed?", set()),
        ("Work order WO-7731 was raised; the engineer is awaiting parts.", {"submitted"}),
        ("Work order WO-7731 was raised and is awaiting parts.", {"submitted", "pending"}),
        ("Work order WO-7731 for the pre-approved contractor was raised.", {"submitted"}),
        ("Work order WO-7731 for 3 days paid overtime was raised.", {"submitted"}),
        ("Work order WO-7731 got approved yesterday.", {"approved"}),
        ("Work order WO-7731 will be raised if the quote is approved.", set()),
    ],
)
def test_stages_read_the_items_predicate(text: str, read: set[str]) -> None:
    found = stages(text, frozenset({"wo7731"}), frozenset({"wo8800"}))
    assert {s.status for s in found} == read
