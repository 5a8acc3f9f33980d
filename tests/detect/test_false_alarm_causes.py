"""The false-alarm sorter of ``tools.detector.false_alarms`` (issue 25's breakdown of the fully
answered turns the missed-request check flags), on messages written for this test."""

from __future__ import annotations

from typing import Any

from tools.detector.false_alarms import _segmentation, flagged_causes


def _message(text: str, *pairs: tuple[str, str]) -> dict[str, Any]:
    return {"text": text, "requests": [{"text": t, "answer": a} for t, a in pairs]}


def test_a_request_cut_in_two_is_a_segmentation_error() -> None:
    message = _message(
        "what's my checking balance, and I need a plumber, who is open on Sunday",
        ("what's my checking balance", "Your checking balance is $120."),
        ("I need a plumber, who is open on Sunday", "Ace Plumbing can come out to fix it."),
    )
    assert flagged_causes(message) == ["a: cut in two"]


def test_an_answer_sharing_no_word_is_the_matchers() -> None:
    message = _message(
        "please set an alarm for 6 am and how do I say thank you in German",
        ("please set an alarm for 6 am", "Your alarm is set for 6 am."),
        ("how do I say thank you in German", "Danke schön."),
    )
    assert flagged_causes(message) == ["b: held back by a rule"]


def test_a_turn_answered_in_the_requests_words_has_no_cause() -> None:
    message = _message(
        "please set an alarm for 6 am and how do I say thank you in German",
        ("please set an alarm for 6 am", "Your alarm is set for 6 am."),
        ("how do I say thank you in German", "To say thank you in German, say danke."),
    )
    assert flagged_causes(message) == []


def test_a_piece_is_placed_against_the_labelled_requests_by_its_words() -> None:
    gold = [frozenset({"plumber", "open", "sunday"}), frozenset({"checking", "balance"})]
    assert _segmentation(frozenset({"plumber"}), gold) == "a: cut in two"
    assert _segmentation(frozenset({"plumber", "balance"}), gold) == "a: kept joined"
    assert _segmentation(frozenset({"plumber", "cheap"}), gold) == "a: extra words"
    assert _segmentation(frozenset({"weather"}), gold) == "a: no request"
