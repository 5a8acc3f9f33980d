"""The offline model's second mend (session s65): an amount of money is read only from the part
of the request that asks for the change, and a change tried, planned or reported in someone's
words is a mention, not a request."""

from __future__ import annotations

from typing import Any

import pytest

from harness.models._actions import asks_for_change, mentions_change
from harness.models.base import ChatMessage, ModelRequest, ToolDefinition
from harness.models.rules import RulesModel
from tests.models._acting import act_context, plan_with, tool

_tool = tool


def _plan(tools: list[ToolDefinition], text: str) -> list[tuple[str, dict[str, Any]]]:
    return plan_with(tools, text)[0]


_PURSE = [
    _tool("top_up", "Add money to the purse.", {"amount": "number"}, ["amount"]),
    _tool(
        "pay_bill",
        "Pay a bill from the purse.",
        {"bill_number": "string", "amount": "number"},
        ["bill_number", "amount"],
    ),
    _tool(
        "send_present",
        "Send someone a present of money.",
        {"amount": "number", "recipient": "string"},
        ["amount", "recipient"],
    ),
    _tool("donate", "Give money to the food bank.", {"amount": "number"}, ["amount"]),
    _tool("purse_balance", "The money left in the purse.", {}, []),
]
_MOVES = {"top_up", "pay_bill", "send_present", "donate"}


def _amounts(text: str) -> dict[str, Any]:
    return {name: args.get("amount") for name, args in _plan(_PURSE, text) if name in _MOVES}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("top up £10 and donate to the food bank", {"top_up": 10}),
        ("donate please and top up £10", {"top_up": 10}),
        ("pay bill 5521 for £30 and send Tom a present", {"pay_bill": 30}),
        ("send Tom a present, and top up £50", {"top_up": 50}),
        ("top up £20. Also donate", {"top_up": 20}),
        ("you took £9.99 twice, please top up £5", {"top_up": 5}),
        ("pay bill 3320, the same £40 as last week", {"pay_bill": 40}),
        ("pay bill 5521 for £72.40", {"pay_bill": 72.4}),
    ],
)
def test_an_amount_comes_only_from_the_part_that_asks_for_the_change(
    text: str, expected: dict[str, Any]
) -> None:
    # The tool without an amount of its own is not called (it asks instead).
    assert _amounts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "my balance says £12, please top up",
        "I paid £40 last week, now pay bill 3320",
        "the purse showed £25 so top up",
    ],
)
def test_an_amount_in_a_statement_is_not_the_changes(text: str) -> None:
    assert _amounts(text) == {}


@pytest.mark.parametrize(
    "text",
    [
        "I tried to top up £20 but it failed",
        "I wanted to donate £5 but the app crashed",
        "I was going to send Tom £10 as a present",
        "I attempted to pay bill 4410 for £35 and got an error",
        "I meant to top up £15 yesterday",
        "my friend asked me to pay bill 3001 for £22",
        "the app told me to top up £5",
        "it says I need to pay bill 6612 for £40 by Friday",
        "we were about to donate £8 when the page closed",
        "my landlord wants me to pay bill 7120 for £30",
    ],
)
def test_a_change_tried_planned_or_reported_moves_no_money(text: str) -> None:
    assert _amounts(text) == {}


_ROOMS = [
    _tool("cancel_booking", "Cancel a hotel booking.", {"booking_ref": "string"}, ["booking_ref"]),
    _tool("booking_summary", "What a booking holds.", {"booking_ref": "string"}, ["booking_ref"]),
]


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("I tried to cancel booking HB4471 but it didn't work", False),
        ("the hotel told me to cancel booking HB4471", False),
        ("I was going to cancel booking HB4471", False),
        ("I wanted to cancel booking HB4471 but the page froze", False),
        # Someone else's wish of the speaker is theirs, not a request to the bot.
        ("my manager wants me to cancel booking HB4471", False),
        ("the hotel would like us to cancel booking HB4471", False),
        # Still asked for: a want in the present, or a past want with nothing that stopped it.
        ("my wife wants to cancel booking HB2211", True),
        ("I wanted to cancel booking HB2211", True),
        ("please cancel booking HB2211", True),
        ("I need to cancel booking HB2211", True),
    ],
)
def test_attempts_and_reported_words_are_mentions(text: str, asks: bool) -> None:
    assert asks_for_change(text, "cancel_booking") is asks
    assert mentions_change(text, "cancel_booking") is not asks
    called = [name for name, _ in _plan(_ROOMS, text)]
    assert ("cancel_booking" in called) is asks


def _questions(text: str) -> list[str]:
    _, asking = plan_with(_PURSE, text)
    return [q for n in sorted(asking) for q in asking[n]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "pay bill 4410. And send Tom a present.",
            ["How much do you want to pay bill 4410?", "How much do you want to send the present?"],
        ),
        (
            "pay my bill. Also top up please.",
            [
                "What is your bill number?",
                "How much do you want to pay the bill?",
                "How much do you want to top up?",
            ],
        ),
        # One action asking: its question as before.
        ("please top up", ["What amount do you want?"]),
    ],
)
def test_a_question_two_actions_ask_names_its_action(text: str, expected: list[str]) -> None:
    assert _questions(text) == expected


@pytest.mark.parametrize("mode", ["direct", "silent"])
def test_two_requests_for_one_change_carry_its_question_once(mode: str) -> None:
    requests = ("top up my purse", "top up my purse please")
    context = act_context(
        ". ".join(requests), mode=mode, can_message=mode != "silent", requests=requests
    )
    request = ModelRequest(
        agent="a",
        system="",
        messages=(ChatMessage(role="user", content=context.scoped_request),),
        tools=tuple(_PURSE),
        context=context,
    )
    out = RulesModel()._act(request, context).output
    assert out is not None
    said = " ".join(item["findings"] for item in out["answeredRequests"])
    if mode == "silent":
        said = f"{said} {out['findings']}"
    assert said.count("What amount do you want?") == (2 if mode == "silent" else 1)
    assert out["openQuestions"] == []


_FERRY = [
    _tool(
        "cancel_sailing",
        "Cancel a sailing booking; it is refunded under the refund policy.",
        {"booking_ref": "string"},
        ["booking_ref"],
    ),
    _tool("sailing_status", "The status of a sailing booking.", {"booking_ref": "string"}, []),
]
_CANCELLED = (
    "Sailing LK-3390 is cancelled. Our refund policy: a full refund up to two days before "
    "departure, half after that."
)


def _after_one_call(requests: tuple[str, ...], result: str) -> dict[str, Any]:
    context = act_context(" ".join(requests), requests=requests)
    messages: list[ChatMessage] = [ChatMessage(role="user", content=context.scoped_request)]
    model = RulesModel()
    for _ in range(3):
        request = ModelRequest(
            agent="a", system="", messages=tuple(messages), tools=tuple(_FERRY), context=context
        )
        response = model._act(request, context)
        if response.output is not None:
            return dict(response.output)
        messages.append(ChatMessage(role="assistant", content="", tool_calls=response.tool_calls))
        for call in response.tool_calls:
            said = "sent" if call.name == "send_message_to_user" else result
            messages.append(
                ChatMessage(role="tool", content=said, name=call.name, tool_call_id=call.id)
            )
    raise AssertionError("no output")


def test_a_question_another_calls_answer_names_is_answered() -> None:
    """b48c475 answered "what's your refund policy?" by a second cancellation called with the
    question as its reference; now the one cancellation's answer, which states the policy,
    answers it, and nothing is handed back to be routed elsewhere."""
    out = _after_one_call(
        ("Cancel sailing LK-3390 please,", "and what's your refund policy?"), _CANCELLED
    )
    assert [item["answered"] for item in out["answeredRequests"]] == [True, True]
    assert out["openQuestions"] == []


def test_a_question_the_answer_does_not_name_stays_unanswered() -> None:
    out = _after_one_call(
        ("Cancel sailing LK-3390 please,", "and what's your luggage allowance?"), _CANCELLED
    )
    assert [item["answered"] for item in out["answeredRequests"]] == [True, False]
