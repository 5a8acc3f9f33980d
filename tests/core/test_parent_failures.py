"""The parent's own failures become failed turns; strict mode still raises (issue 16, item 8)."""

from __future__ import annotations

import pytest

from harness import ChildAgent, FunctionModel, ModelResponse, Parent
from harness.composing import RulesComposer
from harness.exceptions import ModelRequestError
from harness.models import RulesModel
from harness.models.base import ModelRequest
from harness.planning import RulesPlanner

_rules = RulesModel()


def _agents() -> list[ChildAgent]:
    def pto_balance() -> str:
        """How many PTO (vacation) days are left."""
        return "You have 12 PTO days left."

    def next_payday() -> str:
        """When the next paycheck (payday) arrives."""
        return "Your next payday is Friday."

    return [
        ChildAgent(
            name="pto",
            mode="direct",  # type: ignore[arg-type]
            description="Answers questions about PTO and vacation days.",
            examples=["how many vacation days do I have left"],
            tools=[pto_balance],
        ),
        ChildAgent(
            name="payroll",
            mode="silent",  # type: ignore[arg-type]
            description="Looks up pay dates and paychecks.",
            examples=["when is payday"],
            tools=[next_payday],
        ),
    ]


def _failing(task: str) -> FunctionModel:
    async def answer(request: ModelRequest) -> ModelResponse:
        if request.output_name == {"plan": "plan", "compose": "reply"}[task]:
            raise ModelRequestError("the model is unreachable", attempts=3)
        return await _rules.request(request)

    return FunctionModel(answer)


QUESTION = "How many vacation days do I have left, and when is payday?"


async def test_a_plan_failure_is_a_failed_turn_answered_from_the_whole_message() -> None:
    bot = Parent(name="hd", subagents=_agents(), model=_failing("plan"), composer=RulesComposer())
    conversation = bot.conversation()
    turn = await conversation.send(QUESTION)
    assert turn.failed
    assert "plan failed: ModelRequestError" in (turn.error or "")
    assert turn.messages and turn.messages[-1].sender == "hd"
    assert conversation.transcript.turns[-1].error == turn.error
    # the conversation goes on, and its state round-trips
    again = bot.conversation(state=conversation.snapshot())
    assert again.transcript.turns[-1].error == turn.error


async def test_a_plan_that_cannot_reach_its_model_still_tries_the_agents() -> None:
    """Issue 27: a transient plan failure routes by the offline planner, never "can't help"."""
    bot = Parent(name="hd", subagents=_agents(), model=_failing("plan"), composer=RulesComposer())
    turn = await bot.conversation().send(QUESTION)
    assert turn.failed and "plan failed: ModelRequestError" in (turn.error or "")
    assert [r.agent for r in turn.results] == ["pto", "payroll"]
    assert "You have 12 PTO days left." in [m.text for m in turn.messages]
    assert "Friday" in turn.messages[-1].text
    assert "can't help" not in turn.text


async def test_a_compose_failure_keeps_direct_messages_and_relays_findings() -> None:
    bot = Parent(name="hd", subagents=_agents(), model=_failing("compose"), planner=RulesPlanner())
    turn = await bot.conversation().send(QUESTION)
    assert turn.failed
    assert "reply failed: ModelRequestError" in (turn.error or "")
    senders = [m.sender for m in turn.messages]
    assert senders == ["pto", "hd"]
    assert turn.messages[0].text == "You have 12 PTO days left."
    assert turn.messages[1].text.startswith("Your next payday is Friday.")
    assert "Sorry" in turn.messages[1].text


async def test_when_plan_and_reply_both_fail_the_user_is_told() -> None:
    async def answer(request: ModelRequest) -> ModelResponse:
        raise ModelRequestError("the model is unreachable", attempts=1)

    bot = Parent(name="hd", subagents=_agents(), model=FunctionModel(answer))
    turn = await bot.conversation().send(QUESTION)
    assert turn.failed
    assert "plan failed" in (turn.error or "") and "reply failed" in (turn.error or "")
    assert "Sorry" in turn.text


@pytest.mark.parametrize("task", ["plan", "compose"])
async def test_strict_mode_still_raises(task: str) -> None:
    planner = RulesPlanner() if task == "compose" else None
    bot = Parent(name="hd", subagents=_agents(), model=_failing(task), strict=True, planner=planner)
    with pytest.raises(ModelRequestError):
        await bot.conversation().send(QUESTION)


async def test_a_good_turn_is_not_failed() -> None:
    turn = await Parent(name="hd", subagents=_agents()).conversation().send(QUESTION)
    assert not turn.failed and turn.error is None
