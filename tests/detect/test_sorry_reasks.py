"""A user's message that opens with an apology or a filler ("sorry, when is ...", "um I'm sorry,
...", "sorry I missed that, ..."): the duplicate detector reads the question after it, and the
missed-request check reads no request in the apology. New text written for these tests."""

from __future__ import annotations

import pytest

from harness.detect._users import asks_again
from harness.detect.missed import missed_requests
from harness.detect.requests import segment_requests
from tests.detect.test_failure_classes import conversation, duplicates, pairs

_ANSWER = "The next coach to Bath leaves the bus station at 16:05 from bay 3."


@pytest.mark.parametrize(
    "again",
    [
        "sorry when's the next coach to bath",
        "sorry, when is the next coach to bath",
        "oh um when is the next coach to bath",
        "excuse me, when's the next coach to bath",
        "I'm sorry, when's the next coach to bath",
        "Apologies, when's the next coach to bath",
        "oops sorry but when's the next coach to bath",
        "I am so sorry - when's the next coach to bath",
    ],
)
def test_the_same_question_after_a_marker_is_answered_again_without_a_finding(
    again: str,
) -> None:
    # Fails before: only a question mark or a question word at the very start read as a
    # question, so the marker hid the question asked again and the same answer was a repeat.
    found = duplicates(
        ("user", "when's the next coach to bath"),
        ("coaches", _ANSWER),
        ("user", "I left my umbrella on the 14:20, who do I ask?"),
        ("front desk", "I've logged your lost property report as LP-3381."),
        ("user", again),
        ("coaches", _ANSWER),
    )
    assert ("m2", "m6") not in pairs(found)


def test_an_unasked_repeat_after_a_marker_is_still_a_duplicate() -> None:
    # The marker hides nothing any more, and reading it asks nothing of its own: a repeat that
    # answers another question is still flagged.
    found = duplicates(
        ("user", "when's the next coach to bath"),
        ("coaches", _ANSWER),
        ("user", "sorry, how much is a day return to bath"),
        ("coaches", "A day return to Bath is £12.40."),
        ("coaches", _ANSWER),
    )
    assert ("m2", "m5") in pairs(found)


_BOOKED = "Booked: the 16:05 coach to Bath, seat 12, reference CX-2291."


@pytest.mark.parametrize(
    "between",
    [
        "and what about a hotel in bath",
        "also what's the weather in bath",
        "ok so can you also book a hotel in bath",
        "well, do that for a hotel in bath too",
        "sorry, is there a hotel near the coach station in bath",
    ],
)
def test_a_new_question_after_a_connective_or_an_apology_excuses_no_repeat(between: str) -> None:
    # A connective ("and", "also", "ok so", "well") opens a new question as often as a re-ask,
    # and a question after "sorry" is asked again only when it is the first one: the booking
    # sent again unasked is flagged.
    found = duplicates(
        ("user", "book the 16:05 coach to bath"),
        ("coaches", _BOOKED),
        ("user", between),
        ("hotels", "The Royal Crescent has a room for £140."),
        ("coaches", _BOOKED),
    )
    assert ("m2", "m5") in pairs(found)


@pytest.mark.parametrize(
    "between",
    [
        "sorry, when's the last coach to bath",
        "um, how long is the coach to bath",
        "excuse me, is there a toilet on the coach to bath",
    ],
)
def test_a_new_question_on_the_same_topic_after_an_apology_excuses_no_repeat(between: str) -> None:
    # It shares the first question's words ("coach", "bath") but names what the answer did not
    # say ("last", "long", "toilet"): the answer sent again word for word is unasked.
    found = duplicates(
        ("user", "when's the next coach to bath"),
        ("coaches", _ANSWER),
        ("user", between),
        ("coaches", _ANSWER),
    )
    assert ("m2", "m4") in pairs(found)


def test_what_was_after_sorry_asks_again() -> None:
    # "what ... was" opening a question, past the same markers
    assert asks_again("sorry what was the bay number")
    assert not asks_again("sorry that is what he was on about")


@pytest.mark.parametrize(
    "message",
    [
        "sorry to bother you, when's the next coach to bath",
        "excuse me, when's the next coach to bath",
        "oops sorry, when's the next coach to bath",
        "I apologise, when's the next coach to bath",
        "when's the next coach to bath? sorry",
    ],
)
def test_an_apology_is_no_request_of_its_own(message: str) -> None:
    # Fails before: the apology was cut off as a request, and the check reported it missed.
    assert [r.text for r in segment_requests(message)] == ["when's the next coach to bath"]
    transcript = conversation(("user", message), ("coaches", _ANSWER))
    assert missed_requests(transcript) == []


@pytest.mark.parametrize(
    "message",
    [
        "sorry I missed that, when's the next coach to bath",
        "I didn't catch that, when's the next coach to bath",
        "I'm so sorry, I didn't quite catch that - when's the next coach to bath",
        "sorry, I can't hear you. when's the next coach to bath?",
    ],
)
def test_not_having_heard_beside_the_question_asked_again_is_no_request_of_its_own(
    message: str,
) -> None:
    # Fails before: "sorry I missed that" was reported missed, though the question beside it
    # asks for the answer again and the bot gave it.
    transcript = conversation(
        ("user", "when's the next coach to bath"),
        ("coaches", _ANSWER),
        ("user", message),
        ("coaches", _ANSWER),
    )
    assert missed_requests(transcript) == []


@pytest.mark.parametrize(
    "message",
    [
        "sorry I didn't catch that. and how much is a day return to bath?",
        "sorry, I missed that, can you also tell me how much a day return to bath is",
        # sharing the earlier question's words, asking for something it did not
        "sorry I didn't catch that. and when's the last coach to bath?",
    ],
)
def test_not_having_heard_beside_a_new_question_is_a_request_of_its_own(message: str) -> None:
    # It asks for the earlier answer again: a bot that answers only the new question missed it.
    transcript = conversation(
        ("user", "when's the next coach to bath"),
        ("coaches", _ANSWER),
        ("user", message),
        ("coaches", "A day return to Bath is £12.40."),
    )
    found = missed_requests(transcript)
    assert len(found) == 1
    assert found[0].evidence.startswith(('"sorry I didn', '"sorry, I missed'))


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # a statement of something that went wrong is no apology: it stays
        ("I missed my coach, when's the next one to bath", "I missed my coach"),
        ("I didn't get my refund, can you check it", "I didn't get my refund"),
    ],
)
def test_a_statement_of_what_went_wrong_is_kept(message: str, kept: str) -> None:
    assert any(r.text.startswith(kept) for r in segment_requests(message))


def test_an_apology_alone_is_the_request() -> None:
    # asking again, with nothing else asked: it is not left out
    assert [r.text for r in segment_requests("sorry I missed that")] == ["sorry I missed that"]


def test_beside_two_requests_only_the_apology_goes() -> None:
    message = "sorry. when's the next coach and how much is it"
    assert [r.text for r in segment_requests(message)] == [
        "when's the next coach",
        "how much is it",
    ]


def test_an_apology_no_longer_makes_a_second_request_for_the_duplicate_rules() -> None:
    # "excuse me" was a request of its own, so the message asked two things and the same-turn
    # containment was left to the scorer; read as the bare question, it is flagged as that is.
    said = "Your card is frozen."
    longer = (
        "Your card is frozen. A replacement card will reach your home address within five "
        "working days, and you can track it in the app."
    )
    for asked in ("is my card frozen?", "excuse me, is my card frozen?"):
        found = duplicates(("user", asked), ("cards", said), ("assistant", longer))
        assert ("m2", "m3") in pairs(found), asked
