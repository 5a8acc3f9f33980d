"""The check's segmenter on a lead-in of adverbs alone before a comma ("More specifically,
...", "Most importantly, ...", "Just wondering, ..."): it says how the request after it is
meant and is no request of its own (``harness.detect._part_tests._adverbial``). The sentences
are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    "message",
    [
        "More specifically, I need a taxi to the harbour",
        "Most importantly, can you renew my library card",
        "Even more importantly, what time does the clinic close",
        "More precisely, how much is a return ticket to Ghent",
        "Just quickly, what is the wifi password",
        "Very briefly, tell me the tram fare",
        # a bare participle after the adverbs comments on the request, as they do
        "Just wondering, what year did the bridge open",
        "Frankly speaking, is the museum worth a visit",
    ],
)
def test_a_lead_in_of_adverbs_alone_joins_the_request_it_leads(message: str) -> None:
    assert texts(message) == [message]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        # words that are no adverb before the comma still make a request of their own
        (
            "Renew my library card, I need a taxi to the harbour",
            ["Renew my library card", "I need a taxi to the harbour"],
        ),
        # a participle with an object says what the speaker does: no lead-in of adverbs
        (
            "Just booking a ferry, what is the weather in Split",
            ["Just booking a ferry", "what is the weather in Split"],
        ),
        # a lead-in of adverbs in the middle leads the request after it
        (
            "Book a table for two. More specifically, I need one by the window",
            ["Book a table for two", "More specifically, I need one by the window"],
        ),
    ],
)
def test_words_that_say_more_than_how_stay_apart(message: str, requests: list[str]) -> None:
    assert texts(message) == requests
