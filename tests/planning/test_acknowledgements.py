"""An acknowledgement before or after a request is no request of its own (issue 25, a new bot).

Real users open a new request by acknowledging the last answer ("That sounds good.", "Nope, that
works."). Before 2026-12-02 (s38), a sentence made of such words was planned as a request of its
own and routed to whichever agent shared a word, and on a bot built from real SGD turns it often
became the plan entry that held most of the request (``tests/planning/new_bot_eval.py``). The words
are learnt from SGD train user acts (``tests/planning/build_acknowledgements.py``); the messages
here are new text.
"""

from __future__ import annotations

import json

import pytest

from harness.models._text import content_tokens
from harness.planning.split import (
    ACKNOWLEDGEMENTS_FILE,
    asks_something,
    split_request_parts,
    split_requests,
)
from tests.planning.routing_eval import SGD


def _never(piece: str, previous: str) -> bool:
    return False


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("That sounds good. Can you get me a cab to the airport?", "Can you get me a cab to the airport"),
        ("Nope, that works. What's the forecast for Boston tomorrow?", "What's the forecast for Boston tomorrow"),
        ("Perfect, that works. I want a table for two tonight.", "I want a table for two tonight."),
    ],
)  # fmt: skip
def test_an_acknowledgement_opens_the_request_after_it(message: str, asks: str) -> None:
    assert split_request_parts(message, _never) == [(message.rstrip("?"), asks)]


def test_an_acknowledgement_after_a_request_ends_it() -> None:
    message = "Book the 7 pm showing of Dune. That works, thanks a bunch."
    assert split_requests(message, _never) == [message]


def test_two_requests_around_an_acknowledgement_stay_two() -> None:
    message = "That sounds good. Book me a cab. Then tell me my checking balance."
    assert len(split_requests(message, _never)) == 2


def test_the_learnt_words_are_acknowledgements_not_subjects() -> None:
    words = set(json.loads(ACKNOWLEDGEMENTS_FILE.read_text(encoding="utf-8"))["words"])
    assert {"sound", "nop", "perfect"} <= words
    # Words that say what a request is about are not in it.
    assert not words & set(content_tokens("flight hotel restaurant balance cab weather song"))


@pytest.mark.parametrize(
    "sentence",
    [
        "Tell me my rights",
        "Show me the information",
        "Can I get more information?",
        "Is that right?",
    ],
)
def test_a_content_word_of_declining_turns_still_asks(sentence: str) -> None:
    # Before (s42-lead a6c5c36), the stems learnt from turns that decline an offered intent
    # ("Not right now", "I don't want to") were acknowledgements everywhere: these asked nothing.
    assert asks_something(sentence)


def test_a_request_after_another_with_a_declining_word_stays_two() -> None:
    # Before (s42-lead a6c5c36), "tell me my rights" asked nothing and was joined to the booking.
    message = "Book me a flight to Boston and tell me my rights"
    assert split_requests(message, _never) == ["Book me a flight to Boston", "tell me my rights"]


@pytest.mark.parametrize(
    "reply", ["No, not right now.", "No, I don't want to.", "Not yet, thanks."]
)
def test_a_reply_that_declines_with_those_words_still_asks_nothing(reply: str) -> None:
    """The guard: inside a piece that declines, the declining turns' words still ask nothing
    (passes before and after)."""
    assert not asks_something(reply)


@pytest.mark.skipif(not SGD.is_dir(), reason="needs ../shared/data/sgd")
def test_the_shipped_words_are_what_their_script_builds() -> None:
    # `python -m tests.planning.build_acknowledgements` (about 5 s): a change to the tokenizer or
    # the rule fails here until the file is rebuilt.
    from tests.planning.build_acknowledgements import table

    assert ACKNOWLEDGEMENTS_FILE.read_text(encoding="utf-8") == table()
