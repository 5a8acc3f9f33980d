"""A bot double for repeated runs: its parent restates the payroll agent's answer in every other
conversation, as a real model does now and then. ``--bot tests.simulate.flaky_bot:make``."""

from __future__ import annotations

from harness import Parent
from harness.composing import ComposeInput, Composer, Composition, RulesComposer
from harness.planning import RulesPlanner
from harness.testing import fake_subagent
from subagents import Usage

ANSWER = "Payday is Friday, the 28th."


class FlakyComposer(Composer):
    """The offline composer, except that every other reply restates the answer."""

    def __init__(self) -> None:
        self.rules = RulesComposer()
        self.replies = 0

    async def compose(self, given: ComposeInput) -> Composition:
        self.replies += 1
        if self.replies % 2 == 0:
            return Composition(message=ANSWER, usage=Usage(requests=1))
        return await self.rules.compose(given)


def make() -> Parent:
    """A new bot (a new count of its replies): conversations 2, 4, 6 ... repeat the answer."""
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={"answered": True, "interactionSummary": ANSWER, "openQuestions": []},
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
    )
    return Parent(
        name="desk",
        subagents=[payroll],
        model="rules",
        composer=FlakyComposer(),
        planner=RulesPlanner(),
    )
