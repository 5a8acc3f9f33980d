"""Every stop criterion of the team loop, their composition, and the report each one leads to."""

from __future__ import annotations

import asyncio

import pytest

from harness.convergence import Budget, ConvergenceStatus, TerminationReason
from harness.models import FunctionModel, ModelRequest, ModelResponse
from harness.team import (
    BudgetLimit,
    ConfidenceNotReached,
    ConfidenceReached,
    MaxTurns,
    Member,
    MemberReply,
    StopToken,
    Team,
    TeamRole,
    TeamState,
    ValidationFailures,
)
from subagents import Usage
from tests.team._support import FakeClock, counting, member

TASK = "Summarise the PTO carry-over rules."


async def test_the_stop_token_ends_the_run() -> None:
    team = Team(
        name="t",
        members=[
            member("planner", "planner", MemberReply(content="1. Read the policy. 2. Summarise.")),
            member("solver", "solver", "Up to 5 days carry over into Q1. CONFIDENCE: 0.9\nDONE"),
        ],
    )
    result = await team.run(TASK)
    assert result.stop.kind == "stop_token" and result.stop.detail == "solver said DONE"
    assert len(result.journal) == 2
    assert result.journal[-1].signals.stop
    assert result.answer == "Up to 5 days carry over into Q1."  # protocol tokens stripped
    assert result.report.termination_reason is TerminationReason.QUALITY_REACHED


async def test_the_structured_stop_signal_counts_as_the_stop_token() -> None:
    team = Team(
        name="t", members=[member("s", "solver", MemberReply(content="All set.", stop=True))]
    )
    assert (await team.run(TASK)).stop.kind == "stop_token"


async def test_the_stop_token_can_be_reserved_to_some_senders() -> None:
    team = Team(
        name="t",
        members=[
            member("solver", "solver", "Draft answer. DONE"),
            member("critic", "critic", MemberReply(content="Fine.", verdict="accept", stop=True)),
        ],
        termination=StopToken(senders=["critic"]),
    )
    result = await team.run(TASK)
    assert [m.sender for m in result.journal] == ["solver", "critic"]
    assert result.stop.detail == "critic said DONE"


async def test_a_custom_stop_token_is_matched_as_a_whole_word() -> None:
    team = Team(
        name="t",
        members=[member("s", "solver", "FINISHEDLY not yet", "All good FINISHED")],
        termination=StopToken("FINISHED"),
    )
    result = await team.run(TASK)
    assert len(result.journal) == 2


async def test_the_turn_limit_ends_the_run_and_reports_max_rounds() -> None:
    # b reviews without a verdict: one answer, so nothing but the limit keeps the run open
    team = Team(name="t", members=[counting("a"), counting("b", "critic")], max_turns=5)
    result = await team.run(TASK)
    assert result.stop.kind == "max_turns" and result.stop.limit == 5
    assert len(result.journal) == 5
    # running out of turns is not convergence: nothing is handed out as the answer
    assert result.report.status is ConvergenceStatus.FAILED
    assert result.report.termination_reason is TerminationReason.MAX_ROUNDS_REACHED
    assert not result.settled and result.to_outputs("direct")["answered"] is False


async def test_confidence_not_reached_after_n_rounds() -> None:
    team = Team(
        name="t",
        members=[counting("a", confidence=0.4), counting("b", "critic", confidence=0.6)],
        termination=ConfidenceNotReached(0.8, rounds=2),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "confidence_not_reached"
    assert len(result.journal) == 4  # two full rounds of two members
    assert "best 0.60" in result.stop.detail
    report = result.report
    assert report.status is ConvergenceStatus.FAILED
    assert report.termination_reason is TerminationReason.MAX_ROUNDS_REACHED
    assert report.quality_state.scored and not report.quality_state.reached
    assert "best 0.60" in result.to_outputs("silent")["findings"]


async def test_confidence_reached_stops_early() -> None:
    team = Team(
        name="t",
        members=[counting("a", confidence=0.5), counting("b", confidence=0.92)],
        termination=ConfidenceReached(0.9),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "confidence_reached" and len(result.journal) == 2


async def test_a_token_budget_stops_the_run_and_reports_budget_exhausted() -> None:
    team = Team(
        name="t",
        members=[counting("a", cost_estimate_tokens=400)],
        budget=Budget(max_tokens=1000),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "budget" and len(result.journal) == 3
    assert result.report.termination_reason is TerminationReason.BUDGET_EXHAUSTED
    assert result.report.budget_state.exhausted_by == ("tokens",)


async def test_a_latency_budget_uses_the_team_clock() -> None:
    clock = FakeClock(step=0.5)
    team = Team(
        name="t",
        members=[counting("a")],
        termination=BudgetLimit(max_seconds=3.0),
        clock=clock,
    )
    result = await team.run(TASK)
    assert result.stop.kind == "budget" and "s >= 3s" in result.stop.detail
    assert result.report.budget_state.limits == Budget(max_seconds=3.0)
    assert result.report.termination_reason is TerminationReason.BUDGET_EXHAUSTED


async def test_a_cost_budget_reads_the_models_reported_cost() -> None:
    def answer(request: ModelRequest) -> ModelResponse:
        turn = len(request.messages)
        return ModelResponse(
            output={"content": f"Draft {turn} of the carry-over summary."},
            usage=Usage(requests=1, input_tokens=100, output_tokens=50, cost_usd=0.02),
        )

    team = Team(
        name="t",
        members=[Member(name="writer", role=TeamRole.SOLVER)],
        model=FunctionModel(answer),
        budget=Budget(max_cost_usd=0.05),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "budget" and len(result.journal) == 3
    assert result.usage.cost_usd == pytest.approx(0.06)
    assert result.journal[0].metadata.cost_estimate_tokens == 150
    assert result.report.budget_state.exhausted_by == ("cost_usd",)


async def test_an_unknown_cost_never_triggers_a_cost_budget() -> None:
    team = Team(name="t", members=[counting("a")], budget=Budget(max_cost_usd=0.0001), max_turns=3)
    result = await team.run(TASK)
    assert result.stop.kind == "max_turns"
    assert not result.report.budget_state.exhausted


async def test_validation_failed_k_times_in_a_row() -> None:
    team = Team(
        name="t",
        members=[
            counting("coder"),
            member(
                "tester",
                "verifier",
                MemberReply(content="2 of 5 checks fail.", verdict="reject", handoff="coder"),
            ),
        ],
        termination=StopToken(senders=["tester"]) | ValidationFailures(3),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "validation_failed" and result.stop.limit == 3
    assert len(result.journal) == 6  # coder, tester x3
    report = result.report
    assert report.status is ConvergenceStatus.BLOCKED
    assert [c.kind.value for c in report.conflicts] == ["test_failure"]


async def test_an_accept_resets_the_failure_streak() -> None:
    verdicts = iter(["reject", "reject", "accept", "reject", "reject", "reject"])

    async def review(state: TeamState) -> MemberReply:
        return MemberReply(content=f"Review {state.turn}.", verdict=next(verdicts))  # type: ignore[arg-type]

    team = Team(
        name="t",
        members=[counting("coder"), Member(name="tester", role=TeamRole.VERIFIER, function=review)],
        termination=ValidationFailures(3),
    )
    result = await team.run(TASK)
    assert len(result.journal) == 12  # the accept at turn 6 reset the count


async def test_failed_turns_count_as_validation_failures() -> None:
    async def broken(state: TeamState) -> MemberReply:
        raise RuntimeError("backend unavailable")

    team = Team(
        name="t",
        members=[Member(name="s", role=TeamRole.SOLVER, function=broken)],
        termination=ValidationFailures(2),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "validation_failed" and len(result.journal) == 2
    assert not result.journal[0].metadata.valid
    assert result.journal[0].metadata.error == "RuntimeError: backend unavailable"
    assert result.report.status is ConvergenceStatus.FAILED
    assert result.report.termination_reason is TerminationReason.TASK_FAILED
    assert result.to_outputs()["openQuestions"] == [TASK]


async def test_a_slow_turn_times_out_and_is_recorded_as_failed() -> None:
    async def slow(state: TeamState) -> str:
        await asyncio.sleep(5)
        return "late"

    team = Team(
        name="t",
        members=[Member(name="s", role=TeamRole.SOLVER, function=slow)],
        termination=ValidationFailures(1),
        turn_timeout=0.05,
    )
    result = await team.run(TASK)
    assert result.journal[0].metadata.error == "turn timed out after 0.05s"


async def test_conditions_compose_with_or_and_and() -> None:
    either = MaxTurns(2) | ConfidenceReached(0.99)
    team = Team(name="t", members=[counting("a")], termination=either)
    assert len((await team.run(TASK)).journal) == 2

    both = MaxTurns(2) & ConfidenceReached(0.5)
    team = Team(
        name="t",
        members=[counting("a", confidence=0.1), counting("b", confidence=0.7)],
        termination=both,
    )
    first = await team.run(TASK)
    assert len(first.journal) == 2 and " and " in first.stop.detail
    later = Team(
        name="t",
        members=[counting("a", confidence=0.6), counting("b", confidence=0.1)],
        termination=MaxTurns(3) & ConfidenceReached(0.5),
    )
    # confidence fired at turn 1, the turn limit at turn 3: both have fired by turn 3
    assert len((await later.run(TASK)).journal) == 3
    # the team copies its conditions per run, so a second run starts afresh
    assert len((await later.run(TASK)).journal) == 3


def test_bad_limits_are_rejected() -> None:
    with pytest.raises(ValueError):
        MaxTurns(0)
    with pytest.raises(ValueError):
        ValidationFailures(0)
