"""The check's segmenter on the speaker's wish ("i need ...", "i'd like ...", "im looking ...")
running on after a request with no punctuation or joining word before it
(``harness.detect._run_ons``). The sentences are new text."""

from __future__ import annotations

import pytest

from harness.detect.requests import segment_requests


def texts(message: str) -> list[str]:
    return [r.text for r in segment_requests(message)]


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "when does the pharmacy on main street close i want to buy some aspirin",
            ["when does the pharmacy on main street close", "i want to buy some aspirin"],
        ),
        (
            "how late does the gym open on sundays i need a plumber for tomorrow",
            ["how late does the gym open on sundays", "i need a plumber for tomorrow"],
        ),
        (
            "show me the weather in Spain for tomorrow id like to order a pizza",
            ["show me the weather in Spain for tomorrow", "id like to order a pizza"],
        ),
        (
            "how much interest do i earn on savings im looking for a cheap hotel in rome",
            ["how much interest do i earn on savings", "im looking for a cheap hotel in rome"],
        ),
        (
            "i need a taxi to the airport i would like to hear some jazz",
            ["i need a taxi to the airport", "i would like to hear some jazz"],
        ),
        # after a wish, a question word's question runs on too
        (
            "i need to renew my passport how long does the bus take to Leeds",
            ["i need to renew my passport", "how long does the bus take to Leeds"],
        ),
    ],
)
def test_a_wish_running_on_after_a_request_is_a_request_of_its_own(
    message: str, requests: list[str]
) -> None:
    assert texts(message) == requests


@pytest.mark.parametrize(
    "message",
    [
        # the wish says which thing the object before it is (a relative clause)
        "what is the fee i need to pay for parking",
        "where do I find the permit i need to park downtown",
        "ask my landlord i need a new key",
        # it points back to what the request asks for
        "book a table for two i need it at eight",
        "can you find me a flight to Boston on Friday i need to be there by noon",
        # it names nothing beyond asking for help
        "I want to rent a van for which I need your help",
        # a question still waiting for its verb
        "what time i need to leave for the station",
        # after a wish, "do i ..." or "can you ..." may ask what the wish needs
        "i want to visit Peru do i need a visa",
    ],
)
def test_a_wish_that_goes_on_with_the_request_before_it_is_no_run_on(message: str) -> None:
    assert len(texts(message)) == 1


@pytest.mark.parametrize(
    "message",
    [
        # the clause a verb of saying or thinking takes, in a question
        "Do you think I need a coat today?",
        "Would you say I need a new laptop?",
        "can you confirm i need a visa for peru",
        "do you reckon i need boots for the hike",
        "would you agree i need a bigger monitor",
        "does the manual say i need a special charger",
        # the clause an adjective takes
        "is it possible i need a new battery",
        "is it true i need a permit to fish",
        "are you certain i need two forms of id",
        # a reason with no object of its own
        "play something relaxing i need to calm down",
        "turn on the radio i want to relax",
    ],
)
def test_a_wish_a_question_or_a_reason_takes_is_no_run_on(message: str) -> None:
    assert len(texts(message)) == 1


@pytest.mark.parametrize(
    "message",
    [
        # a known limit of the object guard: "the/my NOUN" just before the wish keeps it whole
        "what is my balance i need a cab",
        "when does the store close i want to buy milk",
        # it refines the request before it ("the/a NOUN" and a preposition's phrase)
        "find a hotel in rome i want a pool",
        "get me a flight to oslo i want to leave on friday",
        "book a table at luigis i would like a window seat",
    ],
)
def test_a_wish_right_after_a_named_object_stays_with_it(message: str) -> None:
    assert len(texts(message)) == 1
