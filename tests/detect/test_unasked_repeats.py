"""Repeats nobody asked for, and values written in another format (issue 24's recall on text
written by people who never saw the detector).

New text written for these tests in domains of their own (no transcript of the development
corpus or of the blind corpus).
"""

from __future__ import annotations

from tests.detect.test_failure_classes import duplicates, pairs


def test_a_message_resent_whole_above_the_outcome_of_a_new_request_is_a_duplicate() -> None:
    # Fails on 337ba73: the later message reports an outcome ("I've added a note"), and the
    # confirmation rule excused it although the earlier message asked nothing and stands word
    # for word in it.
    found = duplicates(
        ("user", "Where is my parcel?"),
        ("post", "Parcel RX4471 left the Leipzig depot this morning and should arrive on Friday."),
        ("user", "Can I have it left with a neighbour?"),
        (
            "post",
            "Sure, I've added a note to leave it with a neighbour. Parcel RX4471 left the "
            "Leipzig depot this morning and should arrive on Friday.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_claim_restated_where_the_user_asked_for_it_again_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "What do I need for the permit?"),
        (
            "council",
            "You need a photo ID and proof of address. The permit fee is $35, payable by card "
            "at the counter.",
        ),
        ("user", "What was the fee again?"),
        ("council", "Of course. The permit fee is $35, payable by card at the counter."),
    )
    assert found == []


def test_a_time_with_a_dot_and_pm_is_the_same_time_as_in_24_hour_form() -> None:
    # Fails on 337ba73: "2.05pm" (British style) was read as an id, not as 14:05.
    found = duplicates(
        ("user", "When does the ferry to Arran leave?"),
        ("ferries", "The 14:05 ferry to Arran leaves from berth 2 at Ardrossan."),
        ("user", "Thanks. Is there a cafe on board?"),
        ("ferries", "Yes, the cafe on deck 5 is open for the whole crossing."),
        ("ferries", "The 2.05pm ferry to Arran leaves from berth 2 at Ardrossan."),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_short_statement_resent_unprompted_after_an_unrelated_question_is_a_duplicate() -> None:
    # Fails on 337ba73: the message is small, so only the scorer decided, and it read the
    # "what ... was" question as asking again although it asks about something else.
    found = duplicates(
        ("user", "Why was my payment declined?"),
        ("cards", "Your debit card is frozen."),
        ("user", "What was the last payment I made?"),
        ("payments", "Your last payment was $42.10 to Corner Deli on Monday."),
        ("cards", "Your debit card is frozen."),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_short_statement_resent_with_a_contraction_is_a_duplicate() -> None:
    # Fails before contractions were spelled out: "It's" and "It is" gave two normalised texts,
    # so the resent rule did not apply and the scorer read two short messages without facts.
    found = duplicates(
        ("user", "What kind of music is Harbour Lights?"),
        ("radio", "It is a folk ballad."),
        ("user", "Nice, put it on please."),
        ("radio", "Now playing Harbour Lights."),
        ("radio", "It's a folk ballad."),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_contraction_spelled_out_differently_to_a_new_question_is_left_to_the_scorer() -> None:
    # A control: as the first reply to a new question the same words may be a new answer.
    found = duplicates(
        ("user", "What kind of music is Harbour Lights?"),
        ("radio", "It is a folk ballad."),
        ("user", "And Salt Roads?"),
        ("radio", "It's a folk ballad."),
    )
    assert found == []


def test_the_same_short_answer_to_a_new_question_is_left_to_the_scorer() -> None:
    # A control: the later copy is the reply to a new question (about another song), so the
    # same words may be a new answer.
    found = duplicates(
        ("user", "What genre is Tidewater?"),
        ("music", "It's a reggae song."),
        ("user", "Play something else by another artist. What genre is that one?"),
        ("music", "It's a reggae song."),
    )
    assert found == []


def test_a_range_in_words_is_the_same_range_in_digits() -> None:
    # Fails on 337ba73: "three to five business days" was read as 5 days, a different
    # duration from "3-5 business days", so the two messages stated different values.
    found = duplicates(
        ("user", "How long does delivery take?"),
        ("shop", "Standard delivery is $4.99 and takes 3-5 business days."),
        ("assistant", "Standard delivery costs $4.99 and takes three to five business days."),
    )
    assert ("m2", "m3") in pairs(found)


def test_restating_a_relay_restates_what_it_relayed() -> None:
    # Fails before whole restatements joined findings: the scorer decided the relay (m3) and its
    # repeat (m5), not the long original (m2), so the original's repeat went unreported.
    found = duplicates(
        ("user", "Is my prescription ready?"),
        (
            "assistant",
            "The pharmacy agent confirmed your amoxicillin 500 mg (21 capsules) is ready for "
            "pickup at the Elm Street branch until 8 pm today; the copay is $7.50 and it was "
            "filled by pharmacist J. Ortiz this morning.",
        ),
        ("pharmacy", "Amoxicillin 500 mg x21 ready, Elm Street, until 8 pm. Copay $7.50."),
        ("user", "do I take it with food?"),
        (
            "assistant",
            "Yes, take it with food to avoid an upset stomach. As mentioned, your amoxicillin is "
            "ready at Elm Street until 8 pm, and the copay is $7.50.",
        ),
    )
    assert ("m2", "m3", "m5") in pairs(found)
