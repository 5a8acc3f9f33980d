"""Behaviour found in review: overrides that must reach every model, bad model output, CLI writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import ConnectedAgent, FunctionModel, ModelResponse, Parent, UsageError, load_bot
from harness.cli import cli
from harness.composing import RulesComposer
from harness.exceptions import ModelBehaviorError
from harness.models import RulesModel
from harness.planning import RulesPlanner

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"


def test_a_cli_model_overrides_the_sub_agents_own_models(tmp_path: Path) -> None:
    text = GOOD.read_text(encoding="utf-8").replace(
        "    pass_history: false\n", "    pass_history: false\n    model: openai:gpt-4o-mini\n"
    )
    config = tmp_path / "helpdesk.yaml"
    config.write_text(text, encoding="utf-8")
    (tmp_path / "tools.py").write_text(
        (GOOD.parent / "tools.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    bot = load_bot(config, model="rules")
    assert all(isinstance(m, RulesModel) for m in bot.dependencies.agent_models.values())


def test_a_python_object_bot_refuses_a_model_override() -> None:
    with pytest.raises(UsageError, match="config files only"):
        load_bot("samples.research_team.demo:run_demo", model="rules")


def _payroll() -> ConnectedAgent:
    def next_payday() -> str:
        """When the next paycheck (payday) arrives."""
        return "Your next payday is Friday."

    return ConnectedAgent(
        name="payroll",
        mode="silent",  # type: ignore[arg-type]
        tools=[next_payday],
        description="Looks up pay dates and paychecks.",
    )


async def test_a_single_sub_agent_gets_its_requests() -> None:
    bot = Parent(name="hd", subagents=[_payroll()])
    conversation = bot.conversation()
    for question in ("when is payday?", "payday", "When is my next paycheck?"):
        turn = await conversation.send(question)
        assert turn.text == "Your next payday is Friday.", question


@pytest.mark.parametrize(
    "plan",
    [{"requests": ["payday"]}, {"requests": "payday"}, {"nothing": 1}],
)
async def test_a_malformed_plan_falls_back_instead_of_crashing(plan: dict[str, object]) -> None:
    rules = RulesModel()

    async def answer(request):  # type: ignore[no-untyped-def]
        if request.output_name == "plan":
            return ModelResponse(output=plan)
        return await rules.request(request)

    bot = Parent(
        name="hd", subagents=[_payroll()], model=FunctionModel(answer), composer=RulesComposer()
    )
    turn = await bot.conversation().send("when is payday?")
    assert turn.plan[0].agent == "hd"
    assert turn.messages

    strict = Parent(
        name="hd",
        subagents=[_payroll()],
        model=FunctionModel(answer),
        composer=RulesComposer(),
        strict=True,
    )
    with pytest.raises(ModelBehaviorError):
        await strict.conversation().send("when is payday?")


async def test_a_reply_that_is_not_an_object_falls_back() -> None:
    rules = RulesModel()

    async def answer(request):  # type: ignore[no-untyped-def]
        if request.output_name == "reply":
            return ModelResponse(output=["not", "an", "object"])  # type: ignore[arg-type]
        return await rules.request(request)

    bot = Parent(
        name="hd",
        subagents=[_payroll()],
        model=FunctionModel(answer),
        planner=RulesPlanner(),
    )
    turn = await bot.conversation().send("when is payday?")
    assert "Friday" in turn.text


def test_instructions_to_an_unwritable_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a folder", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["instructions", str(GOOD), "-o", str(tmp_path / "taken" / "x.md")]
    )
    assert result.exit_code == 2
    assert "cannot write" in result.stderr


def test_instructions_on_a_copilot_studio_file_says_what_to_do() -> None:
    agent = (
        ROOT / "tests" / "fixtures" / "copilot-studio" / "templates" / "agents" / "agent.mcs.yml"
    )
    result = CliRunner().invoke(cli, ["instructions", str(agent)])
    assert result.exit_code == 2
    assert "harness lint" in result.stderr
