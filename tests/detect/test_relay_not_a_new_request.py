"""A relay of the turn's answer is no confirmation of a new request (new text).

"A fact reused for a new request" (:func:`harness.detect.choices.confirms_new_request`) needs a
request the user made after the fact was given: a user message in between, a second request in
the one user message of the turn, or a later message that asks (a confirmation). A parent's
relay of a sub-agent's answer to a single request, which the act tagger may read as a
confirmation request, states that answer again.
"""

from __future__ import annotations

from tests.detect.test_failure_classes import duplicates, pairs

_ANSWER = "Done ✓ Table for **4** at **Casa Lupo**, **Friday 15 May**, now at **20:30**."


def test_a_relay_of_the_answer_to_one_request_is_a_duplicate() -> None:
    # Fails before: the tagger reads the relay as a confirmation request that names a value the
    # answer lacks (19:00), so it was excused as a fact reused for a new request.
    found = duplicates(
        ("user", "can you move our casa lupo booking on friday from 7 to half 8"),
        ("bookings", _ANSWER),
        (
            "dining-assistant",
            "Your table for 4 at Casa Lupo is moved from 19:00 to 20:30 on Friday 15 May.",
        ),
    )
    assert ("m2", "m3") in pairs(found)


def test_confirming_the_second_request_of_the_turn_is_no_duplicate() -> None:
    # The scorer alone would flag it; the user's message asked two things.
    found = duplicates(
        ("user", "what time is our casa lupo table on friday, and can you add a 5th person"),
        ("bookings", "Your table at **Casa Lupo** is on **Friday 15 May** at **20:30**."),
        (
            "dining-assistant",
            "Your table for 5 at Casa Lupo is moved to 20:30 on Friday 15 May, is that right?",
        ),
    )
    assert ("m2", "m3") not in pairs(found)


def test_a_fact_reused_in_a_later_turn_is_still_no_duplicate() -> None:
    found = duplicates(
        ("user", "what time is our casa lupo table on friday?"),
        ("bookings", "Your table at **Casa Lupo** is on **Friday 15 May** at **20:30**."),
        ("user", "can you add a 5th person"),
        (
            "dining-assistant",
            "Your table for 5 at Casa Lupo is moved to 20:30 on Friday 15 May, is that right?",
        ),
    )
    assert ("m2", "m4") not in pairs(found)


def test_a_fact_looked_up_for_one_request_then_a_confirmation_question_is_no_duplicate() -> None:
    # A sub-agent looks up a fact for the only request; the parent asks to confirm the booking
    # that uses it. A confirmation asks; a relay states.
    found = duplicates(
        ("user", "book me a ride to the vet clinic for 8 tomorrow"),
        ("places", "The vet clinic is at **14 Harbour Road, Cobh P24**."),
        ("assistant", "To confirm: a ride for 1 to 14 Harbour Road, Cobh P24 at 08:00 tomorrow?"),
    )
    assert ("m2", "m3") not in pairs(found)
