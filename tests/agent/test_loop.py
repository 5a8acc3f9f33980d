"""One agent loop for sub-agents and team members (issue 17, item 3): the same tool handling in
both, and the one difference they keep on purpose (a crashing tool fails a sub-agent's call but is
reported to a team member's model)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from harness import ChildAgent, FunctionModel, ModelResponse, Reply
from harness.agent.loop import (
    LoopHooks,
    ToolTimeoutError,
    _with_messages,
    run_agent_loop,
    run_tool_call,
)
from harness.exceptions import ModelBehaviorError, TurnLimitError
from harness.models.base import ChatMessage, ModelRequest, ToolCall
from harness.runtime.runner import SubagentCall, run_subagent
from harness.team import Guardrails, Member, Team, TeamRole, call_tool
from subagents import Tool, ToolContext, Usage


@dataclass
class Seen:
    """What one caller made of a tool call."""

    tool_text: str | None
    """What the model read as the tool's result (None: the model never got to read it)."""
    failure: str | None
    """The error that ended the sub-agent's call or the member's turn, if any."""
    answer: str = ""


def _model(
    call: ToolCall, seen: list[str], final: Callable[[str], dict[str, Any]]
) -> FunctionModel:
    """A model that makes ``call`` once, then answers with what the tool returned."""

    def respond(request: ModelRequest) -> ModelResponse:
        tool_messages = [m for m in request.messages if m.role == "tool"]
        if not tool_messages:
            return ModelResponse(tool_calls=(call,))
        seen.append(tool_messages[-1].content or "")
        return ModelResponse(output=final(tool_messages[-1].content or ""))

    return FunctionModel(respond)


async def _as_subagent(tool: Any, call: ToolCall, **agent: Any) -> Seen:
    seen: list[str] = []
    model = _model(call, seen, lambda text: {"answered": True, "findings": text})
    subagent = ChildAgent(
        name="payroll",
        mode="silent",  # type: ignore[arg-type]
        description="Looks up pay dates.",
        tools=[tool],
        **agent,
    )
    result = await run_subagent(
        SubagentCall(agent=subagent, request="When is payday?", history=(), model=model, system="-")
    )
    answer = result.outputs.findings or "" if result.outputs is not None else ""
    return Seen(tool_text=seen[0] if seen else None, failure=result.error, answer=answer)


async def _as_member(tool: Any, call: ToolCall, **guardrails: Any) -> Seen:
    seen: list[str] = []
    model = _model(call, seen, lambda text: {"content": f"Checked: {text}", "stop": True})
    team = Team(
        name="t",
        members=[Member(name="s", role=TeamRole.SOLVER, tools=[tool])],
        model=model,
        guardrails=Guardrails(**guardrails),
    )
    result = await team.run("When is payday?")
    return Seen(
        tool_text=seen[0] if seen else None,
        failure=result.journal[0].metadata.error,
        answer=result.answer,
    )


Caller = Callable[..., Awaitable[Seen]]
BOTH = pytest.mark.parametrize("caller", [_as_subagent, _as_member], ids=["subagent", "member"])


def next_payday(month: str) -> str:
    """When the next paycheck arrives."""
    return f"Friday, {month} 4"


@BOTH
async def test_an_unknown_tool_is_told_to_the_model_in_the_same_words(caller: Caller) -> None:
    seen = await caller(next_payday, ToolCall(id="c1", name="payday_lookup", arguments={}))
    assert seen.tool_text == "error: there is no tool named 'payday_lookup'"
    assert seen.failure is None


@BOTH
async def test_bad_arguments_are_told_to_the_model_in_the_same_words(caller: Caller) -> None:
    call = ToolCall(id="c1", name="next_payday", arguments={"year": 2026})
    seen = await caller(next_payday, call)
    assert seen.tool_text == (
        "error: bad arguments for next_payday: missing a required argument: 'month'"
    )
    assert seen.failure is None


@BOTH
async def test_a_tools_result_reaches_the_model_the_same_way(caller: Caller) -> None:
    seen = await caller(
        next_payday, ToolCall(id="c1", name="next_payday", arguments={"month": "Dec"})
    )
    assert seen.tool_text == "Friday, Dec 4"
    assert seen.failure is None


def book_room(ctx: ToolContext) -> Reply:
    """Book a meeting room."""
    return Reply(text="Room 4B is booked for Friday.")


def ask_day(ctx: ToolContext) -> Reply:
    """Book a meeting room (asks for the day first)."""
    return Reply(text="Which day?", done=False, open_questions=("the projector",))


@BOTH
async def test_a_reply_is_its_text_in_both(caller: Caller) -> None:
    seen = await caller(book_room, ToolCall(id="c1", name="book_room", arguments={}))
    assert seen.tool_text == "Room 4B is booked for Friday."


@BOTH
async def test_a_reply_that_keeps_the_floor_says_so_in_both(caller: Caller) -> None:
    seen = await caller(ask_day, ToolCall(id="c1", name="ask_day", arguments={}))
    assert json.loads(seen.tool_text or "") == {
        "text": "Which day?",
        "done": False,
        "openQuestions": ["the projector"],
    }


async def slow_lookup(month: str) -> str:
    """Look up the payday in a slow system."""
    await asyncio.sleep(5)
    return "never"


async def test_a_subagent_tool_over_its_tool_timeout_fails_the_call() -> None:
    call = ToolCall(id="c1", name="slow_lookup", arguments={"month": "Dec"})
    seen = await _as_subagent(slow_lookup, call, tool_timeout=0.05, timeout=10)
    assert seen.failure == "ToolTimeoutError: tool 'slow_lookup' timed out after 0.05s"
    assert seen.tool_text is None


async def test_a_members_tool_over_the_tool_timeout_is_told_to_its_model() -> None:
    call = ToolCall(id="c1", name="slow_lookup", arguments={"month": "Dec"})
    seen = await _as_member(slow_lookup, call, tool_timeout=0.05)
    assert seen.tool_text == "error: tool 'slow_lookup' timed out after 0.05s"
    assert seen.failure is None


def test_a_tool_timeout_must_be_positive() -> None:
    from harness.exceptions import ConfigError

    with pytest.raises(ConfigError, match="tool_timeout must be positive"):
        ChildAgent(name="a", description="-", tool_timeout=0)


def broken_payday(month: str) -> str:
    """When the next paycheck arrives."""
    raise ValueError("the HR system is down")


async def test_a_crashing_tool_fails_a_subagents_call() -> None:
    call = ToolCall(id="c1", name="broken_payday", arguments={"month": "Dec"})
    seen = await _as_subagent(broken_payday, call)
    assert seen.failure == "ValueError: the HR system is down"
    assert seen.tool_text is None


async def test_a_crashing_tool_is_told_to_a_members_model_and_the_run_goes_on() -> None:
    call = ToolCall(id="c1", name="broken_payday", arguments={"month": "Dec"})
    seen = await _as_member(broken_payday, call)
    expected = "error: tool 'broken_payday' failed: ValueError: the HR system is down"
    assert seen.tool_text == expected
    assert seen.failure is None
    assert seen.answer == f"Checked: {expected}"


async def test_a_timeout_error_raised_by_the_tool_itself_is_a_failure_not_a_timeout() -> None:
    def flaky(month: str) -> str:
        """Look up the payday."""
        raise TimeoutError("the socket timed out")

    context = ToolContext(agent="a", scoped_request="-", history=None)
    call = ToolCall(id="c1", name="flaky", arguments={"month": "Dec"})
    outcome = await run_tool_call(
        Tool.from_function(flaky), call, context, threads="a", tool_timeout=5
    )
    assert outcome.output == "error: tool 'flaky' failed: TimeoutError: the socket timed out"
    with pytest.raises(TimeoutError, match="the socket"):
        await run_tool_call(
            Tool.from_function(flaky),
            call,
            context,
            threads="a",
            tool_timeout=5,
            tool_errors="fail",
        )


async def test_a_subagent_whose_tool_raises_timeout_error_fails_and_is_not_timed_out() -> None:
    def flaky(month: str) -> str:
        """Look up the payday."""
        raise TimeoutError("the socket timed out")

    call = ToolCall(id="c1", name="flaky", arguments={"month": "Dec"})
    subagent = ChildAgent(name="payroll", mode="silent", description="Pay dates.", tools=[flaky])  # type: ignore[arg-type]
    model = _model(call, [], lambda text: {"answered": True, "findings": text})
    result = await run_subagent(
        SubagentCall(agent=subagent, request="When is payday?", history=(), model=model, system="-")
    )
    # The agent's 30 s deadline did not pass: the socket's own timeout is a failure of the call.
    assert (result.status, result.error) == ("failed", "TimeoutError: the socket timed out")


async def test_run_tool_call_raises_a_tool_timeout_under_fail() -> None:
    context = ToolContext(agent="a", scoped_request="-", history=None)
    call = ToolCall(id="c1", name="slow_lookup", arguments={"month": "Dec"})
    with pytest.raises(ToolTimeoutError, match=r"timed out after 0\.05s"):
        await run_tool_call(
            Tool.from_function(slow_lookup),
            call,
            context,
            threads="a",
            tool_timeout=0.05,
            tool_errors="fail",
        )


async def test_the_teams_public_call_tool_is_the_loops_tool_call() -> None:
    context = ToolContext(agent="s", scoped_request="-", history=None)
    outcome = await call_tool(
        Tool.from_function(broken_payday), {"month": "Dec"}, context, time_limit=1
    )
    assert not outcome.ok
    assert outcome.output == "error: tool 'broken_payday' failed: ValueError: the HR system is down"
    assert outcome.error == "tool 'broken_payday' failed: ValueError: the HR system is down"


class _Text(LoopHooks[str]):
    def __init__(self) -> None:
        self.usage: list[Usage] = []

    def on_usage(self, usage: Usage) -> None:
        self.usage.append(usage)

    def finish(self, response: ModelResponse, usage: Usage) -> str:
        return response.text or ""


def _request() -> ModelRequest:
    return ModelRequest(agent="a", system="-", messages=(ChatMessage(role="user", content="hi"),))


async def test_the_step_limit_and_a_refusal_end_the_loop() -> None:
    looping = FunctionModel(
        lambda r: ModelResponse(
            tool_calls=(ToolCall(id="c", name="x"),), usage=Usage(requests=1, input_tokens=3)
        )
    )
    hooks = _Text()
    with pytest.raises(TurnLimitError, match="'a' used 3 model calls without a final answer"):
        await run_agent_loop(
            hooks,
            _request(),
            model=looping,
            tools={},
            tool_context=ToolContext(agent="a", scoped_request="-", history=None),
            max_steps=3,
            tool_errors="report",
        )
    assert [u.input_tokens for u in hooks.usage] == [3, 6, 9]  # usage is kept as it accrues
    assert len(looping.calls[-1].messages) == 1 + 2 * 2  # the calls and results are appended
    refusing = FunctionModel(lambda r: ModelResponse(refusal="not allowed"))
    with pytest.raises(ModelBehaviorError, match="the model refused: not allowed"):
        await run_agent_loop(
            _Text(),
            _request(),
            model=refusing,
            tools={},
            tool_context=ToolContext(agent="a", scoped_request="-", history=None),
            max_steps=3,
            tool_errors="report",
        )


def test_later_requests_copy_every_field_of_the_first() -> None:
    """``_with_messages`` spells the fields out for speed; a new field must be added there too."""
    values: dict[str, Any] = {
        "agent": "a",
        "system": "s",
        "messages": (),
        "tools": (),
        "output_schema": {"type": "object"},
        "output_name": "o",
        "context": None,
        "timeout": 2.5,
    }
    assert set(values) == {f.name for f in dataclasses.fields(ModelRequest)}
    request = ModelRequest(**values)
    messages = (ChatMessage(role="user", content="hi"),)
    assert _with_messages(request, messages) == dataclasses.replace(request, messages=messages)
