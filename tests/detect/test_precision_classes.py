"""Precision on text written in new domains (issue 24, failure classes 2, 3 and 5): each case is
new text written for these tests (no transcript of the development or blind corpus is used)."""

from __future__ import annotations

import pytest

from harness.detect._updates import new_state
from harness.text import analyse
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


def test_another_product_with_the_same_terms_as_well_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "How long is the warranty on the blender?"),
        ("store", "The blender comes with a 2-year warranty and free returns within 30 days."),
        ("user", "What about the toaster?"),
        (
            "store",
            "The toaster comes with a 2-year warranty and free returns within 30 days as well.",
        ),
    )
    assert found == []


def test_a_rewording_between_common_words_beside_stop_words_is_still_a_duplicate() -> None:
    # "begins" / "starts" are words of the SGD bots' own wording: beside stop words ("as
    # well") their swap is a rewording. Fails while the loose reading took any swap.
    found = duplicates(
        ("user", "When is the recital?"),
        ("school", "The spring recital begins at 5:30 pm in the main hall."),
        ("school", "The spring recital starts at 5:30 pm in the main hall as well."),
    )
    assert ("m2", "m3") in pairs(found)


# Known gaps, on new text: each fails today and says what it needs (strict, so a fix shows). --


def test_another_drug_named_first_with_the_same_copay_is_not_a_duplicate() -> None:
    # Fails before the user's naming of the later item was read: the drug moved in the
    # sentence, so no word was swapped in place.
    found = duplicates(
        ("user", "What's my copay for lisinopril?"),
        ("pharmacy", "Your lisinopril copay is $10 for a 30-day supply."),
        ("user", "And metformin?"),
        ("pharmacy", "For metformin, your copay is also $10 for a 30-day supply."),
    )
    assert found == []


def test_another_crop_the_user_named_moved_to_the_front_is_not_a_duplicate() -> None:
    # Fails before the user's naming of the later item was read.
    found = duplicates(
        ("user", "How much are the tomato seedlings?"),
        ("nursery", "Tomato seedlings are $3 each and ship within 2 days."),
        ("user", "what about basil?"),
        ("nursery", "For basil, the seedlings are $3 each and ship within 2 days too."),
    )
    assert found == []


def test_another_add_on_the_user_named_with_the_same_allowance_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "What's the data cap on the starter plan?"),
        ("telecom", "The starter plan includes 20 GB of data and costs $25 a month."),
        ("user", "and the roaming add-on?"),
        ("telecom", "With the roaming add-on, you also get 20 GB of data for $25 a month."),
    )
    assert found == []


def test_the_same_item_restated_beside_the_answer_to_a_new_name_is_still_a_duplicate() -> None:
    # Control: the user named something new ("Leeds"), answered in a sentence of its own; the
    # restated sentence names no item of the user's, so it is the same claim again.
    found = duplicates(
        ("user", "How much are the tomato seedlings?"),
        ("nursery", "Tomato seedlings are $3 each and ship within 2 days."),
        ("user", "do you deliver to Leeds?"),
        (
            "nursery",
            "We deliver to Leeds. For tomatoes, the seedlings are $3 each and ship within 2 days.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_the_first_item_said_again_after_the_user_named_another_is_still_a_duplicate() -> None:
    # Control: the user named another drug, but the reply restates the first one's claim.
    found = duplicates(
        ("user", "What's my copay for lisinopril?"),
        ("pharmacy", "Your lisinopril copay is $10 for a 30-day supply."),
        ("user", "And metformin?"),
        ("pharmacy", "As I said, for lisinopril your copay is $10 for a 30-day supply."),
    )
    assert ("m2", "m4") in pairs(found)


# 2. A new state of the same item, and its controls -----------------------------------------


def test_a_new_state_of_the_same_room_is_an_update() -> None:
    # Fails before what each message says about the labelled item was read: the shared room
    # number was taken for a shared claim.
    found = duplicates(
        ("user", "Is room 214 ready?"),
        ("hotel", "Room 214 is still being cleaned."),
        ("user", "And now?"),
        ("hotel", "Room 214 is ready and your key cards are at the front desk."),
    )
    assert found == []


def test_a_flight_that_now_lands_at_a_time_after_a_delay_is_an_update() -> None:
    # The issue's own example of class 2. Fails before what each message says was read.
    found = duplicates(
        ("user", "Is DL 1422 on time?"),
        ("airline", "DL 1422 is delayed."),
        ("user", "When will it get in?"),
        ("airline", "DL 1422 will land at 7:32 PM."),
    )
    assert found == []


def test_a_finished_repair_after_one_in_progress_is_an_update() -> None:
    found = duplicates(
        ("user", "How is the repair on job 4471 going?"),
        ("garage", "Job 4471: the brakes are being replaced."),
        ("user", "Is it done?"),
        ("garage", "Job 4471 is finished and the car can be collected."),
    )
    assert found == []


def test_a_closing_gate_after_a_boarding_one_is_an_update() -> None:
    found = duplicates(
        ("user", "Where do I board?"),
        ("airline", "Gate B12 is now boarding."),
        ("user", "ok"),
        ("airline", "Gate B12 is closing in 10 minutes."),
    )
    assert found == []


def test_the_same_state_of_the_room_in_other_words_is_still_a_duplicate() -> None:
    # Control: the later message says again what the earlier said about the room. The refit after
    # phone numbers became one id (7ccbfd7) scored this reworded, unprompted restatement below
    # 0.5 (an expected failure until then); the refit on the rows the code builds (s60-refit)
    # finds it again.
    found = duplicates(
        ("user", "Is room 214 ready?"),
        ("hotel", "Room 214 is ready and your key cards are at the front desk."),
        ("user", "Where is the gym?"),
        ("hotel", "The gym is on floor 2."),
        ("hotel", "Room 214 is ready for you; the key cards are waiting at the front desk."),
    )
    assert ("m2", "m5") in pairs(found)


def test_the_same_state_again_as_a_reply_is_still_a_duplicate() -> None:
    # Control: a reply to the user that says the same about the ticket ("still waiting").
    found = duplicates(
        ("user", "What's happening with ticket 5521?"),
        ("it", "Ticket 5521 is waiting for an engineer."),
        ("user", "ok thanks"),
        ("it", "Ticket 5521 is still waiting for an engineer to pick it up."),
    )
    assert ("m2", "m4") in pairs(found)


def test_the_same_state_in_a_learned_rewording_is_still_a_duplicate() -> None:
    # Control: "departs" / "leaves" is a rewording learned from SGD, so the later message says
    # again what the earlier said about the train.
    found = duplicates(
        ("user", "When does train 4411 leave?"),
        ("rail", "Train 4411 departs from platform 2."),
        ("user", "Is there a cafe on board?"),
        ("rail", "Yes, in coach C."),
        ("rail", "Train 4411 leaves from platform 2."),
    )
    assert ("m2", "m5") in pairs(found)


def test_the_same_state_in_other_words_sent_after_another_answer_is_still_a_duplicate() -> None:
    # Control: not the reply to the user's message (the turn's answer came first), so it is
    # left to the scorer, which calls it a repeat.
    found = duplicates(
        ("user", "Where's my order?"),
        ("shop", "Your order 1234 is on its way."),
        ("user", "Thanks. Do you sell socks?"),
        ("shop", "Yes, we sell socks."),
        ("shop", "Order 1234 has shipped."),
    )
    assert ("m2", "m5") in pairs(found)


def test_the_same_state_of_the_same_subject_is_still_a_duplicate() -> None:
    # Control: the same subject, and the later message says again what the earlier said of it.
    found = duplicates(
        ("user", "Where's my order?"),
        ("shop", "Your order of 2 Nike Pegasus shoes is packed and waiting for the courier."),
        ("user", "ok"),
        (
            "shop",
            "Your order of 2 Nike Pegasus shoes is packed, waiting for the courier to collect it.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_new_state_said_to_repeat_is_still_a_duplicate() -> None:
    # Control: a message that says itself it repeats is read as a repeat.
    found = duplicates(
        ("user", "Is room 214 ready?"),
        ("hotel", "Room 214 is still being cleaned."),
        ("user", "ok"),
        ("hotel", "As I mentioned, room 214 is not ready yet, housekeeping is on it."),
    )
    assert ("m2", "m4") in pairs(found)


@pytest.mark.xfail(
    strict=True, reason="class 2: two wordings of one state that SGD never swaps read as an update"
)
def test_the_same_state_in_other_words_as_a_reply_is_still_a_duplicate() -> None:
    found = duplicates(
        ("user", "Where's my order?"),
        ("shop", "Your order 1234 is on its way."),
        ("user", "Thanks."),
        ("shop", "Order 1234 has shipped."),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_shipped_order_after_a_packed_one_is_an_update() -> None:
    # Fails before the subject of a claim was read: the item is a count and a name under no
    # label word ("Your order of 2 Nike Pegasus shoes"), the same subject in both messages.
    found = duplicates(
        ("user", "Where's my order?"),
        ("shop", "Your order of 2 Nike Pegasus shoes is packed and waiting for the courier."),
        ("user", "And now?"),
        ("shop", "Your order of 2 Nike Pegasus shoes has shipped with UPS."),
    )
    assert found == []


def test_a_booking_notice_after_a_confirmation_request_is_not_a_duplicate() -> None:
    # Fails before an accepted offer to act was read: the act tagger, fitted on SGD's notices
    # (which carry no values), reads "Max is booked in for 3 nights from July 12" as an offer.
    found = duplicates(
        ("user", "Price for boarding Max?"),
        ("kennel", "Boarding for a large dog is $48 per night, including two walks a day."),
        ("user", "3 nights from July 12"),
        (
            "kennel",
            "That's 3 nights of boarding for Max from July 12, at $48 per night - $144 in total. "
            "Shall I reserve it?",
        ),
        ("user", "sure"),
        (
            "kennel",
            "Max is booked in for 3 nights from July 12. The total of $144 is due at drop-off.",
        ),
    )
    assert found == []


# 3. An outcome after the user accepted an offer to act, and its controls -----------------

_SERVICE = (
    "That's a full inspection plus an oil change for your Civic on Tuesday at 8 am, $129 in "
    "total. Shall I book it?"
)
_BOOKED = (
    "Your Civic is booked in for a full inspection plus an oil change on Tuesday at 8 am; the "
    "$129 is payable on collection."
)


def test_a_booking_notice_after_a_yes_is_not_a_duplicate() -> None:
    # Fails before an accepted offer to act was read.
    found = duplicates(
        ("user", "Can I get my Civic serviced next week?"),
        ("garage", _SERVICE),
        ("user", "yes please"),
        ("garage", _BOOKED),
    )
    assert found == []


def test_the_same_details_after_a_no_are_still_a_duplicate() -> None:
    found = duplicates(
        ("user", "Can I get my Civic serviced next week?"),
        ("garage", _SERVICE),
        ("user", "no, not yet"),
        ("garage", _BOOKED),
    )
    assert ("m2", "m4") in pairs(found)


def test_the_offer_asked_again_after_a_yes_is_still_a_duplicate() -> None:
    found = duplicates(
        ("user", "Can I get my Civic serviced next week?"),
        ("garage", _SERVICE),
        ("user", "sure"),
        (
            "garage",
            "So that's a full inspection plus an oil change for your Civic on Tuesday at 8 am, "
            "$129 in total. Shall I go ahead and book it?",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_an_ok_to_a_message_that_offered_nothing_excuses_no_repeat() -> None:
    found = duplicates(
        ("user", "What does the 60k service include?"),
        ("garage", "The 60k service for your Civic is a full inspection plus an oil change, $129."),
        ("user", "ok"),
        (
            "garage",
            "Reminder: the 60k service for your Civic is a full inspection plus an oil change, "
            "$129.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("Your table for 4 is booked.", "Your table for 4 is confirmed."),
        ("Your refund of $40 is approved.", "Your refund of $40 has been accepted."),
    ],
)
def test_a_count_or_an_amount_in_an_alike_subject_is_no_item(first: str, again: str) -> None:
    # Control: the subjects share only a count or an amount, which is no item's name; the new
    # state rule leaves the pair to the scorer (the first pair was excused before).
    assert not new_state(analyse(first), analyse(again))
