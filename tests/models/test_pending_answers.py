"""A value the offline model asked for, given in the user's next message, completes the change
through the same agent (direct and silent); commands chained with "then" are each acted on; a
value named in the message is not asked again. Text written for these tests, from no corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import load_bot
from harness.models._answer import given_value, join_answer
from harness.runtime.parent import Conversation
from tests.models._acting import bot_chat, plan_with, say, tool

_TOOLS = '''def top_up(amount: float) -> str:
    """Top up the wallet with money."""
    return f"Topped up {amount:.2f}."


def pay_bill(bill_number: str, amount: float) -> str:
    """Pay a bill from the wallet."""
    return f"Paid {amount:.2f} to bill {bill_number}."


def send_money(to_member: str, amount: float) -> str:
    """Send money to another member."""
    return f"Sent {amount:.2f} to {to_member}."


def wallet_balance() -> str:
    """How much money is in the wallet."""
    return "Your balance is 42.00."


def cancel_booking(booking_ref: str) -> str:
    """Cancel a booking."""
    return f"Booking {booking_ref} is cancelled."


def book_table(date: str, people: int) -> str:
    """Book a table at the restaurant."""
    return f"Booked a table for {people} on {date}."
'''
_BOT = """parent:
  name: bank
  instructions: You are the help desk of a bank. Check each agent's answered flag.
  model: rules
subagents:
  - name: wallet
    kind: child
    mode: {mode}
    description: Tops up the wallet, pays bills, sends money to members and tells the balance.
    tools: ["tools.py:top_up", "tools.py:pay_bill", "tools.py:send_money", "tools.py:wallet_balance"]
  - name: bookings
    kind: child
    mode: {mode}
    description: Books and cancels restaurant tables.
    tools: ["tools.py:cancel_booking", "tools.py:book_table"]
"""


@pytest.fixture(params=["direct", "silent"])
def chat(request: pytest.FixtureRequest, tmp_path: Path) -> Conversation:
    return bot_chat(tmp_path, _TOOLS, _BOT, request.param)


_say = say


@pytest.mark.parametrize(
    ("ask", "answer", "question", "done"),
    [
        ("top up my wallet", "£20", "What amount do you want?", "Topped up 20.00."),
        ("please top up my wallet", "20 please", "What amount do you want?", "Topped up 20.00."),
        ("top up my wallet", "yes, £15", "What amount do you want?", "Topped up 15.00."),
        ("pay bill 4410", "12.50", "What amount do you want?", "Paid 12.50 to bill 4410."),
        (
            "I want to cancel my booking",
            "it's ABC123",
            "What is your booking reference?",
            "Booking ABC123 is cancelled.",
        ),
        (
            "book a table for 4",
            "the 14th",
            "Which date do you want?",
            "Booked a table for 4 on the 14th.",
        ),
    ],
)
def test_the_answer_to_the_question_completes_the_change(
    chat: Conversation, ask: str, answer: str, question: str, done: str
) -> None:
    asked, answered = _say(chat, ask, answer)
    assert asked == question
    assert answered == done


def test_each_missing_value_may_come_in_its_own_answer(chat: Conversation) -> None:
    said = _say(chat, "send money", "Sam", "£10")
    assert said == [
        "Which member is it to? What amount do you want?",
        "What amount do you want?",
        "Sent 10.00 to Sam.",
    ]


@pytest.mark.parametrize(
    "reply",
    [
        "I topped up £20 yesterday",  # a past mention
        "my wife wants £20 on hers",  # someone else's wish
        "this is taking ages",  # a complaint
        "what's my balance?",  # a new request instead of an answer
        "no thanks",
    ],
)
def test_a_reply_that_is_no_answer_is_planned_as_usual(chat: Conversation, reply: str) -> None:
    _, said = _say(chat, "top up my wallet", reply)
    assert "Topped up" not in said


def test_the_new_request_in_place_of_an_answer_is_answered(chat: Conversation) -> None:
    assert _say(chat, "top up my wallet", "what's my balance?")[1] == "Your balance is 42.00."


def test_a_question_waits_one_turn_only(chat: Conversation) -> None:
    said = _say(chat, "top up my wallet", "what's my balance?", "£20")
    assert "Topped up" not in said[2]


def test_a_value_after_an_answer_is_not_joined_to_it(chat: Conversation) -> None:
    said = _say(chat, "top up £5", "£20")
    assert said[0] == "Topped up 5.00."
    assert "Topped up" not in said[1]


def test_the_waiting_question_survives_a_snapshot(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(_TOOLS)
    (tmp_path / "bot.yaml").write_text(_BOT.format(mode="direct"))
    bot = load_bot(tmp_path / "bot.yaml")
    first = bot.conversation()
    _say(first, "top up my wallet")
    again = bot.conversation(state=first.snapshot())
    assert _say(again, "£20") == ["Topped up 20.00."]


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("top up £20 please, then pay bill 4410", "Topped up 20.00. What amount do you want?"),
        ("top up £20, after that pay bill 4410 £35", "Topped up 20.00. Paid 35.00 to bill 4410."),
        ("top up £20; pay bill 4410 £35", "Topped up 20.00. Paid 35.00 to bill 4410."),
    ],
)
def test_chained_commands_are_each_acted_on(chat: Conversation, message: str, reply: str) -> None:
    assert _say(chat, message)[0].replace("\n", " ") == reply


_TOP_UP = tool("top_up", "Top up the wallet.", {"amount": "number"}, ["amount"])
_PAY = tool(
    "pay_bill",
    "Pay a bill.",
    {"bill_number": "string", "amount": "number"},
    ["bill_number", "amount"],
)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "top up £20 please then pay bill 4410 £5",
            [("top_up", {"amount": 20.0}), ("pay_bill", {"bill_number": "4410", "amount": 5.0})],
        ),
        (
            "top up £20 and afterwards pay bill 4410 £5",
            [("top_up", {"amount": 20.0}), ("pay_bill", {"bill_number": "4410", "amount": 5.0})],
        ),
        ("top up 12.50", [("top_up", {"amount": 12.5})]),
        (join_answer("top up my wallet", "20"), [("top_up", {"amount": 20.0})]),
    ],
)
def test_one_request_with_chained_commands_or_a_plain_amount(
    text: str, calls: list[tuple[str, dict[str, object]]]
) -> None:
    assert plan_with([_TOP_UP, _PAY], text)[0] == calls


@pytest.mark.parametrize(
    "text",
    [
        "refund 20 for order 5512",  # a bare whole number inside the request is still asked
        "top up my wallet 20",
        "top up my wallet, 20",  # typed in one message: only an answer when asked is money
    ],
)
def test_a_bare_whole_number_is_not_money(text: str) -> None:
    refund = tool(
        "refund_order",
        "Refund an order.",
        {"order_id": "string", "amount": "number"},
        ["order_id", "amount"],
    )
    calls, asking = plan_with([refund, _TOP_UP], text)
    assert calls == [] or all("amount" not in args for _, args in calls)
    assert any("amount" in q for qs in asking.values() for q in qs)


def test_values_named_in_the_message_are_not_asked_again() -> None:
    pay = tool(
        "pay_bill", "Pay a bill.", {"account": "string", "amount": "number"}, ["account", "amount"]
    )
    assert plan_with([pay], "pay 12.50 on account 30412") == (
        [("pay_bill", {"account": "30412", "amount": 12.5})],
        {},
    )
    table = tool(
        "book_table", "Book a table.", {"date": "string", "people": "integer"}, ["date", "people"]
    )
    assert plan_with([table], "book a table for 4 on the 14th")[0] == [
        ("book_table", {"date": "the 14th", "people": 4})
    ]


def test_a_direction_in_a_name_reads_as_a_question() -> None:
    move = tool(
        "move_money",
        "Move money between accounts.",
        {"from_account": "string", "to_account": "string", "amount": "number"},
        ["from_account", "to_account", "amount"],
    )
    assert plan_with([move], "move money")[1] == {
        0: ["Which account is it from?", "Which account is it to?", "What amount do you want?"]
    }


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("£20", "£20"),
        ("yes, £20 please", "£20"),
        ("it's ABC123, thanks", "ABC123"),
        ("the 14th", "the 14th"),
        ("Friday at 3pm", "Friday at 3pm"),
        ("Sam", "Sam"),
        ("gold", "gold"),
        ("what's my balance?", None),
        ("I topped up £20 yesterday", None),
        ("pay bill 4410", None),
        ("no thanks", None),
        ("yes", None),
        ("sorry", None),
        ("my wife wants £20", None),
    ],
)
def test_what_reads_as_a_value_alone(message: str, value: str | None) -> None:
    assert given_value(message) == value
