"""Which request a tool's answer answers, decided per request (s64-credit, session s64).

New bots written for this, as the docs show (a YAML config and a ``tools.py``): a bike workshop, a
clinic, a bistro. A request that asks for a kind of value (a price, a time, a place, a length of
time) is credited with an answer of the turn that carries it and names the whole thing it asks
about, even when the call was made for another request; a call made for a request keeps its
credit; a reading tool that tells the kind is called for it when no tool matched its words. The
parent refuses a request two agents both handed back once, relays every sentence, and closes the
reply with the bot's handoff line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import load_bot, run_sync
from harness.composing import ComposeInput, ResultView, RulesComposer
from harness.models._credit import only_reads
from harness.models.base import ActContext, ChatMessage, ModelRequest, ToolDefinition
from harness.models.rules import RulesModel
from tests.models._bots import write_answering_bot

# agent: (mode, description, examples, [(tool, docstring, takes a request, answer)])
_Tool = tuple[str, str, bool, str]
_BOTS: dict[str, dict[str, tuple[str, str, list[str], list[_Tool]]]] = {
    "cycles": {
        "workshop": (
            "direct",
            "Bike repairs and servicing at the workshop.",
            ["book a service", "how much is a tune-up"],
            [
                (
                    "book_repair",
                    "Book a bike repair or service slot.",
                    True,
                    "Your tune-up is booked for Tuesday; a tune-up costs $45 and takes two hours.",
                ),
                ("repair_status", "The status of a bike in the workshop.", True, "It is ready."),
            ],
        ),
    },
    "clinic": {
        "appointments": (
            "direct",
            "Doctor appointments at the clinic.",
            ["book an appointment", "cancel my appointment"],
            [
                (
                    "book_appointment",
                    "Book a doctor appointment.",
                    True,
                    "You are booked with Dr Lee on Monday at 9:30am at our clinic, 22 Elm Street.",
                ),
                ("cancel_appointment", "Cancel a doctor appointment.", True, "Cancelled."),
            ],
        ),
        "cards": (
            "silent",
            "Patient ID cards.",
            ["block my patient card"],
            [("block_card", "Block a lost patient card.", True, "The card is blocked.")],
        ),
    },
}


def _write_bot(folder: Path, bot: str) -> Path:
    return write_answering_bot(folder, f"{bot}_bot", _BOTS[bot])


def _said(tmp_path: Path, bot: str, text: str) -> str:
    turn = run_sync(load_bot(_write_bot(tmp_path, bot)).conversation().send(text))
    return " ".join(m.text for m in turn.messages)


@pytest.mark.parametrize(
    ("bot", "text", "answer"),
    [
        # both requests to one agent; the booking's answer carries the price and the place too
        ("cycles", "How much is a tune-up, can I book one for Tuesday?", "$45"),
        ("clinic", "Book me an appointment with a doctor, where is the clinic?", "Elm Street"),
    ],
)
def test_an_answer_made_for_one_request_is_credited_to_the_other_it_answers(
    tmp_path: Path, bot: str, text: str, answer: str
) -> None:
    said = _said(tmp_path, bot, text)
    assert answer in said
    assert "can't help" not in said, said


def test_a_silent_agent_s_two_confirmations_alike_are_relayed_twice(tmp_path: Path) -> None:
    # Guard (as on bf5a532): two changes are confirmed twice, even in the same words, whatever
    # the agent's mode; the parent's relay drops no sentence.
    said = _said(tmp_path, "clinic", "Block my patient card, and also block my son's patient card")
    assert said.count("The card is blocked.") == 2, said


_REQUEST = {"type": "object", "properties": {"request": {"type": "string"}}}
_NONE: dict[str, object] = {"type": "object", "properties": {}}


async def _act(
    tools: dict[str, tuple[str, str]], requests: tuple[str, ...], *, mode: str = "silent"
) -> tuple[list[str], dict[str, object], str]:
    """Both act steps of an agent whose tools (name: (description, answer)) take no arguments:
    the tools called, the agent's outputs, and what it sent the user (direct mode)."""
    definitions = tuple(
        ToolDefinition(name=name, description=doc, parameters=_NONE)
        for name, (doc, _) in tools.items()
    )
    context = ActContext(
        agent="a",
        mode=mode,
        scoped_request="; ".join(requests),
        requests=requests if len(requests) > 1 else (),
        history=None,
        required_outputs=(),
        can_message_user=mode == "direct",
    )
    model = RulesModel()
    messages: tuple[ChatMessage, ...] = (ChatMessage(role="user", content=context.scoped_request),)
    first = await model.request(
        ModelRequest(agent="a", system="", messages=messages, tools=definitions, context=context)
    )
    called = [c.name for c in first.tool_calls]
    results = tuple(
        ChatMessage(role="tool", content=tools[c.name][1], tool_call_id=c.id, name=c.name)
        for c in first.tool_calls
    )
    messages = (*messages, ChatMessage(role="assistant", tool_calls=first.tool_calls), *results)
    sent = ""
    while True:
        step = await model.request(
            ModelRequest(
                agent="a", system="", messages=messages, tools=definitions, context=context
            )
        )
        if step.output is not None:
            return called, step.output, sent
        [call] = step.tool_calls
        sent = str(call.arguments["text"])
        messages = (
            *messages,
            ChatMessage(role="assistant", tool_calls=step.tool_calls),
            ChatMessage(role="tool", content="sent", tool_call_id=call.id, name=call.name),
        )


_DESK = {
    "rental_hours": ("When the rental desk is open.", "The rental desk opens at 8am."),
    "rent_bike": ("Rent a bike for a day.", "A bike is reserved; a day rental is $25."),
}
_TABLES = {
    "book_table": ("Book a table at the restaurant.", "Your table is booked for Friday at 7pm."),
    "opening_hours": (
        "Opening hours and meal times.",
        "We are open 11am to 11pm; dinner is served from 6pm to 10pm.",
    ),
}


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How long is the wait?", "About twenty minutes."),
        ("What time is checkout?", "Checkout is at eleven."),
        ("Where do I collect my parcel?", "Parcels are collected at reception."),
        ("How much does parking cost?", "Parking is included with your meal."),
    ],
)
async def test_a_call_made_for_a_request_keeps_its_credit(question: str, answer: str) -> None:
    # Guard (as on bf5a532): credit is only added from another call's answer, never taken from
    # the request's own call because its answer gives the value in words a reader may miss.
    info = {"info": ("What the front desk knows.", answer)}
    _, out, sent = await _act(info, (question,), mode="direct")
    assert sent == answer
    assert out["openQuestions"] == []


async def test_a_change_and_a_question_in_one_request_keep_the_change_s_credit() -> None:
    cars = {"rent_car": ("Rent a car.", "Your car is reserved for Monday.")}
    _, out, _ = await _act(cars, ("Rent me a car for Monday, how much is a compact",))
    # The booking made is not handed back with the price (as on bf5a532).
    assert out["findings"] == "Your car is reserved for Monday.", out
    assert out["openQuestions"] == [], out


@pytest.mark.parametrize(
    ("asked", "other"),
    [
        # another call's answer names a thing that shares a word, not the whole thing asked
        ("when are the sea lions fed", "The lion keeper talk is at 2:00pm at Lion Ridge."),
        ("how much is a return ticket", "A single ticket costs 9 euros."),
        ("when is the poetry workshop", "The poetry reading is on Thursday at 6pm."),
    ],
)
async def test_an_answer_about_part_of_a_compound_is_not_credited(asked: str, other: str) -> None:
    tools = {
        "book_trip": ("Book a trip.", other),
        "gift_shop": ("The gift shop's stock.", "We sell mugs."),
    }
    _, out, _ = await _act(tools, ("book a trip", asked))
    assert asked in out["openQuestions"], out  # type: ignore[operator]
    items = out["answeredRequests"]
    assert isinstance(items, list) and not items[1]["findings"], out


async def test_a_reading_tool_that_tells_the_kind_asked_is_called_for_a_request_no_tool_matched() -> (
    None
):
    called, out, _ = await _act(_TABLES, ("Can I book a table for Friday", "when's dinner served"))
    assert called == ["book_table", "opening_hours"]
    items = out["answeredRequests"]
    assert isinstance(items, list)
    assert "dinner is served from 6pm" in items[1]["findings"]
    assert out["openQuestions"] == []


async def test_such_a_call_s_answer_is_not_said_when_it_does_not_answer_the_request() -> None:
    called, out, sent = await _act(
        _TABLES, ("Can I book a table for Friday", "when is the chef's birthday"), mode="direct"
    )
    assert called == ["book_table", "opening_hours"]
    assert sent == "Your table is booked for Friday at 7pm."  # the hours are not said
    assert out["openQuestions"] == ["when is the chef's birthday"]
    items = out["answeredRequests"]
    assert isinstance(items, list)
    assert [item["answered"] for item in items] == [True, False]


def _handed_back(agent: str) -> ResultView:
    return ResultView(
        agent=agent,
        mode="silent",
        request="is there parking",
        status="partial",
        answered=False,
        open_questions=("is there parking",),
    )


async def test_a_request_two_agents_both_hand_back_is_refused_once_not_dropped() -> None:
    given = ComposeInput(
        parent="desk",
        user_message="is there parking",
        results=(_handed_back("frontdesk"), _handed_back("valet")),
        routed=(("is there parking", "frontdesk"), ("is there parking", "valet")),
    )
    composed = await RulesComposer().compose(given)
    assert composed.message == 'I can\'t help with "is there parking" here.'


async def test_a_request_another_agent_still_has_is_left_to_it() -> None:
    given = ComposeInput(
        parent="desk",
        user_message="is there parking",
        results=(_handed_back("frontdesk"),),
        routed=(("is there parking", "frontdesk"), ("is there parking", "valet")),
    )
    composed = await RulesComposer().compose(given)
    assert composed.message == ""


async def test_the_handoff_line_closes_the_reply_after_every_answer() -> None:
    line = "For anything else, call the desk on 0800 555 0100."
    answered = ResultView(
        agent="frontdesk",
        mode="silent",
        request="where is the pool",
        status="ok",
        answered=True,
        findings="The pool is on the roof.",
    )
    given = ComposeInput(
        parent="desk",
        user_message="can I bring my parrot, and where is the pool",
        results=(answered,),
        routed=(("where is the pool", "frontdesk"),),
        own_requests=("can I bring my parrot",),
        handoff=line,
    )
    composed = await RulesComposer().compose(given)
    assert composed.message.endswith(line), composed.message
    assert "The pool is on the roof." in composed.message


async def test_a_relayed_list_keeps_every_line() -> None:
    # Guard (as on bf5a532): the parent relays a finding as it is, repeated lines and all.
    findings = "Order 12:\n- Shipped.\nOrder 15:\n- Shipped."
    result = ResultView(
        agent="orders",
        mode="silent",
        request="track my orders",
        status="ok",
        answered=True,
        findings=findings,
    )
    given = ComposeInput(
        parent="shop",
        user_message="track my orders",
        results=(result,),
        routed=(("track my orders", "orders"),),
    )
    composed = await RulesComposer().compose(given)
    assert composed.message == findings


# --- s64-mend2-credit: the review's second round ---------------------------------------------


@pytest.mark.parametrize(
    ("asked", "other", "credited"),
    [
        # a modifier that is also an asking word names the thing too
        ("when is open swim", "Your lane is booked; lane swim is at 7am.", False),
        ("how much is late checkout", "Your room is booked; express checkout costs $5.", False),
        ("when is early check-in", "Your stay is booked; standard check-in is at 3pm.", False),
        # both sides of "for"
        (
            "when does the pool for kids open",
            "Your swim is booked; the adult pool opens at 6am.",
            False,
        ),
        (
            "where is the entrance for visitors",
            "Booked; the staff entrance is on Dock Street.",
            False,
        ),
        # a general question answered by one variant of the thing
        ("how much is delivery", "Your order is placed; express delivery costs $15.", False),
        ("when does the pool open", "Your swim is booked; the kids' pool opens at 9am.", False),
        # the whole thing named, and no other variant: credited
        (
            "when does the kids' pool open",
            "Your swim is booked; the kids' pool opens at 9am.",
            True,
        ),
        ("how much is express delivery", "Your order is placed; express delivery costs $15.", True),
        ("how much is a tune-up", "Your tune-up is booked for Tuesday; a tune-up costs $45.", True),
    ],
)
async def test_another_call_s_answer_is_credited_only_when_it_names_the_whole_thing(
    asked: str, other: str, credited: bool
) -> None:
    tools = {
        "book_it": ("Reserve a slot.", other),
        "gift_shop": ("Stock of the gift shop.", "We sell mugs."),
    }
    _, out, _ = await _act(tools, ("book it for me", asked), mode="direct")
    if credited:
        assert out["openQuestions"] == [], out
    else:
        assert asked in out["openQuestions"], out  # type: ignore[operator]


async def test_the_kind_pick_never_calls_a_tool_that_changes_something() -> None:
    tools = {
        "pay_bill": ("Pay a bill.", "Your bill is paid."),
        "waive_fee": ("Waive a late fee on an account.", "The late fee of $10 is waived."),
    }
    for requests in (("pay my bill", "how much do I owe"), ("how much do I owe",)):
        called, _, _ = await _act(tools, requests, mode="direct")
        assert "waive_fee" not in called, (requests, called)


@pytest.mark.parametrize(
    ("name", "doc", "reads"),
    [
        ("waive_fee", "Waive a late fee on an account.", False),
        ("extend_hours", "Extend the opening hours of a meeting room.", False),
        ("add_time", "Add time to a parking session.", False),
        ("set_opening_hours", "Opening hours.", False),
        ("opening_hours", "Opening hours and meal times.", True),
        ("get_fares", "Look up the fares.", True),
        ("class_times", "When group classes run.", True),
    ],
)
def test_only_a_tool_known_to_only_read_is_a_reading_tool(name: str, doc: str, reads: bool) -> None:
    assert only_reads(name, doc) is reads


@pytest.mark.parametrize(
    "other",
    [
        "Your appointment is booked; the clinic is run by Dr Patel.",
        "Your order is placed; the clinic accepts Visa.",
    ],
)
async def test_a_proper_name_alone_is_no_place(other: str) -> None:
    tools = {
        "book_it": ("Reserve a slot.", other),
        "gift_shop": ("Stock of the gift shop.", "We sell mugs."),
    }
    _, out, _ = await _act(tools, ("book it for me", "where is the clinic"), mode="direct")
    assert "where is the clinic" in out["openQuestions"], out  # type: ignore[operator]


async def test_a_clause_no_tool_answered_stays_open_beside_added_credit() -> None:
    tools = {
        "book_room": ("Book a room.", "Your room is booked for Friday."),
        "parking_prices": ("Parking prices.", "Parking costs $10 a night."),
    }
    requests = ("Book a room for Friday, and tell me the wifi password", "how much is parking")
    _, out, _ = await _act(tools, requests, mode="direct")
    assert out["openQuestions"] == ["tell me the wifi password"], out


async def test_a_request_one_agent_hands_back_and_another_failed_on_gets_one_reply() -> None:
    failed = ResultView(
        agent="frontdesk",
        mode="silent",
        request="is there parking",
        status="failed",
        answered=False,
        error="boom",
    )
    for results in ((_handed_back("valet"), failed), (failed, _handed_back("valet"))):
        given = ComposeInput(
            parent="desk",
            user_message="is there parking",
            results=results,
            routed=(("is there parking", "valet"), ("is there parking", "frontdesk")),
            handoff="Call 0800.",
        )
        composed = await RulesComposer().compose(given)
        assert "try again later" in composed.message, composed.message
        assert "can't help" not in composed.message, composed.message
