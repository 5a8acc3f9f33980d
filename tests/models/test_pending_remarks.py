"""A remark in reply to the offline agent's question is no value, and every answer of a chain
counts. The review of the answer reader (s68) found replies taken as a plain text argument and the
tool then acting ("cheaper ones" ordered the flower "cheaper"); these are those replies, asked
for in new domains (a pottery studio, bike tours), from no corpus. A chain of answers reads each
answer in turn: "next Sunday" then "3" keeps "next Sunday"."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from harness import ChildAgent, Parent, run_sync

_MODES = ("direct", "conversational")


def book_pottery_class(glaze: str, date: str) -> str:
    """Book a pottery class on a date; glaze is the glaze for the pot."""
    return f"POTTERY glaze={glaze!r} date={date!r}"


def book_bike_tour(date: str, riders: int) -> str:
    """Book a guided bike tour on a date for a number of riders."""
    return f"TOUR date={date!r} riders={riders!r}"


def _talk(mode: str, turns: list[str]) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = []

    def kept(fn: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(fn)
        def call(**kwargs: Any) -> str:
            calls.append((fn.__name__, kwargs))
            return fn(**kwargs)

        return call

    agents = [
        ChildAgent(
            name="pottery",
            mode=mode,
            description="Books pottery classes.",
            tools=[kept(book_pottery_class)],
        ),
        ChildAgent(
            name="tours",
            mode=mode,
            description="Books guided bike tours.",
            tools=[kept(book_bike_tour)],
        ),
    ]
    chat = Parent(name="desk", instructions="Help.", subagents=agents, model="rules").conversation()
    for turn in turns:
        calls.clear()
        run_sync(chat.send(turn))
    return calls


# The review's broken replies (fillers, pauses, comparisons, thanks, remarks about someone else).
_REMARKS = [
    "cheaper ones",
    "in a bit",
    "hang on",
    "that's a lot",
    "sounds pricey",
    "she is a bit nervous",
    "something cheaper",
    "hold on",
    "one sec",
    "something nice",
    "whichever",
    "good question",
    "quite soon",
    "lovely thanks",
    "the usual",
    "cheap ones please",
]


@pytest.mark.parametrize("mode", _MODES)
@pytest.mark.parametrize("reply", _REMARKS)
def test_a_remark_does_not_fill_a_plain_text_argument(mode: str, reply: str) -> None:
    calls = _talk(mode, ["book a pottery class for Friday", reply])
    assert not [c for c in calls if c[0] == "book_pottery_class"], calls


@pytest.mark.parametrize("mode", _MODES)
@pytest.mark.parametrize(
    ("answers", "args"),
    [
        (["next Sunday", "3"], {"date": "next Sunday", "riders": 3}),
        (["Sunday afternoon", "two adults"], {"date": "Sunday afternoon", "riders": 2}),
        (["4", "the day after tomorrow"], {"date": "the day after tomorrow", "riders": 4}),
    ],
)
def test_each_answer_of_a_chain_counts(mode: str, answers: list[str], args: dict[str, Any]) -> None:
    calls = _talk(mode, ["book a bike tour", *answers])
    assert ("book_bike_tour", args) in calls, calls
