"""The LLM planner reads what waits for the user's answer (``PlanInput.awaiting``): the model is
told which agent asked what about which request, may mark a planned entry as the answer to one,
and the entry is planned as that request, for that agent, with the value as data
(``PlanEntry.answers``). When nothing waits, the request is what it was before. A bike-repair
workshop and a pottery studio, written for these tests."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from harness import ChildAgent, FunctionModel, Mode, ModelResponse, Parent, UserAnswer
from harness.composing import RulesComposer
from harness.models import AgentCard
from harness.models.openai import OpenAIModel
from harness.planning import LLMPlanner, PlanEntry, PlanInput, WaitingRequest, plan_schema
from harness.text.claims import ANALYSIS_BUDGET, CLAIM_BUDGET
from tests.models.fake_openai import caller_of, completion, message, schema_of

CARDS = (
    AgentCard(name="repairs", description="Books bike repairs at the workshop.", mode="direct"),
    AgentCard(name="parts", description="Orders spare bike parts.", mode="direct"),
)
REPAIR = "book a repair for my gravel bike"
QUESTION = "Which day would you like to bring the bike in?"
WAITING = WaitingRequest(request=REPAIR, agent="repairs", question=QUESTION)
NAMES = ("repairs", "parts", "workshop")


def _given(message: str, **changes: object) -> PlanInput:
    fields: dict[str, object] = {"parent": "workshop", "message": message, "agents": CARDS}
    fields.update(changes)
    return PlanInput(**fields)  # type: ignore[arg-type]


def _answering(*entries: dict[str, Any]) -> FunctionModel:
    return FunctionModel(lambda _request: ModelResponse(output={"requests": list(entries)}))


async def test_the_model_is_told_what_waits_and_its_mark_becomes_the_answer() -> None:
    model = _answering(
        {"request": "next Monday", "agent": "repairs", "waiting": 1, "value": "next Monday"},
        {"request": "order a chain", "agent": "parts", "waiting": None, "value": None},
    )
    plan = await LLMPlanner(model).plan(
        _given("next Monday please, and order a chain", awaiting=(WAITING,))
    )
    answer = UserAnswer(request=REPAIR, question=QUESTION, value="next Monday")
    assert plan.entries == (
        PlanEntry(request=REPAIR, agent="repairs", answers=(answer,)),
        PlanEntry(request="order a chain", agent="parts"),
    )
    [request] = model.calls
    assert '1. `repairs` asked "Which day would you like to bring the bike in?"' in request.system
    assert f'the request "{REPAIR}"' in request.system
    fields = request.output_schema["properties"]["requests"]["items"]  # type: ignore[index]
    assert fields["required"] == ["request", "agent", "waiting", "value"]
    assert fields["properties"]["waiting"]["type"] == ["integer", "null"]
    assert plan_schema(NAMES, answering=True) is request.output_schema  # cached per bot


async def test_nothing_waiting_leaves_the_request_as_it_was() -> None:
    model = _answering({"request": "order a chain", "agent": "parts"})
    given = _given("order a chain", system="You are the workshop.")
    await LLMPlanner(model).plan(given)
    [request] = model.calls
    assert request.system == "You are the workshop."
    assert request.output_schema is plan_schema(NAMES)
    fields = request.output_schema["properties"]["requests"]["items"]  # type: ignore[index]
    assert set(fields["properties"]) == {"request", "agent"}


@pytest.mark.parametrize(
    "mark",
    [
        {"waiting": 2, "value": "Monday"},  # no second waiting request
        {"waiting": 0, "value": "Monday"},
        {"waiting": True, "value": "Monday"},
        {"waiting": "first", "value": "Monday"},
        {"waiting": 1, "value": "  "},
        {"waiting": 1, "value": None},
        {"waiting": 1},
        {"value": "Monday"},
    ],
)
async def test_a_mark_that_names_no_waiting_request_or_no_value_is_ignored(
    mark: dict[str, Any],
) -> None:
    model = _answering({"request": "Monday", "agent": "repairs", **mark})
    plan = await LLMPlanner(model).plan(_given("Monday", awaiting=(WAITING,)))
    assert plan.entries == (PlanEntry(request="Monday", agent="repairs"),)


async def test_the_answer_keeps_earlier_ones_takes_the_askers_agent_and_is_cut_to_the_budget() -> (
    None
):  # the long value is no text of the message, but its one fact (Tuesday) is the message's
    earlier = UserAnswer(request=REPAIR, question="Which bike?", value="the gravel bike")
    waiting = (
        WaitingRequest(request="order brake pads", agent="parts", question="Which brand?"),
        WaitingRequest(request=REPAIR, agent="repairs", question=QUESTION, answers=(earlier,)),
    )
    long_value = "Tuesday " * (ANALYSIS_BUDGET // 4)
    model = _answering(
        # The model names the parent: the answer goes to the agent that asked.
        {"request": "Tuesday", "agent": "workshop", "waiting": "2", "value": long_value},
        # A second mark of the same waiting request is planned as the model gave it.
        {"request": "Wednesday", "agent": "repairs", "waiting": 2, "value": "Wednesday"},
    )
    plan = await LLMPlanner(model).plan(_given("Tuesday, or Wednesday", awaiting=waiting))
    first, second = plan.entries
    assert (first.request, first.agent) == (REPAIR, "repairs")
    assert first.answers[0] == earlier
    assert first.answers[1].question == QUESTION
    assert first.answers[1].value.startswith("Tuesday Tuesday")
    assert len(first.answers[1].value) <= ANALYSIS_BUDGET
    assert second == PlanEntry(request="Wednesday", agent="repairs")


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # A new request marked as the answer, for another sub-agent than the one that asked.
        (
            "actually, order a new saddle",
            {"agent": "parts", "value": "order a new saddle", "request": "order a new saddle"},
        ),
        # A value the user did not give.
        ("whenever suits you", {"agent": "repairs", "value": "Friday", "request": "Friday"}),
        ("the 13th of May", {"agent": "repairs", "value": "12 May", "request": "12 May"}),
    ],
)
async def test_a_mark_whose_value_the_user_did_not_give_or_for_another_agent_is_ignored(
    message: str, entry: dict[str, Any]
) -> None:
    model = _answering({**entry, "waiting": 1})
    plan = await LLMPlanner(model).plan(_given(message, awaiting=(WAITING,)))
    assert plan.entries == (PlanEntry(request=entry["request"], agent=entry["agent"]),)


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("  NEXT   monday please", "next Monday"),  # case and white space
        ("the 12th of May", "12 May"),  # the value's facts are the message's
        ("at 3.30 pm", "15:30"),
    ],
)
async def test_a_value_the_user_gave_in_other_case_spacing_or_words_is_accepted(
    message: str, value: str
) -> None:
    model = _answering({"request": value, "agent": "repairs", "waiting": 1, "value": value})
    plan = await LLMPlanner(model).plan(_given(message, awaiting=(WAITING,)))
    answer = UserAnswer(request=REPAIR, question=QUESTION, value=value)
    assert plan.entries == (PlanEntry(request=REPAIR, agent="repairs", answers=(answer,)),)


async def test_an_entry_keeps_the_planners_budget_of_answers() -> None:
    earlier = tuple(
        UserAnswer(request=REPAIR, question=QUESTION, value=f"day {n}") for n in range(CLAIM_BUDGET)
    )
    waiting = WaitingRequest(request=REPAIR, agent="repairs", question=QUESTION, answers=earlier)
    model = _answering({"request": "Monday", "agent": "repairs", "waiting": 1, "value": "Monday"})
    [entry] = (await LLMPlanner(model).plan(_given("Monday", awaiting=(waiting,)))).entries
    assert len(entry.answers) == CLAIM_BUDGET
    assert entry.answers[0].value == "day 1"
    assert entry.answers[-1].value == "Monday"


# --- through the OpenAI backend, over its real wire (respx-mocked) ---------------------------

URL = "https://api.openai.com/v1/chat/completions"
ASK = "I'd like to book the wheel-throwing class"
SEATS = "How many seats do you want?"


def _classes(booked: list[int]) -> ChildAgent:
    """The pottery studio's class-booking agent (offline model); its tool logs the seats booked."""

    def book_class(seats: int) -> str:
        """Book seats in the pottery studio's wheel-throwing class."""
        booked.append(seats)
        return f"{seats} seats are booked in the wheel-throwing class."

    return ChildAgent(
        name="classes",
        mode=Mode.DIRECT,
        description="Books seats in the pottery studio's wheel-throwing class.",
        tools=[book_class],
        model="rules",
    )


def _server(seen: list[dict[str, Any]]) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        assert caller_of(body) == "plan"
        system = body["messages"][0]["content"]
        if "wait for the answer" in system:
            entry = {"request": "3", "agent": "classes", "waiting": 1, "value": "3"}
        else:
            entry = {"request": ASK, "agent": "classes"}
        return httpx.Response(200, json=completion(message({"requests": [entry]})))

    return answer


async def test_an_openai_planner_links_the_users_answer_to_the_waiting_request(
    httpx2_mock: respx.Router,
) -> None:
    seen: list[dict[str, Any]] = []
    httpx2_mock.post(URL).mock(side_effect=_server(seen))
    booked: list[int] = []
    classes = _classes(booked)
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test")
    bot = Parent(
        name="studio",
        model=model,
        subagents=[classes],
        planner=LLMPlanner(model),
        composer=RulesComposer(),
    )
    chat = bot.conversation()
    first = await chat.send(ASK)
    second = await chat.send("3")
    await bot.aclose()
    assert [m.text for m in first.messages] == [SEATS]
    assert booked == [3]
    answer = UserAnswer(request=ASK, question=SEATS, value="3")
    assert [(p.request, p.agent, p.answers) for p in second.plan] == [(ASK, "classes", (answer,))]
    asked, answered = seen
    # Nothing waited on the first turn: the plan's schema has no answer fields.
    first_items = schema_of(asked)["properties"]["requests"]["items"]  # type: ignore[index]
    assert set(first_items["properties"]) == {"request", "agent"}
    assert answered["response_format"]["json_schema"]["strict"] is True
    items = schema_of(answered)["properties"]["requests"]["items"]  # type: ignore[index]
    assert items["required"] == ["request", "agent", "waiting", "value"]
    assert f'1. `classes` asked "{SEATS}"' in answered["messages"][0]["content"]


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "prompt"])
@pytest.mark.parametrize("strict", [False, True])
async def test_a_model_answering_the_old_shape_after_a_question_costs_no_extra_call(
    mode: str, strict: bool, httpx2_mock: respx.Router
) -> None:
    """A model (or a server that does not enforce the schema) that leaves out ``waiting`` and
    ``value`` on the turn after an agent's question: they read as null, the plan is the model's,
    as before the answer fields, with no repair call and the sub-agent reached."""
    seen: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        said = str(body["messages"][-1]["content"])
        entry = {"request": ASK if "class" in said else "2", "agent": "classes"}
        return httpx.Response(200, json=completion(message({"requests": [entry]})))

    httpx2_mock.post(URL).mock(side_effect=answer)
    booked: list[int] = []
    classes = _classes(booked)
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test", settings={"output_mode": mode})
    bot = Parent(
        name="studio",
        model=model,
        subagents=[classes],
        planner=LLMPlanner(model),
        composer=RulesComposer(),
        strict=strict,
    )
    chat = bot.conversation()
    await chat.send(ASK)
    second = await chat.send("2")
    await bot.aclose()
    assert len(seen) == 2  # one plan a turn, no repair
    assert "wait for the answer" in str(seen[1]["messages"])  # the waiting list was sent
    assert [(p.request, p.agent, p.answers) for p in second.plan] == [("2", "classes", ())]
    assert [r.agent for r in second.results] == ["classes"]
