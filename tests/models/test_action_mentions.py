"""The offline model does not make a change the request only names (s63-tools): a past ("someone
renewed my loan"), a state ("is my support ticket still open?"), a question whether it happened
("did you block my card?"). Beyond a near tie, too: the agent's tool that reads answers, and with
no such tool that shares a word nothing is called and the agent hands the request back. A request
for the change, and one with no verb of change at all ("my card was stolen"), acts as before; so
do a run-on order after a state ("my phone was stolen block my sim"), a modal passive ("can my
seat be changed?"), "if not please ..." and a question that goes on to ask (s63-mend-tools). A
conversational agent with one tool that acts follows the same rule.

New bots, written as the docs show (a YAML config and a ``tools.py``); every tool answers with its
own name in brackets, so the reply shows which one ran.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import load_bot, run_sync
from harness.models._actions import _ACTING, _SAME_ACTION, acts, asks_for_change, mentions_change
from tests.models._bots import write_bot

_ROOT = Path(__file__).resolve().parents[2]

_BOTS: dict[str, list[tuple[str, str, list[tuple[str, str]]]]] = {
    "support": [
        (
            "tickets",
            "IT support tickets.",
            [
                ("ticket_status", "The status of a support ticket."),
                ("open_ticket", "Open a support ticket about a problem."),
            ],
        ),
        ("logins", "Logins and passwords.", [("password_rules", "The password rules.")]),
    ],
    "library": [
        (
            "loans",
            "Borrowed books and their due dates.",
            [
                ("loan_due_dates", "When your borrowed books are due."),
                ("renew_loan", "Renew a book loan for another three weeks."),
            ],
        ),
        ("catalogue", "Books in the library.", [("find_book", "Find a book in the catalogue.")]),
    ],
    "bank": [
        (
            "cards",
            "Debit and credit cards: blocking, limits.",
            [
                ("card_limit", "The spending limit of a card."),
                ("block_card", "Block a lost or stolen card."),
            ],
        ),
        ("accounts", "Bank accounts and balances.", [("get_balance", "The balance.")]),
    ],
    "streaming": [
        (
            "subscription",
            "Your streaming subscription.",
            [("cancel_subscription", "Cancel the streaming subscription.")],
        ),
        ("films", "Films and series.", [("search_titles", "Find films and series.")]),
    ],
    "carhire": [
        (
            "rentals",
            "Car rentals.",
            [
                ("rental_details", "The details of your car rental."),
                ("cancel_rental", "Cancel a car rental."),
            ],
        ),
        ("cars", "Cars we have.", [("car_models", "The car models on offer.")]),
    ],
    "vet": [
        (
            "appointments",
            "Vet appointments for your pet.",
            [
                ("appointment_times", "Free appointment times at the vet."),
                ("book_appointment", "Book a vet appointment for your pet."),
            ],
        ),
    ],
    "broadband": [
        (
            "router",
            "Your home broadband router.",
            [("reset_router", "Reset your broadband router remotely.")],
        ),
        ("billing", "Broadband bills.", [("latest_bill", "Your latest broadband bill.")]),
    ],
    "hotel": [
        (
            "stays",
            "Your hotel stay and room.",
            [
                ("stay_details", "The details of your stay and room."),
                ("upgrade_room", "Upgrade your room to a better one."),
            ],
        ),
    ],
    "home": [
        (
            "heating",
            "Your smart home heating.",
            [
                ("thermostat_reading", "The temperature the thermostat reads now."),
                ("set_thermostat", "Set the thermostat to a temperature."),
            ],
        ),
    ],
    "carrier": [
        (
            "numbers",
            "Your phone number and line.",
            [
                ("number_details", "The details of your phone number and line."),
                ("port_number", "Port your phone number from another network."),
            ],
        ),
    ],
    "rail": [
        (
            "lost_property",
            "Items left on a train or at a station.",
            [("report_lost_item", "Log a lost-property report for an item left on a train.")],
        ),
    ],
}


def _write_bot(folder: Path, bot: str) -> Path:
    agents = [(agent, doc, "direct", tools) for agent, doc, tools in _BOTS[bot]]
    return write_bot(folder, f"{bot}_bot", agents)


def _reply(tmp_path: Path, bot: str, request: str) -> str:
    return run_sync(load_bot(_write_bot(tmp_path, bot)).conversation().send(request)).text


# (bot, request, the tool that reads and answers, the tool that acts and must not run)
_NAMED_WITH_A_READER = [
    ("support", "Is my support ticket still open?", "ticket_status", "open_ticket"),
    ("support", "Did you open a ticket for my laptop?", "ticket_status", "open_ticket"),
    ("support", "Someone opened a ticket for me yesterday", "ticket_status", "open_ticket"),
    ("library", "Someone renewed my loan", "loan_due_dates", "renew_loan"),
    ("library", "Did you renew my loan?", "loan_due_dates", "renew_loan"),
    ("library", "Has my loan been renewed?", "loan_due_dates", "renew_loan"),
    ("bank", "Did you block my card?", "card_limit", "block_card"),
    ("bank", "My card got blocked abroad", "card_limit", "block_card"),
    # A want of a thing beside a past of the change asks for nothing (s63-mend2-tools).
    (
        "hotel",
        "I upgraded my room yesterday but I need the room key",
        "stay_details",
        "upgrade_room",
    ),
    # Verbs of the same-action groups that open tool names act (s63-mend2-tools).
    ("home", "What is the thermostat set to?", "thermostat_reading", "set_thermostat"),
    ("carrier", "Has my number been ported yet?", "number_details", "port_number"),
    ("carrier", "Have you ported my number yet?", "number_details", "port_number"),
]


@pytest.mark.parametrize(("bot", "request_text", "reads", "acts_tool"), _NAMED_WITH_A_READER)
def test_a_change_only_named_is_answered_by_the_tool_that_reads(
    tmp_path: Path, bot: str, request_text: str, reads: str, acts_tool: str
) -> None:
    text = _reply(tmp_path, bot, request_text)
    assert f"[{acts_tool}]" not in text
    assert f"[{reads}]" in text


# (bot, request, the lone tool that acts and must not run)
_NAMED_WITHOUT_A_READER = [
    ("streaming", "Did you cancel my subscription?", "cancel_subscription"),
    ("streaming", "Is my subscription cancelled?", "cancel_subscription"),
    ("streaming", "My subscription was cancelled without my asking", "cancel_subscription"),
    ("rail", "Did you log my lost umbrella?", "report_lost_item"),
    ("rail", "I reported my bag lost yesterday", "report_lost_item"),
]


@pytest.mark.parametrize(("bot", "request_text", "acts_tool"), _NAMED_WITHOUT_A_READER)
def test_with_no_tool_that_reads_nothing_is_changed_and_the_user_is_told(
    tmp_path: Path, bot: str, request_text: str, acts_tool: str
) -> None:
    text = _reply(tmp_path, bot, request_text)
    assert f"[{acts_tool}]" not in text
    assert text.startswith("I can't help with")


def test_the_agent_that_called_nothing_hands_the_request_back_within_its_contract(
    tmp_path: Path,
) -> None:
    bot = load_bot(_write_bot(tmp_path, "streaming"))
    turn = run_sync(bot.conversation().send("Did you cancel my subscription?"))
    (result,) = [r for r in turn.results if r.agent == "subscription"]
    assert result.outputs.answered is False
    assert result.outputs.open_questions == ("Did you cancel my subscription",)
    assert result.outputs.interaction_summary
    assert result.violations == ()


# (bot, request, the tool that acts and must still run)
_STILL_ACTS = [
    ("support", "Please open a ticket, my laptop won't boot", "open_ticket"),
    ("support", "Can you open a ticket for my broken monitor?", "open_ticket"),
    ("support", "The ticket I opened was closed, open a new ticket please", "open_ticket"),
    ("library", "I need to renew my loan", "renew_loan"),
    ("library", "My loan expired, can you renew it?", "renew_loan"),
    ("library", "I renewed it last month but need it renewed again", "renew_loan"),
    ("bank", "My card was stolen", "block_card"),
    ("bank", "My card was stolen yesterday, please block it", "block_card"),
    ("bank", "Someone stole my card, block it now", "block_card"),
    ("streaming", "Cancel my subscription", "cancel_subscription"),
    ("streaming", "I've decided to cancel my subscription", "cancel_subscription"),
    ("streaming", "I was charged again, cancel my subscription", "cancel_subscription"),
    ("rail", "I left my umbrella on the 8:15 train", "report_lost_item"),
    ("rail", "I left my coat on the train, please log it", "report_lost_item"),
    ("hotel", "Please upgrade my room, the shower is broken", "upgrade_room"),
    ("home", "Set the thermostat to 18 please", "set_thermostat"),
    ("carrier", "Please port my number from my old network", "port_number"),
    ("carrier", "I want my number to get ported this week", "port_number"),
]


@pytest.mark.parametrize(("bot", "request_text", "acts_tool"), _STILL_ACTS)
def test_a_request_for_the_change_still_acts(
    tmp_path: Path, bot: str, request_text: str, acts_tool: str
) -> None:
    assert f"[{acts_tool}]" in _reply(tmp_path, bot, request_text)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("is my ticket still open", True),
        ("is ticket 4411 open?", True),
        ("did you open a ticket for me?", True),
        ("someone opened a ticket for me", True),
        ("has a ticket been opened?", True),
        ("please don't open a ticket", True),
        ("if I open a ticket, who answers it?", True),
        ("open a ticket", False),
        ("can you open a ticket?", False),
        ("can I open a ticket?", False),
        ("the ticket I opened was closed, open a new one", False),
        ("I want a ticket opened for this", False),
        ("let's open a ticket", False),
        ("my laptop won't boot", False),
        ("the open tickets", False),
        ("I'm interested in opening a ticket", False),
    ],
)
def test_what_names_the_change_without_asking(text: str, named: bool) -> None:
    assert mentions_change(text, "open_ticket") is named


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("I want my membership frozen until June", True),
        ("could you get my membership frozen", True),
        ("I would like to have my membership frozen", True),
        ("let's freeze my membership", True),
        ("I have already frozen my membership", False),
        ("my membership was frozen", False),
        ("I don't want my membership frozen", False),
        ("I want to know why my membership was frozen", False),
    ],
)
def test_a_participle_asks_only_after_a_word_of_wanting(text: str, asks: bool) -> None:
    assert asks_for_change(text, "freeze_membership") is asks


def test_the_helpdesk_sample_does_not_send_a_new_link_when_asked_whether_it_did() -> None:
    bot = load_bot(_ROOT / "samples" / "helpdesk" / "helpdesk.yaml")
    assert "reset link" not in run_sync(bot.conversation().send("Did you reset my password?")).text
    assert "reset link" in run_sync(bot.conversation().send("Can you reset my password?")).text


# Mended in s63-mend-tools: a state or a past earlier in an unpunctuated request does not turn a
# later order into a mention; a modal before "be" and a participle asks; "if not please ..." asks;
# a question that goes on to ask for the change asks. (bot, request, the tool that acts and must
# run)
_ASKS_AFTER_ALL = [
    ("carhire", "my flight was cancelled cancel my rental too", "cancel_rental"),
    ("carhire", "we're staying home now cancel the rental please", "cancel_rental"),
    ("broadband", "the internet is down again reset my router", "reset_router"),
    ("broadband", "its been slow all day reset the router", "reset_router"),
    ("vet", "my dog is limping book an appointment for tomorrow", "book_appointment"),
    ("vet", "she's been sick all night book her in asap", "book_appointment"),
    ("vet", "can an appointment be booked for Tuesday?", "book_appointment"),
    ("broadband", "Can my router be reset remotely?", "reset_router"),
    ("carhire", "Is my rental cancelled? If not please cancel it", "cancel_rental"),
    ("carhire", "if not cancelled yet please cancel my rental", "cancel_rental"),
    ("vet", "Has my appointment been booked? if not please book one", "book_appointment"),
    ("broadband", "Did you reset my router or should I ask someone to reset it?", "reset_router"),
]


@pytest.mark.parametrize(("bot", "request_text", "acts_tool"), _ASKS_AFTER_ALL)
def test_a_request_that_also_states_or_asks_whether_still_acts(
    tmp_path: Path, bot: str, request_text: str, acts_tool: str
) -> None:
    assert f"[{acts_tool}]" in _reply(tmp_path, bot, request_text)


@pytest.mark.parametrize(
    ("text", "tool", "named"),
    [
        # Only in the two places the docs give: right after "be"/"did", or with only the
        # question's subject between its opening "is"/"did" and the verb.
        ("my phone was stolen block my sim", "block_card", False),
        ("its been an hour cancel my order", "cancel_order", False),
        ("my permit is expiring renew it please", "renew_permit", False),
        ("i'm going abroad freeze my membership", "freeze_membership", False),
        ("is my rental cancelled", "cancel_rental", True),
        ("when did you cancel my rental", "cancel_rental", True),
        ("how long ago did you reset my router", "reset_router", True),
        ("my router is still reset every night", "reset_router", True),
        ("I did cancel it yesterday", "cancel_rental", True),
        ("is there a way I can cancel my rental", "cancel_rental", False),
        # A modal before "be" asks; "will" tells what happens; a negation refuses.
        ("can my seat be changed to 14C?", "change_seat", False),
        ("will my rental be cancelled automatically?", "cancel_rental", True),
        ("my rental should not be cancelled", "cancel_rental", True),
        # "if not" is no refusal; a question that goes on to ask asks.
        ("has it been refilled? if not please refill it", "refill_prescription", False),
        ("did you refill it or should I ask someone to refill it?", "refill_prescription", False),
        ("did you refill my prescription?", "refill_prescription", True),
        # A want of a thing beside a past of the change asks for nothing.
        (
            "I made a booking for the wrong day, I need the spin class on Friday",
            "book_class",
            True,
        ),
        ("I upgraded my room yesterday but I need the room key", "upgrade_room", True),
        ("I booked an appointment last week, I need the address", "book_appointment", True),
    ],
)
def test_where_a_form_names_the_change(text: str, tool: str, named: bool) -> None:
    assert mentions_change(text, tool) is named


@pytest.mark.parametrize(
    ("text", "tool", "asks"),
    [
        ("my phone was stolen block my sim", "block_card", True),
        ("we're celebrating book us two massages", "book_treatment", True),
        ("Can my seat be changed to 14C?", "change_seat", True),
        ("could two tickets be booked for the 8pm show?", "book_tickets", True),
        ("My visit should be rescheduled, I'm away that week", "reschedule_visit", True),
        ("my deliveries must be paused while we move house", "pause_deliveries", True),
        ("renewed permit please", "renew_permit", True),
        ("if not please refill it", "refill_prescription", True),
        ("Did you refill it? could you refill it?", "refill_prescription", True),
        (
            "I made a booking for the wrong day, I need the spin class on Friday",
            "book_class",
            False,
        ),
        ("I upgraded my room yesterday but I need the room key", "upgrade_room", False),
        ("I want my phone to get unlocked", "unlock_phone", True),
        ("how many leave days have I requested this year?", "request_leave", False),
        ("will my rental be cancelled automatically?", "cancel_rental", False),
        ("my rental should not be cancelled", "cancel_rental", False),
        ("my rental was cancelled please help", "cancel_rental", False),
        ("I booked the class, I need to know the room", "book_class", False),
    ],
)
def test_what_asks_for_the_change(text: str, tool: str, asks: bool) -> None:
    assert asks_for_change(text, tool) is asks


def test_a_conversational_agent_with_one_tool_does_not_make_a_change_only_named(
    tmp_path: Path,
) -> None:
    agents = [
        (
            "membership",
            "Your gym membership.",
            "conversational",
            [("cancel_membership", "Cancel a gym membership.")],
        )
    ]
    bot = load_bot(write_bot(tmp_path, "gym_bot", agents))
    for named in ("Did you cancel my membership?", "Is my membership cancelled?"):
        text = run_sync(bot.conversation().send(named)).text
        assert "[cancel_membership]" not in text
        assert text.startswith("I can't help with")
    asked = run_sync(bot.conversation().send("Please cancel my membership")).text
    assert "[cancel_membership]" in asked


@pytest.mark.parametrize(
    ("name", "acting"),
    [
        ("set_alarm", True),
        ("request_refund", True),
        ("hold_mail", True),
        ("drop_course", True),
        ("redirect_parcel", True),
        ("port_number", True),
        ("enable_notifications", True),
        ("disable_account", True),
        ("stop_subscription", True),
        ("start_trial", True),
        ("return_item", True),
        ("confirm_booking", True),
        ("accept_offer", True),
        ("request_status", False),
        ("return_policy", False),
        ("exchange_rate", False),
        ("start_date", False),
        ("share_price", False),
        # "order" opens a change; a tool that reads orders ends with a noun of reading.
        ("order_food", True),
        ("order_status", False),
        ("order_history", False),
    ],
)
def test_which_names_act(name: str, acting: bool) -> None:
    assert acts(name) is acting


def test_every_verb_of_a_same_action_group_is_acting_or_left_out_on_purpose() -> None:
    left_out = {
        "store", "leave", "issue", "share", "record", "post", "bill", "charge",
        "take", "use", "gift", "put", "push", "wire", "write", "challenge", "contest",
        "give", "tip", "load",
    }  # fmt: skip
    grouped = {verb for group in _SAME_ACTION for verb in group}
    assert grouped - left_out <= _ACTING
    assert not left_out & _ACTING
