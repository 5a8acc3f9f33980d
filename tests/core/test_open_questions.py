"""openQuestions: taken up by the parent in the same turn, within a bounded number of steps."""

from __future__ import annotations

from typing import Any

import pytest

from harness import (
    ChildAgent,
    ConnectedAgent,
    FunctionModel,
    Mode,
    ModelRequest,
    ModelResponse,
    Parent,
    Reply,
    ToolContext,
)
from harness.composing import ComposeInput, Composer, Composition, Route, RulesComposer
from tests.core._support import planned_rules

WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf")


def pto_balance() -> str:
    """How many paid time off (vacation) days are left."""
    return "You have 12 PTO days left."


def _pto() -> ChildAgent:
    return ChildAgent(
        name="pto",
        description="Answers questions about paid time off (PTO, vacation days).",
        mode=Mode.DIRECT,
        tools=[pto_balance],
        examples=["how many vacation days do i have left"],
    )


async def test_an_open_question_of_a_silent_agent_is_routed_in_the_same_turn() -> None:
    async def payroll(ctx: ToolContext) -> dict[str, Any]:
        return {
            "answered": False,
            "findings": "Your next payday is Friday.",
            "openQuestions": ["how many vacation days do I have left"],
        }

    agents = [
        ConnectedAgent(name="payroll", description="Pay dates.", mode=Mode.SILENT, handler=payroll),
        _pto(),
    ]
    conversation = Parent(
        name="desk", model=planned_rules(), composer=RulesComposer(), subagents=agents
    ).conversation()
    turn = await conversation.send("payroll when is payday")
    assert [(p.agent, p.request) for p in turn.plan] == [
        ("payroll", "payroll when is payday"),
        ("pto", "how many vacation days do I have left"),
    ]
    assert [r.agent for r in turn.results] == ["payroll", "pto"]
    assert turn.results[0].status == "partial"
    assert turn.results[1].answered
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("pto", "You have 12 PTO days left."),
        ("desk", "Your next payday is Friday."),
    ]
    assert conversation.transcript.turns[-1].plan == turn.plan


async def test_an_open_question_nobody_can_take_is_answered_by_the_parent() -> None:
    async def payroll(ctx: ToolContext) -> dict[str, Any]:
        return {
            "answered": False,
            "findings": "Your next payday is Friday.",
            "openQuestions": ["book a meeting room for Tuesday"],
        }

    agents = [
        ConnectedAgent(name="payroll", description="Pay dates.", mode=Mode.SILENT, handler=payroll),
        _pto(),
    ]
    turn = (
        await Parent(name="desk", model=planned_rules(), composer=RulesComposer(), subagents=agents)
        .conversation()
        .send("payroll when is payday")
    )
    assert [p.agent for p in turn.plan] == ["payroll"]
    (reply,) = turn.messages
    assert reply.sender == "desk"
    assert "Your next payday is Friday." in reply.text
    assert 'can\'t help with "book a meeting room for Tuesday"' in reply.text


@pytest.mark.parametrize("steps", [0, 1, 3])
async def test_an_agent_that_always_returns_open_questions_is_bounded(steps: int) -> None:
    calls: list[str] = []

    def asker(name: str, other: str) -> Any:
        async def handler(ctx: ToolContext) -> dict[str, Any]:
            calls.append(name)
            return {
                "answered": False,
                "findings": f"{name} finding {len(calls)}.",
                # A fresh question every time, so no two routes are the same request.
                "openQuestions": [f"{other} question {WORDS[len(calls)]}"],
            }

        return handler

    agents = [
        ConnectedAgent(
            name="ping",
            description="ping questions",
            mode=Mode.SILENT,
            handler=asker("ping", "pong"),
        ),
        ConnectedAgent(
            name="pong",
            description="pong questions",
            mode=Mode.SILENT,
            handler=asker("pong", "ping"),
        ),
    ]
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=agents,
        max_compose_steps=steps,
    )
    turn = await parent.conversation().send("ping start")
    assert len(calls) == 1 + steps
    assert calls == ["ping", "pong", "ping", "pong"][: 1 + steps]
    assert len(turn.plan) == 1 + steps
    assert [m.sender for m in turn.messages] == ["desk"]


async def test_a_parent_model_that_keeps_routing_stops_after_max_compose_steps() -> None:
    composes: list[ComposeInput] = []

    class Routing(Composer):
        async def compose(self, given: ComposeInput) -> Composition:
            composes.append(given)
            n = len(composes)
            return Composition(message=f"reply {n}", routes=(Route(request=f"q{n}", agent="echo"),))

    def parent_model(request: ModelRequest) -> ModelResponse:
        assert request.output_name == "plan"
        return ModelResponse(output={"requests": [{"request": "q0", "agent": "echo"}]})

    async def echo(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": False, "findings": ctx.scoped_request, "openQuestions": []}

    parent = Parent(
        name="desk",
        model=FunctionModel(parent_model),
        composer=Routing(),
        subagents=[ConnectedAgent(name="echo", description="x", mode=Mode.SILENT, handler=echo)],
        max_compose_steps=2,
    )
    turn = await parent.conversation().send("anything")
    assert len(composes) == 3
    assert [c.steps_left for c in composes] == [2, 1, 0]
    assert [r.request for r in turn.results] == ["q0", "q1", "q2"]
    assert [m.text for m in turn.messages] == ["reply 3"]
    assert composes[-1].routed == (("q0", "echo"), ("q1", "echo"), ("q2", "echo"))


async def test_a_route_already_dispatched_this_turn_is_not_run_again() -> None:
    composes = 0

    def parent_model(request: ModelRequest) -> ModelResponse:
        nonlocal composes
        if request.output_name == "plan":
            return ModelResponse(output={"requests": [{"request": "q0", "agent": "echo"}]})
        composes += 1
        return ModelResponse(
            output={"message": "done", "route": [{"request": "q0", "agent": "echo"}]}
        )

    async def echo(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": False, "findings": "echo", "openQuestions": []}

    parent = Parent(
        name="desk",
        model=FunctionModel(parent_model),
        subagents=[ConnectedAgent(name="echo", description="x", mode=Mode.SILENT, handler=echo)],
    )
    turn = await parent.conversation().send("anything")
    assert composes == 1
    assert len(turn.results) == 1


async def test_a_floor_holder_can_hand_the_whole_message_back() -> None:
    def survey(ctx: ToolContext) -> Reply:
        """Run the IT satisfaction survey."""
        if not ctx.state:
            ctx.state["asked"] = True
            return Reply(text="How happy are you with IT, from 1 to 5?", done=False)
        if ctx.scoped_request.strip() in "12345":
            ctx.state.clear()
            return Reply(text="Thanks for your answer!")
        return Reply(
            text="Please answer with a number from 1 to 5.",
            done=False,
            open_questions=(ctx.scoped_request,),
        )

    agents = [
        ConnectedAgent(
            name="survey", description="IT survey.", mode=Mode.CONVERSATIONAL, tools=[survey]
        ),
        _pto(),
    ]
    conversation = Parent(
        name="desk", model=planned_rules(), composer=RulesComposer(), subagents=agents
    ).conversation()
    await conversation.send("survey please")
    turn = await conversation.send("how many vacation days do I have left")
    assert turn.results[0].outputs is not None
    assert turn.results[0].outputs.open_questions == ("how many vacation days do I have left",)
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("survey", "Please answer with a number from 1 to 5."),
        ("pto", "You have 12 PTO days left."),
    ]
    assert conversation.active_agent == "survey"
