"""What the check's segmenter keeps in one request, as the planner's split does: a statement
that sets the scene, a piece that asks about what a statement names, a statement that goes on
after "and", two imperatives joined by a pronoun (``harness.detect._together``), with the closed
classes both segmenters share (``harness.text._shapes``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.missed import missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, Transcript


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    "message",
    [
        # a statement that only states, before a comma: the context of the request after it
        "I'm flying to Lisbon next week, do I need a visa?",
        "I'm moving house next month, can you update my address",
        # a piece that asks about what the statement before it names
        "My phone was stolen and I need to report it",
        "my parcel never arrived, what happened?",
        "my order was late, why did that happen",
        "my refund, has it been paid yet",
        "my transfer bounced and I want to know why",
        # a quotation after a comma
        "can you translate the phrase, 'where is the station' into French",
        # a piece opening with "or" asks the same thing again
        "has my refund been sent, or what is its status",
        # a statement going on after "and" without a subject of its own
        "I was on train 4410 and haven't been able to find my bag",
        # an imperative and another whose pronoun points back to what it names
        "call the school and let them know my son is sick",
    ],
)
def test_a_statement_and_what_it_leads_to_are_one_request(message: str) -> None:
    assert texts(message) == [message.rstrip("?")]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a statement that asks on its own by the learned model ("I lost my wallet")
        ("I lost my wallet, can you freeze my card?", ["I lost my wallet", "can you freeze my card"]),
        # a question, then a question about the same thing: two requests
        ("What's their number and do they allow pets?", ["What's their number", "do they allow pets"]),
        # "also" adds a request; a want is a request of its own
        ("I'm going to Rome, also what's the weather in Paris?", ["I'm going to Rome", "what's the weather in Paris"]),
        ("I need a taxi, and what's the weather tomorrow?", ["I need a taxi", "what's the weather tomorrow"]),
        # a question word inside the statement asks
        ("I'm curious what plan I'm on, can I raise my limit", ["I'm curious what plan I'm on", "can I raise my limit"]),
    ],
)  # fmt: skip
def test_requests_of_their_own_stay_apart(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "I have several requests. Where is my W-2? When is payday?",
            ["Where is my W-2", "When is payday"],
        ),
        (
            "Can you help me with a few things? What's my balance, and book a cab",
            ["What's my balance", "book a cab"],
        ),
        ("I have a few questions.", ["I have a few questions"]),  # nothing else: kept
    ],
)
def test_an_announcement_of_requests_is_no_request(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_a_closer_is_no_word_of_the_request_it_ends() -> None:
    message = "is parking free, and are rooms available on Friday thank you so much"
    assert texts(message) == ["is parking free", "are rooms available on Friday"]
    (_, last) = segment_requests(message)
    assert message[last.start : last.end] == "are rooms available on Friday"


def test_a_bot_sentence_is_cut_as_before() -> None:
    """The answer matcher reads a bot's sentences with ``statement``: nothing is joined there."""
    said = "The card was blocked and it will arrive on Monday"
    assert len(segment_requests(said, statement=True)) == 2


def _turn(user: str, *bots: str) -> Transcript:
    messages = [Message(id="u", turn=1, role="user", sender="user", text=user)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=text)
        for i, text in enumerate(bots)
    ]
    return Transcript(messages=messages)


def test_a_statement_answered_with_its_request_is_no_missed_request() -> None:
    user = "My phone was stolen and I need to report it. Also, what's my balance?"
    answered = _turn(
        user, "I've reported the stolen phone to your carrier.", "Your balance is $312.40."
    )
    assert missed_requests(answered) == []
    dropped = _turn(user, "Your balance is $312.40.")
    assert [f.evidence.split('"')[1] for f in missed_requests(dropped)] == [
        "My phone was stolen and I need to report it"
    ]
