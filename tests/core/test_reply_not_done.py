"""``Reply(done=False)`` keeps the floor only for a conversational agent; a tool of any other
agent that returns it is told about (a warning), not silently ignored."""

from __future__ import annotations

import logging

import pytest

from harness import (
    ChildAgent,
    FunctionModel,
    ModelRequest,
    ModelResponse,
    Parent,
    Reply,
    ToolContext,
)
from harness.models import ToolCall


def pay(ctx: ToolContext) -> Reply:
    """When the next paycheck (payday) arrives."""
    return Reply(text="Which month do you mean?", done=False)


def _bot(mode: str) -> Parent:
    agent = ChildAgent(
        name="payroll",
        mode=mode,  # type: ignore[arg-type]
        tools=[pay],
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
    )
    return Parent(name="hd", subagents=[agent])


@pytest.mark.parametrize("mode", ["silent", "direct"])
async def test_a_question_from_an_agent_that_cannot_hold_the_floor_is_warned_about(
    mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    conversation = _bot(mode).conversation()
    with caplog.at_level(logging.WARNING, logger="harness"):
        turn = await conversation.send("When is my next paycheck?")
    assert "Which month do you mean?" in turn.text
    assert conversation.active_agent is None
    [warning] = [r.getMessage() for r in caplog.records if "done=False" in r.getMessage()]
    assert f"tool 'pay' of {mode} agent 'payroll'" in warning
    assert "only a conversational agent keeps the floor" in warning


async def test_a_conversational_agent_asking_is_not_warned_about(
    caplog: pytest.LogCaptureFixture,
) -> None:
    conversation = _bot("conversational").conversation()
    with caplog.at_level(logging.WARNING, logger="harness"):
        await conversation.send("When is my next paycheck?")
    assert conversation.active_agent == "payroll"
    assert not [r for r in caplog.records if "done=False" in r.getMessage()]


async def test_the_warning_is_given_once_per_call_however_often_the_tool_asks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def three_asks(request: ModelRequest) -> ModelResponse:
        asked = sum(1 for m in request.messages if m.role == "tool")
        if asked < 3:
            return ModelResponse(tool_calls=(ToolCall(id=f"c{asked}", name="pay", arguments={}),))
        return ModelResponse(
            output={"answered": False, "findings": "Which month do you mean?", "openQuestions": []}
        )

    agent = ChildAgent(
        name="payroll",
        mode="silent",
        tools=[pay],
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        model=FunctionModel(three_asks),
    )
    conversation = Parent(name="hd", subagents=[agent]).conversation()
    with caplog.at_level(logging.WARNING, logger="harness"):
        turn = await conversation.send("When is my next paycheck?")
    assert [r.agent for r in turn.results] == ["payroll"]
    warnings = [r for r in caplog.records if "done=False" in r.getMessage()]
    assert len(warnings) == 1  # one per call, not one per tool result (three)
