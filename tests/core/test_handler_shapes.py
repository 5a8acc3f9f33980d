"""A handler may be async or a plain function, and what it returns is judged by the contract: a
value that is not outputs at all fails the call with the contract's words, not Python's."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any

import pytest

from harness import ConnectedAgent, Parent, ToolContext

PAYDAY = "Your next payday is Friday."


def _bot(handler: Any, *, mode: str = "silent") -> Parent:
    agent = ConnectedAgent(
        name="payroll",
        mode=mode,  # type: ignore[arg-type]
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        handler=handler,
    )
    return Parent(name="hd", subagents=[agent])


OUTPUTS = {"answered": False, "findings": PAYDAY, "openQuestions": []}


async def _outputs(ctx: ToolContext) -> dict[str, Any]:
    return OUTPUTS


def _positional_only(ctx: ToolContext, /) -> dict[str, Any]:
    return OUTPUTS


def _star_args(*args: Any) -> dict[str, Any]:
    return OUTPUTS


_CALLER = contextvars.ContextVar("caller", default="unset")


def _reads_the_callers_context(ctx: ToolContext) -> dict[str, Any]:
    return {**OUTPUTS, "findings": f"{PAYDAY} ({_CALLER.get()})"}


@pytest.mark.parametrize(
    "handler",
    [
        lambda ctx: OUTPUTS,
        lambda ctx: _outputs(ctx),  # a coroutine
        _positional_only,
        _star_args,
    ],
    ids=["mapping", "coroutine", "positional-only", "star-args"],
)
async def test_a_plain_function_handler_is_called_with_the_context_and_its_result_awaited(
    handler: Any,
) -> None:
    turn = await _bot(handler).conversation().send("When is my next paycheck?")
    (result,) = turn.results
    assert result.ok, result.error
    assert turn.text == PAYDAY


async def test_a_plain_function_handler_runs_in_the_callers_context() -> None:
    _CALLER.set("the caller's")
    turn = await _bot(_reads_the_callers_context).conversation().send("When is my next paycheck?")
    assert turn.text == f"{PAYDAY} (the caller's)"


BLOCKS_S = 5.0
"""How long a blocking handler waits at most for the test to release it: 25 times the agent's
timeout below, so the result does not depend on how busy the machine is."""


async def test_a_blocking_plain_handler_does_not_outlive_its_timeout() -> None:
    released = threading.Event()

    def payroll(ctx: ToolContext) -> dict[str, Any]:
        released.wait(BLOCKS_S)  # a blocking driver; on the event loop it would stall the turn
        return OUTPUTS

    agent = ConnectedAgent(
        name="payroll",
        mode="silent",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        handler=payroll,
        timeout=0.2,
    )
    try:
        turn = (
            await Parent(name="hd", subagents=[agent])
            .conversation()
            .send("When is my next paycheck?")
        )
    finally:
        released.set()
    (result,) = turn.results
    assert result.status == "timed_out"
    assert "timed out" in turn.text


async def test_a_blocking_plain_handler_does_not_stall_another_conversation() -> None:
    released = threading.Event()
    returned = threading.Event()

    def payroll(ctx: ToolContext) -> dict[str, Any]:
        released.wait(BLOCKS_S)
        returned.set()
        return OUTPUTS

    async def pto(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": False, "findings": "You have 12 days off.", "openQuestions": []}

    bot = Parent(
        name="hd",
        subagents=[
            ConnectedAgent(
                name="payroll",
                mode="silent",
                description="Looks up pay dates and paychecks.",
                examples=["when is my next paycheck"],
                handler=payroll,
            ),
            ConnectedAgent(
                name="pto",
                mode="silent",
                description="Days off and vacation balance.",
                examples=["how many days off do I have"],
                handler=pto,
            ),
        ],
    )
    blocked_meanwhile: list[bool] = []

    async def another_user() -> str:
        try:
            turn = await bot.conversation(id="u2").send("How many days off do I have?")
            blocked_meanwhile.append(not returned.is_set())  # the other handler still waits
            return turn.text
        finally:
            released.set()

    first, second = await asyncio.gather(
        bot.conversation(id="u1").send("When is my next paycheck?"), another_user()
    )
    assert second == "You have 12 days off."
    assert blocked_meanwhile == [True]
    assert first.text == PAYDAY  # and the blocked one still answers once released


async def test_a_handler_object_with_an_async_call_is_awaited() -> None:
    class Payroll:
        async def __call__(self, ctx: ToolContext) -> dict[str, Any]:
            return {"answered": True, "interactionSummary": PAYDAY}

    turn = await _bot(Payroll(), mode="direct").conversation().send("When is my next paycheck?")
    assert [(m.sender, m.text) for m in turn.messages] == [("payroll", PAYDAY)]


async def test_a_handler_that_returns_no_object_is_a_contract_violation() -> None:
    async def payroll(ctx: ToolContext) -> Any:
        return PAYDAY  # the answer itself, not the outputs

    turn = await _bot(payroll, mode="direct").conversation().send("When is my next paycheck?")
    (result,) = turn.results
    assert result.status == "failed"
    assert result.error == (
        "contract violation: invalid_output: the outputs must be an object, not str"
    )
    assert [m.sender for m in turn.messages] == ["hd"]  # nothing sent for the agent
    assert "could not finish" in turn.text


async def test_a_direct_handler_whose_outputs_fail_the_call_sends_nothing() -> None:
    async def payroll(ctx: ToolContext) -> dict[str, Any]:
        # The answer, with an output that cannot be read: the call fails on its outputs.
        return {"answered": True, "interactionSummary": PAYDAY, "openQuestions": "none"}

    turn = await _bot(payroll, mode="direct").conversation().send("When is my next paycheck?")
    (result,) = turn.results
    assert result.status == "failed"
    # Not the answer followed by an apology for it: the apology alone.
    assert [m.sender for m in turn.messages] == ["hd"]
    assert "could not finish" in turn.text


async def test_a_direct_handler_whose_outputs_only_break_the_contract_still_answers() -> None:
    async def payroll(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": True, "interactionSummary": PAYDAY, "payDate": "Friday"}

    turn = await _bot(payroll, mode="direct").conversation().send("When is my next paycheck?")
    (result,) = turn.results
    assert result.broken and result.status == "complete"
    assert [(m.sender, m.text) for m in turn.messages] == [("payroll", PAYDAY)]
