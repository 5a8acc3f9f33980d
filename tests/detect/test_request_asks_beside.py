"""Which pieces of a user's message ask for an answer of their own, read from their form and from
where they stand (:mod:`harness.detect._asked`): a yes/no question about an id or a name, a
problem added after a request, and a reason said beside a re-ask. New text written for these
tests (airlines, shops, clinics, banks, hotels, IT), none from a corpus."""

from __future__ import annotations

import pytest

from harness.detect.missed import missed_requests
from harness.detect.requests import needs_answer, segment_requests
from tests.detect.test_failure_classes import conversation


def _missed(*lines: tuple[str, str]) -> list[str]:
    """The requests the check reports missed, as quoted in its findings."""
    return [f.evidence.split('"')[1] for f in missed_requests(conversation(*lines))]


# --- 1. a yes/no question about an id or a name ------------------------------------------------


@pytest.mark.parametrize(
    ("message", "reply", "dropped"),
    [
        (
            "Has UA 15 boarded yet, and has my delayed bag been found",
            "Your bag was found in Chicago and will be delivered tonight.",
            "Has UA 15 boarded yet",
        ),
        (
            "Did invoice INV-2231 go out, and will the client pay it this week",
            "The client's payment is scheduled for Thursday.",
            "Did invoice INV-2231 go out",
        ),
        (
            "Has patient 3321 been discharged, and does the family know",
            "Yes, the family was told this morning.",
            "Has patient 3321 been discharged",
        ),
        (
            "Did the 7:45 train leave, and is there another one soon",
            "There is one more at 8:15 from platform 2.",
            "Did the 7:45 train leave",
        ),
        (
            "Has Dr. Patel's 3 pm slot opened up, and can you book it for me",
            "I can book appointments once a slot is free.",
            "Has Dr. Patel's 3 pm slot opened up",
        ),
    ],
)
def test_a_yes_no_question_about_an_id_is_a_request_of_its_own(
    message: str, reply: str, dropped: str
) -> None:
    # Fails before: the needs model gave the question less than its threshold (the id is a word
    # it never saw, and a number counts against asking), so the message had one request and any
    # reply answered it.
    assert dropped in _missed(("user", message), ("bot", reply))


@pytest.mark.parametrize(
    "piece",
    [
        "Has UA 15 boarded yet",
        "Did invoice INV-2231 go out",
        "Is room 204 ready",
        "Has Route 66 reopened",
        "Did the 7:45 train leave",
        "Will the 7:45 train stop at Leeds",
    ],
)
def test_a_yes_no_question_said_whole_needs_an_answer(piece: str) -> None:
    assert needs_answer(piece)


@pytest.mark.parametrize(
    "piece",
    [
        "for 4 people",
        "Yes, flight UA 15 please",
        "Room 204, thanks",
        "have 2 tickets",  # having, no question
        "Have it be at 19:00",  # an imperative
        "Can you make it around 9:30 am",  # a detail of the request made before
        "Could I pick it up around 6 in the evening",
        "is hopefully in Walnut Creek",
        "would prefer American Airlines",
    ],
)
def test_a_detail_with_a_number_or_a_name_still_asks_nothing(piece: str) -> None:
    assert not needs_answer(piece)


# --- 2. a problem added after a request ----------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "reply", "dropped"),
    [
        (
            "How many miles do I have? Also, my suitcase never showed up in Denver.",
            "You have 48,200 miles.",
            "my suitcase never showed up in Denver",
        ),
        (
            "Can you tell me when the pool opens? Plus the heater in room 12 isn't working.",
            "The pool opens at 7 am.",
            "the heater in room 12 isn't working",
        ),
        (
            "What time does the pharmacy close, and my prescription still hasn't been refilled.",
            "The pharmacy closes at 9 pm.",
            "my prescription still hasn't been refilled",
        ),
        (
            "Can you reset my email password? Also the printer in room 5 won't print.",
            "Your password was reset; a link is on its way to your phone.",
            "the printer in room 5 won't print",
        ),
        (
            "Is the spa open today? Oh and the TV in our room doesn't work.",
            "The spa is open from 9 am to 8 pm.",
            "the TV in our room doesn't work",
        ),
        (
            "Which gate does BA 117 leave from? Btw my boarding pass never came through.",
            "BA 117 leaves from gate C14.",
            "my boarding pass never came through",
        ),
    ],
)
def test_a_problem_added_after_a_request_is_a_request_of_its_own(
    message: str, reply: str, dropped: str
) -> None:
    # Fails before: the needs model read the complaint as asking nothing, so the message had
    # one request and the answer to the first question answered it.
    assert dropped in _missed(("user", message), ("bot", reply))


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        # a reason before the request, or after it with no word that adds
        ("I'm bored. Can you find me an event?", "The Lakers play at 7 pm tonight."),
        (
            "My flight got cancelled. Can you find me a hotel for tonight?",
            "The Airport Inn has a room for $129 tonight.",
        ),
        (
            "Can you find me a hotel for tonight? My flight got cancelled.",
            "The Airport Inn has a room for $129 tonight.",
        ),
        # a detail, a wish or a plan after "also": no failure, or the request's own thing
        (
            "Find me a hotel in Rome. Also, my wife doesn't eat meat.",
            "Hotel Artemide near Termini has rooms from 180 euros.",
        ),
        (
            "Book me a room for Friday. Also, I won't arrive until 10 pm.",
            "Your room for Friday is booked, confirmation R-5512.",
        ),
        (
            "Book a table for 4 at Nobu. Also, the table can't be near the kitchen.",
            "Your table for 4 at Nobu is booked for 8 pm.",
        ),
    ],
)
def test_a_reason_or_a_detail_beside_a_request_asks_nothing(message: str, reply: str) -> None:
    assert _missed(("user", message), ("bot", reply)) == []


def test_only_a_problem_after_a_word_that_adds_is_marked() -> None:
    added = [
        r.added for r in segment_requests("Which gate is it? Also my suitcase never showed up.")
    ]
    reason = [r.added for r in segment_requests("My suitcase never showed up. Which gate is it?")]
    assert added == [False, True]
    assert reason == [False, False]


# --- 3. a re-ask and the reason beside it ------------------------------------------------------

_RESULTS = (
    ("user", "Are my blood test results in?"),
    ("bot", "Your results are not in yet. They usually take three days."),
)
_GIVEN = "Your results are in: your cholesterol is 180, which is normal."


@pytest.mark.parametrize(
    "again",
    [
        "Can you check again? The lab said they called.",
        "Try again please. The driver texted me an hour ago.",
        "Are you sure? My employer says they paid us yesterday.",
        "Can you double-check? My friend just got a reservation there.",
        "The pharmacy texted me that it is ready. Can you check again?",
        "Hmm, could you look once more? The nurse told me this morning they were ready.",
    ],
)
def test_a_reason_beside_a_re_ask_is_no_request_of_its_own(again: str) -> None:
    # Fails before: the re-ask and the reason were two requests, neither sharing a word with
    # the answer, so both were reported missed.
    assert _missed(*_RESULTS, ("user", again), ("bot", _GIVEN)) == []


def test_a_new_question_or_problem_beside_a_re_ask_is_still_its_own() -> None:
    asked = _missed(
        *_RESULTS, ("user", "Can you check again? What are your hours?"), ("bot", _GIVEN)
    )
    added = _missed(
        *_RESULTS,
        ("user", "Please check again. Also, my insurance card was declined at the desk."),
        ("bot", _GIVEN),
    )
    assert "What are your hours" in asked
    assert "my insurance card was declined at the desk" in added
    assert len(segment_requests("Can you try again? I want to book a visit for Monday.")) == 2
    assert len(segment_requests("Please check again and my card was declined at lunch.")) == 2
