"""An answer in the bot's own words, read through the slot the request asks for and the slot the
sentence gives (``harness.detect._slots``, fitted on Schema-Guided Dialogue train's acts)."""

from __future__ import annotations

import json

from harness.detect._slots import MODEL, NOTHING, given_slots, same_slot, slot_models
from harness.detect.missed import DeclaredRequest, missed_requests
from harness.detect.transcript import Message, Transcript

ASKED = "Where do I ring them, and do they take walk-ins?"


def _turn(user: str, *replies: str) -> Transcript:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=user)]
    messages += [
        Message(id=f"b{k}", turn=1, role="bot", sender="bot", text=text)
        for k, text in enumerate(replies)
    ]
    return Transcript(conversation="c", messages=messages)


def _flagged(transcript: Transcript, **kwargs: object) -> list[str]:
    return [f.evidence.split(":")[0].strip('"') for f in missed_requests(transcript, **kwargs)]  # type: ignore[arg-type]


def test_a_number_answers_where_to_ring_them_without_a_word_in_common() -> None:
    reply = "Their contact number is 650-555-0142. They accept walk-ins."
    assert _flagged(_turn(ASKED, reply)) == []


def test_the_request_left_unanswered_is_still_flagged() -> None:
    assert _flagged(_turn(ASKED, "They accept walk-ins.")) == ["Where do I ring them"]


def test_a_sentence_that_informs_nothing_answers_nothing() -> None:
    assert given_slots("Your ride is reserved.")[NOTHING] > 0.5
    flagged = _flagged(
        _turn("What's the ride going to cost, and how long is the wait?", "Your ride is reserved.")
    )
    assert flagged


def test_declared_requests_are_read_as_before() -> None:
    declared = {1: [DeclaredRequest(text="phone number"), DeclaredRequest(text="walk-ins")]}
    reply = "Their contact number is 650-555-0142. They accept walk-ins."
    before = _flagged(_turn(ASKED, reply), declared=declared)
    assert "walk-ins" not in before


def test_the_slots_read_what_a_request_asks_and_a_sentence_gives() -> None:
    sentence = "You can reach them at 650-555-0142."
    assert same_slot("what number can I reach them at", sentence) > 0.5
    assert same_slot("how much will the ride cost", sentence) < 0.05
    assert given_slots("Your table is booked.")[NOTHING] > 0.9


def test_the_model_file_says_what_it_was_fitted_on() -> None:
    raw = json.loads(MODEL.read_text(encoding="utf-8"))
    assert "Schema-Guided Dialogue train" in raw["source"]
    assert "CC BY-SA 4.0" in raw["source"]
    assert "sgd-real-train" in raw["source"]
    models = slot_models()
    assert NOTHING in models.informs.priors
    assert NOTHING not in models.requests.priors
