"""A short message said again word for word inside a later, longer bot message (issue 24 class
4: "a greeting contained in a later message", and any short statement the parent repeats above
its own closing line or answer).

New text written for these tests (no transcript of a labelled corpus, no audit probe), and a few
look-alikes a review wrote for the rule (marked "a review's probe"). The tests marked "fails on
bb9330f" found nothing there: a short message without facts was left out of the word-for-word
rule, and the scorer rates such pairs low. The controls each fail when one condition of
``harness.detect._around._contained`` is dropped (checked by mutation).
"""

from __future__ import annotations

from harness.detect.findings import Finding
from tests.detect.test_failure_classes import duplicates, pairs


def with_ids(found: list[Finding], *ids: str) -> list[Finding]:
    """The findings that hold all of ``ids`` (a control asserts there is none)."""
    return [f for f in found if set(ids) <= set(f.message_ids)]


def test_a_sub_agents_short_outcome_repeated_above_the_parents_closer_is_a_duplicate() -> None:
    # Fails on bb9330f.
    found = duplicates(
        ("user", "Please renew my library books."),
        ("library", "All three books are renewed."),
        ("concierge", "All three books are renewed. Can I do anything else for you today?"),
    )
    assert ("m2", "m3") in pairs(found)


def test_a_sub_agents_short_answer_repeated_before_another_answer_is_a_duplicate() -> None:
    # Passes on bb9330f too (the scorer takes this one); the rule takes it whatever the scorer
    # says.
    found = duplicates(
        ("user", "Is the rooftop bar open, and do you lend umbrellas?"),
        ("hotel", "The rooftop bar is closed for repairs."),
        (
            "concierge",
            "The rooftop bar is closed for repairs. Umbrellas can be borrowed at reception.",
        ),
    )
    assert ("m2", "m3") in pairs(found)


def test_a_short_statement_repeated_inside_a_later_turns_second_reply_is_a_duplicate() -> None:
    # Fails on bb9330f: the same statement inside a longer message of a later turn, after that
    # turn's own reply, told the user nothing they had not read.
    found = duplicates(
        ("user", "Did my prescription go through?"),
        ("pharmacy", "Your prescription is ready for pickup."),
        ("user", "What time does the pharmacy close?"),
        ("pharmacy", "We close at 9 pm tonight."),
        (
            "concierge",
            "Your prescription is ready for pickup. Bring a photo ID when you collect it.",
        ),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_holding_line_in_separate_turns_inside_a_longer_message_is_not_a_duplicate() -> None:
    # A control (the labelling rules' hard negative): an acknowledgement in two turns states
    # nothing the user reads twice.
    found = duplicates(
        ("user", "Where is my suitcase?"),
        ("airline", "Give me a moment to look that up."),
        ("airline", "It is on the next flight from Lisbon."),
        ("user", "And can I get compensation?"),
        ("claims", "Compensation depends on how long the delay was."),
        ("airline", "Give me a moment to look that up. Delays over a day qualify for 40 euros."),
    )
    assert not [f for f in found if {"m2", "m6"} <= set(f.message_ids)]


def test_the_same_short_words_as_the_first_reply_to_a_new_question_are_left_alone() -> None:
    # A control: the first reply of a turn may answer a new question in the same words.
    found = duplicates(
        ("user", "What comes with the mushroom risotto?"),
        ("bistro", "It comes with a side salad."),
        ("user", "And the grilled trout?"),
        ("bistro", "It comes with a side salad. The trout is served with lemon butter."),
    )
    assert found == []


def test_a_short_statement_repeated_after_the_user_asked_for_it_again_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "Has my visa application been approved?"),
        ("visas", "Your visa application was approved."),
        ("user", "Sorry, can you repeat that? Was it approved?"),
        ("visas", "Sure."),
        ("visas", "Your visa application was approved. The passport will be posted back to you."),
    )
    assert found == []


# Across turns: only after a reply of the turn that states something -------------------------


def test_the_same_words_after_a_holding_line_answer_a_new_question_and_are_left_alone() -> None:
    # A control: "Let me look that up." states nothing, so the message after it is the turn's
    # real first reply, which may answer the new question in the same words (fails when any bot
    # message before it in the turn counts as a reply).
    found = duplicates(
        ("user", "Is the Elm Street branch open on Sunday?"),
        ("bank", "That branch is closed on Sundays."),
        ("user", "What about the one on Harbour Road?"),
        ("bank", "Let me look that up."),
        ("bank", "That branch is closed on Sundays. The city-centre branch opens 10 to 4."),
    )
    assert not with_ids(found, "m2", "m5")  # a review's probe


def test_a_look_up_line_the_tagger_reads_as_an_offer_is_no_reply_either() -> None:
    # A control: the act tagger reads "Checking." as an offer; the acknowledgement reading comes
    # first, so the message after it is still the turn's first real reply (fails without it).
    found = duplicates(
        ("user", "Has the order for the desk shipped?"),
        ("orders", "Your order has shipped."),
        ("user", "And the one for the chair I placed yesterday?"),
        ("orders", "Checking."),
        ("orders", "Your order has shipped. The chair left our warehouse this morning."),
    )
    assert not with_ids(found, "m2", "m5")  # a review's probe


def test_a_wait_line_before_the_reply_to_another_seat_leaves_the_same_words_alone() -> None:
    # A control on new text: a wait line ("Bear with me, ...") then the reply about a second
    # seat in the same words as the first seat's.
    found = duplicates(
        ("user", "Is seat 14A still free on the evening train?"),
        ("rail", "That seat has been taken."),
        ("user", "Could you try 14B instead?"),
        ("rail", "Bear with me while I look at the seat map."),
        ("rail", "That seat has been taken. Seat 15B next to it is free."),
    )
    assert not with_ids(found, "m2", "m5")


def test_after_a_holding_line_and_a_real_answer_the_same_statement_is_a_duplicate() -> None:
    # Fails on bb9330f: a holding line, then the turn's real answer, then a longer message that
    # repeats the earlier turn's statement: the user reads it twice.
    found = duplicates(
        ("user", "Did my gym membership renew?"),
        ("memberships", "Your membership has been renewed."),
        ("user", "When does the pool open?"),
        ("gym", "Sure, one moment."),
        ("gym", "The pool opens at 7 am."),
        ("assistant", "Your membership has been renewed. Enjoy your swim tomorrow morning!"),
    )
    assert with_ids(found, "m2", "m6")


def test_a_holding_line_the_tagger_reads_as_an_offer_said_again_is_no_statement() -> None:
    # A control: "One moment while I pull up your account." is an offer to the act tagger; said
    # again at the top of a later turn's second message it is still only a holding line (fails
    # without the acknowledgement reading before the tagger).
    found = duplicates(
        ("user", "Where is my refund?"),
        ("billing", "One moment while I pull up your account."),
        ("billing", "The refund was issued yesterday."),
        ("user", "And what do I owe for June?"),
        ("billing", "Nothing is owed for June."),
        ("billing", "One moment while I pull up your account. Your July bill is 31 pounds."),
    )
    assert not with_ids(found, "m2", "m6")


def test_a_statement_opening_the_reply_to_the_second_of_two_requests_is_left_alone() -> None:
    # A control: between two bot messages of a turn whose user message asks two things, the same
    # words may open the reply to the second of them (fails when the two-requests test is
    # dropped).
    found = duplicates(
        ("user", "Has my parcel to Leeds arrived?"),
        ("parcels", "Your parcel was delivered."),
        ("user", "What do I owe for the Leeds one, and has the Bristol parcel arrived?"),
        ("billing", "The Leeds parcel cost 4 pounds to send."),
        ("parcels", "Your parcel was delivered. It was left at the Bristol reception."),
        ("parcels", "Is there anything else I can do?"),
    )
    assert not with_ids(found, "m2", "m5")


# One turn, another sender -------------------------------------------------------------------


def test_the_same_holding_line_from_a_sub_agent_and_the_parent_in_one_turn_is_a_duplicate() -> None:
    # Fails on bb9330f: a holding line or closer from two senders of one turn is read twice,
    # whatever the user asked (fails when only statements are taken in one turn).
    found = duplicates(
        ("user", "Can you move my dentist appointment and tell me the new fee?"),
        ("dental", "Let me check the calendar."),
        ("assistant", "Let me check the calendar. Fees are listed on the next page."),
    )
    assert with_ids(found, "m2", "m3")


def test_two_answers_in_the_same_short_words_to_two_requests_of_a_turn_are_left_alone() -> None:
    # A control: two sub-agents answer the two requests of one user message in the same words
    # (fails when a statement from another sender of the turn is taken whatever was asked).
    found = duplicates(
        ("user", "Is my flight on time, and is the hotel shuttle on time?"),
        ("flights", "It is running on schedule."),
        ("shuttle", "It is running on schedule. The driver will meet you at door 4."),
    )
    assert not with_ids(found, "m2", "m3")  # a review's probe


def test_two_requests_of_one_verb_answered_in_the_same_words_are_left_alone() -> None:
    # A control on new text: one verb, two objects ("renew my gym pass and my locker"), two
    # senders answering in the same words.
    found = duplicates(
        ("user", "Please extend my gym pass and my locker rental."),
        ("memberships", "The extension has gone through."),
        ("lockers", "The extension has gone through. Your locker is yours until the end of June."),
    )
    assert not with_ids(found, "m2", "m3")


def test_the_same_question_back_from_two_senders_about_two_bookings_is_left_alone() -> None:
    # A control: a question back is neither a closer nor a holding line; two senders may ask it
    # about two things of one request (fails when anything that states nothing is taken from
    # another sender of the turn).
    found = duplicates(
        ("user", "Book me a table at Rosa's tonight and a taxi there."),
        ("restaurant", "What time would suit you?"),
        ("taxi", "What time would suit you? Cars are free from 6 pm."),
    )
    assert not with_ids(found, "m2", "m3")
