"""One request's answer is not taken for another's (issue 25): a reply about one subject answers
no sibling request about another subject through a shared predicate or value kind alone, and a
comma between imperatives with their own objects cuts the message into requests.

``tests/fixtures/covering/messages.json`` (written by hand for session s64, it says so) holds
multi-request messages in domains of their own: part "a" was read while the change was made, part
"b" was written after it and run once. What was measured on it is in docs/journal/simulate.md
(s64-cover)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.detect.missed import missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, Transcript

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "covering" / "messages.json"


def _messages(*parts: str) -> list[dict[str, Any]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))["messages"]
    return [m for m in data if m["part"] in parts]


def _flagged(text: str, said: list[str]) -> bool:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=text)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    return bool(missed_requests(Transcript(conversation="c", messages=messages)))


def _dropped(message_id: str, k: int) -> tuple[str, list[str]]:
    (message,) = [m for m in _messages("a", "b") if m["id"] == message_id]
    answers = [r["answer"] for r in message["requests"]]
    return message["text"], answers[:k] + answers[k + 1 :]


def test_the_fixture_is_new_multi_request_messages_with_an_answer_each() -> None:
    messages = _messages("a", "b")
    assert len(messages) >= 30
    assert all(
        len(m["requests"]) >= 2 and all(r["answer"] for r in m["requests"]) for m in messages
    )


@pytest.mark.parametrize(
    ("message_id", "k"),
    [
        ("p01", 1),  # "Yes, the climbing wall is open until 10 pm" is not the sauna's hours
        ("v03", 0),  # buttons "at 50 cents each" is not the price of a hem
        ("v09", 0),  # electric toothbrushes "for $60" is not the price of a teeth cleaning
    ],
)
def test_an_answer_about_another_subject_answers_no_sibling_request(
    message_id: str, k: int
) -> None:
    text, said = _dropped(message_id, k)
    assert _flagged(text, said)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "Where is the venue and what type of category is the event?",
            ["It is a baseball event at 24 Willie Mays Plaza."],
        ),
        ("What genre is that? Is the song from 2012?", ["It is a pop song from 2018."]),
        (
            "Yes, how long is the ride and what's the price?",
            ["Your cab is on the way , it costs $14.44 and the ride is about 17 minutes."],
        ),
        (
            "Is the climbing wall still open and what time does the sauna open in the morning?",
            ["Yes, the climbing wall is open until 10 pm, and the sauna opens at 6:30 am."],
        ),
    ],
)
def test_one_sentence_answering_two_requests_about_one_thing_is_still_read_so(
    text: str, said: list[str]
) -> None:
    # An attribute asked of the same thing ("the venue" of the event, "the price" of the ride),
    # or a subject referred to by a pronoun, keeps the sentence's second answer.
    assert not _flagged(text, said)


def test_a_comma_between_imperatives_with_their_own_objects_cuts() -> None:
    texts = [
        r.text
        for r in segment_requests(
            "Reserve two kayaks for Saturday, email me the waiver, and tell me what to bring."
        )
    ]
    assert texts == [
        "Reserve two kayaks for Saturday",
        "email me the waiver",
        "tell me what to bring",
    ]
    text, said = _dropped("i02", 1)  # the waiver's answer lost
    assert _flagged(text, said)


@pytest.mark.parametrize(
    "text",
    [
        "Book a table for two, preferably by the window.",
        "Send a note to Sam, telling him I'm running late.",
        "Play some jazz, anything upbeat.",
        "Order a large pizza, pepperoni if you have it.",
        "Call me a cab, thank you.",
    ],
)
def test_a_comma_before_what_is_no_imperative_does_not_cut(text: str) -> None:
    assert len(segment_requests(text)) == 1


def test_fully_answered_messages_of_the_fixture_are_rarely_flagged() -> None:
    messages = _messages("a", "b")
    flagged = sum(_flagged(m["text"], [r["answer"] for r in m["requests"]]) for m in messages)
    assert flagged <= 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Play some jazz, keep it quiet.", ["Playing some quiet jazz."]),
        ("Send the invoice to Acme, mark it urgent.", ["Invoice sent to Acme, flagged as urgent."]),
    ],
)
def test_a_pronoun_standing_for_the_object_before_is_no_new_request(
    text: str, said: list[str]
) -> None:
    # "it" is the jazz, the invoice: a detail of the same request, answered with it.
    assert len(segment_requests(text)) == 1
    assert not _flagged(text, said)


def test_a_pronoun_as_recipient_before_a_new_object_cuts() -> None:
    texts = [r.text for r in segment_requests("Book the village hall, send them the deposit.")]
    assert texts == ["Book the village hall", "send them the deposit"]
