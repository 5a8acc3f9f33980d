"""A scenario that stopped names why it stopped first: on standard error (its one line per
scenario) and at the head of its ``error``, before the failed steps of the turns that came before.
``--bot tests.simulate.test_stop_reason:make`` is a parent whose first reply falls back and whose
second turn raises."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from harness import Parent
from harness.cli import cli
from harness.composing import ComposeInput, Composer, Composition, RulesComposer
from harness.models.base import ModelSetupError
from harness.planning import RulesPlanner
from harness.testing import fake_subagent


class _BreakingComposer(Composer):
    """Its first reply is unusable (the parent falls back and goes on); its second cannot be
    written at all (a setup error, which the parent never falls back from)."""

    def __init__(self) -> None:
        self.rules = RulesComposer()
        self.replies = 0

    async def compose(self, given: ComposeInput) -> Composition:
        self.replies += 1
        if self.replies == 1:
            raise ValueError("the reply was not JSON")
        if self.replies == 2:
            raise ModelSetupError("the reply request is not in the cassette", attempts=1)
        return await self.rules.compose(given)


def make() -> Parent:
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={"answered": True, "interactionSummary": "Payday is Friday.", "openQuestions": []},
        description="Looks up pay dates and paychecks.",
        examples=["when is payday"],
    )
    return Parent(
        name="desk",
        subagents=[payroll],
        model="rules",
        composer=_BreakingComposer(),
        planner=RulesPlanner(),
    )


def test_the_first_reason_of_a_scenario_that_stopped_is_why_it_stopped(tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(
        "scenarios:\n  - name: pay\n    turns:\n      - user: when is payday?\n"
        "      - user: and the one after?\n",
        encoding="utf-8",
    )
    bot = "tests.simulate.test_stop_reason:make"
    result = CliRunner().invoke(
        cli, ["simulate", str(scenarios), "--bot", bot, "-q", "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    assert "error: 1 of 1 scenario(s) could not be completed:" in result.stderr
    stop = "turn 2: ModelSetupError: the reply request is not in the cassette"
    assert f"  pay: {stop}" in result.stderr
    (record,) = json.loads(result.stdout)["transcripts"]
    assert record["completed"] is False
    first, *earlier = record["error"].splitlines()
    assert first == stop
    assert earlier == ["turn 1: reply failed: ValueError: the reply was not JSON"]
