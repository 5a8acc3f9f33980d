"""The planning seam: the offline and the LLM planner, the per-agent merge, and the parent's
dependencies (one place builds a sub-agent call; the bot's models listed once)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import harness
from harness import FunctionModel, ModelRequest, ModelResponse, Parent, RulesModel
from harness.exceptions import ModelBehaviorError
from harness.models import AgentCard, ChatMessage
from harness.planning import (
    PLAN_SCHEMA,
    LLMPlanner,
    PlanEntry,
    PlanInput,
    RulesPlanner,
    plan_schema,
)
from harness.runtime.deps import default_planner
from harness.runtime.parent import bot_models
from harness.runtime.parts import group_by_agent, plan_requests
from harness.testing import fake_subagent
from harness.text.claims import ANALYSIS_BUDGET, CLAIM_BUDGET
from harness.transport.base import join_requests

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
CARDS = (
    AgentCard(name="pto", description="Paid time off and vacation days left.", mode="direct"),
    AgentCard(name="payroll", description="Pay dates, payday and paychecks.", mode="silent"),
)


def _given(message: str, **changes: object) -> PlanInput:
    fields: dict[str, object] = {"parent": "desk", "message": message, "agents": CARDS}
    fields.update(changes)
    return PlanInput(**fields)  # type: ignore[arg-type]


async def test_the_rules_planner_routes_each_request_of_a_two_request_message() -> None:
    bot = harness.load_bot(HELPDESK)
    deps = bot.dependencies
    given = PlanInput(
        parent=bot.name,
        message="How many vacation days do I have left, and when is my next payday?",
        agents=deps.cards,
    )
    plan = await RulesPlanner().plan(given)
    assert [entry.agent for entry in plan.entries] == ["pto", "payroll"]
    assert "vacation days" in plan.entries[0].request
    assert "payday" in plan.entries[1].request
    assert plan.usage.requests == 1  # counted as the offline model counts a step


async def test_the_rules_planner_keeps_an_unroutable_request_with_the_parent() -> None:
    plan = await RulesPlanner().plan(_given("What is the capital of France?"))
    assert [entry.agent for entry in plan.entries] == ["desk"]


async def test_the_llm_planner_sends_an_ordinary_request_and_reads_the_plan() -> None:
    def answer(request: ModelRequest) -> ModelResponse:
        entries = [{"request": "days left", "agent": "pto"}, {"agent": "payroll"}]
        return ModelResponse(output={"requests": entries})

    model = FunctionModel(answer)
    recent = (ChatMessage(role="user", content="hello"),)
    plan = await LLMPlanner(model).plan(_given("days left and payday?", recent=recent))
    # An entry without a request text gets the whole message.
    assert plan.entries == (
        PlanEntry(request="days left", agent="pto"),
        PlanEntry(request="days left and payday?", agent="payroll"),
    )
    [request] = model.calls
    assert request.context is None and request.output_name == "plan"
    assert [m.content for m in request.messages] == ["hello", "days left and payday?"]
    agent = request.output_schema["properties"]["requests"]["items"]["properties"]["agent"]  # type: ignore[index]
    assert agent["enum"] == ["pto", "payroll", "desk"]
    assert "enum" not in str(PLAN_SCHEMA)  # the shared schema is left alone
    assert plan_schema(("pto", "payroll", "desk")) is request.output_schema  # cached per bot


async def test_the_llm_planner_tells_the_model_who_holds_the_floor() -> None:
    model = FunctionModel(
        lambda r: ModelResponse(output={"requests": [{"request": "x", "agent": "pto"}]})
    )
    await LLMPlanner(model).plan(_given("yes", active_agent="pto", system="You are the desk."))
    system = model.calls[0].system
    assert system.startswith("You are the desk.") and "`pto` is in a dialogue" in system


@pytest.mark.parametrize(
    ("output", "says"),
    [
        (None, "no list of requests"),
        ({"requests": []}, "list of requests is empty"),
        ({"requests": ["pto"]}, "must be an object"),
        ({"x": 1}, "no list of requests"),
    ],
)
async def test_an_unusable_plan_is_a_model_behavior_error(output: object, says: str) -> None:
    model = FunctionModel(lambda r: ModelResponse(output=output))  # type: ignore[arg-type]
    with pytest.raises(ModelBehaviorError, match=says):
        await LLMPlanner(model).plan(_given("days left?"))


def test_the_plan_keeps_each_request_and_one_call_per_agent_carries_them_all() -> None:
    entries = [
        PlanEntry(request="days left", agent="pto"),
        PlanEntry(request="weather", agent="nobody"),
        PlanEntry(request="days used", agent="pto"),
        PlanEntry(request="days left", agent="pto"),
        PlanEntry(request="hi", agent="desk"),
    ]
    plan = plan_requests(entries, parent="desk", agents={"pto", "payroll"})
    assert [(p.agent, p.request) for p in plan] == [
        ("pto", "days left"),
        ("desk", "weather"),
        ("pto", "days used"),
        ("desk", "hi"),
    ]
    assert group_by_agent(plan) == [
        ("pto", ("days left", "days used")),
        ("desk", ("weather", "hi")),
    ]


def test_several_requests_travel_numbered_in_one_scoped_request() -> None:
    assert join_requests(["when is payday"]) == "when is payday"
    assert join_requests(["when is payday", "where is my W-2?"]) == (
        "(1) when is payday; (2) where is my W-2?"
    )


def test_the_default_planner_follows_the_model() -> None:
    assert isinstance(default_planner(RulesModel()), RulesPlanner)
    model = FunctionModel(lambda r: ModelResponse())
    planner = default_planner(model)
    assert isinstance(planner, LLMPlanner) and planner.model is model
    assert isinstance(Parent(name="desk").planner, RulesPlanner)


def test_one_place_builds_a_call_and_a_silent_agent_never_gets_a_sender() -> None:
    silent = fake_subagent("payroll", mode="silent")
    direct = fake_subagent("pto", mode="direct")
    bot = Parent(name="desk", subagents=[silent, direct])

    async def send(text: str) -> None:
        return None

    deps = bot.dependencies
    quiet = deps.call("payroll", "payday?", history=(), state={}, send=send)
    loud = deps.call("pto", "days?", history=(), state={}, send=send, continuing=True)
    assert quiet.send is None and loud.send is send and loud.continuing
    assert loud.system == bot.system_prompt_for("pto") and loud.model is bot.model_for("pto")


def test_the_bot_models_are_listed_once_parent_first() -> None:
    own = FunctionModel(lambda r: ModelResponse())
    agents = [
        harness.ChildAgent(name="a", description="a", model=own),
        harness.ChildAgent(name="b", description="b"),
        harness.ChildAgent(name="c", description="c", model=own),
    ]
    bot = Parent(name="desk", subagents=agents)
    assert bot_models(bot) == (bot.model, own)


def test_the_turn_steps_reach_into_no_private_member() -> None:
    runtime = ROOT / "harness" / "runtime"
    for name in ("turn.py", "parts.py", "deps.py"):
        source = (runtime / name).read_text(encoding="utf-8")
        reach_ins = re.findall(r"\b(?!self\b)[a-z_]\w*\._[a-z]\w*", source)
        assert reach_ins == [], (name, reach_ins)


async def test_the_llm_planner_works_within_the_analysis_budget() -> None:
    """A 1 MB message (and a recent 1 MB one) are sent as their budgeted start; an answer with
    a thousand huge entries is read as at most ``CLAIM_BUDGET`` of at most the budget each."""
    huge = "days left? " * 100_000

    def answer(request: ModelRequest) -> ModelResponse:
        entries = [{"request": huge, "agent": "pto" * 100_000}] * 1_000
        return ModelResponse(output={"requests": [{"agent": "payroll"}, *entries]})

    model = FunctionModel(answer)
    recent = (ChatMessage(role="user", content=huge), ChatMessage(role="assistant", content="ok"))
    plan = await LLMPlanner(model).plan(_given(huge, recent=recent))
    [request] = model.calls
    sent = [m.content or "" for m in request.messages]
    assert sent[1] == "ok"
    assert all(len(text) <= ANALYSIS_BUDGET for text in sent)
    assert sent[0] == sent[2] and huge.startswith(sent[2]) and len(sent[2]) > ANALYSIS_BUDGET // 2
    assert len(plan.entries) == CLAIM_BUDGET
    assert plan.entries[0] == PlanEntry(request=sent[2], agent="payroll")  # the whole message
    assert all(len(e.request) <= ANALYSIS_BUDGET for e in plan.entries)
    assert all(len(e.agent) <= 200 for e in plan.entries)
