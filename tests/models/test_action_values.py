"""When the offline model makes a change, and which values it passes (s64-mend-act).

A wrong change is the worst outcome, a wrong value said back the next; a question back is fine.
So a statement acts only when worded as a request, a question only as "can you <verb>" or "can I
<verb>", a value is passed only when the argument's name or type fits it, a required value the
request does not give is asked back (the request is handed back, no call), and two requests of
one message that complete each other make one change. The bots are new, written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from harness.models._arguments import fill
from harness.models.base import ActContext, ToolDefinition
from harness.models.rules import RulesModel

S = {"type": "string"}
N = {"type": "integer"}


def _tool(name: str, doc: str, props: dict[str, Any], required: list[str] | None = None) -> Any:
    schema = {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
    }
    return ToolDefinition(name=name, description=doc, parameters=schema)


_CLUB = [
    _tool("cancel_membership", "Cancel a club membership.", {"member_id": S}),
    _tool(
        "membership_details", "The plan, price and renewal date of a membership.", {"member_id": S}
    ),
]
_SHOP = [
    _tool("cancel_order", "Cancel an order.", {"order_id": S}),
    _tool("order_status", "Where an order is and when it arrives.", {"order_id": S}),
]
_ZOO = [
    _tool(
        "buy_tickets",
        "Buy entry tickets for a visit.",
        {"date": S, "adults": N, "children": N},
        ["date", "adults", "children"],
    ),
    _tool("ticket_prices", "Adult and child ticket prices.", {}),
    _tool("keeper_talks", "When the keepers talk about an animal.", {"animal": S}),
]
# The acting tool is the best match by words ("zoo"): a statement still makes no change.
_ZOO_BY_WORDS = [
    _tool("buy_tickets", "Buy entry tickets for a visit to the zoo.", {"date": S, "adults": N}),
    _tool("ticket_prices", "Adult and child ticket prices.", {}),
]
_SALON = [
    _tool(
        "book_haircut",
        "Book a haircut with a stylist on a day.",
        {"stylist": S, "day": S, "time": S},
        ["stylist", "day"],
    ),
    _tool("stylists", "The salon's stylists and the days they work.", {}),
]
_DOCKS = [_tool("docks_at_station", "How many bikes and free docks a station has.", {"station": S})]
_ONE_CANCEL = [_tool("cancel_order", "Cancel an order.", {"order_id": S})]
_ONE_REPORT = [_tool("report_fault", "Report a broken hire bike.", {"bike": S, "problem": S})]


def _context(text: str, requests: tuple[str, ...] = ()) -> ActContext:
    return ActContext(
        agent="a",
        mode="direct",
        scoped_request=text,
        history=None,
        required_outputs=(),
        can_message_user=True,
        requests=requests,
    )


def _calls(tools: list[Any], text: str, requests: tuple[str, ...] = ()) -> list[Any]:
    calls = RulesModel()._pick_tools(tools, _context(text, requests))
    return [(c.name, dict(c.arguments)) for c in calls]


@pytest.mark.parametrize(
    ("tools", "text"),
    [
        (_CLUB, "details for membership 44120"),
        (_SHOP, "my order 55123 hasn't arrived"),
        (_ZOO, "my 2 children loved the zoo on Saturday"),
        (_ZOO, "last Saturday 2 adults were rude to me"),
        (_ZOO_BY_WORDS, "my 2 children loved the zoo on Saturday"),
        (_ONE_CANCEL, "my order 55123 hasn't arrived"),
    ],
)
def test_a_statement_that_asks_for_no_change_makes_none(tools: list[Any], text: str) -> None:
    acting = {"cancel_membership", "cancel_order", "buy_tickets"}
    assert not acting.intersection(name for name, _ in _calls(tools, text))


@pytest.mark.parametrize(
    ("tools", "text"),
    [
        (_ONE_CANCEL, "when will order 55123 arrive?"),
        (_ONE_REPORT, "is bike 40213 still broken?"),
        (_ZOO, "how many tickets can I buy for Saturday?"),
        (_ZOO, "when should I buy tickets for Saturday?"),
    ],
)
def test_a_question_acts_only_as_can_you_or_can_i(tools: list[Any], text: str) -> None:
    assert not {"cancel_order", "report_fault", "buy_tickets"}.intersection(
        name for name, _ in _calls(tools, text)
    )


def test_a_request_worded_as_one_still_acts() -> None:
    assert _calls(_ZOO, "can you buy 2 adult tickets for Sunday?") == [
        ("buy_tickets", {"date": "Sunday", "adults": 2, "children": 0})
    ]
    assert _calls(_ZOO, "twelve adults and a child for Saturday please") == [
        ("buy_tickets", {"date": "Saturday", "adults": 12, "children": 1})
    ]


def test_two_requests_that_complete_each_other_make_one_change() -> None:
    message = "Two adults and a child for Saturday please"
    wanted = [("buy_tickets", {"date": "Saturday", "adults": 2, "children": 1})]
    assert _calls(_ZOO, message) == wanted
    parts = ("Two adults", "a child for Saturday please")
    bought = [c for c in _calls(_ZOO, message, parts) if c[0] == "buy_tickets"]
    assert bought == wanted


def test_names_are_kept_whole_and_each_word_is_taken_once() -> None:
    assert _calls(_DOCKS, "How many bikes are at King's Cross station right now") == [
        ("docks_at_station", {"station": "King's Cross"})
    ]
    assert _calls(_SALON, "can you book a haircut with Mary Ann O'Neill for Thursday?") == [
        ("book_haircut", {"stylist": "Mary Ann O'Neill", "day": "Thursday"})
    ]
    route = {"origin": S, "destination": S, "date": S}
    assert fill(route, list(route), "tickets from Milton Keynes to Bath Spa for Saturday") == {
        "origin": "Milton Keynes",
        "destination": "Bath Spa",
        "date": "Saturday",
    }


def test_values_are_read_by_the_text_layer() -> None:
    assert fill({"dates": S}, ["dates"], "a day off for Dec 22 to Dec 24") == {
        "dates": "Dec 22 to Dec 24"
    }
    assert fill({"date": S}, ["date"], "book it for 12 March") == {"date": "12 March"}
    assert fill({"order_id": S}, ["order_id"], "cancel my order from 2024") == {}


def test_a_value_fills_only_an_argument_it_fits() -> None:
    # A day never fills a stylist; an optional argument keeps its default.
    assert fill(_SALON[0].parameters["properties"], ["stylist", "day"], "a haircut on Friday") == {
        "day": "Friday"
    }
    assert fill({"city": S, "note": S}, ["city"], "weather in Paris for Anna") == {"city": "Paris"}


@pytest.mark.parametrize(
    ("tools", "text", "question"),
    [
        (_SALON, "could I book a haircut on Friday?", "Which stylist do you mean?"),
        (_SHOP, "cancel my order", "What is your order number?"),
        (_DOCKS, "how many bikes there", "Which station do you mean?"),
    ],
)
def test_a_required_value_not_given_is_asked_for(
    tools: list[Any], text: str, question: str
) -> None:
    # No call on a guess: the user is asked for the value, by the argument's name.
    calls, asking = RulesModel()._plan(tools, _context(text))
    assert calls == []
    assert asking == {0: [question]}
