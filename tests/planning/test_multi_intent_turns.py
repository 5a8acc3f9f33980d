"""Every request of a multi-intent message is planned on its own and answered, offline.

The issue's messages on the helpdesk sample (its good variant, default offline model), and an
airline-style bot written here the way the docs show (three agents with a description, tools and
a few examples): each planned request goes to its agent, one call per agent carries all of its
requests, and every request's answer reaches the user exactly once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import harness
from harness.models._text import content_tokens
from harness.runtime.parent import Parent
from harness.text.claims import ANALYSIS_BUDGET
from subagents import ChildAgent, ConnectedAgent, Mode

HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"

PTO_LEFT = "You have 12 PTO days left this year"
PTO_USED = "You have used 8 PTO days so far this year."
PAYDAY = "Your next payday is Friday, December 4"
W2 = "Your W-2 form is in the payroll portal"
GROSS = "Your gross pay is $3,250.00 per pay period."
VPN = "A VPN password reset link was sent"
BOOKED = "I've submitted your PTO request for Dec 22 to Dec 24"

HELPDESK_CASES = [
    (
        "How many vacation days do I have left, when is payday, and where is my W-2?",
        ["pto", "payroll", "payroll"],
        [PTO_LEFT, PAYDAY, W2],
    ),
    ("when is payday and where is my W-2", ["payroll", "payroll"], [PAYDAY, W2]),
    (
        "Reset my VPN password, and tell me when I get paid next.",
        ["password", "payroll"],
        [VPN, PAYDAY],
    ),
    ("how many PTO days have I used and how many are left", ["pto", "pto"], [PTO_USED, PTO_LEFT]),
    ("What's my gross pay, plus when is payday?", ["payroll", "payroll"], [GROSS, PAYDAY]),
    (
        "I need a PTO request for Dec 22 to Dec 24 and please give me my salary figure",
        ["pto", "payroll"],
        [BOOKED, GROSS],
    ),
    ("When is payday? Also, where is my W-2?", ["payroll", "payroll"], [PAYDAY, W2]),
]


def assert_each_request_answered(turn: harness.Turn) -> None:
    """Every request of every call was answered on its own: a call carrying several has one
    answer per request in ``answeredRequests``, each answered by the agent or with findings to
    relay; a call with one request answered it."""
    for result in turn.results:
        assert result.ok, (result.agent, result.violations, result.error)
        outputs = result.outputs
        assert outputs is not None
        if len(result.requests) > 1:
            answers = result.request_answers
            assert answers is not None, (result.agent, result.violations)
            assert [a.request for a in answers] == list(result.requests)
            assert all(a.answered or (a.findings or "").strip() for a in answers), answers
        else:
            assert result.answered or (outputs.findings or "").strip(), result


@pytest.fixture(scope="module")
def helpdesk() -> Parent:
    return harness.load_bot(HELPDESK)


@pytest.mark.parametrize(("message", "agents", "answers"), HELPDESK_CASES)
async def test_every_request_on_the_helpdesk_is_planned_and_answered_once(
    helpdesk: Parent, message: str, agents: list[str], answers: list[str]
) -> None:
    turn = await helpdesk.conversation().send(message)
    assert [p.agent for p in turn.plan] == agents
    # One call per agent, whatever the number of its requests.
    called = [r.agent for r in turn.results]
    assert sorted(called) == sorted(set(agents))
    for answer in answers:
        assert turn.text.count(answer) == 1, (answer, turn.text)
    assert "can't help" not in turn.text and "Sorry" not in turn.text
    assert_each_request_answered(turn)


async def test_one_call_carries_every_request_of_its_agent_numbered(helpdesk: Parent) -> None:
    turn = await helpdesk.conversation().send("when is payday and where is my W-2")
    [payroll] = turn.results
    assert payroll.request == "(1) when is payday; (2) where is my W-2"
    assert payroll.outputs is not None and payroll.outputs.findings is not None
    assert PAYDAY in payroll.outputs.findings and W2 in payroll.outputs.findings
    # Each request has its own answer, with its own findings.
    answers = payroll.request_answers
    assert answers is not None
    assert [a.request for a in answers] == ["when is payday", "where is my W-2"]
    assert PAYDAY in (answers[0].findings or "") and W2 not in (answers[0].findings or "")
    assert W2 in (answers[1].findings or "") and PAYDAY not in (answers[1].findings or "")


async def test_a_direct_agent_given_two_requests_answers_each_itself(helpdesk: Parent) -> None:
    turn = await helpdesk.conversation().send("how many PTO days have I used and how many are left")
    [pto] = turn.results
    answers = pto.request_answers
    assert answers is not None and [a.answered for a in answers] == [True, True]
    assert pto.answered and [m.sender for m in turn.messages] == ["pto"]


# --- an airline-style bot, written the way the docs show -------------------------------------

FLIGHTS = {"AA123": "on time, departing 14:05 from gate B12", "UA9": "delayed 40 minutes"}


def flight_status(request: str) -> str:
    """Whether a flight is on time, delayed or cancelled, by its flight number."""
    number = re.search(r"\b([A-Z]{2}\d{1,4})\b", request.upper())
    if number is None or number.group(1) not in FLIGHTS:
        return "I could not find that flight number."
    return f"Flight {number.group(1)} is {FLIGHTS[number.group(1)]}."


def miles_balance() -> str:
    """The loyalty programme balance: how many miles or points the member has."""
    return "You have 48,200 AAdvantage miles."


def report_lost_bag(request: str) -> str:
    """Report a delayed, lost or damaged bag (baggage that did not arrive) and open a claim."""
    return "I've opened a delayed-bag claim (ref BAG-2041); we'll text you when it is found."


def airline(*, examples: bool = True) -> Parent:
    """The bot; without ``examples`` its agents have only their descriptions and tools."""

    def given(*texts: str) -> list[str]:
        return list(texts) if examples else []

    return Parent(
        name="airline",
        instructions="You are the airline's assistant. Be brief.",
        model="rules",
        subagents=[
            ChildAgent(
                name="flight_status",
                mode=Mode.DIRECT,
                description="Tells whether a flight is on time, delayed or cancelled.",
                tools=[flight_status],
                examples=given("is my flight on time", "has UA9 been delayed"),
            ),
            ConnectedAgent(
                name="loyalty",
                mode=Mode.SILENT,
                description="Loyalty programme: miles balance, status level, upgrades.",
                tools=[miles_balance],
                examples=given("how many miles do i have", "what is my status level"),
            ),
            ChildAgent(
                name="baggage",
                mode=Mode.DIRECT,
                description="Lost, delayed or damaged bags and baggage claims.",
                tools=[report_lost_bag],
                examples=given("my bag didn't arrive", "my suitcase is lost"),
            ),
        ],
    )


@pytest.mark.parametrize(
    "message",
    [
        "Is AA123 on time, how many miles do I have, and my bag didn't arrive",
        "Is AA123 on time? How many miles do I have? My bag didn't arrive.",
        "my bag didn't arrive, plus how many miles do I have and is AA123 on time",
    ],
)
@pytest.mark.parametrize("examples", [True, False])
async def test_the_airline_bot_answers_every_part(message: str, examples: bool) -> None:
    bot = airline(examples=examples)
    turn = await bot.conversation().send(message)
    assert sorted(p.agent for p in turn.plan) == ["baggage", "flight_status", "loyalty"]
    for answer in ("Flight AA123 is on time", "48,200 AAdvantage miles", "BAG-2041"):
        assert turn.text.count(answer) == 1, (answer, turn.text)
    assert "can't help" not in turn.text
    assert_each_request_answered(turn)
    await bot.aclose()


async def test_a_request_no_agent_can_take_is_answered_by_the_parent_not_dropped() -> None:
    bot = airline()
    turn = await bot.conversation().send("Is AA123 on time, and what's the capital of France?")
    assert [p.agent for p in turn.plan] == ["flight_status", "airline"]
    assert "Flight AA123 is on time" in turn.text
    assert "capital of France" in turn.text  # the parent says it cannot help with it
    await bot.aclose()


async def test_a_request_its_agent_cannot_do_is_not_dropped_in_silence(helpdesk: Parent) -> None:
    turn = await helpdesk.conversation().send(
        "where is my W-2, and what is the phone number of the payroll office?"
    )
    assert [p.agent for p in turn.plan] == ["payroll", "payroll"]
    [payroll] = turn.results
    assert payroll.outputs is not None
    assert list(payroll.outputs.open_questions or ()) == [
        "what is the phone number of the payroll office"
    ]
    answers = payroll.request_answers
    assert answers is not None
    assert [bool(a.findings) for a in answers] == [True, False]
    assert turn.text.count(W2) == 1
    # The parent says it cannot help with the open request, in the user's words (no numbering).
    assert 'I can\'t help with "what is the phone number of the payroll office"' in turn.text


async def test_the_end_of_a_message_past_the_planners_budget_is_answered_not_left_out(
    helpdesk: Parent,
) -> None:
    """A planner reads the first ``ANALYSIS_BUDGET`` characters of a message; the rest is the
    parent's own last plan entry, so the reply says it could not help with it (before, it was in
    no plan entry and nothing was said about it)."""
    filler = "Some background about my team and the project we run this quarter. " * 200
    message = f"When is payday? {filler}And where is my W-2?"
    assert len(message) > ANALYSIS_BUDGET
    turn = await helpdesk.conversation().send(message)
    assert turn.plan[0].agent == "payroll"
    last = turn.plan[-1]
    assert last.agent == helpdesk.name
    assert last.request.endswith("And where is my W-2?")
    assert message.index(last.request) + len(last.request) == len(message)
    assert PAYDAY in turn.text
    assert "I can't help with" in turn.text
    # Every word of the message is in some plan entry.
    planned = " ".join(p.request for p in turn.plan)
    assert set(content_tokens(message)) <= set(content_tokens(planned))
