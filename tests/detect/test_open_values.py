"""A sentence that gives a value only an open "what" question of the message can be asking for
answers it (``harness.detect.answers.open_values``, released by
``harness.detect._assigning._open_release``), where each message is one agent's and the other
messages account for every other request."""

from __future__ import annotations

import pytest

from harness.detect.answers import matcher, open_values
from harness.detect.missed import DeclaredRequest, judge


def _missing(requests: list[str], said: list[str]) -> set[str]:
    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}


# Each: an open "what" question whose kind of value no pattern reads, another request, and one
# message answering each (the first shares no word with any request and gives a value).
OPEN = [
    (
        ["what is the toll on the bridge", "play some jazz in the kitchen"],
        ["That will be $6.50 each way.", "Playing jazz in the kitchen now."],
    ),
    (
        ["what have I got on Friday", "turn off the porch light"],
        ["You have a dentist appointment at 9:15 am.", "The porch light is off."],
    ),
    (
        ["water the plants at noon", "what's the fare to the airport"],
        ["The plants will be watered at noon.", "It comes to $38 with tolls."],
    ),
]


@pytest.mark.parametrize(("requests", "said"), OPEN)
def test_a_value_only_an_open_question_asks_for_answers_it(
    requests: list[str], said: list[str]
) -> None:
    """The fully answered turn is not flagged (each was before); a drop of either request is
    still flagged, and so is the same reply composed into one message."""
    open_row = next(i for i, r in enumerate(requests) if "what" in r)
    other = 1 - open_row
    assert _missing(requests, said) == set()
    assert requests[open_row] in _missing(requests, [said[other]])
    assert requests[other] in _missing(requests, [said[open_row]])
    assert _missing(requests, [" ".join(said)]) == {requests[open_row]}


def test_no_release_where_another_request_asks_for_that_kind() -> None:
    """An amount answers neither "what is the deposit" nor, by this release, anything else when
    another request of the message asks "how much": which of them it answers is not known."""
    requests = ["what is the deposit for the cabin", "how much does the kayak rental cost"]
    said = ["That will be $200.", "A kayak rental costs $40 per day."]
    assert open_values(matcher(), requests, said, said) == {}
    assert _missing(requests, said) == {requests[0]}


def test_no_release_for_a_count_a_question_back_or_two_open_questions() -> None:
    """A count of what the bot found, a question back, and a message with two open questions
    release nothing."""
    model = matcher()
    requests = ["what is the toll on the bridge", "play some jazz in the kitchen"]
    for sentence in ("I found 12 results.", "Would 6 pm suit you?"):
        assert open_values(model, requests, [sentence], [sentence]) == {}
    two = ["what is the toll on the bridge", "what have I got on Friday"]
    assert open_values(model, two, ["That will be $6.50."], ["That will be $6.50."]) == {}


def test_a_part_cut_from_a_sentence_is_not_released() -> None:
    """Only a whole sentence is read: a value phrase cut from another answer ("on March 2nd" of
    a booking) is left to its sentence's reading."""
    requests = ["what is the toll on the bridge", "book a compact car"]
    assert (
        open_values(matcher(), requests, ["for $25 a day"], ["A compact is booked for $25 a day."])
        == {}
    )
