"""A question back follows up the request whose kind needs it asked
(``harness.detect._asked_back``, read by ``harness.detect._assigning._asked_back_for``)."""

from __future__ import annotations

import json

import pytest

from harness.detect._asked_back import _MODEL, asked_back, question_terms
from harness.detect.missed import DeclaredRequest, judge
from tools.detector.fit_asked_back import dialogue_counts


def _missing(requests: list[str], said: list[str]) -> set[str]:
    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}


# Each: two requests, one message per request; the second message is a generic question back
# for the second request, which its words would rather give to the first.
FOLLOWED_UP = [
    (
        ["what events are on my calendar for Tuesday", "what's the forecast for Saturday"],
        ["You have a team lunch on Tuesday.", "In which city?"],
    ),
    (
        ["rent me a car from the airport on Friday", "call me a taxi"],
        ["Your car is reserved for Friday at the airport.", "What is your destination?"],
    ),
]


@pytest.mark.parametrize(("requests", "said"), FOLLOWED_UP)
def test_a_question_back_answers_the_request_that_needs_it_asked(
    requests: list[str], said: list[str]
) -> None:
    """The fully answered turn is not flagged (it was before), whichever order the messages come
    in, and either drop still is (the rule only ever lets a question answer; it reads a turn of
    several messages, so a drop that leaves one message is read as before)."""
    assert _missing(requests, said) == set()
    assert _missing(requests, said[::-1]) == set()
    assert _missing(requests, said[:1]) == {requests[1]}
    assert _missing(requests, said[1:])


def test_what_a_kind_of_request_needs_asked() -> None:
    weather, calendar = asked_back(
        ["check the weather for Saturday", "what's on my calendar Tuesday"], "In which city?"
    )
    assert weather > calendar + 1.0
    taxi, song = asked_back(["get me a cab", "play a song by Queen"], "Where are you going?")
    assert taxi > song
    assert question_terms("Where are you leaving from?") == {"?where", "leav"}


def test_the_counts_are_read_from_the_acts() -> None:
    turns = [
        {
            "speaker": "USER",
            "text": "I need a table for dinner",
            "frames": [
                {"service": "Restaurants_2", "actions": [["INFORM_INTENT", "intent", ["x"]]]}
            ],
        },
        {
            "speaker": "SYSTEM",
            "text": "Which city?",
            "frames": [{"service": "Restaurants_2", "actions": [["REQUEST", "city", []]]}],
        },
        {
            "speaker": "USER",
            "text": "San Jose, and what's the weather?",
            "frames": [{"service": "Weather_1", "actions": [["INFORM", "city", ["San Jose"]]]}],
        },
        {
            "speaker": "SYSTEM",
            "text": "Which city? It is sunny.",
            "frames": [
                {"service": "Weather_1", "actions": [["REQUEST", "city", []], ["INFORM", "x", []]]}
            ],
        },
    ]
    found = dialogue_counts(turns)
    assert dict(found.requests) == {"Restaurants": 1}
    assert dict(found.questions) == {"Restaurants": 1}
    assert found.question_terms["Restaurants"] == {"city": 1, "?which": 1}


def test_the_shipped_counts_say_their_data() -> None:
    raw = json.loads(_MODEL.read_text(encoding="utf-8"))
    assert "Schema-Guided Dialogue train" in raw["data"] and "CC BY-SA 4.0" in raw["data"]
    assert raw["fit"] == "tools/detector/fit_asked_back.py"
