"""The user's answer to an agent's question, mended: only a value given when asked is read as a
bare amount; an ordinal alone is no date; no "then" cut after a supposition; a word naming what a
tool reads is a new request; short sentences answer too; two waiting requests take the value
their question fits; a conversational agent holding the floor completes the action it asked
about. Text written for these tests (a library and a swimming pool), from no corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.models._answer import given_value, join_answer
from harness.models._text import split_commands
from harness.models.base import AgentCard
from harness.planning._answers import answer_entry, fits
from harness.planning.base import WaitingRequest
from harness.runtime.parent import Conversation
from tests.models._acting import bot_chat, plan_with, say, tool

_FINE = tool(
    "pay_fine",
    "Pay a library fine.",
    {"fine_number": "string", "amount": "number"},
    ["fine_number", "amount"],
)
_GIFT = tool("give_gift", "Give money to the library.", {"amount": "number"}, ["amount"])
_SLOT = tool("book_slot", "Book a study room.", {"date": "string"}, ["date"])


@pytest.mark.parametrize(
    "text",
    [
        "pay library fine F-220 on 03.07",
        "pay library fine F-220 at 11.45",
        "pay library fine F-220 dated 30.11",
        "pay library fine F-220 from 18.05",
        "pay library fine 5531, 2023",
    ],
)
def test_a_date_time_or_year_typed_in_one_message_is_no_amount(text: str) -> None:
    calls, asking = plan_with([_FINE], text)
    assert all("amount" not in args for _, args in calls)
    assert any("amount" in q for qs in asking.values() for q in qs)


def test_a_year_after_a_comma_is_no_gift() -> None:
    calls, asking = plan_with([_GIFT], "give money to the library in memory of Max, 2021")
    assert calls == []
    assert asking


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("pay library fine F-220 4.75", 4.75),
        (join_answer("pay library fine F-220", "9"), 9.0),
        (join_answer("pay library fine F-220", "9 quid"), 9.0),
        (join_answer("pay library fine F-220", "10.05"), 10.05),
    ],
)
def test_pence_and_an_answer_given_when_asked_are_money(text: str, amount: float) -> None:
    assert plan_with([_FINE], text)[0] == [("pay_fine", {"fine_number": "F-220", "amount": amount})]


@pytest.mark.parametrize(
    "text",
    [
        "book my 3rd study room",
        "book a study room, it's my 2nd",
        "book a study room for the 4th time",
        "book a study room at the 1st floor",
    ],
)
def test_an_ordinal_that_counts_something_is_no_date(text: str) -> None:
    calls, asking = plan_with([_SLOT], text)
    assert calls == []
    assert asking == {0: ["Which date do you want?"]}


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("book a study room on the 9th", "the 9th"),
        ("book a study room from 22nd", "22nd"),
        ("book a study room for the 5th of June", "5th of June"),
        ("book a study room the 9th please", "the 9th"),
        (join_answer("book a study room", "the 9th"), "the 9th"),
    ],
)
def test_a_day_of_the_month_fills_a_date(text: str, date: str) -> None:
    assert plan_with([_SLOT], text)[0] == [("book_slot", {"date": date})]


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("if the pool is shut then book me a study room", 1),
        ("once my new card arrives then renew my books", 1),
        ("as soon as it opens then reserve a lane", 1),
        ("since then my card has stopped working", 1),
        ("back then I paid the fine", 1),
        ("can I renew it then?", 1),
        ("renew my books then pay my fine", 2),
        ("renew my books; after that pay my fine", 2),
    ],
)
def test_then_cuts_only_between_commands(text: str, pieces: int) -> None:
    assert len(split_commands(text)) == pieces


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("My card number is LB-5521", "LB-5521"),
        ("her level is improver", "improver"),
        ("she's an improver", "improver"),
        ("it's for 3 nights", "3 nights"),
        ("4 more weeks please", "4 weeks"),
        ("the blue one", "blue"),
        ("15 quid", "15 quid"),
        ("this Saturday", "this Saturday"),
        ("Saturday, cheers", "Saturday"),
        ("she'll renew them tomorrow", None),
        ("my card is broken, can you help", None),
        ("the blue one is sold out?", None),
    ],
)
def test_a_short_sentence_gives_its_value(message: str, value: str | None) -> None:
    assert given_value(message) == value


def test_the_request_s_own_noun_may_stand_before_the_value() -> None:
    assert given_value("card LB-5521", framing=["renew", "my", "card"]) == "card LB-5521"
    assert given_value("card LB-5521") is None


_CARDS = (
    AgentCard(
        name="pool",
        description="Books swim lessons and tells the pool's opening times.",
        mode="direct",
        tools=("book_swim_lesson", "pool_times"),
    ),
    AgentCard(
        name="library",
        description="Pays fines and renews books.",
        mode="direct",
        tools=("pay_fine", "renew_books"),
    ),
)
_LESSON = WaitingRequest(
    request="book a swim lesson on Monday",
    agent="pool",
    question="Which level do you mean (for example starter, improver or advanced)?",
)
_PAYING = WaitingRequest(
    request="pay my library fine F-220", agent="library", question="What amount do you want?"
)


@pytest.mark.parametrize("word", ["times", "fines"])
def test_a_word_naming_what_a_tool_reads_is_a_new_request(word: str) -> None:
    assert answer_entry(word, [_LESSON], _CARDS) is None


@pytest.mark.parametrize(
    ("message", "agent", "value"),
    [
        ("£12", "library", "£12"),
        ("12", "library", "12"),
        ("improver", "pool", "improver"),
        ("she's a starter", "pool", "starter"),
    ],
)
def test_two_waiting_requests_take_the_value_their_question_fits(
    message: str, agent: str, value: str
) -> None:
    entry = answer_entry(message, [_LESSON, _PAYING], _CARDS)
    assert entry is not None
    waiting = _LESSON if agent == "pool" else _PAYING
    # The request stays as the agent got it; the value and its question travel beside it.
    assert (entry.agent, entry.request) == (agent, waiting.request)
    assert [(a.request, a.question, a.value) for a in entry.answers] == [
        (waiting.request, waiting.question, value)
    ]


def test_a_value_fitting_neither_waiting_request_is_planned_as_usual() -> None:
    assert answer_entry("Saturday", [_LESSON, _PAYING], _CARDS) is None


@pytest.mark.parametrize(
    ("value", "question", "fit"),
    [
        ("£12", "How much would you like to pay?", True),
        ("3", "How many nights?", True),
        ("3 nights", "How many nights?", True),
        ("Tuesday", "Which day suits you?", True),
        ("the 9th", "What date?", True),
        ("LB-5521", "What is your card number?", True),
        ("improver", "What is your card number?", False),
        ("£12", "Which level?", False),
        ("Tuesday", "What amount?", False),
    ],
)
def test_what_a_question_asks_decides_what_fits(value: str, question: str, fit: bool) -> None:
    assert fits(value, question) is fit


_TOOLS = '''from typing import Literal


def book_swim_lesson(level: Literal["starter", "improver", "advanced"], day: str) -> str:
    """Book a swim lesson."""
    return f"SWIM-BOOKED {level} {day}."


def cancel_swim_lesson(lesson_ref: str) -> str:
    """Cancel a swim lesson."""
    return f"SWIM-CANCELLED {lesson_ref}."


def pool_prices() -> str:
    """Prices of swim lessons."""
    return "A lesson costs 9."


def pay_fine(fine_number: str, amount: float) -> str:
    """Pay a library fine."""
    return f"FINE-PAID {fine_number} {amount:.2f}."


def library_hours() -> str:
    """Opening hours of the library."""
    return "The library opens at 9."
'''
_BOT = """parent:
  name: town
  instructions: You are a town help desk. Check each agent's answered flag.
  model: rules
subagents:
  - name: pool
    kind: child
    mode: conversational
    description: Books and cancels swim lessons and tells swim lesson prices.
    tools: ["tools.py:book_swim_lesson", "tools.py:cancel_swim_lesson", "tools.py:pool_prices"]
  - name: library
    kind: child
    mode: {mode}
    description: Pays library fines and tells the library's opening hours.
    tools: ["tools.py:pay_fine", "tools.py:library_hours"]
"""


@pytest.fixture(params=["direct", "silent"])
def chat(request: pytest.FixtureRequest, tmp_path: Path) -> Conversation:
    return bot_chat(tmp_path, _TOOLS, _BOT, request.param)


_say = say


@pytest.mark.parametrize(
    ("ask", "answer", "done"),
    [
        ("book a swim lesson on Tuesday", "improver please", "SWIM-BOOKED improver Tuesday."),
        ("book a starter swim lesson", "on Thursday", "SWIM-BOOKED starter Thursday."),
        ("cancel my swim lesson", "SW-881", "SWIM-CANCELLED SW-881."),
    ],
)
def test_a_conversational_agent_completes_the_action_it_asked_about(
    chat: Conversation, ask: str, answer: str, done: str
) -> None:
    asked, answered = _say(chat, ask, answer)
    assert asked.endswith("?")
    assert answered == done


def test_a_question_to_a_conversational_agent_is_read_afresh(chat: Conversation) -> None:
    assert _say(chat, "cancel my swim lesson", "what do lessons cost?")[1] == "A lesson costs 9."


@pytest.mark.parametrize(
    ("answer", "done"),
    [
        ("My fine number is F-7710", "FINE-PAID F-7710 6.00."),
        ("it's F-7710 thanks", "FINE-PAID F-7710 6.00."),
    ],
)
def test_a_short_sentence_answers_a_direct_or_silent_agent(
    chat: Conversation, answer: str, done: str
) -> None:
    assert _say(chat, "pay my library fine of £6", answer)[1] == done


def test_a_word_naming_a_reading_tool_after_a_question_is_answered(chat: Conversation) -> None:
    assert _say(chat, "pay my library fine of £6", "hours")[1] == "The library opens at 9."
