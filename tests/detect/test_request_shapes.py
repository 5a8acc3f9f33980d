"""The request segmenter on messages that ask two things at once and share their words: the
question words of one question ("when and where does it start"), two things in one frame ("tell
me my balance and due date"), two actions of one question ("where does it leave and arrive"),
lists said in one frame. The check built on it must flag a reply that answers only one of them,
so each is a request of its own, carrying the words said once for both.

Development figures come from SGD *train* user turns, whose dialogue acts say how many slots a
turn requests (``tests/detect/sgd_turn_requests.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

import harness.detect._coordination as coordination
from harness.detect.missed import missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, Transcript
from tests.detect.sgd_turn_requests import SGD, counts


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # the question words of one question
        ("When and where does it start?", ["When does it start", "where does it start"]),
        (
            "When and at what airport will the onward flight arrive?",
            ["When will the onward flight arrive", "at what airport will the onward flight arrive"],
        ),
        (
            "How humid and windy is it going to be?",
            ["How humid is it going to be", "How windy is it going to be"],
        ),
        ("How long to get there and how much?", ["How long to get there", "how much"]),
        # two things asked for in one frame, what follows the second said of both
        ("tell me my balance and due date", ["tell me my balance", "tell me my due date"]),
        (
            "What is the phone number and average rating of the place?",
            [
                "What is the phone number of the place",
                "What is the average rating of the place",
            ],
        ),
        (
            "Can I have their phone and address?",
            ["Can I have their phone", "Can I have their address"],
        ),
        (
            "Is it free and safe for children?",
            ["Is it free for children", "Is it safe for children"],
        ),
        (
            "What will the humidity and wind be like?",
            ["What will the humidity be like", "What will the wind be like"],
        ),
        ("Address and phone number?", ["Address", "phone number"]),
        # a thing whose name opens with a verb ("start time", "check in time")
        ("What's the start time and address?", ["What's the start time", "What's the address"]),
        (
            "what is the check in time and the price",
            ["what is the check in time", "what is the price"],
        ),
        # the end of a question after a question word said of both
        ("What album and genre is it?", ["What album is it", "What genre is it"]),
        (
            "Which airline and flight number is it?",
            ["Which airline is it", "Which flight number is it"],
        ),
        # two actions of one question
        (
            "What station does it leave and arrive at?",
            ["What station does it leave", "What station does it arrive at"],
        ),
        ("when does it open and close", ["when does it open", "when does it close"]),
        # questions inside one request ("can you tell me ...")
        (
            "Do you know if pets are allowed and if it comes furnished.",
            ["Do you know if pets are allowed", "Do you know if it comes furnished"],
        ),
        (
            "Can you tell me when it starts and where it is located?",
            ["Can you tell me when it starts", "Can you tell me where it is located"],
        ),
        (
            "Can you tell me what type of movie it is and the exact location of the cinema?",
            [
                "Can you tell me what type of movie it is",
                "Can you tell me the exact location of the cinema",
            ],
        ),
        # a list said in one frame
        (
            "What's the address, phone number and rating?",
            ["What's the address", "What's the phone number", "What's the rating"],
        ),
        (
            "tell me the weather, the traffic and the news",
            ["tell me the weather", "tell me the traffic", "tell me the news"],
        ),
    ],
)
def test_two_things_asked_at_once_are_two_requests_sharing_their_words(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "what's the price and how long is the warranty",
            ["what's the price", "how long is the warranty"],
        ),
        ("tell me the balance and the due date", ["tell me the balance", "tell me the due date"]),
        ("book a table and a taxi", ["book a table", "book a taxi"]),
    ],
)
def test_two_requests_after_one_verb_stay_two(message: str, requests: list[str]) -> None:
    """Shapes the segmenter read right before the change (a guard, not a fix)."""
    assert texts(message) == requests


def test_the_words_carried_back_are_kept_apart_from_the_users_own() -> None:
    message = "When and where does it start?"
    first, second = segment_requests(message)
    assert message[first.start : first.end] == "When"
    assert (first.carried, first.carried_after) == ("", "does it start")
    assert message[second.start : second.end] == "where does it start"
    [_, rating] = segment_requests("What's the price and rating of the hotel?")
    assert (rating.carried, rating.carried_after) == ("What's the", "")


@pytest.mark.parametrize(
    "message",
    [
        "show me the terms and conditions",  # a pair of plurals is one thing
        "Do they do both men's and women's hair?",
        "how many meetings do i have between 10 and 3",
        "Can you transfer three hundred and seventy bucks?",
        "go ahead and disconnect from my phone",  # an imperative says whose thing it asks for
        "what's the weather in Paris and London",  # "and" inside a preposition's object
        "what's in salt and pepper seasoning",
        "i have a new job and need direction with my 401k rollover",
        "call my credit card company and ask can i use my points",
    ],
)
def test_one_thing_with_and_in_it_stays_one_request(message: str) -> None:
    assert len(segment_requests(message)) == 1


def _turn(message: str, reply: str) -> Transcript:
    return Transcript(
        conversation="c",
        messages=[
            Message(id="u", turn=1, role="user", sender="user", text=message),
            Message(id="b", turn=1, role="bot", sender="bot", text=reply),
        ],
    )


def test_a_reply_answering_one_of_two_things_asked_at_once_is_flagged() -> None:
    """The point of the change: "when and where" answered with a time only was one request,
    answered by any reply."""
    [finding] = missed_requests(_turn("When and where does it start?", "It starts at 7 pm."))
    assert "where does it start" in finding.evidence
    assert not missed_requests(
        _turn("When and where does it start?", "It starts at 7 pm at Oracle Park.")
    )
    [finding] = missed_requests(_turn("tell me my balance and due date", "Your balance is $120."))
    assert "due date" in finding.evidence


def test_the_rules_read_a_bounded_number_of_words_at_each_join(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A list said in one frame is walked back a few items at most, and each clause read is at
    most a dozen words, so a message twice as long costs twice as much (counted, not timed)."""
    read: list[int] = []
    clause = coordination._clause

    def counting_clause(piece: list[Any], limit: int = 12) -> list[Any]:
        read.append(min(len(piece), limit + 1))
        return clause(piece, limit)

    monkeypatch.setattr(coordination, "_clause", counting_clause)
    work = []
    for n in (1000, 2000):
        read.clear()
        segment_requests.cache_clear()
        segment_requests("what's the " + ", ".join(f"price{i}" for i in range(n)) + " and rating?")
        segment_requests("when and " * n + "where does it start?")
        work.append(sum(read))
    assert work[0] > 0
    assert work[1] <= 2.1 * work[0]


@pytest.mark.skipif(not SGD.is_dir(), reason="../shared/data/sgd is not beside the repo")
def test_real_user_turns_are_counted_as_their_dialogue_acts_say() -> None:
    """SGD *train* user turns (development data), their requested slots counted from their
    dialogue acts. Measured 2026-12-02: one slot requested, 8,762 of 8,868 turns counted right
    before (98.8 %) and 8,760 after; two slots, 5,071 of 6,245 (81.2 %) before and 5,726
    (91.7 %) after. 2026-12-03 (s39-check): 5,734 before, 5,741 after "start time"-like things
    and "what album and genre is it" (one slot: 8,759 both). s41-segment: 8,764 and 5,743 with a
    statement and what it leads to kept together and announcements left out
    (``harness.detect._together``)."""
    result = counts("train")
    assert result.turns["req1"] == 8868 and result.turns["req2"] == 6245
    assert result.right["req1"] >= 8750
    assert result.right["req2"] >= 5740


def test_a_question_mark_with_no_space_after_it_ends_a_request() -> None:
    found = segment_requests("Is the museum open on Mondays?How much is a ticket?")
    assert [r.text for r in found] == ["Is the museum open on Mondays", "How much is a ticket"]
    assert [r.text for r in segment_requests("Is it 5?")] == ["Is it 5"]
