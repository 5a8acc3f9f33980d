"""A bot double for repeated runs: its parent restates the payroll agent's answer in every other
conversation, as a real model does now and then. ``--bot tests.simulate.flaky_bot:make``."""

from __future__ import annotations

from harness import FunctionModel, ModelRequest, ModelResponse, Parent, RulesModel
from harness.planning import RulesPlanner
from harness.testing import fake_subagent
from subagents import Usage

ANSWER = "Payday is Friday, the 28th."


def make() -> Parent:
    """A new bot (a new count of its replies): conversations 2, 4, 6 ... repeat the answer."""
    rules = RulesModel()
    replies = 0

    async def respond(request: ModelRequest) -> ModelResponse:
        nonlocal replies
        if request.output_name != "reply":
            return await rules.request(request)
        replies += 1
        if replies % 2 == 0:
            return ModelResponse(output={"message": f"{ANSWER}"}, usage=Usage(requests=1))
        return await rules.request(request)

    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={"answered": True, "interactionSummary": ANSWER, "openQuestions": []},
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
    )
    return Parent(
        name="desk", subagents=[payroll], model=FunctionModel(respond), planner=RulesPlanner()
    )
