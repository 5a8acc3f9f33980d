"""Nothing a tool does takes the process down or starves other agents (issue 16, item 1)."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

from harness import ChildAgent, FunctionModel, ModelResponse, Parent
from harness.agent.tools import MAX_TOOL_RESULT_CHARS, tool_result_text
from harness.composing import RulesComposer
from harness.models import RulesModel
from harness.models.base import ActContext, ModelRequest, ToolCall
from harness.planning import RulesPlanner

_rules = RulesModel()


def _calling(arguments: dict[str, Any] | None = None) -> FunctionModel:
    """A model that calls the agent's first tool once, then reports the tool's output."""

    async def answer(request: ModelRequest) -> ModelResponse:
        if not isinstance(request.context, ActContext):
            return await _rules.request(request)
        tool_messages = [m for m in request.messages if m.role == "tool"]
        if not tool_messages:
            name = request.tools[0].name
            return ModelResponse(
                tool_calls=(ToolCall(id="c1", name=name, arguments=arguments or {}),)
            )
        return ModelResponse(
            output={"answered": False, "findings": tool_messages[-1].content or "-"}
        )

    return FunctionModel(answer)


def _bot(tool: Callable[..., Any], *, timeout: float = 5.0, **kwargs: Any) -> Parent:
    agent = ChildAgent(
        name="payroll",
        mode="silent",  # type: ignore[arg-type]
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
        tools=[tool],
        timeout=timeout,
    )
    return Parent(
        name="hd",
        subagents=[agent],
        model=_calling(**kwargs),
        planner=RulesPlanner(),
        composer=RulesComposer(),
    )


async def test_a_tool_calling_sys_exit_fails_its_call_and_the_turn_goes_on() -> None:
    def next_payday() -> str:
        """When the next paycheck arrives."""
        sys.exit(3)

    turn = await _bot(next_payday).conversation().send("when is payday?")
    (result,) = turn.results
    assert result.status == "failed"
    assert "SystemExit(3)" in (result.error or "")
    assert "could not finish" in turn.text


async def test_an_async_tool_raising_keyboard_interrupt_fails_its_call() -> None:
    async def next_payday() -> str:
        """When the next paycheck arrives."""
        raise KeyboardInterrupt

    turn = await _bot(next_payday).conversation().send("when is payday?")
    assert turn.results[0].status == "failed"
    assert "KeyboardInterrupt" in (turn.results[0].error or "")


async def test_a_type_error_inside_a_tool_is_a_tool_failure_not_bad_arguments() -> None:
    def next_payday() -> str:
        """When the next paycheck arrives."""
        return len(3)  # type: ignore[arg-type,return-value]

    turn = await _bot(next_payday).conversation().send("when is payday?")
    result = turn.results[0]
    assert result.status == "failed"
    assert result.error is not None and result.error.startswith("TypeError")
    assert "bad arguments" not in result.error


async def test_arguments_that_do_not_fit_are_told_to_the_model() -> None:
    def next_payday(month: str) -> str:
        """When the next paycheck arrives."""
        return f"in {month}"

    bot = _bot(next_payday, arguments={"year": 2026})
    turn = await bot.conversation().send("when is payday?")
    assert turn.results[0].status == "complete"
    assert turn.results[0].outputs is not None
    assert "bad arguments" in (turn.results[0].outputs.findings or "")


async def test_an_async_tool_that_ignores_cancellation_is_abandoned_and_the_turn_ends() -> None:
    release = asyncio.Event()

    async def next_payday() -> str:
        """When the next paycheck arrives."""
        while not release.is_set():
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                continue  # swallows every cancellation
        return "done"

    try:
        async with asyncio.timeout(20):
            turn = await _bot(next_payday, timeout=0.3).conversation().send("when is payday?")
        assert turn.results[0].status == "timed_out"
    finally:
        release.set()
        await asyncio.sleep(0.1)


def test_tool_results_are_json_with_non_json_values_named() -> None:
    text = tool_result_text({"when": object(), "amount": float("nan"), "days": (1, 2)})
    assert json.loads(text) == {"when": "<not JSON: object>", "amount": None, "days": [1, 2]}


def test_huge_tool_results_are_capped() -> None:
    text = tool_result_text("x" * 20_000_000)
    assert len(text) < MAX_TOOL_RESULT_CHARS + 200
    assert "the tool returned 20000000 characters" in text


async def test_blocked_sync_tools_of_one_agent_do_not_starve_another_agent() -> None:
    """8 conversations block a sync tool of one agent; 20 others use another agent's sync tool."""
    gate = threading.Event()

    def stuck_lookup() -> str:
        """Looks up a ticket in a system that hangs."""
        gate.wait(30)
        return "late"

    def next_payday() -> str:
        """When the next paycheck arrives."""
        return "Friday"

    stuck = ChildAgent(
        name="tickets",
        mode="silent",  # type: ignore[arg-type]
        description="Looks up IT tickets.",
        examples=["ticket status"],
        tools=[stuck_lookup],
        timeout=30,
    )
    payroll = ChildAgent(
        name="payroll",
        mode="silent",  # type: ignore[arg-type]
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
        tools=[next_payday],
    )
    bot = Parent(
        name="hd",
        subagents=[stuck, payroll],
        model=_calling(),
        planner=RulesPlanner(),
        composer=RulesComposer(),
    )
    try:
        blocked = [
            asyncio.create_task(bot.conversation().send("what is my ticket status?"))
            for _ in range(8)
        ]
        await asyncio.sleep(0.2)  # let them take their threads
        async with asyncio.timeout(2.0):  # a generous bound: each turn takes milliseconds
            turns = await asyncio.gather(
                *(bot.conversation().send("when is payday?") for _ in range(20))
            )
        assert all("Friday" in t.text for t in turns)
        assert not any(task.done() for task in blocked)
    finally:
        gate.set()
        await asyncio.gather(*blocked)


async def test_one_agent_can_hold_at_most_its_own_share_of_threads() -> None:
    from harness.agent import tools as _tools

    gate = threading.Event()
    running = 0
    peak = 0
    lock = threading.Lock()

    def slow() -> str:
        """A tool that blocks."""
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        gate.wait(10)
        with lock:
            running -= 1
        return "ok"

    bot = _bot(slow, timeout=30)
    tasks = [
        asyncio.create_task(bot.conversation().send("when is payday?"))
        for _ in range(_tools.TOOL_THREADS_PER_AGENT + 4)
    ]
    try:
        for _ in range(100):
            await asyncio.sleep(0.02)
            if peak >= _tools.TOOL_THREADS_PER_AGENT:
                break
        await asyncio.sleep(0.1)
        assert peak == _tools.TOOL_THREADS_PER_AGENT
    finally:
        gate.set()
        await asyncio.gather(*tasks)
    assert peak == _tools.TOOL_THREADS_PER_AGENT


@pytest.mark.parametrize("strict", [False, True])
async def test_garbage_outputs_are_a_contract_violation_and_the_user_is_told(
    strict: bool,
) -> None:
    async def answer(request: ModelRequest) -> ModelResponse:
        if isinstance(request.context, ActContext):
            return ModelResponse(output={"answered": [1], "findings": {"x": 1}})
        return await _rules.request(request)

    agent = ChildAgent(
        name="payroll",
        mode="silent",  # type: ignore[arg-type]
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
    )
    bot = Parent(
        name="hd",
        subagents=[agent],
        model=FunctionModel(answer),
        composer=RulesComposer(),
        strict=strict,
        planner=RulesPlanner(),
    )
    if strict:
        from harness.exceptions import ContractViolationError

        with pytest.raises(ContractViolationError):
            await bot.conversation().send("when is payday?")
        return
    turn = await bot.conversation().send("when is payday?")
    result = turn.results[0]
    assert result.status == "failed"
    assert result.violations
    assert (result.error or "").startswith("contract violation")
    assert "could not finish" in turn.text


async def test_a_team_members_tool_calling_sys_exit_is_a_failed_tool_call() -> None:
    from harness.team import Guardrails, Member, Team, TeamRole
    from tests.team._support import policy_lookup_model

    def lookup_policy(topic: str) -> str:
        """Look up an HR policy."""
        sys.exit("policy server gone")

    team = Team(
        name="t",
        members=[Member(name="s", role=TeamRole.SOLVER, tools=[lookup_policy])],
        model=policy_lookup_model(),
        guardrails=Guardrails(tool_timeout=5),
    )
    result = await team.run("What is the PTO carry-over policy?")
    assert "SystemExit(policy server gone)" in result.answer


class _Unreferenceable:
    """A callable that can be neither weakly referenced nor hashed (``__slots__``, ``__eq__``)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unreferenceable)

    def __call__(self, month: str) -> str:
        return f"payday in {month}"


@pytest.mark.parametrize("function", [_Unreferenceable(), lambda month: f"payday in {month}"])
async def test_a_tools_signature_is_checked_on_every_call(function: Callable[..., Any]) -> None:
    from harness.agent.tools import ToolArgumentsError, invoke_tool
    from subagents import Tool, ToolContext

    tool = Tool(name="payday", description="When is payday.", function=function, parameters={})
    context = ToolContext(agent="payroll", scoped_request="when is payday", history=None)
    for _ in range(2):  # the second call reads the signature from the cache (when it could)
        assert await invoke_tool(tool, {"month": "May"}, context, agent="payroll") == (
            "payday in May"
        )
        with pytest.raises(ToolArgumentsError):
            await invoke_tool(tool, {"year": 2026}, context, agent="payroll")


async def _plain(month: str, year: int = 2026) -> str:
    return f"{month} {year}"


async def _keyword_only(*, month: str, day: int = 1) -> str:
    return f"{month} {day}"


async def _any_keyword(month: str, **extra: Any) -> str:
    return f"{month} {sorted(extra)}"


async def _positional_only(month: str, /, year: int = 2026) -> str:
    return f"{month} {year}"


async def _positional_only_default(month: str = "May", /, **extra: Any) -> str:
    return f"{month} {sorted(extra)}"


async def _var_positional(*months: str, year: int) -> str:
    return f"{months} {year}"


@pytest.mark.parametrize(
    "function",
    [
        _plain,
        _keyword_only,
        _any_keyword,
        _positional_only,
        _positional_only_default,
        _var_positional,
    ],
)
@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"month": "May"},
        {"month": "May", "year": 2027},
        {"year": 2027},
        {"months": "May"},
        {"month": "May", "day": 3},
        {"month": "May", "extra": 1},
    ],
)
async def test_bad_arguments_are_found_exactly_as_the_signature_says(
    function: Callable[..., Any], arguments: dict[str, Any]
) -> None:
    import inspect

    from harness.agent.tools import ToolArgumentsError, invoke_tool
    from subagents import Tool, ToolContext

    tool = Tool(name="payday", description="When is payday.", function=function, parameters={})
    context = ToolContext(agent="payroll", scoped_request="when is payday", history=None)
    try:
        inspect.signature(function).bind(**arguments)
    except TypeError as exc:
        with pytest.raises(ToolArgumentsError, match=str(exc)):
            await invoke_tool(tool, arguments, context, agent="payroll")
    else:
        assert await invoke_tool(tool, arguments, context, agent="payroll") == (
            await function(**arguments)
        )
