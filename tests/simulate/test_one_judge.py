"""``harness simulate`` and ``ConversationDriver`` (the pytest plugin) judge one conversation
alike: both apply a scenario's expectations through ``harness.simulate.judging`` (s62-tidy).

Each case is a scenario where the two paths differed on f9bad5d: a parent whose own steps failed
in a conversation that still ran to its end (simulate skipped the expectations), and a turn with a
contract finding and an expectation finding (listed in another order). One difference is meant: a
conversation that stopped. ``harness simulate`` cannot tell which turns of a deployed bot
completed and keeps the check's findings; a driver in this process knows, and a test may catch
the error and go on, so every turn but the one that raised is judged. New helpdesk bot, built
here."""

from __future__ import annotations

from typing import Any

import pytest

from harness import Parent
from harness.detect.findings import Finding
from harness.exceptions import ModelRequestError, SubagentError
from harness.models import FunctionModel
from harness.models.base import ModelRequest, ModelResponse
from harness.simulate.runner import run_scenario
from harness.simulate.scenarios import Scenario
from harness.simulate.targets import InProcessTarget
from harness.testing import ConversationDriver, fake_subagent


def _down(request: ModelRequest) -> ModelResponse:
    raise ModelRequestError("the model service is down")


def _desk(*, model: Any = "rules", strict: bool = False) -> Parent:
    payroll = fake_subagent(
        "payroll",
        mode="direct",
        outputs={"answered": True, "interactionSummary": "Payday is Friday the 28th."},
        description="Knows payday dates and payslips.",
        examples=["when is payday"],
    )
    rooms = fake_subagent(  # a silent agent that breaks its contract: no findings
        "rooms",
        mode="silent",
        outputs={"answered": False, "openQuestions": []},
        description="Books meeting rooms.",
        examples=["book a meeting room"],
    )
    laptops = fake_subagent(
        "laptops",
        mode="direct",
        error=RuntimeError("asset system unreachable"),
        description="Orders replacement laptops.",
        examples=["order a new laptop"],
    )
    return Parent(name="desk", subagents=[payroll, rooms, laptops], model=model, strict=strict)


PAYDAY = {"user": "When is payday?", "requests": [{"agent": "payroll", "expect": "Thursday"}]}
CASES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    # The planner's and composer's model is down: the offline planner routes, the results are
    # relayed as they are, the turn carries the parent's error, and the conversation goes on.
    "parent-failed": ({"model": FunctionModel(_down)}, [PAYDAY, {"user": "Thanks, that is all."}]),
    # Strict: the failing laptop order raises, and the conversation stops in turn 2.
    "stopped": ({"strict": True}, [PAYDAY, {"user": "Please order a new laptop for me."}]),
    "contract-and-expect": (
        {},
        [
            {
                "user": "Book a meeting room for Tuesday at 10.",
                "requests": [{"agent": "rooms", "expect": "Room 4"}],
            }
        ],
    ),
}


def _shown(findings: Any) -> list[tuple[str, int, str]]:
    return [(f.kind, f.turn, f.evidence) for f in findings]


async def _both(name: str) -> tuple[list[Finding], list[Finding]]:
    options, turns = CASES[name]
    scenario = Scenario.model_validate({"name": name, "turns": turns})
    simulated = await run_scenario(InProcessTarget(_desk(**options)), scenario, file="desk.yaml")
    driver = ConversationDriver(_desk(**options))
    try:
        for step in scenario.turns:  # as the plugin sends a scenario's turns
            await driver.send(step.user, expect=list(step.requests), checks=step)
    except Exception:
        assert name == "stopped"
    return list(simulated.findings), driver.findings()


@pytest.mark.parametrize("name", sorted(set(CASES) - {"stopped"}))
async def test_simulate_and_the_driver_report_the_same_findings(name: str) -> None:
    simulated, driven = await _both(name)
    assert _shown(driven) == _shown(simulated)


async def test_a_conversation_whose_parent_failed_is_still_checked_against_its_expectations() -> (
    None
):
    simulated, _ = await _both("parent-failed")
    assert [(f.kind, f.turn) for f in simulated if f.evidence.startswith("expected")] == [
        ("missed_request", 1)
    ]


async def test_a_stopped_simulated_conversation_keeps_the_checks_findings_alone() -> None:
    simulated, _ = await _both("stopped")
    assert not [f for f in simulated if f.evidence.startswith("expected")]


async def test_the_driver_judges_every_turn_but_the_one_that_raised() -> None:
    driver = ConversationDriver(_desk(strict=True))
    await driver.send("When is payday?", expect=[("payroll", "Thursday")])
    with pytest.raises(SubagentError):
        await driver.send("Please order a new laptop for me.")
    await driver.send(
        "When is payday?", expect=[("payroll", "Thursday")], checks={"expect": "Thursday"}
    )
    judged = driver.findings("missed_request", "failed_check")
    assert [(f.kind, f.turn) for f in judged if f.evidence.startswith("expected")] == [
        ("missed_request", 1),
        ("missed_request", 3),
    ]
    assert [f.turn for f in judged if f.kind == "failed_check"] == [3]
    with pytest.raises(AssertionError, match="checks failed"):
        driver.assert_checks_pass()  # the bot said Friday the 28th
    assert driver.raised == {2}


async def test_a_turns_contract_finding_comes_before_its_expectation_finding() -> None:
    _, driven = await _both("contract-and-expect")
    assert [f.kind for f in driven] == ["contract", "missed_request"]
