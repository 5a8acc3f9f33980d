"""The test doubles, the offline rules model and the sync entry point."""

from __future__ import annotations

import asyncio
import time

import pytest

from harness import (
    ChildAgent,
    FunctionModel,
    ModelRequest,
    ModelResponse,
    Parent,
    RulesModel,
    ScriptedModel,
    UsageError,
    run_sync,
)
from harness.models import ToolCall
from tests.core._support import SEND


def _request(name: str = "act") -> ModelRequest:
    return ModelRequest(agent="a", system="", messages=(), output_name=name)


async def test_scripted_model_plays_back_in_order_and_records_calls() -> None:
    model = ScriptedModel(
        [ModelResponse(text="one"), RuntimeError("boom"), ModelResponse(text="3")]
    )
    assert (await model.request(_request())).text == "one"
    assert model.remaining == 2
    with pytest.raises(RuntimeError, match="boom"):
        await model.request(_request())
    assert (await model.request(_request("plan"))).text == "3"
    with pytest.raises(AssertionError, match="ran out of responses after 3"):
        await model.request(_request("compose"))
    assert [c.output_name for c in model.calls] == ["act", "act", "plan", "compose"]


async def test_a_scripted_conversation_drives_a_whole_turn() -> None:
    def pto_balance() -> str:
        """Days left."""
        return "You have 12 days left."

    parent_model = ScriptedModel(
        [
            ModelResponse(output={"requests": [{"request": "days left?", "agent": "pto"}]}),
            ModelResponse(output={"message": "", "route": []}),
        ]
    )
    agent_model = ScriptedModel(
        [
            ModelResponse(tool_calls=(ToolCall(id="1", name="pto_balance"),)),
            ModelResponse(
                tool_calls=(ToolCall(id="2", name=SEND, arguments={"text": "12 days left."}),)
            ),
            ModelResponse(
                output={"answered": True, "interactionSummary": "12 days", "openQuestions": []}
            ),
        ]
    )
    pto = ChildAgent(name="pto", description="PTO", tools=[pto_balance], model=agent_model)
    turn = (
        await Parent(name="desk", model=parent_model, subagents=[pto])
        .conversation()
        .send("How many days do I have left?")
    )
    assert [(m.sender, m.text) for m in turn.messages] == [("pto", "12 days left.")]
    assert parent_model.remaining == agent_model.remaining == 0
    tool_reply = agent_model.calls[1].messages[-1]
    assert (tool_reply.role, tool_reply.content) == ("tool", "You have 12 days left.")
    assert [c.output_name for c in parent_model.calls] == ["plan", "reply"]


async def test_function_model_records_awaits_and_delays() -> None:
    async def answer(request: ModelRequest) -> ModelResponse:
        return ModelResponse(text=request.output_name)

    model = FunctionModel(answer, delay=0.05)
    started = time.perf_counter()
    assert (await model.request(_request("plan"))).text == "plan"
    assert time.perf_counter() - started >= 0.04
    assert [c.output_name for c in model.calls] == ["plan"]
    bad = FunctionModel(lambda request: "not a response")  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="returned str"):
        await bad.request(_request())


async def test_a_function_model_without_recording_answers_and_keeps_no_requests() -> None:
    model = FunctionModel(lambda request: ModelResponse(text=request.output_name), record=False)
    for task in ("plan", "compose"):
        assert (await model.request(_request(task))).text == task
    assert model.calls == []


async def test_rules_model_answers_act_requests_only() -> None:
    with pytest.raises(TypeError, match="act requests only"):
        await RulesModel().request(_request())


def test_run_sync_runs_a_coroutine_from_sync_code() -> None:
    async def add(a: int, b: int) -> int:
        await asyncio.sleep(0)
        return a + b

    assert run_sync(add(2, 3)) == 5


async def test_run_sync_refuses_inside_a_running_loop() -> None:
    async def never() -> None:
        raise AssertionError("must not run")

    with pytest.raises(UsageError, match="await"):
        run_sync(never())


async def test_a_parent_refuses_ambiguous_names_and_empty_messages() -> None:
    from harness import ConfigError

    with pytest.raises(ConfigError, match="repeated: pto"):
        Parent(name="desk", subagents=[ChildAgent(name="pto", description="a")] * 2)
    with pytest.raises(ConfigError, match="both named"):
        Parent(name="pto", subagents=[ChildAgent(name="pto", description="a")])
    with pytest.raises(ConfigError, match="duplicate_guard"):
        Parent(name="desk", duplicate_guard="loud")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="empty"):
        await Parent(name="desk").conversation().send("   ")


async def test_a_parent_with_no_sub_agents_still_answers() -> None:
    turn = await Parent(name="desk").conversation().send("hello")
    assert [(m.sender, m.text) for m in turn.messages] == [("desk", "Hello! How can I help?")]
