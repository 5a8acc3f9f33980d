"""An argument named "time" (or ending in "_time") takes the time of day the request names.

The argument's noun is read through a stemmer ("time" → "tim"), which ``TIME_NAMES`` does not
hold, so before this a tool's ``time`` argument was never filled from the request and the
offline model asked "What time do you want?" for a time the user had given.
"""

from __future__ import annotations

import pytest

from harness import ChildAgent, Parent, run_sync
from harness.models._arguments import fill, names_when


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("time", "Book a table for 4 on Friday at 7pm", "7pm"),
        ("time", "a table for two tomorrow at 19:30", "19:30"),
        ("pickup_time", "a taxi pickup at 14:00 from the station", "14:00"),
        ("start_time", "a driving lesson on Monday at 10am", "10am"),
    ],
)
def test_a_time_argument_takes_the_time_the_request_names(
    name: str, text: str, expected: str
) -> None:
    props = {"date": {"type": "string"}, name: {"type": "string"}}
    args = fill(props, [name], text, tool="book")
    assert args.get(name) == expected


def test_a_word_that_only_ends_in_time_is_no_time_of_day() -> None:
    assert names_when("pickup_time") and names_when("time")
    assert not names_when("runtime") and not names_when("lifetime")


def test_the_offline_bot_books_with_the_time_given_instead_of_asking_for_it() -> None:
    calls: list[tuple[str, str, int]] = []

    def book_table(date: str, time: str, people: int) -> str:
        """Book a table at the restaurant for a date, a time and a number of people."""
        calls.append((date, time, people))
        return f"Booked a table for {people} on {date} at {time}."

    bot = Parent(
        name="host",
        subagents=[ChildAgent(name="tables", description="Books tables.", tools=[book_table])],
    )
    reply = run_sync(bot.conversation().send("Book a table for 4 on Friday at 7pm"))
    assert calls == [("Friday", "7pm", 4)]
    assert "What time" not in reply.text
