"""What the offline model's tie rule between a tool that changes something and one that reads
does, and does not do (s62-mend-tools; narrowed in s62-mend2-tools).

New bots written as the docs show. A past or passive mention of a change, a negated one, a
supposed one ("if I ...") and a question that is no polite request do not ask for it; a polite
request does. What acts is read from a tool's name alone. The samples, the docs example and the
template answer their questions as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import load_bot, run_sync
from harness.models._actions import acts, asks_for_change, is_question
from tests.models._bots import write_bot

_ROOT = Path(__file__).resolve().parents[2]

# Each bot: its agents as (name, description, mode, tools as (name, docstring)).
_BOTS: dict[str, list[tuple[str, str, str, list[tuple[str, str]]]]] = {
    "library": [
        (
            "loans",
            "Books you have borrowed from the library.",
            "direct",
            [
                ("renew_loan", "Renew a borrowed book for two more weeks."),
                ("loan_status", "When a borrowed book is due back."),
            ],
        ),
        ("events", "Library talks and workshops.", "direct", [("events", "Talks this month.")]),
    ],
    "gym": [
        (
            "membership",
            "Gym memberships and their plans.",
            "direct",
            [
                ("freeze_membership", "Freeze a gym membership for up to three months."),
                ("membership_details", "Returns the plan, price and end of a gym membership."),
            ],
        ),
        ("timetable", "Group classes.", "direct", [("classes", "Group classes with times.")]),
    ],
    "desks": [
        (
            "desks",
            "Hot desks in the office.",
            "conversational",
            [("book_desk", "Book a hot desk for a day.")],
        ),
    ],
}


def _write_bot(folder: Path, bot: str) -> Path:
    return write_bot(folder, f"{bot}_bot", _BOTS[bot])


def _reply(tmp_path: Path, bot: str, request: str) -> str:
    turn = run_sync(load_bot(_write_bot(tmp_path, bot)).conversation().send(request))
    return turn.text


# A mention of a change that happened, a refused one or a supposed one reads.
_MENTIONS = [
    ("gym", "My membership got frozen by mistake", "membership_details", "freeze_membership"),
    (
        "gym",
        "If I freeze my membership, what happens to the price?",
        "membership_details",
        "freeze_membership",
    ),
    ("gym", "Is my membership frozen?", "membership_details", "freeze_membership"),
]


@pytest.mark.parametrize(("bot", "request_text", "reads", "acts_tool"), _MENTIONS)
def test_a_mention_of_the_change_calls_the_tool_that_reads(
    tmp_path: Path, bot: str, request_text: str, reads: str, acts_tool: str
) -> None:
    text = _reply(tmp_path, bot, request_text)
    assert f"[{acts_tool}]" not in text
    assert f"[{reads}]" in text


# A request for the change, polite or plain, acts.
_ASKS = [
    ("library", "Would you mind renewing my book?", "renew_loan"),
    ("library", "Are you able to renew my library book?", "renew_loan"),
    ("library", "I was wondering if you could renew my book", "renew_loan"),
    ("gym", "Do you think you could freeze my membership?", "freeze_membership"),
    ("gym", "Please freeze my gym membership from May", "freeze_membership"),
]


@pytest.mark.parametrize(("bot", "request_text", "acts_tool"), _ASKS)
def test_a_request_for_the_change_acts(
    tmp_path: Path, bot: str, request_text: str, acts_tool: str
) -> None:
    assert f"[{acts_tool}]" in _reply(tmp_path, bot, request_text)


def test_a_tool_that_reads_by_its_name_answers_whatever_its_docstring_opens_with(
    tmp_path: Path,
) -> None:
    assert "[membership_details]" in _reply(tmp_path, "gym", "When does my membership end?")
    assert "[classes]" in _reply(tmp_path, "gym", "Which classes are on Tuesday?")


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("cancel_order", True),
        ("change_seat", True),
        ("schedule_appointment", True),
        ("book_room", True),
        ("open_ticket", True),
        ("refund", True),
        ("get_balance", False),
        ("current_seat", False),
        ("weather", False),
        ("orders", False),
        ("order_status", False),
        ("transfer_limits", False),
        ("pto_request", False),
        ("pay_date", False),
        ("open_hours", False),
        ("store_hours", False),
        ("book_search", False),
        ("change_log", False),
        ("handle_request", False),
    ],
)
def test_what_acts_is_read_from_the_name_alone(name: str, changes: bool) -> None:
    assert acts(name) is changes


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("cancel my order", True),
        ("please cancel my order", True),
        ("can you cancel my order", True),
        ("are you able to cancel my order", True),
        ("would you mind cancelling my order", True),
        ("should I cancel my order", False),
        ("can I cancel my order after it ships", False),
        ("my order was cancelled", False),
        ("someone cancelled my order", False),
        ("did you cancel my order", False),
        ("I don't want to cancel my order", False),
        ("please do not ever cancel my order", False),
        ("if I cancel my order, when is the refund", False),
        ("the cancel button does nothing", False),
    ],
)
def test_what_asks_for_the_change(text: str, asks: bool) -> None:
    assert asks_for_change(text, "cancel_order") is asks


def test_a_question_is_told_from_a_polite_request() -> None:
    assert is_question("Can I bring my dog on the train?")
    assert is_question("Is my support ticket still open?")
    assert not is_question("Can I get a window seat?")
    assert not is_question("Could you renew my book")
    assert not is_question("Are you able to renew my book?")
    assert not is_question("Hi, I think I left my phone on a train?")


def test_a_conversational_lone_tool_still_starts_its_dialogue_for_a_question(
    tmp_path: Path,
) -> None:
    assert "[book_desk]" in _reply(tmp_path, "desks", "Are there any desks free on Friday?")


@pytest.mark.parametrize(
    "request_text",
    [
        "How do I reset my password?",
        "Is my account locked?",
        "Do I need to reset my password every 90 days?",
    ],
)
def test_the_helpdesk_sample_still_sends_the_reset_link(request_text: str) -> None:
    bot = load_bot(_ROOT / "samples" / "helpdesk" / "helpdesk.yaml")
    assert "reset link" in run_sync(bot.conversation().send(request_text)).text


def test_the_helpdesk_sample_still_resets_two_passwords_in_one_request() -> None:
    bot = load_bot(_ROOT / "samples" / "helpdesk" / "helpdesk.yaml")
    text = run_sync(bot.conversation().send("Reset my VPN password and email password")).text
    assert text.count("reset link") == 2
