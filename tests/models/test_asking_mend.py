"""The offline model's asking, mended (session s65): money is never moved on a statement, a
question asks only for the tool the request asks for, a value the request plainly names is read,
and the questions read well for common argument names."""

from __future__ import annotations

from typing import Any

import pytest

from harness.models._actions import acts
from harness.models._arguments import fill
from harness.models._asking import question_for
from harness.models.base import ToolDefinition
from tests.models._acting import plan_with, tool

_tool = tool


def _plan(
    tools: list[ToolDefinition], text: str, mode: str = "direct"
) -> tuple[list[tuple[str, dict[str, Any]]], dict[int, list[str]]]:
    return plan_with(tools, text, mode=mode)


_WALLET = [
    _tool("top_up", "Add money to the travel card.", {"amount": "number"}, ["amount"]),
    _tool("card_balance", "The money left on the travel card.", {}, []),
]
_TIPS = [
    _tool("tip_driver", "Give the driver a tip.", {"amount": "number"}, ["amount"]),
    _tool("trip_history", "Past trips.", {}, []),
]
_CHARITY = [
    _tool("donate", "Give money to the charity.", {"amount": "number"}, ["amount"]),
    _tool("donation_history", "Past gifts to the charity.", {}, []),
]
# No verb of change opens its name: it moves money by its argument alone.
_FUND = [
    _tool("wallet_funding", "Put money in the wallet.", {"amount": "number"}, ["amount"]),
    _tool("wallet_statement", "What went in and out of the wallet.", {}, []),
]
_MONEY_TOOLS = {"top_up", "tip_driver", "donate", "wallet_funding"}


@pytest.mark.parametrize(
    ("tools", "text"),
    [
        (_WALLET, "I topped up £20 yesterday but it isn't showing"),
        (_WALLET, "my card had £5 on it"),
        (_TIPS, "I already gave the driver a £3 tip"),
        (_TIPS, "the driver said £4 was the fare"),
        (_CHARITY, "I donated £10 last year, can I get a receipt?"),
        (_CHARITY, "I gave £15 last month"),
        (_FUND, "I put £30 in my wallet funding last week and it vanished"),
    ],
)
def test_a_statement_or_a_past_mention_never_moves_money(
    tools: list[ToolDefinition], text: str
) -> None:
    calls, _ = _plan(tools, text)
    assert not {name for name, _ in calls} & _MONEY_TOOLS


@pytest.mark.parametrize(
    ("tools", "text", "call"),
    [
        (_WALLET, "top up £20", ("top_up", {"amount": 20.0})),
        (_TIPS, "please tip the driver £3", ("tip_driver", {"amount": 3.0})),
        (_CHARITY, "I'd like to donate £10", ("donate", {"amount": 10.0})),
    ],
)
def test_a_request_for_the_money_change_still_makes_it(
    tools: list[ToolDefinition], text: str, call: tuple[str, dict[str, Any]]
) -> None:
    calls, _ = _plan(tools, text)
    assert calls == [call]


@pytest.mark.parametrize(
    ("name", "acting"),
    [
        ("top_up", True),
        # "tip", "give" and "load" open reading names as often ("tip_of_the_day",
        # "load_profile"): such a tool acts only by a required amount (``_choice.acting``).
        ("tip_driver", False),
        ("tip_of_the_day", False),
        ("give_feedback", False),
        ("load_profile", False),
        ("load_more_results", False),
        ("donate", True),
        ("top_stories", False),
        # The parts nouns make a reading name only after "order" or "booking".
        ("transfer_items", True),
        ("request_details", True),
        ("booking_details", False),
        ("order_food", True),
        ("order_items", False),
        ("order_details", False),
        ("order_summary", False),
        ("order_status", False),
    ],
)
def test_which_names_act(name: str, acting: bool) -> None:
    assert acts(name) is acting


def test_a_reading_tool_named_for_order_items_reads_the_order() -> None:
    tools = [
        _tool("order_items", "The items in an order.", {"order_id": "string"}, ["order_id"]),
        _tool("cancel_order", "Cancel an order.", {"order_id": "string"}, ["order_id"]),
    ]
    assert _plan(tools, "what's in order 5521?")[0] == [("order_items", {"order_id": "5521"})]


@pytest.mark.parametrize(
    ("name", "kind", "question"),
    [
        ("quantity", "integer", "How many parts do you want?"),
        ("first_name", "string", "What is your first name?"),
        ("customer_name", "string", "What is your name?"),
        ("is_urgent", "boolean", "Is it urgent?"),
        ("email", "string", "What is your email address?"),
        ("phone", "string", "What is your phone number?"),
        ("weight_kg", "number", "What is the weight in kg?"),
        ("pet_name", "string", "What is your pet's name?"),
    ],
)
def test_questions_read_well_for_common_argument_names(name: str, kind: str, question: str) -> None:
    assert question_for(name, {"type": kind}, tool="order_parts") == question


_ZOO = [
    _tool("feeding_times", "When the animals are fed.", {"animal": "string"}, ["animal"]),
    _tool("keeper_talks", "Times of the keeper talks.", {"animal": "string"}, ["animal"]),
    _tool("buy_tickets", "Buy zoo tickets.", {"adults": "integer"}, ["adults"]),
]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("when are the penguins fed", ("feeding_times", {"animal": "penguins"})),
        ("when do the meerkats get fed", ("feeding_times", {"animal": "meerkats"})),
        ("can you tell me when the sea lions are fed", ("feeding_times", {"animal": "sea lions"})),
        ("Penguin feeding time", ("feeding_times", {"animal": "Penguin"})),
    ],
)
def test_a_value_the_request_plainly_names_is_read_not_asked(
    text: str, call: tuple[str, dict[str, Any]]
) -> None:
    assert _plan(_ZOO, text) == ([call], {})


def test_a_request_naming_no_value_is_asked() -> None:
    assert _plan(_ZOO, "when are they fed?") == ([], {0: ["Which animal do you mean?"]})


_THEATRE = [
    _tool(
        "buy_seats",
        "Buy theatre seats for a show on a date.",
        {"show": "string", "date": "string", "seats": "integer"},
        ["show", "date", "seats"],
    ),
    _tool("cancel_seats", "Cancel a seat booking.", {"booking_ref": "string"}, ["booking_ref"]),
    _tool("show_times", "When a show is on.", {"show": "string"}, ["show"]),
]


def test_no_question_of_a_tool_the_request_does_not_ask_for() -> None:
    text = "two seats for The Book of Mormon on Friday in the stalls please"
    calls, asking = _plan(_THEATRE, text)
    assert not any("booking reference" in q for qs in asking.values() for q in qs)
    assert "cancel_seats" not in {name for name, _ in calls}
    # The change the request gives a value asks for what it lacks.
    assert _plan(_THEATRE, "2 seats for Hamilton please") == ([], {0: ["Which date do you want?"]})


def test_a_reading_tool_lacking_a_value_asks_for_it() -> None:
    assert _plan(_THEATRE, "when is the show on?") == ([], {0: ["Which show do you mean?"]})


def test_a_lone_conversational_tool_lacking_a_value_asks_for_it() -> None:
    tools = [_tool("order_details", "An order's details.", {"order_id": "string"}, ["order_id"])]
    calls, asking = _plan(tools, "what's in my order?", "conversational")
    assert (calls, asking) == ([], {0: ["What is your order number?"]})


def test_counts_before_an_adjective_and_noun() -> None:
    props = {
        "bikes": {"type": "integer"},
        "hours": {"type": "integer"},
        "size": {"enum": ["small", "medium", "large"]},
    }
    args = fill(props, ["bikes", "hours"], "rent 2 large bikes for 3 hours")
    assert args == {"bikes": 2, "hours": 3, "size": "large"}
    assert fill(props, ["bikes"], "rent 2 more bikes")["bikes"] == 2
    # A length of time the request does not give is asked for, never 0.
    assert "hours" not in fill(props, ["bikes", "hours"], "rent 3 small bikes")


def test_a_count_named_for_nothing_takes_the_one_count_given() -> None:
    props = {"quantity": {"type": "integer"}}
    assert fill(props, ["quantity"], "please order 4 inner tubes") == {"quantity": 4}


def test_contacts_and_measures_are_read() -> None:
    assert fill({"phone": {"type": "string"}}, ["phone"], "change my phone to 07700 900123") == {
        "phone": "07700 900123"
    }
    weight = {"weight_kg": {"type": "number"}}
    assert fill(weight, ["weight_kg"], "send a 2.5 kg parcel") == {"weight_kg": 2.5}
    # A money amount is never a weight.
    assert fill(weight, ["weight_kg"], "send a parcel worth £20") == {}


def test_a_description_drops_the_preposition_before_a_value_taken() -> None:
    props = {"station": {"type": "string"}, "problem": {"type": "string"}}
    args = fill(
        props, ["station", "problem"], "please report a broken dock at Angel", tool="report"
    )
    assert args == {"station": "Angel", "problem": "broken dock"}
