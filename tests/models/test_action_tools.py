"""The offline model does not change something the user only asked about, where a tool that
changes something and one that reads tie on the request's words (s62-tools, narrowed in
s62-mend2-tools).

New bots, written as the docs show (a YAML config and a ``tools.py``): each agent has a tool that
tells something and a tool that changes something. Where the two tie, the one that changes runs
only for a request that asks for the change (its verb or one of the same action, in its base form,
not negated, not a past, not a question unless a polite request); every other choice is the word
match's, as before. An agent's lone tool that changes something is called as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import load_bot, run_sync
from tests.models._bots import write_bot

# Each bot: its agents as (name, description, tools as (name, docstring)). Every tool answers with
# its own name in brackets, so the reply shows which one ran.
_BOTS: dict[str, list[tuple[str, str, list[tuple[str, str]]]]] = {
    "airline": [
        (
            "seats",
            "Seat assignments on your flights.",
            [
                ("change_seat", "Change or pick a seat (aisle, window, exit row, a seat number)."),
                ("current_seat", "Which seat the passenger is in."),
            ],
        ),
        ("bags", "Checked bags and baggage allowance.", [("bag_allowance", "How many bags.")]),
    ],
    "banking": [
        (
            "accounts",
            "Checking and savings accounts: balances and transfers.",
            [
                ("get_balance", "The balance of a checking or savings account."),
                ("transfer_money", "Move money between your accounts."),
            ],
        ),
        ("cards", "Debit and credit cards.", [("card_limit", "The spending limit of a card.")]),
    ],
    "clinic": [
        (
            "appointments",
            "Appointments with the clinic's doctors.",
            [
                ("list_appointments", "Your upcoming appointments, with day and time."),
                ("cancel_appointment", "Cancel an appointment."),
            ],
        ),
        ("billing", "Clinic bills and insurance.", [("open_bills", "Bills not yet paid.")]),
    ],
    "shop": [
        (
            "orders",
            "Orders placed in the shop.",
            [
                ("order_status", "Where an order is and when it arrives."),
                ("cancel_order", "Cancel an order that has not shipped yet."),
            ],
        ),
        ("returns", "Returns and refunds.", [("return_policy", "The return policy.")]),
    ],
    "support": [
        (
            "tickets",
            "IT support tickets.",
            [
                ("ticket_status", "The status of a support ticket."),
                ("open_ticket", "Open a support ticket about a problem."),
            ],
        ),
        ("accounts", "Logins and passwords.", [("password_rules", "The password rules.")]),
    ],
}

# (bot, request, the tool that must run, the tool that must not run)
_ASKS = [
    ("airline", "Tell me my seat on AA 210", "current_seat", "change_seat"),
    ("airline", "What seat am I in?", "current_seat", "change_seat"),
    ("airline", "Show me my seat on tomorrow's flight", "current_seat", "change_seat"),
    ("banking", "What's my checking account balance?", "get_balance", "transfer_money"),
    ("banking", "Tell me how much money is in my savings account", "get_balance", "transfer_money"),
    ("clinic", "When is my next appointment?", "list_appointments", "cancel_appointment"),
    ("clinic", "Show me my appointments this week", "list_appointments", "cancel_appointment"),
    ("shop", "Where is my order 5512?", "order_status", "cancel_order"),
    ("support", "What's the status of ticket 4411?", "ticket_status", "open_ticket"),
]
# Requests about a change there is already, or that refuse one: nothing changes.
_NO_CHANGE = [
    ("banking", "My transfer of $200 to savings has not arrived", "transfer_money"),
    ("clinic", "Why was my appointment cancelled?", "cancel_appointment"),
]
_WANTS = [
    ("airline", "Can I get a window seat?", "change_seat"),
    ("airline", "Please move me to an aisle seat", "change_seat"),
    ("airline", "change my seat to 3A", "change_seat"),
    ("clinic", "Cancel my 3 pm appointment", "cancel_appointment"),
    ("clinic", "I can't make it tomorrow, please cancel my appointment", "cancel_appointment"),
    ("shop", "I want to cancel my order 5512", "cancel_order"),
    ("support", "Please open a ticket about my laptop, it won't boot", "open_ticket"),
]


def _write_bot(folder: Path, bot: str) -> Path:
    agents = [(agent, doc, "direct", tools) for agent, doc, tools in _BOTS[bot]]
    return write_bot(folder, bot, agents)


def _reply(tmp_path: Path, bot: str, request: str) -> str:
    config = _write_bot(tmp_path, bot)
    turn = run_sync(load_bot(config).conversation().send(request))
    return turn.text


@pytest.mark.parametrize(("bot", "request_text", "reads", "acts"), _ASKS)
def test_a_question_calls_the_tool_that_reads(
    tmp_path: Path, bot: str, request_text: str, reads: str, acts: str
) -> None:
    text = _reply(tmp_path, bot, request_text)
    assert f"[{acts}]" not in text
    assert f"[{reads}]" in text


@pytest.mark.parametrize(("bot", "request_text", "acts"), _NO_CHANGE)
def test_a_change_there_is_already_or_refused_is_not_made(
    tmp_path: Path, bot: str, request_text: str, acts: str
) -> None:
    assert f"[{acts}]" not in _reply(tmp_path, bot, request_text)


@pytest.mark.parametrize(("bot", "request_text", "acts"), _WANTS)
def test_a_request_for_the_change_still_acts(
    tmp_path: Path, bot: str, request_text: str, acts: str
) -> None:
    assert f"[{acts}]" in _reply(tmp_path, bot, request_text)


_RAIL = """\
parent:
  name: rail
subagents:
  - name: lost_property
    kind: child
    mode: direct
    description: Items left on a train or at a station.
    tools: ["tools.py:report_lost_item"]
"""
_RAIL_TOOLS = '''
def report_lost_item(request: str) -> str:
    """Log a lost-property report for an item left on a train."""
    return "[report_lost_item]"
'''


@pytest.mark.parametrize(
    ("request_text", "logged"),
    [
        ("I left my umbrella on the 8:15 train", True),
        ("Please report my bag lost, I left it at the station", True),
    ],
)
def test_a_lone_tool_that_acts_is_called_as_before(
    tmp_path: Path, request_text: str, logged: bool
) -> None:
    (tmp_path / "bot.yaml").write_text(_RAIL)
    (tmp_path / "tools.py").write_text(_RAIL_TOOLS)
    turn = run_sync(load_bot(tmp_path / "bot.yaml").conversation().send(request_text))
    assert ("[report_lost_item]" in turn.text) is logged
