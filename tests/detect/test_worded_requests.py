"""Requests worded as a command, a polite "could X", a noun phrase with "please" or "?", or with
no verb at all are requests the missed-request check follows (issue 25): losing the answer to one
is flagged.

``tests/fixtures/worded_requests/messages.json`` (written by hand for session s63, it says so)
holds multi-request messages in domains none of the multi-intent sets use. What was measured on
it (docs/journal/detector.md, s63-drops and s63-mend-drops): before the change the check found 31
of the 72 dropped answers of parts "a" and "b" and 16 of their 36 merges; after s63-mend-drops,
62 and 31, flagging 1 of the 36 fully answered turns either way. Part "c" (wishes: "I'd like a
kayak for Sunday") is no longer followed: a wish is read as context (22 of 31 drops found, as
before the change)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from harness.cli import cli
from harness.detect.missed import check_turns, missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, Transcript

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "worded_requests" / "messages.json"


def _messages(*parts: str) -> list[dict[str, Any]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))["messages"]
    return [m for m in data if m["part"] in parts]


def _rows(*rows: tuple[int, str, str]) -> Transcript:
    return Transcript(
        conversation="c",
        messages=[
            Message(id=f"m{i}", turn=turn, role=role, sender=role, text=text)
            for i, (turn, role, text) in enumerate(rows)
        ],
    )


def _transcript(*turns: tuple[str, list[str]]) -> Transcript:
    messages = []
    for n, (text, said) in enumerate(turns, start=1):
        messages.append(Message(id=f"u{n}", turn=n, role="user", sender="user", text=text))
        messages += [
            Message(id=f"b{n}.{i}", turn=n, role="bot", sender="bot", text=t)
            for i, t in enumerate(said)
        ]
    return Transcript(conversation="c", messages=messages)


def _flagged(text: str, said: list[str]) -> bool:
    return bool(missed_requests(_transcript((text, said))))


def _counts(messages: list[dict[str, Any]]) -> tuple[int, int, int, int, int]:
    """Fully answered turns flagged; drops found, of; merges found, of."""
    full = drops = merges = n_drops = n_merges = 0
    for m in messages:
        answers = [r["answer"] for r in m["requests"]]
        full += _flagged(m["text"], answers)
        for k in range(len(answers)):
            drops += _flagged(m["text"], answers[:k] + answers[k + 1 :])
            n_drops += 1
        for k in range(len(answers) - 1):
            merges += _flagged(m["text"], answers[: k + 1] + answers[k + 2 :])
            n_merges += 1
    return full, drops, n_drops, merges, n_merges


def test_the_fixture_is_new_multi_request_messages_with_an_answer_each() -> None:
    messages = _messages("a", "b")
    assert len(messages) >= 30
    assert all(
        len(m["requests"]) >= 2 and all(r["answer"] for r in m["requests"]) for m in messages
    )


def test_requests_worded_without_a_question_are_followed() -> None:
    full, drops, n_drops, merges, n_merges = _counts(_messages("a", "b"))
    assert full <= 1
    assert drops >= n_drops - 12  # 62 of 72 when measured (31 before the change)
    assert merges >= n_merges - 6  # 31 of 36 (16 before)


def test_a_wish_before_a_question_is_its_context_not_a_request() -> None:
    for text, answer in (
        ("I want it in blue. Do you have size 10?", "Yes, size 10 comes in blue."),
        ("We need to leave by noon. When is checkout?", "Checkout is at 11."),
        ("I'd like to travel light. What's the cabin bag limit?", "The cabin bag limit is 10 kg."),
    ):
        requests = check_turns(_transcript((text, [answer])))[0].requests
        assert not any(r.asks for r in requests), text


def test_please_before_and_ends_a_request_without_a_verb() -> None:
    texts = [r.text for r in segment_requests("Car wash at noon please and a wax for the bonnet.")]
    assert texts == ["Car wash at noon please", "a wax for the bonnet"]
    # nor before a word of thanks
    assert len(segment_requests("Two tickets please and thanks")) == 1


def test_a_noun_phrase_with_please_loses_its_answer_and_is_flagged() -> None:
    text = "Hot stone massage at 4 please, and could you email me the spa menu?"
    # (one named thing, "Massage at 4 please", reads as the answer to a question: not followed)
    answers = ["Your massage is booked for 4pm.", "The spa menu is in your inbox."]
    assert not _flagged(text, answers)
    assert _flagged(text, answers[1:])
    assert _flagged(text, answers[:1])


def test_the_same_phrase_answering_the_bot_s_question_asks_nothing() -> None:
    text = "A corner booth for six at 9 please, and is there parking?"
    first = check_turns(_transcript((text, ["Booked. There is parking behind."])))
    assert [r.asks for r in first[0].requests] == [True, False]
    # after "For how many, and when?" the same words are the answer to it, not a request
    later = check_turns(
        _transcript(
            ("I want to eat at Nando's", ["For how many people, and at what time?"]),
            (text, ["Booked. There is parking behind."]),
        )
    )
    assert [r.asks for r in later[1].requests] == [False, False]


def test_courtesy_a_reaction_and_a_guessed_value_still_ask_nothing() -> None:
    for text in (
        "Yes please, and what time do you open?",
        "That suits me well? And which platform does it leave from?",
        "One, two? How many stops is it?",
    ):
        requests = check_turns(_transcript((text, ["It leaves from platform 4."])))[0].requests
        assert not requests[0].asks, text


def test_please_before_and_a_detail_of_the_same_request_ends_nothing() -> None:
    for text in (
        "A table for two please and by the window if you can.",
        "Check me in please and with the corporate rate.",
        "Deliver the sofa please and preferably on a weekday.",
        "Print ten copies please and if possible in colour.",
    ):
        assert len(segment_requests(text)) == 1, text


def test_courtesy_with_please_asks_nothing() -> None:
    for text in (
        "Thank you kindly please. How long is the warranty?",
        "No rush please, and when can you come?",
        "Thanks a lot please, and where is the gym?",
    ):
        requests = check_turns(_transcript((text, ["It is two years."])))[0].requests
        assert not requests[0].asks, text


def test_a_bot_asking_for_a_detail_is_read_from_every_message_since_the_user_s_last() -> None:
    reply = "Tuesday please, and what does a trim cost?"
    asked = [
        # a request for a detail without a "?"
        [(1, "user", "I want a haircut"), (1, "bot", "Please tell me which day suits you.")],
        # an imperative prompt the act tagger does not learn from SGD
        [(1, "user", "I want a haircut"), (1, "bot", "Please pick a day.")],
        # the question is not the bot's last message
        [
            (1, "user", "I want a haircut"),
            (1, "bot", "Which day suits you?"),
            (1, "bot", "We're open Monday to Saturday."),
        ],
        # a greeting before the user's first message (turn 0)
        [(0, "bot", "Welcome to the salon. Which day suits you?")],
    ]
    for before in asked:
        turn = before[-1][0] + 1
        checked = check_turns(
            _rows(*before, (turn, "user", reply), (turn, "bot", "A trim is $25."))
        )
        assert [r.asks for r in checked[-1].requests] == [False, False], before


def test_an_open_offer_of_help_is_no_question_the_user_answers() -> None:
    text = "Room service at 8 please and a wake-up call at 6:30."
    for offer in ("Hello! How can I help you today?", "Anything else I can help with?"):
        checked = check_turns(
            _rows(
                (1, "user", "Hi"),
                (1, "bot", offer),
                (2, "user", text),
                (2, "bot", "You will get a wake-up call at 6:30."),
            )
        )
        assert [r.asks for r in checked[-1].requests] == [True, False], offer


def test_a_modal_before_a_run_of_marks_does_not_stop_harness_detect(tmp_path: Path) -> None:
    text = "Could " + "*" * 80 + " two extra towels, and a wake-up call at 6:30 please."
    path = tmp_path / "t.jsonl"
    rows = [
        {"id": "m1", "turn": 1, "role": "user", "sender": "user", "text": text},
        {"id": "m2", "turn": 1, "role": "bot", "sender": "bot", "text": "Towels are on the way."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "IndexError" not in result.output
