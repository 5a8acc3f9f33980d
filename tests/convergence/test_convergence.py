"""The convergence report: decision order, every termination reason, detectors, events, invariants."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import harness
from harness.convergence import (
    Budget,
    ConflictKind,
    ConvergenceStatus,
    Quality,
    ResourceUsage,
    Review,
    Risk,
    RunState,
    TaskState,
    TaskStatus,
    TerminationReason,
    compute_convergence,
    convergence_events,
    format_report,
)

S = TaskStatus


def task(id: str, status: TaskStatus = S.COMPLETE, **kwargs: object) -> TaskState:
    return TaskState(id=id, agent=kwargs.pop("agent", id), status=status, **kwargs)  # type: ignore[arg-type]


DONE = (task("a"), task("b"))


@pytest.mark.parametrize(
    ("state", "status", "reason", "step"),
    [
        (RunState(), "running", None, 1),
        (RunState(tasks=(task("a"), task("b", S.IN_PROGRESS))), "running", None, 1),
        (RunState(tasks=(task("a", S.PENDING),)), "running", None, 1),
        (RunState(tasks=DONE, risks=(Risk(id="r", kind="pii"),)), "blocked", "risk_blocked", 2),
        (RunState(tasks=(task("a"), task("b", S.BLOCKED))), "running", None, 3),
        (RunState(tasks=(task("a"), task("b", S.FAILED))), "failed", "task_failed", 4),
        (
            RunState(
                tasks=(task("a"), task("b", S.FAILED)), quality=Quality(score=0.5, threshold=0.8)
            ),
            "failed",
            "quality_not_reached",
            4,
        ),
        (
            RunState(tasks=(task("a", S.FAILED),), rounds=5, max_rounds=5, concluded=True),
            "failed",
            "task_failed",
            4,
        ),
        (
            RunState(
                tasks=(task("a", S.FAILED),),
                budget=Budget(max_tokens=100),
                usage=ResourceUsage(tokens=100),
            ),
            "failed",
            "budget_exhausted",
            4,
        ),
        (
            RunState(tasks=(task("a", S.FAILED),), rounds=5, max_rounds=5),
            "failed",
            "max_rounds_reached",
            4,
        ),
        (
            RunState(
                tasks=DONE, budget=Budget(max_cost_usd=1.0), usage=ResourceUsage(cost_usd=1.5)
            ),
            "failed",
            "budget_exhausted",
            5,
        ),
        (RunState(tasks=DONE, rounds=3, max_rounds=3), "failed", "max_rounds_reached", 5),
        (
            RunState(tasks=DONE, rounds=3, max_rounds=3, concluded=False),
            "failed",
            "max_rounds_reached",
            5,
        ),
        (
            RunState(tasks=DONE, quality=Quality(score=0.5, threshold=0.8)),
            "failed",
            "quality_not_reached",
            6,
        ),
        (
            RunState(
                tasks=DONE,
                rounds=3,
                max_rounds=3,
                concluded=True,
                quality=Quality(score=0.9, threshold=0.8),
            ),
            "converged",
            "quality_reached",
            7,
        ),
        (
            RunState(tasks=DONE, quality=Quality(score=0.9, threshold=0.8)),
            "converged",
            "quality_reached",
            7,
        ),
        (RunState(tasks=DONE), "converged", "tasks_completed", 8),
    ],
    ids=[
        "no-tasks",
        "in-progress",
        "pending",
        "blocking-risk",
        "only-blocked-left",
        "failed-fallback",
        "failed-below-quality",
        "failed-concluded-at-the-limit",
        "failed-budget",
        "failed-rounds",
        "budget",
        "rounds-unknown-conclusion",
        "rounds-not-concluded",
        "below-quality",
        "concluded-at-the-limit",
        "quality",
        "honest-fallback",
    ],
)
def test_each_step_of_the_decision_order(
    state: RunState, status: str, reason: str | None, step: int
) -> None:
    report = compute_convergence(state)
    assert report.status.value == status
    assert (report.termination_reason.value if report.termination_reason else None) == reason
    assert report.decided_by == step


def test_earlier_steps_win_over_later_ones() -> None:
    everything = RunState(
        tasks=DONE,
        budget=Budget(max_seconds=10),
        usage=ResourceUsage(seconds=11),
        rounds=9,
        max_rounds=3,
        quality=Quality(score=1.0, threshold=0.5),
    )
    assert compute_convergence(everything).termination_reason is TerminationReason.BUDGET_EXHAUSTED
    no_budget = everything.model_copy(update={"usage": ResourceUsage(seconds=1)})
    assert compute_convergence(no_budget).termination_reason is TerminationReason.MAX_ROUNDS_REACHED
    risky = everything.model_copy(update={"risks": (Risk(id="x", kind="loop"),)})
    assert compute_convergence(risky).termination_reason is TerminationReason.RISK_BLOCKED


def test_a_non_blocking_risk_does_not_block() -> None:
    state = RunState(tasks=DONE, risks=(Risk(id="x", kind="note", blocking=False),))
    assert compute_convergence(state).status is ConvergenceStatus.CONVERGED


# --- missing signals are never faked ----------------------------------------------------------


def test_no_quality_score_is_not_a_pass() -> None:
    report = compute_convergence(RunState(tasks=DONE, quality=Quality(score=None, threshold=0.1)))
    assert report.termination_reason is TerminationReason.TASKS_COMPLETED
    assert not report.quality_state.reached and not report.quality_state.scored
    assert "not scored" in format_report(report)


def test_unknown_usage_is_not_an_exhausted_budget_and_no_budget_is_not_enough() -> None:
    unknown_usage = RunState(
        tasks=DONE, budget=Budget(max_tokens=10), usage=ResourceUsage(tokens=None)
    )
    report = compute_convergence(unknown_usage)
    assert not report.budget_state.exhausted
    assert report.termination_reason is TerminationReason.TASKS_COMPLETED
    no_budget = compute_convergence(RunState(tasks=DONE, usage=ResourceUsage(tokens=10**9)))
    assert not no_budget.budget_state.exhausted and no_budget.budget_state.limits is None


def test_a_quality_below_threshold_is_not_reached_and_not_converged() -> None:
    report = compute_convergence(RunState(tasks=DONE, quality=Quality(score=0.5, threshold=0.8)))
    assert report.status is ConvergenceStatus.FAILED
    assert report.termination_reason is TerminationReason.QUALITY_NOT_REACHED
    assert report.quality_state.scored and not report.quality_state.reached


def test_a_rejecting_review_overrules_a_score_above_the_threshold() -> None:
    rejected = Review(accepted=False, reviewer="critic")
    report = compute_convergence(
        RunState(tasks=DONE, quality=Quality(score=0.9, threshold=0.7), review=rejected)
    )
    assert report.quality_state.scored and report.quality_state.score == 0.9
    assert not report.quality_state.reached and report.quality_state.rejected_by_review
    assert report.status is ConvergenceStatus.BLOCKED
    assert "reached=False (the review rejected the answer)" in format_report(report)
    accepted = compute_convergence(
        RunState(
            tasks=DONE, quality=Quality(score=0.9, threshold=0.7), review=Review(accepted=True)
        )
    )
    assert accepted.quality_state.reached and not accepted.quality_state.rejected_by_review


def test_a_rejection_resolved_by_a_redo_does_not_reject_the_answer() -> None:
    redone = Review(accepted=False, reviewer="critic", retry_tasks=("a",))
    report = compute_convergence(
        RunState(tasks=DONE, quality=Quality(score=0.9, threshold=0.7), review=redone)
    )
    assert report.status is ConvergenceStatus.CONVERGED
    assert report.quality_state.reached and not report.quality_state.rejected_by_review
    assert report.termination_reason is TerminationReason.QUALITY_REACHED
    assert "rejected" not in format_report(report).splitlines()[-1]


def test_the_budget_state_names_the_limits_that_ran_out() -> None:
    state = RunState(
        tasks=DONE,
        budget=Budget(max_tokens=100, max_cost_usd=5.0, max_seconds=60),
        usage=ResourceUsage(tokens=150, cost_usd=1.0, seconds=61),
    )
    assert compute_convergence(state).budget_state.exhausted_by == ("tokens", "seconds")


# --- detectors and conservative resolution ----------------------------------------------------


def test_artifact_mismatch_two_agents_gave_different_values_for_one_field() -> None:
    state = RunState(
        tasks=(
            task("a", fields={"payday": "Friday", "w2": "portal"}),
            task("b", fields={"payday": "Thursday", "w2": "portal"}),
            task("c", fields={"other": 1}),
        )
    )
    report = compute_convergence(state)
    (conflict,) = report.conflicts
    assert conflict.kind is ConflictKind.ARTIFACT_MISMATCH and conflict.field == "payday"
    assert conflict.agents == ("a", "b") and not conflict.resolved
    assert report.status is ConvergenceStatus.BLOCKED  # an unresolved conflict blocks
    assert report.consensus_score == pytest.approx(1 / 3)


def test_one_agent_revising_its_own_value_is_not_a_mismatch() -> None:
    state = RunState(
        tasks=(
            task("a1", agent="a", fields={"payday": "Friday"}),
            task("a2", agent="a", fields={"payday": "Thursday"}),
        )
    )
    assert compute_convergence(state).conflicts == ()


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (20, 20.0),
        (20, "20"),
        ("Friday", " friday "),
        ({"d": 1}, {"d": 1.0}),
        ([2], ["2"]),
        (Decimal("20"), 20),
        (Decimal("20.50"), "20.5"),
        (Fraction(1, 4), 0.25),
    ],
    ids=[
        "int-float",
        "numeric-string",
        "case-and-spaces",
        "nested-dict",
        "nested-list",
        "decimal-int",
        "decimal-string",
        "fraction-float",
    ],
)
def test_one_value_written_two_ways_is_no_mismatch(one: object, other: object) -> None:
    state = RunState(tasks=(task("a", fields={"x": one}), task("b", fields={"x": other})))
    report = compute_convergence(state)
    assert report.conflicts == () and report.consensus_score == 1.0


def test_the_report_imports_none_of_the_rest_of_the_sdk() -> None:
    # "build one yourself for any multi-agent run": the report stays a light import
    code = "import sys, harness.convergence; print(' '.join(sys.modules))"
    root = str(Path(harness.__file__).parents[1])
    loaded = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": root},
    ).stdout.split()
    heavy = ("harness.aggregate", "harness.models", "harness.detect", "harness.text", "subagents")
    assert [m for m in loaded if m.startswith(heavy)] == []


def test_a_flag_and_a_number_still_mismatch() -> None:
    state = RunState(tasks=(task("a", fields={"x": True}), task("b", fields={"x": 1})))
    assert [c.kind for c in compute_convergence(state).conflicts] == [
        ConflictKind.ARTIFACT_MISMATCH
    ]


def test_a_mismatch_is_resolved_by_an_explicit_decision_or_an_accepted_review_only() -> None:
    tasks = (task("a", fields={"x": 1}), task("b", fields={"x": 2}))
    decided = compute_convergence(RunState(tasks=tasks, decisions={"x": "b"}))
    assert decided.conflicts[0].resolved and "b's value" in decided.conflicts[0].resolution
    assert decided.status is ConvergenceStatus.CONVERGED
    stranger = compute_convergence(RunState(tasks=tasks, decisions={"x": "zed"}))
    assert not stranger.conflicts[0].resolved
    reviewed = compute_convergence(RunState(tasks=tasks, review=Review(accepted=True)))
    assert reviewed.conflicts[0].resolved
    assert reviewed.resolved_conflicts == reviewed.conflicts


def test_test_failures_are_detected_and_never_auto_resolved() -> None:
    state = RunState(
        tasks=(task("a", tests_passed=False), task("b", test_pass_rate=0.75), task("c")),
        review=Review(accepted=True),
    )
    report = compute_convergence(state)
    kinds = [(c.kind, c.tasks, c.resolved) for c in report.conflicts]
    assert kinds == [
        (ConflictKind.TEST_FAILURE, ("a",), False),
        (ConflictKind.TEST_FAILURE, ("b",), False),
    ]
    assert report.termination_reason is TerminationReason.RISK_BLOCKED
    assert report.consensus_score == pytest.approx(1 / 3)


def test_no_test_signal_is_not_a_failure() -> None:
    report = compute_convergence(RunState(tasks=(task("a", tests_passed=None),)))
    assert report.conflicts == ()


def test_review_disagreement_is_resolved_only_when_actionable() -> None:
    vague = compute_convergence(
        RunState(tasks=DONE, review=Review(accepted=False, reviewer="critic", reason="weak"))
    )
    (conflict,) = vague.conflicts
    assert conflict.kind is ConflictKind.REVIEW_DISAGREEMENT and not conflict.resolved
    assert vague.status is ConvergenceStatus.BLOCKED
    actionable = compute_convergence(
        RunState(tasks=DONE, review=Review(accepted=False, retry_tasks=("b",)))
    )
    assert actionable.conflicts[0].resolved
    assert actionable.status is ConvergenceStatus.CONVERGED
    assert actionable.consensus_score == 0.5  # b was touched by the (resolved) conflict


def test_dependency_inconsistency_complete_task_with_unfinished_dependency() -> None:
    state = RunState(
        tasks=(
            task("plan", S.FAILED),
            task("solve", depends_on=("plan",)),
            task("check", depends_on=("solve", "missing")),
        )
    )
    report = compute_convergence(state)
    found = {c.id: c for c in report.conflicts}
    assert set(found) == {
        "dependency_inconsistency:solve",
        "dependency_inconsistency:check",
    }
    assert found["dependency_inconsistency:check"].tasks == ("check", "missing")
    assert not any(c.resolved for c in report.conflicts)
    assert report.status is ConvergenceStatus.BLOCKED  # step 2 comes before step 4 (failed)


def test_consensus_is_zero_without_completed_tasks() -> None:
    report = compute_convergence(RunState(tasks=(task("a", S.FAILED),)))
    assert report.consensus_score == 0.0
    assert report.status is ConvergenceStatus.FAILED


# --- events -----------------------------------------------------------------------------------


def test_events_of_a_converged_run() -> None:
    state = RunState(
        tasks=(task("a", fields={"x": 1}), task("b", fields={"x": 2})), decisions={"x": "a"}
    )
    events = convergence_events(compute_convergence(state), correlation_id="run-1")
    assert [t for t, _ in events] == [
        "convergence.started",
        "conflict.detected",
        "conflict.resolved",
        "consensus.updated",
        "convergence.reached",
    ]
    assert all(p["correlation_id"] == "run-1" for _, p in events)
    assert events[1][1]["kind"] == "artifact_mismatch" and events[1][1]["field"] == "x"
    assert events[-1][1]["termination_reason"] == "tasks_completed"
    assert events[3][1] == {
        "correlation_id": "run-1",
        "consensus_score": 0.0,
        "conflicts": 1,
        "resolved": 1,
    }


@pytest.mark.parametrize(
    ("state", "last"),
    [
        (RunState(tasks=(task("a", S.FAILED),)), "convergence.failed"),
        (RunState(tasks=DONE, risks=(Risk(id="r", kind="x"),)), "convergence.failed"),
        (RunState(tasks=(task("a", S.IN_PROGRESS),)), "consensus.updated"),
    ],
    ids=["failed", "blocked", "running"],
)
def test_failed_and_blocked_runs_end_with_convergence_failed_running_ones_with_no_verdict(
    state: RunState, last: str
) -> None:
    events = convergence_events(compute_convergence(state))
    assert events[-1][0] == last


# --- the invariant, over many generated states --------------------------------------------------


def _random_state(rng: random.Random) -> RunState:
    tasks = []
    for n in range(rng.randint(0, 5)):
        tasks.append(
            TaskState(
                id=f"t{n}",
                agent=rng.choice(["a", "b", "c"]),
                status=rng.choice(list(TaskStatus)),
                fields=rng.choice([{}, {"x": 1}, {"x": 2}, {"y": "v"}]),
                tests_passed=rng.choice([None, None, True, False]),
                test_pass_rate=rng.choice([None, None, 1.0, 0.5]),
                depends_on=tuple(rng.sample([f"t{k}" for k in range(6)], rng.randint(0, 2))),
            )
        )

    def maybe(value: object) -> object:
        return value if rng.random() < 0.5 else None

    return RunState(
        tasks=tuple(tasks),
        budget=maybe(
            Budget(max_tokens=rng.choice([None, 100]), max_seconds=rng.choice([None, 5.0]))
        ),  # type: ignore[arg-type]
        usage=maybe(
            ResourceUsage(tokens=rng.choice([None, 50, 150]), seconds=rng.choice([None, 1.0, 9.0]))
        ),  # type: ignore[arg-type]
        quality=maybe(Quality(score=rng.choice([None, 0.2, 0.95]), threshold=0.9)),  # type: ignore[arg-type]
        review=maybe(Review(accepted=rng.random() < 0.5, retry_tasks=rng.choice([(), ("t0",)]))),  # type: ignore[arg-type]
        rounds=maybe(rng.randint(0, 6)),  # type: ignore[arg-type]
        max_rounds=maybe(rng.randint(1, 6)),  # type: ignore[arg-type]
        risks=tuple(
            Risk(id=f"r{k}", kind="x", blocking=rng.random() < 0.5)
            for k in range(rng.randint(0, 2))
        ),
        decisions=rng.choice([{}, {"x": "a"}]),
    )


def test_terminal_reports_carry_exactly_one_reason_and_running_ones_none() -> None:
    rng = random.Random(20260518)
    seen_status: set[ConvergenceStatus] = set()
    seen_reason: set[TerminationReason] = set()
    for _ in range(3000):
        state = _random_state(rng)
        report = compute_convergence(state)
        assert compute_convergence(state) == report  # pure: same state, same report
        if report.status is ConvergenceStatus.RUNNING:
            assert report.termination_reason is None
        else:
            assert isinstance(report.termination_reason, TerminationReason)
            seen_reason.add(report.termination_reason)
        seen_status.add(report.status)
        assert 0.0 <= report.consensus_score <= 1.0
        assert set(report.resolved_conflicts) <= set(report.conflicts)
        events = [t for t, _ in convergence_events(report)]
        verdicts = [t for t in events if t in ("convergence.reached", "convergence.failed")]
        assert len(verdicts) == (0 if report.status is ConvergenceStatus.RUNNING else 1)
    assert seen_status == set(ConvergenceStatus)
    assert seen_reason == set(TerminationReason)


def test_the_report_is_pure_and_leaves_the_state_untouched() -> None:
    state = RunState(tasks=(task("a", fields={"x": 1}), task("b", fields={"x": 2})))
    before = state.model_dump()
    compute_convergence(state)
    assert state.model_dump() == before
