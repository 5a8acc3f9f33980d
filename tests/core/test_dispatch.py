"""A multi-intent turn: concurrent dispatch, per-agent timeouts, and failures that never crash a turn."""

from __future__ import annotations

import asyncio
import time

import pytest

from harness import (
    ChildAgent,
    ConnectedAgent,
    FunctionModel,
    Mode,
    ModelBehaviorError,
    ModelRequest,
    ModelResponse,
    Parent,
    RulesModel,
)
from harness.composing import RulesComposer
from harness.models import ActContext, ToolCall
from harness.planning import RulesPlanner
from subagents._base import ToolFunction
from tests.core._support import planned_rules, recording_rules


def _agent(
    name: str, tool: ToolFunction, *, mode: str = "direct", timeout: float = 30.0
) -> ChildAgent:
    return ChildAgent(
        name=name, description=f"{name} requests.", mode=Mode(mode), tools=[tool], timeout=timeout
    )


async def quick(request: str) -> str:
    """Answer at once."""
    return f"Quick answer to {request}."


async def slow_5s(request: str) -> str:
    """Take five seconds."""
    await asyncio.sleep(5)
    return "too late"


async def half_second(request: str) -> str:
    """Take half a second."""
    await asyncio.sleep(0.5)
    return f"Slow answer to {request}."


def crash(request: str) -> str:
    """Fail."""
    raise RuntimeError("the HR database is down")


def blocking_1s(request: str) -> str:
    """A synchronous tool doing blocking I/O for a second."""
    time.sleep(1.0)
    return "blocked"


async def test_a_slow_agent_times_out_without_delaying_the_others() -> None:
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[
            _agent("alpha", quick),
            _agent("slow", slow_5s, timeout=0.3),
            _agent("gamma", quick, mode=Mode.SILENT),
        ],
    )
    conversation = parent.conversation()
    started = time.perf_counter()
    turn = await conversation.send("alpha one and slow two and gamma three")
    elapsed = time.perf_counter() - started
    assert elapsed < 2.5, f"the turn took {elapsed:.2f}s; the slow agent's timeout is 0.3s"
    by_agent = {r.agent: r for r in turn.results}
    assert by_agent["slow"].status == "timed_out"
    assert by_agent["slow"].error is not None and "0.3" in by_agent["slow"].error
    assert 0.25 < by_agent["slow"].duration_s < 2.5
    assert by_agent["alpha"].answered and by_agent["gamma"].ok
    senders = [m.sender for m in turn.messages]
    assert senders == ["alpha", "desk"]
    assert "Quick answer to alpha one." in turn.text
    assert "Quick answer to gamma three." in turn.text
    assert 'could not finish "slow two"' in turn.messages[-1].text
    assert "timed out" in turn.messages[-1].text
    assert conversation.transcript.turns[-1].failed == ("slow",)


async def test_a_crashing_agent_yields_a_failed_result_and_a_reply_that_says_so() -> None:
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[_agent("alpha", quick), _agent("broken", crash), _agent("gamma", quick)],
    )
    conversation = parent.conversation()
    turn = await conversation.send("alpha one and broken two and gamma three")
    by_agent = {r.agent: r for r in turn.results}
    broken = by_agent["broken"]
    assert broken.status == "failed"
    assert broken.error == "RuntimeError: the HR database is down"
    assert broken.outputs is None and not broken.answered
    assert by_agent["alpha"].answered and by_agent["gamma"].answered
    assert 'Sorry, I could not finish "broken two"' in turn.messages[-1].text
    assert conversation.transcript.turns[-1].failed == ("broken",)
    assert set(conversation.transcript.turns[-1].answered_by) == {"alpha", "gamma"}
    # The conversation goes on.
    follow_up = await conversation.send("alpha again")
    assert follow_up.results[0].answered


async def test_independent_agents_run_concurrently() -> None:
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[_agent("one", half_second), _agent("two", half_second, mode=Mode.SILENT)],
    )
    started = time.perf_counter()
    turn = await parent.conversation().send("one a and two b")
    elapsed = time.perf_counter() - started
    assert all(r.ok for r in turn.results)
    assert all(r.duration_s >= 0.45 for r in turn.results)
    # Run one after the other they would take a second.
    assert elapsed < 0.9, f"two 0.5s agents took {elapsed:.2f}s together"


async def test_a_slow_model_is_bounded_by_the_agent_timeout() -> None:
    slow_model = FunctionModel(RulesModel().request, delay=5)
    agent = ConnectedAgent(
        name="remote", description="x", mode=Mode.DIRECT, model=slow_model, timeout=0.2
    )
    started = time.perf_counter()
    turn = (
        await Parent(
            name="desk", model=planned_rules(), composer=RulesComposer(), subagents=[agent]
        )
        .conversation()
        .send("remote hello")
    )
    assert time.perf_counter() - started < 2.5
    assert turn.results[0].status == "timed_out"


async def test_a_blocking_sync_tool_does_not_stall_the_turn() -> None:
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[_agent("alpha", quick), _agent("blocked", blocking_1s, timeout=0.2)],
    )
    started = time.perf_counter()
    turn = await parent.conversation().send("alpha one and blocked two")
    elapsed = time.perf_counter() - started
    assert {r.agent: r.status for r in turn.results}["blocked"] == "timed_out"
    assert elapsed < 0.8, f"a 0.2s timeout let a blocking tool hold the turn for {elapsed:.2f}s"


def _garbage_for(agent: str) -> FunctionModel:
    rules = RulesModel()

    async def respond(request: ModelRequest) -> ModelResponse:
        context = request.context
        if isinstance(context, ActContext) and context.agent == agent:
            return ModelResponse(text="Sure! Here you go: not JSON")
        return await rules.request(request)

    return FunctionModel(respond)


async def test_malformed_model_output_is_a_failed_result_when_lenient() -> None:
    model = _garbage_for("beta")
    parent = Parent(
        name="desk",
        model=model,
        planner=RulesPlanner(),
        composer=RulesComposer(),
        subagents=[_agent("alpha", quick), _agent("beta", quick)],
    )
    turn = await parent.conversation().send("alpha requests please and beta requests please")
    by_agent = {r.agent: r for r in turn.results}
    assert by_agent["beta"].status == "failed"
    assert "ModelBehaviorError" in (by_agent["beta"].error or "")


async def test_malformed_model_output_raises_in_strict_mode() -> None:
    model = _garbage_for("beta")
    agents = [_agent("alpha", quick), _agent("beta", quick)]
    parent = Parent(
        name="desk",
        model=model,
        subagents=agents,
        strict=True,
        planner=RulesPlanner(),
        composer=RulesComposer(),
    )
    with pytest.raises(ModelBehaviorError) as caught:
        await parent.conversation().send("alpha requests please and beta requests please")
    assert caught.value.agent == "beta"
    assert caught.value.body == "Sure! Here you go: not JSON"


async def test_an_unusable_plan_falls_back_to_the_parent_or_raises_in_strict_mode() -> None:
    rules = RulesModel()

    async def respond(request: ModelRequest) -> ModelResponse:
        if request.output_name == "plan":
            return ModelResponse(output={"requests": []})
        return await rules.request(request)

    agents = [_agent("alpha", quick)]
    lenient = Parent(
        name="desk", model=FunctionModel(respond), composer=RulesComposer(), subagents=agents
    )
    turn = await lenient.conversation().send("alpha one")
    assert [p.agent for p in turn.plan] == ["desk"]
    assert [m.sender for m in turn.messages] == ["desk"]
    strict = Parent(
        name="desk",
        model=FunctionModel(respond),
        composer=RulesComposer(),
        subagents=agents,
        strict=True,
    )
    with pytest.raises(ModelBehaviorError):
        await strict.conversation().send("alpha one")


async def test_a_plan_naming_an_unknown_agent_goes_to_the_parent() -> None:
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[_agent("alpha", quick)],
    )
    turn = await parent.conversation().send("alpha one and nobody two")
    assert [(p.agent, p.request) for p in turn.plan] == [
        ("alpha", "alpha one"),
        ("desk", "nobody two"),
    ]
    assert turn.messages[0].sender == "alpha"
    assert 'can\'t help with "nobody two"' in turn.messages[-1].text


async def test_a_model_loop_without_outputs_is_stopped() -> None:
    def loop_forever(request: ModelRequest) -> ModelResponse:
        return ModelResponse(
            tool_calls=(ToolCall(id="c", name="quick", arguments={"request": "x"}),)
        )

    agent = ChildAgent(
        name="alpha", description="x", tools=[quick], model=FunctionModel(loop_forever)
    )
    turn = (
        await Parent(
            name="desk", model=planned_rules(), composer=RulesComposer(), subagents=[agent]
        )
        .conversation()
        .send("alpha go")
    )
    (result,) = turn.results
    assert result.status == "failed"
    assert "TurnLimitError" in (result.error or "")
    assert len(agent.model.calls) == 8


async def test_turn_usage_counts_every_model_call() -> None:
    model = recording_rules()
    parent = Parent(
        name="desk",
        model=model,
        planner=RulesPlanner(),
        composer=RulesComposer(),
        subagents=[_agent("alpha", quick), _agent("gamma", quick, mode=Mode.SILENT)],
    )
    turn = await parent.conversation().send("alpha requests please and gamma requests please")
    assert len(turn.results) == 2
    # Every model call, plus the offline planner's plan and the offline composer's reply (each
    # counted as one request).
    assert turn.usage.requests == len(model.calls) + 2 > 6


async def tenth_second(request: str) -> str:
    """Take a tenth of a second."""
    await asyncio.sleep(0.1)
    return f"Answer to {request}."


async def test_turns_of_one_conversation_run_one_at_a_time() -> None:
    parent = Parent(
        name="desk",
        model=planned_rules(),
        composer=RulesComposer(),
        subagents=[_agent("one", tenth_second)],
    )
    conversation = parent.conversation()
    first, second = await asyncio.gather(conversation.send("one a"), conversation.send("one b"))
    assert (first.number, second.number) == (1, 2)
    assert [m.turn for m in conversation.transcript] == [1, 1, 2, 2]
