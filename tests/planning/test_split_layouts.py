"""How the offline planner cuts messages written in ways its first joins did not know (lists,
lines, discourse connectives, lower-case run-ons with no punctuation).

Each case is a shape found on ``ways-dev.jsonl`` (``tests/detect/build_ways_multi_intent.py``),
written here with new text; every test but the guards failed on the split before 2026-12-02 18:00
(each message was planned as one request, or a connective was planned as a request of its own).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.models._text import content_tokens
from harness.planning.split import split_request_parts, split_requests


def _never(piece: str, previous: str) -> bool:
    return False


def _always(piece: str, previous: str) -> bool:
    return True


@pytest.mark.parametrize(
    "message",
    [
        "where is my W-2\nwhen is payday",
        "1. where is my W-2\n2. when is payday",
        "1) where is my W-2 2) when is payday",
        "(1) where is my W-2 (2) when is payday",
        "- where is my W-2\n- when is payday",
        "* where is my W-2\n* when is payday",
        "• where is my W-2\n• when is payday",
        "#1 where is my W-2\n#2 when is payday",
    ],
)
def test_a_line_or_a_list_item_is_a_request(message: str) -> None:
    assert split_requests(message, _never) == ["where is my W-2", "when is payday"]


def test_a_list_after_a_lead_in_line_keeps_the_lead_in_with_the_first_item() -> None:
    parts = split_request_parts("Quick ones:\n- where is my W-2\n- when is payday\nthanks!", _never)
    assert [whole for whole, _ in parts] == [
        "Quick ones: where is my W-2",
        "when is payday thanks!",
    ]
    assert parts[0][1] == "where is my W-2"


@pytest.mark.parametrize(
    "join",
    [" btw ", ", btw ", ". Secondly, ", ". Separately, ", ", oh and ", " :) ", " + ",
     ". On top of that, ", ", while you're at it ", ", then ", ". Last but not least, ",
     ". Also: ", ", next, "],
)  # fmt: skip
def test_a_discourse_connective_joins_two_requests_and_is_no_request(join: str) -> None:
    parts = split_request_parts(f"where is my W-2{join}when is payday", _never)
    assert [asks for _, asks in parts] == ["where is my W-2", "when is payday"]
    # The connective's own words stay in the plan ("btw", "Secondly").
    planned = {t for whole, _ in parts for t in content_tokens(whole)}
    assert set(content_tokens(join)) <= planned


@pytest.mark.parametrize(
    ("message", "requests"),
    [
        (
            "whats my balance can you book a table for 2 tonight",
            ["whats my balance", "can you book a table for 2 tonight"],
        ),
        (
            "book a flight to denver how many vacation days do i have left",
            ["book a flight to denver", "how many vacation days do i have left"],
        ),
        (
            "my luggage never arrived then tell me when payday is",
            ["my luggage never arrived", "tell me when payday is"],
        ),
        (
            "tell me how to get my w-2 online how are my taxes looking this year",
            ["tell me how to get my w-2 online", "how are my taxes looking this year"],
        ),
        (
            "cancel my dentist appointment i need to order new checks",
            ["cancel my dentist appointment", "i need to order new checks"],
        ),
    ],
)
def test_a_run_on_is_cut_where_a_request_opens_after_a_complete_one(
    message: str, requests: list[str]
) -> None:
    assert split_requests(message, _never) == requests


@pytest.mark.parametrize(
    "message",
    [
        # An embedded question or a question word still waiting for its verb: one request.
        "can you tell me what my balance is",
        "i want to know when my paycheck comes",
        "how many vacation days do i have left",
        "remind me what time my meeting is",
        # A statement is the context of the question after it: one request.
        "i am going to germany soon do i need a visa",
        # A phrase that sets the scene, an open last word: one request.
        "to my task list please add paint the kitchen",
        "i need to know how do i schedule a meeting",
    ],
)
def test_guard_a_run_on_is_not_cut_inside_one_request(message: str) -> None:
    assert split_requests(message, _always) == [message]


def test_guard_a_punctuated_message_is_not_cut_where_a_request_may_open() -> None:
    # Its writer marks where requests end; "I need" here opens a relative clause (unpunctuated,
    # it would be cut there: a known limit of the run-on rule).
    message = "What's my balance? Where can I get the form I need to do my taxes?"
    assert split_requests(message, _always) == [
        "What's my balance",
        "Where can I get the form I need to do my taxes",
    ]


_BITS = st.sampled_from(
    ["where is my W-2", "when is payday", "thanks", "btw", "Secondly", "oh", "then", "1.", "2)",
     "-", "•", "#3", "10.", "can you book a table", "whats my balance", "my card", "ty", ":)"]
)  # fmt: skip
_JOINS = st.sampled_from([" ", "\n", ", ", ". ", ": ", " btw ", " then ", " + ", "\n- ", " 2) "])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_BITS, _JOINS), min_size=1, max_size=7), st.booleans())
def test_no_word_of_a_list_or_run_on_is_left_out_of_its_requests(
    bits: list[tuple[str, str]], starts: bool
) -> None:
    message = "".join(f"{bit}{join}" for bit, join in bits).strip()
    parts = split_request_parts(message, _always if starts else _never)
    planned = {t for whole, _ in parts for t in content_tokens(whole)}
    assert set(content_tokens(message)) <= planned
    assert all(set(content_tokens(asks)) <= set(content_tokens(whole)) for whole, asks in parts)
