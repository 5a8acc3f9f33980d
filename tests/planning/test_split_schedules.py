"""How the offline planner's split keeps a request's schedule, its chosen value, the trip it is
for and the place it is about with it (issue 25, session 43).

The shapes come from Schema-Guided Dialogue train user turns (one request each, cut into several
plan entries); every message here is new text. Each test of a fix failed on the split before it
(``main`` 75b55e7); the guards say so in their docstrings.
"""

from __future__ import annotations

import pytest

from harness.planning.split import split_request_parts, split_requests


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "detail",
    [
        "I leave on the 12th.",
        "We fly out on March 3rd.",
        "It starts at 8 pm.",
        "The show begins at half past 7.",
        "The pickup is at 6:15.",
        "My train arrives at 11 am.",
        "I return on the 20th.",
    ],
)
def test_a_schedule_in_the_present_is_the_requests_detail(detail: str) -> None:
    # Before, a present tense other than "be" (and a subject that names a thing) was read as a
    # request of its own and routed on its words ("I leave on the 12th" to the bus agent).
    message = f"Get me a taxi to the pier. {detail}"
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    "detail",
    [
        "I'm thinking the 9th of June.",
        "I am thinking 2 nights.",
        "I was thinking about the match on the 14th.",
    ],
)
def test_thinking_of_a_value_is_the_requests_detail(detail: str) -> None:
    # Before, "thinking" was read as a wish of its own.
    message = f"Look for a concert in Austin. {detail}"
    assert split_requests(message, _always) == [message]


def test_a_pronoun_before_a_morning_time_still_points_back() -> None:
    # Before, the "am" of "9 am" read as an auxiliary, and a sentence with one asks on its own.
    message = "Reserve a rental car in Reno. I'd like to pick it up at 9 am."
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "Get me a taxi to the pier. I left my wallet there on the 5th.",
        "Get me a taxi to the pier. My card was declined 2 times.",
        "Get me a taxi to the pier. I started a new job on Monday.",
        "Get me a taxi to the pier. I'm thinking about applying for a loan on the 3rd.",
        "Get me a taxi to the pier. My card was charged 30 dollars.",
        "Get me a taxi to the pier.\nIt starts at 8 pm.",
    ],
)
def test_a_report_a_past_or_a_new_line_still_cuts(message: str) -> None:
    """The guard: a past tense, "was", a request verb, a question or a line break is no detail
    (passes before and after)."""
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    "message",
    [
        "I have an upcoming trip. Can you look for flights to Lisbon?",
        "We've got a reunion coming up. Find us a hotel in Dayton.",
        "I have a trip soon, could you reserve a car for me?",
    ],
)
def test_something_coming_up_before_a_request_sets_its_scene(message: str) -> None:
    # Before, the statement of a trip coming up was a plan entry of its own.
    assert len(split_requests(message, _always)) == 1


@pytest.mark.parametrize(
    "message",
    [
        "I have no trips coming up. Can you look for flights to Lisbon?",
        "I have 300 dollars. Can you look for flights to Lisbon?",
        "I need a hotel soon. Can you look for flights to Lisbon?",
    ],
)
def test_having_no_trip_a_sum_or_a_need_is_no_scene(message: str) -> None:
    """The guard: a negation, a statement with no near future, a word of needing (passes before
    and after)."""
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("Denver, get me a cab there.", "get me a cab there."),
        ("Lake Geneva, what is the weather there like?", "what is the weather there like"),
    ],
)
def test_a_name_alone_before_a_comma_opens_the_request_it_is_about(message: str, asks: str) -> None:
    # Before, the name was a request of its own, routed on its one word.
    assert split_request_parts(message, _always) == [(message.rstrip("?"), asks)]


def test_a_name_after_a_request_or_a_greeting_is_no_scene() -> None:
    """The guard: a name that ends a request, or a greeting (passes before and after)."""
    message = "Book a flight to Denver, Chicago, what is the weather there?"
    assert split_request_parts(message, _always) == [
        ("Book a flight to Denver, Chicago", "Book a flight to Denver, Chicago"),
        ("what is the weather there", "what is the weather there"),
    ]
    assert split_request_parts("Hi, can you book a cab?", _always) == [
        ("Hi, can you book a cab", "can you book a cab")
    ]


# A router that routes a piece on these words only (the planner's asks whether some agent's
# texts weigh a word of it enough).
_AGENT_WORDS = frozenset(
    ["weather", "forecast", "flight", "status", "hotel", "cab", "taxi", "balance"]
)


def _worded(piece: str, previous: str) -> bool:
    return any(word.strip(".,?!") in _AGENT_WORDS for word in piece.lower().split())


def test_a_name_that_routes_nowhere_opens_the_request_after_it() -> None:
    """The guard: a name no agent's words name, with no word pointing back to it (passes before
    and after)."""
    assert split_request_parts("Siri, what is the forecast?", _worded) == [
        ("Siri, what is the forecast", "what is the forecast")
    ]


@pytest.mark.parametrize(
    "message",
    [
        "WEATHER IN BOSTON, BOOK A CAB TOO.",
        "Forecast For Tulsa, find me a taxi.",
        "Flight Status, book me a hotel in Miami.",
        "Account Balance, get me a cab to the mall.",
        "HOTEL DEALS, CALL ME A CAB.",
    ],
)
def test_a_capitalised_request_before_a_comma_is_no_name(message: str) -> None:
    # Before, capitalised words before a comma were read as a name and joined to the request
    # after them, so the first request was never routed.
    assert len(split_requests(message, _worded)) == 2


@pytest.mark.parametrize(
    "detail",
    [
        "I prefer a window seat.",
        "We'd prefer the 9th.",
        "I really like films by Greta Gerwig.",
    ],
)
def test_a_preference_after_a_request_is_its_detail(detail: str) -> None:
    # Before, a statement of what the speaker likes was a request of its own, routed on its
    # words ("I prefer a window seat" to whichever agent names seats).
    message = f"Look for a train to Salem. {detail}"
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "Look for a train to Salem. I'd like a hotel there too.",
        "Look for a train to Salem. I like to book a table at Nobu.",
        "Look for a train to Salem. I prefer to know why my card was declined.",
        "Look for a train to Salem. I'd like 2 tickets to the Lakers game.",
        "Look for a train to Salem.\nI prefer a window seat.",
        "Look for a train to Salem. I'd prefer a hotel room too.",
        "Look for a train to Salem. We would prefer a rental car as well.",
        "Look for a train to Salem. I'd also prefer a table at Nobu.",
        "Look for a train to Salem. I prefer that you text me the times.",
        "Look for a train to Salem. I prefer you email me the timetable.",
    ],
)
def test_a_new_want_a_question_or_a_new_line_after_a_request_still_cuts(message: str) -> None:
    """The guard: "I'd like" something, "to" and a request verb, a question word or a line
    break is a request of its own (passes before and after); so is a want added with "too",
    "as well" or "also", or a clause of its own after "prefer" (all but "that you text" failed
    before)."""
    assert len(split_requests(message, _always)) == 2


@pytest.mark.parametrize(
    "message",
    [
        "Reserve me a room at the Harbor Inn, checking in on June 2nd.",
        "Look up return flights to Denver, coming back on the 21st.",
        "I want a bus ticket to Austin, leaving Friday morning, returning Sunday.",
        "Find me a cabin by the lake. Staying for three nights.",
        "Book two train seats to Lyon, traveling first class please.",
    ],
)
def test_a_fragment_of_coming_and_going_gives_the_requests_schedule(message: str) -> None:
    # Before (main 71bbc8d), the "-ing" fragment was cut off as a request of its own and routed
    # on its words ("checking" to a bank's checking account, "leaving" to the weather).
    assert split_requests(message, _always) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "Book me a flight to Quito, checking my balance is next.",
        "Book me a flight to Quito. Leaving is hard, can you find me a therapist?",
        "Book me a flight to Quito.\nChecking in on my savings: what is the balance?",
    ],
)
def test_an_ing_opening_with_a_clause_of_its_own_still_cuts(message: str) -> None:
    """The guard: a piece that opens with another "-ing" word, or has a clause of its own, or
    stands on a line of its own, is a request of its own (passes before and after)."""
    assert len(split_requests(message, _always)) >= 2
