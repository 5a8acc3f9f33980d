"""A user's message that opens with a discourse marker or an apology ("sorry, when is ...",
"ok so can you ...", "sorry I missed that, ..."): the duplicate detector reads the question after
the marker, and the missed-request check reads no request in the apology. New text written for
these tests."""

from __future__ import annotations

import pytest

from harness.detect._users import asks_again, asks_question
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
        "ok so when's the next coach to bath",
        "excuse me, when's the next coach to bath",
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


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("sorry, when is the next coach", True),
        ("um so is it running late", True),
        ("oh and can you book me a seat", True),
        ("Actually, could you check my booking", True),
        ("sorry I'll take the 16:05", False),
        ("so I want the 16:05", False),
        ("also my coach was late", False),
    ],
)
def test_the_rules_read_a_question_past_a_marker(text: str, question: bool) -> None:
    assert asks_question(text) is question


def test_what_was_after_sorry_asks_again() -> None:
    # "what ... was" opening a question, past the same markers
    assert asks_again("sorry what was the bay number")
    assert not asks_again("sorry that is what he was on about")


@pytest.mark.parametrize(
    "message",
    [
        "sorry I missed that, when's the next coach to bath",
        "I didn't catch that, when's the next coach to bath",
        "I'm so sorry, I didn't quite catch that - when's the next coach to bath",
        "sorry to bother you, when's the next coach to bath",
        "excuse me, when's the next coach to bath",
    ],
)
def test_an_apology_or_not_having_heard_is_no_request_of_its_own(message: str) -> None:
    # Fails before: the apology was cut off as a request, and the check reported it missed.
    assert [r.text for r in segment_requests(message)] == ["when's the next coach to bath"]
    transcript = conversation(("user", message), ("coaches", _ANSWER))
    assert missed_requests(transcript) == []


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
    message = "sorry, I didn't catch that. when's the next coach and how much is it"
    assert [r.text for r in segment_requests(message)] == [
        "when's the next coach",
        "how much is it",
    ]
