"""A short line sent again between two replies of a turn whose user asked two things may open
the reply to the second (new text): a holding line for a new request is left to the scorer,
while the same line sent again after the turn's replies is still a resent statement."""

from __future__ import annotations

from tests.detect.test_failure_classes import duplicates, pairs

_HOLD = "Sorry about that, looking up the next free slot now."


def test_a_holding_line_for_the_second_request_of_a_turn_is_no_duplicate() -> None:
    # Fails before: the second copy came after another bot message of its turn, so the resent
    # rule read it as sent unprompted, whatever the scorer said.
    found = duplicates(
        ("user", "my dishwasher won't drain"),
        ("helpdesk", _HOLD),
        ("helpdesk", "The first appliance visit is Tuesday, May 12, 8-10 am with Priya."),
        ("user", "ok book that. also the oven light is broken"),
        ("helpdesk", "Booked: Tuesday, May 12, 8-10 am with Priya, job AP-5510."),
        ("helpdesk", _HOLD),
        ("helpdesk", "For the oven light, the first visit is Thursday, May 14, 1-3 pm with Tom."),
    )
    assert ("m2", "m6") not in pairs(found)


def test_a_line_resent_after_the_turns_replies_is_still_a_duplicate() -> None:
    said = "The warranty does not cover the door seal."
    found = duplicates(
        ("user", "is the door seal covered?"),
        ("helpdesk", said),
        ("user", "what's the visit fee and how long does it take?"),
        ("helpdesk", "The visit fee is $79 and a visit takes about an hour."),
        ("helpdesk", said),
    )
    assert ("m2", "m5") in pairs(found)
