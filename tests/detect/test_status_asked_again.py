"""A question whether a state still holds asks for it again (new text): "is the 7:40 still on
time?" answered with the same status, word for word, is the repeat the user asked for."""

from __future__ import annotations

import pytest

from harness.detect._users import _User, asks_still
from harness.detect.transcript import Message
from harness.text import analyse
from tests.detect.test_failure_classes import duplicates, pairs

_STATUS = "The **07:40** to Leeds is running on time from platform 4."


def _user(text: str) -> _User:
    return _User.of(Message(id="u", turn=3, role="user", sender="user", text=text))


def test_a_still_question_about_what_was_said_asks_again() -> None:
    earlier = analyse(_STATUS)
    assert asks_still(_user("is the 7:40 still on time?"), earlier)
    assert asks_still(_user("ok and is it still from platform 4?"), earlier)


def test_a_still_question_about_something_else_asks_nothing_again() -> None:
    earlier = analyse(_STATUS)
    assert not asks_still(_user("is it still raining in leeds?"), earlier)
    assert not asks_still(_user("I still need a taxi at the other end."), earlier)
    assert not asks_still(_user("is the 9:10 still on time?"), earlier)


def test_the_same_status_after_a_still_question_is_no_duplicate() -> None:
    # Fails before: the copy rule took the word-for-word status, and no re-ask rule read "still".
    found = duplicates(
        ("user", "status of the 7:40 to leeds"),
        ("rail", _STATUS),
        ("user", "and is there a quiet coach?"),
        ("rail", "Yes, coach A is the quiet coach."),
        ("user", "is the 7:40 still on time?"),
        ("rail", _STATUS),
    )
    assert ("m2", "m6") not in pairs(found)


@pytest.mark.parametrize(
    "question", ["is the 9:10 still on time?", "do i still need a reservation for the buffet car?"]
)
def test_the_same_status_after_another_still_question_is_a_duplicate(question: str) -> None:
    found = duplicates(
        ("user", "status of the 7:40 to leeds"),
        ("rail", _STATUS),
        ("user", "and is there a quiet coach?"),
        ("rail", "Yes, coach A is the quiet coach."),
        ("user", question),
        ("rail", _STATUS),
    )
    assert ("m2", "m6") in pairs(found)
