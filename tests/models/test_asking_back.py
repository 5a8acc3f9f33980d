"""The offline model asks the user for a value a change needs and the request does not give, and
the parent's reply asks it (no guess, no "I can't help"); values a user writes plainly are read.

The fixture's bots and requests (tests/fixtures/act_choice/ask_*) were written by s65-ask as a new
user writes them; the rules were changed while looking at them (in sample)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness import load_bot, run_sync
from harness.composing import ComposeInput, ResultView, RulesComposer
from harness.models.base import (
    ActContext,
    AgentCard,
    ChatMessage,
    ModelRequest,
    ToolDefinition,
)
from harness.models.rules import RulesModel
from tests.models._acting import act_context, plan_with, tool

_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "act_choice"
_BOTS: dict[str, Any] = json.loads((_FIXTURE / "ask_bots.json").read_text())


def _tools(bot: str) -> list[ToolDefinition]:
    return [
        ToolDefinition(
            name=name,
            description=doc,
            parameters={"type": "object", "properties": props, "required": required},
        )
        for name, doc, props, required in _BOTS[bot]["tools"]
    ]


def _plan(bot: str, text: str) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    calls, asking = plan_with(_tools(bot), text, agent=bot)
    return calls, [q for qs in asking.values() for q in qs]


@pytest.mark.parametrize(
    ("bot", "text", "questions"),
    [
        (
            "vet",
            "book an appointment for my cat",
            ["What is your pet's name?", "Which date do you want?"],
        ),
        (
            "vet",
            "order four bags of pet food",
            ["Which brand do you mean: Royal Canin, Hill's or Purina?"],
        ),
        ("cinema", "I want a refund for my booking", ["What is your booking reference?"]),
        (
            "cinema",
            "buy tickets for Dune",
            ["Which date do you want?", "How many adults do you want?"],
        ),
        (
            "cinema",
            "when is the film showing?",
            ["Which film do you mean (for example Dune, Wicked or Paddington)?"],
        ),
    ],
)
def test_each_missing_value_is_asked_for_by_its_argument(
    bot: str, text: str, questions: list[str]
) -> None:
    calls, asked = _plan(bot, text)
    assert calls == []
    assert asked == questions


@pytest.mark.parametrize(
    ("bot", "text", "tool", "arguments"),
    [
        # Spelled counts, "a child" as one.
        (
            "cinema",
            "two adults and a child for Paddington tomorrow please",
            "buy_tickets",
            {"film": "Paddington", "date": "tomorrow", "adults": 2, "children": 1},
        ),
        # A title of several words with lower-case words inside, kept whole.
        (
            "cinema",
            "can I get one adult ticket for The Lord of the Rings on Sunday?",
            "buy_tickets",
            {"film": "The Lord of the Rings", "date": "Sunday", "adults": 1},
        ),
        # A name with an apostrophe: the owner of what follows.
        ("vet", "can you cancel Daisy's appointment?", "cancel_appointment", {"pet_name": "Daisy"}),
        # A Literal's choice named in any case, in the tool's spelling.
        (
            "vet",
            "I'd like three bags of royal canin please",
            "order_food",
            {"brand": "Royal Canin", "bags": 3},
        ),
        ("cinema", "upgrade my membership to gold", "upgrade_membership", {"tier": "Gold"}),
        # An example the docstring gives for the argument.
        ("cinema", "paddington showtimes", "showtimes", {"film": "Paddington"}),
        # A request worded as one with a date, beside a reader that ties on words.
        (
            "vet",
            "I'd like an appointment for Bella tomorrow, she is limping",
            "book_appointment",
            {"pet_name": "Bella", "date": "tomorrow"},
        ),
    ],
)
def test_values_written_plainly_are_read(
    bot: str, text: str, tool: str, arguments: dict[str, Any]
) -> None:
    assert _plan(bot, text) == ([(tool, arguments)], [])


def test_a_reader_picked_for_a_shared_word_asks_nothing() -> None:
    # "did you book ..." names the change: a reader that shares a word but lacks its value is
    # not a call to ask the user a value for; the request is handed back as before.
    assert _plan("vet", "did you book the appointment for Max?") == ([], [])


def test_the_fixture_in_sample() -> None:
    rows = [r.split("\t") for r in (_FIXTURE / "ask_requests.tsv").read_text().splitlines()]
    right = 0
    for bot, text, gold, wanted in (r for r in rows if r[0][:1] != "#"):
        calls, asked = _plan(bot, text)
        if gold.startswith("ask:"):
            names = wanted.split(",")
            right += not calls and len(asked) == len(names)
        elif gold == "-":
            right += not calls
        else:
            values = json.loads(wanted)
            right += [c for c, _ in calls] == [gold] and all(
                str(calls[0][1].get(k)).lower() == str(v).lower() for k, v in values.items()
            )
    assert right >= 42, f"{right} of {len(rows) - 1}"


_TOOLS = '''from typing import Literal


def feeding_times(animal: str) -> str:
    """When an animal is fed, e.g. penguins, otters or sharks."""
    return f"The {animal} are fed at 11:00."


def keeper_talks() -> str:
    """When the keepers give talks."""
    return "Keeper talks are at noon."


def refund_order(order_id: str, amount: float) -> str:
    """Refund money for an order."""
    return f"Refunded {amount} for order {order_id}."


def change_plan(plan: Literal["Basic", "Premium"]) -> str:
    """Move the account to another plan."""
    return f"You are now on the {plan} plan."
'''
_BOT = """parent:
  name: zoo_shop
subagents:
  - name: aquarium
    kind: child
    mode: {mode}
    description: Aquarium animals, feeding times and keeper talks.
    tools: ["tools.py:feeding_times", "tools.py:keeper_talks"]
  - name: shop
    kind: child
    mode: direct
    description: Online shop orders, refunds and account plans.
    tools: ["tools.py:refund_order", "tools.py:change_plan"]
"""


@pytest.mark.parametrize("mode", ["direct", "silent"])
@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("penguin feeding time", "The penguins are fed at 11:00."),
        ("I want a refund", "What is your order number? What amount do you want?"),
        ("refund £12.50 for order 5512", "Refunded 12.5 for order 5512."),
        ("please change my plan", "Which plan do you mean: Basic or Premium?"),
        (
            "when do the keepers give talks and when are the animals fed?",
            "Keeper talks are at noon.\nWhich animal do you mean (for example penguins, otters"
            " or sharks)?",
        ),
    ],
)
def test_the_parent_asks_what_the_agent_needs(
    tmp_path: Path, mode: str, text: str, reply: str
) -> None:
    (tmp_path / "tools.py").write_text(_TOOLS)
    (tmp_path / "bot.yaml").write_text(_BOT.format(mode=mode))
    said = run_sync(load_bot(tmp_path / "bot.yaml").conversation().send(text)).text
    assert said.replace("\n", " ") == reply.replace("\n", " ")
    assert "can't help" not in said


def _context(text: str, mode: str = "direct", *, can_message: bool = True) -> ActContext:
    return act_context(text, agent="cinema", mode=mode, can_message=can_message)


def test_a_direct_agent_asks_the_user_itself_and_hands_nothing_back() -> None:
    """The offline model's questions are marked by where they go, not by their wording: a direct
    agent sends them to the user itself, and its outputs hand back no open question for the
    parent to route or refuse."""
    tools, context = _tools("cinema"), _context("please change my seat")
    first = RulesModel()._act(_request(tools, context), context)
    assert [(c.name, c.arguments) for c in first.tool_calls] == [
        (
            "send_message_to_user",
            {"text": "What is your booking reference? Which seat do you mean?"},
        )
    ]
    sent = ChatMessage(
        role="tool", content="sent", name="send_message_to_user", tool_call_id="call_send_0"
    )
    done = _request(tools, context)
    done = ModelRequest(
        agent=done.agent,
        system="",
        messages=(*done.messages, sent),
        tools=done.tools,
        context=context,
    )
    out = RulesModel()._act(done, context).output
    assert out is not None
    assert out["answered"] is False
    assert out["openQuestions"] == []
    assert out["interactionSummary"] == "What is your booking reference? Which seat do you mean?"


def test_a_silent_agent_gives_its_questions_as_findings() -> None:
    tools = _tools("cinema")
    context = _context("please change my seat", "silent", can_message=False)
    out = RulesModel()._act(_request(tools, context), context).output
    assert out is not None
    assert out["answered"] is False
    assert out["findings"] == "What is your booking reference? Which seat do you mean?"
    assert out["openQuestions"] == []


def test_an_agent_that_cannot_message_the_user_hands_the_request_back() -> None:
    tools = _tools("cinema")
    context = _context("please change my seat", can_message=False)
    out = RulesModel()._act(_request(tools, context), context).output
    assert out is not None
    assert out["openQuestions"] == ["please change my seat"]


def _request(tools: list[ToolDefinition], context: ActContext) -> ModelRequest:
    return ModelRequest(
        agent=context.agent,
        system="",
        messages=(ChatMessage(role="user", content=context.scoped_request),),
        tools=tuple(tools),
        context=context,
    )


_SHOP_AGENTS = (
    AgentCard(name="orders", description="Track parcels, order status and refunds.", mode="direct"),
    AgentCard(
        name="info",
        description="Store opening hours, returns policy and store locations.",
        mode="direct",
    ),
)


@pytest.mark.parametrize("mode", ["direct", "silent"])
@pytest.mark.parametrize(
    ("request_", "handed_back"),
    [
        ("my parcel is late, also where are you located?", "Where is your store located?"),
        ("can you tell me your returns policy", "Could you check the returns policy for the user?"),
    ],
)
async def test_an_open_question_worded_to_the_user_is_routed_not_said(
    mode: str, request_: str, handed_back: str
) -> None:
    """An agent's open question is a request handed back, whatever its wording: an LLM agent's
    paraphrase that says "you" goes to the agent that can answer it, and is never said to the
    user as the bot's own question (in silent mode neither)."""
    result = ResultView(
        agent="orders",
        mode=mode,
        request=request_,
        status="partial",
        answered=False,
        open_questions=(handed_back,),
        findings="Parcel 5521 is out for delivery." if mode == "silent" else None,
    )
    given = ComposeInput(
        parent="bot",
        user_message=request_,
        results=(result,),
        agents=_SHOP_AGENTS,
        routed=((request_, "orders"),),
        steps_left=2,
    )
    composed = await RulesComposer().compose(given)
    assert [(r.request, r.agent) for r in composed.routes] == [(handed_back, "info")]
    assert handed_back not in composed.message


_tool = tool


_RAIL = [
    _tool(
        "buy_ticket",
        "Buy train tickets from one station to another on a date.",
        {"origin": "string", "destination": "string", "date": "string", "adults": "integer"},
        ["origin", "destination", "date", "adults"],
    ),
    _tool(
        "fare",
        "The fare of a train ticket between two stations.",
        {"origin": "string", "destination": "string"},
        ["origin", "destination"],
    ),
    _tool("cancel_booking", "Cancel a train booking.", {"booking_ref": "string"}, ["booking_ref"]),
    _tool("departures", "The next trains leaving a station.", {"station": "string"}, ["station"]),
]
_TABLES = [
    _tool(
        "reserve_table",
        "Reserve a table for a number of people on a day.",
        {"people": "integer", "day": "string"},
        ["people", "day"],
    ),
    _tool("menu", "What is on the menu today.", {}, []),
]


_plan_with = plan_with


def test_the_verb_of_another_change_wins_over_a_shared_word() -> None:
    # "book" is an action of buying, not of cancelling the booking whose name shares it.
    calls, asking = _plan_with(_RAIL, "can you book 3 adults from Bristol to Cardiff on 14 March?")
    assert [name for name, _ in calls] == ["buy_ticket"]
    assert asking == {}


def test_of_tied_readers_the_one_given_every_value_is_called() -> None:
    calls, _ = _plan_with(_RAIL, "when is the next train from St Pancras?")
    assert calls == [("departures", {"station": "St Pancras"})]


def test_a_party_of_people_is_read_after_for() -> None:
    calls, _ = _plan_with(_TABLES, "a table for four on Saturday please")
    assert calls == [("reserve_table", {"people": 4, "day": "Saturday"})]


def test_a_statement_is_handed_back_not_asked_about() -> None:
    # A reader chosen for a shared word ("bike") lacks its station: a statement asks for
    # nothing, so the request goes back (no question), as before.
    docks = [
        _tool(
            "bikes_at_station",
            "How many bikes a docking station has.",
            {"station": "string"},
            ["station"],
        ),
        _tool("hire_history", "The user's bike hires in a month.", {"month": "string"}, ["month"]),
    ]
    assert _plan_with(docks, "bike 51877 has a flat tyre") == ([], {0: []})
    assert _plan_with(docks, "how many bikes are there?") == (
        [],
        {0: ["Which station do you mean?"]},
    )
