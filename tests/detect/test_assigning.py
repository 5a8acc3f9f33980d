"""Which part of a reply in several messages goes with which request
(``harness.detect._assigning``): the rest of a sentence that answers a message's own request is
not another request's answer."""

from __future__ import annotations

import pytest

from harness.detect.missed import DeclaredRequest, judge


def _missing(requests: list[str], said: list[str]) -> set[str]:
    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}


# Each: the requests, the message answering the first (one sentence, cut at its values), the
# answer to the second (dropped below), the answer to the third.
ERRANDS = [
    (
        ["I need bus tickets to Boston", "book me a hotel room", "set an alarm for 7"],
        "2 bus tickets leaving at 9 am from Albany to Boston on April 4th.",
        "Your hotel room is booked.",
        "Your alarm is set for 7 am.",
    ),
    (
        ["I want to rent a car", "which holiday comes next", "add milk to my list"],
        'About "rent a small car in Tucson for April 3rd through 6th, Friday and Saturday": '
        "here is what I found.",
        "The next holiday is Memorial Day.",
        "Milk is on your list.",
    ),
    (
        ["find me a bus to Tampa", "open my savings account", "what's the time in Rome"],
        "I found 6 buses, one leaving at 7:15 am with 1 stop for $27",
        "Your savings account is open.",
        "It is 4 pm in Rome.",
    ),
]


@pytest.mark.parametrize(("requests", "first", "second", "third"), ERRANDS)
def test_the_rest_of_a_sentence_that_answers_its_request_answers_no_other(
    requests: list[str], first: str, second: str, third: str
) -> None:
    """A part cut from the sentence that answers the message's own request ("on April 4th",
    "for $27") sharing no word with any request does not stand for the answer to a request
    nothing answered (each drop was hidden before), and the fully answered turn stays clean
    whichever order the messages come in."""
    assert _missing(requests, [first, third]) == {requests[1]}
    assert _missing(requests, [first, second, third]) == set()
    assert _missing(requests, [third, second, first]) == set()


def test_a_value_of_the_kind_another_request_asks_for_still_answers_it() -> None:
    """A part of that sentence that gives what another request asks for (a time for "what
    time", an amount for "how much") keeps its own reading."""
    requests = ["book a table for two at Nonna's", "what time does the show begin", "order a cake"]
    said = [
        "Your table for two at Nonna's is booked for 6 pm, curtain at 7:30 pm.",
        "Cake ordered.",
    ]
    assert _missing(requests, said) == set()
