"""A handler may be async or a plain function, and what it returns is judged by the contract: a
value that is not outputs at all fails the call with the contract's words, not Python's."""

from __future__ import annotations

import threading
from typing import Any

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


async def test_a_plain_function_handler_runs_on_a_worker_thread() -> None:
    threads: list[threading.Thread] = []

    def payroll(ctx: ToolContext) -> dict[str, Any]:
        threads.append(threading.current_thread())
        return {"answered": False, "findings": PAYDAY, "openQuestions": []}

    turn = await _bot(payroll).conversation().send("When is my next paycheck?")
    (result,) = turn.results
    assert result.ok, result.error
    assert turn.text == PAYDAY
    assert threads and threads[0] is not threading.main_thread()


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
