"""What the check's segmenter keeps in one request, as the planner's split does: a statement
that sets the scene, a piece that asks about what a statement names, a statement that goes on
after "and", two imperatives joined by a pronoun (``harness.detect._together``), with the closed
classes both segmenters share (``harness.text._shapes``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect import _together
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
    message = "is parking free, and are rooms available on Friday, thank you so much"
    assert texts(message) == ["is parking free", "are rooms available on Friday"]
    (_, last) = segment_requests(message)
    assert message[last.start : last.end] == "are rooms available on Friday"


@pytest.mark.parametrize(
    ("message", "last"),
    [
        # words of thanks that punctuation does not set off are words of the request
        ("what's the weather, and play the song Thank You", "play the song Thank You"),
        ("what's the weather, and please call Ty", "please call Ty"),
        ("what do I owe, and tell me if that's all", "tell me if that's all"),
        ("book a cab and send a note saying thanks a lot", "send a note saying thanks a lot"),
    ],
)
def test_words_of_a_closer_inside_a_request_are_kept(message: str, last: str) -> None:
    assert texts(message)[-1] == last


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # a second action on what the first names is a request of its own ("tell"/"let ...
        # know" it something is not)
        ("check my balance and send it to my wife", ["check my balance", "send it to my wife"]),
        ("play some jazz and turn it up", ["play some jazz", "turn it up"]),
        # an impersonal "it" (the weather's) points back to nothing
        ("I lost my card, is it raining in Boston", ["I lost my card", "is it raining in Boston"]),
        ("the meeting moved to 3, is it going to rain", ["the meeting moved to 3", "is it going to rain"]),
        # a question about items announces nothing
        ("Check my order. Were there two items?", ["Check my order", "Were there two items"]),
        ("Show my cart. Are there any other items?", ["Show my cart", "Are there any other items"]),
    ],
)  # fmt: skip
def test_pieces_that_only_look_joined_stay_apart(message: str, requests: list[str]) -> None:
    assert texts(message) == requests


def test_a_run_of_joined_pieces_is_read_in_a_bounded_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Joining a run of pieces reads a bounded part of the run so far at each step, so the
    characters read grow with the message, not with its square (an operation count, no timing)."""
    read: list[int] = []

    def counted(name: str) -> None:
        shape = getattr(_together, name)

        def wrapper(first: str, second: str) -> bool:
            read.append(len(first))
            return bool(shape(first, second))

        monkeypatch.setattr(_together, name, wrapper)

    for name in ("refers_back", "_asks_about", "_asks_of_it"):
        counted(name)

    def characters(k: int) -> int:
        read.clear()
        message = "Call the school" + " and tell them" * k
        assert texts(message) == [message]
        return sum(read)

    assert characters(2_800) <= 5 * characters(700)


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
