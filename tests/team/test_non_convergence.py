"""A team run that did not converge hands out no answer, and its report says so honestly.

Running into the turn limit (or the budget) without a stop signal, ending below the quality
threshold, or answering with members whose texts contradict each other is not convergence: the
outputs say ``answered: false``, the text says why, and the task comes back as an open question.
The report names a failed member and its error, prints an unresolved conflict once, and never
shows a blocked run's quality as a plain ``reached=True``.
"""

from __future__ import annotations

import asyncio
import itertools

from harness.convergence import ConvergenceStatus, TerminationReason, format_report
from harness.team import ConfidenceReached, Member, MemberReply, Team, TeamState
from harness.team.patterns import proposer_critic
from tests.team._support import member

TASK = "How many PTO days do new hires get?"


def rotating(*texts: str, confidence: float | None = 0.8) -> object:
    """A member function that words its answer differently every turn (no watchdog, no DONE)."""
    turns = itertools.count()

    async def speak(state: TeamState) -> MemberReply:
        return MemberReply(content=texts[next(turns) % len(texts)], confidence=confidence)

    return speak


async def test_contradicting_texts_at_the_turn_limit_are_not_handed_out() -> None:
    team = Team(
        name="t",
        max_turns=6,
        members=[
            Member(
                name="a",
                role="solver",
                function=rotating(  # type: ignore[arg-type]
                    "New hires get 20 PTO days a year.",
                    "The policy grants twenty days of paid leave to new staff.",
                    "Per the 2024 handbook, a new employee receives 20 vacation days.",
                ),
            ),
            Member(
                name="b",
                role="solver",
                function=rotating(  # type: ignore[arg-type]
                    "New hires get 18 PTO days a year.",
                    "The wiki says eighteen days of paid leave for new staff.",
                    "According to HR, a new employee receives 18 vacation days.",
                ),
            ),
        ],
    )
    result = await team.run(TASK)
    assert result.stop.kind == "max_turns"
    assert result.report.status is not ConvergenceStatus.CONVERGED
    assert not result.settled
    direct = result.to_outputs("direct")
    assert direct["answered"] is False and direct["openQuestions"][0] == TASK
    assert "20" not in direct["interactionSummary"] and "18" not in direct["interactionSummary"]
    assert "its members' answers state values in conflict" in direct["interactionSummary"]


async def test_a_wandering_solver_below_the_threshold_at_the_turn_limit_is_not_converged() -> None:
    team = Team(
        name="t",
        max_turns=5,
        members=[
            Member(
                name="s",
                role="solver",
                function=rotating(  # type: ignore[arg-type]
                    "Perhaps twenty days; I am not sure yet.",
                    "The handbook I found is from 2019, so it may be outdated.",
                    "Another source mentions eighteen days for part-time staff.",
                    "I could not reach the HR wiki this time.",
                    "Some teams get extra days after five years of service.",
                    confidence=0.4,
                ),
            )
        ],
    )
    result = await team.run(TASK)
    report = result.report
    assert report.status is ConvergenceStatus.FAILED
    assert report.termination_reason is TerminationReason.MAX_ROUNDS_REACHED
    assert not report.quality_state.reached
    assert format_report(report).startswith("status: failed    reason: max_rounds_reached")
    direct = result.to_outputs("direct")
    assert direct["answered"] is False
    assert "extra days" not in direct["interactionSummary"]
    assert "turn limit of 5 turns" in direct["interactionSummary"]


async def test_a_run_that_says_done_below_its_quality_threshold_is_not_converged() -> None:
    team = Team(
        name="t",
        members=[
            member("s", "solver", MemberReply(content="Maybe 20 days.", confidence=0.4, stop=True))
        ],
    )
    result = await team.run(TASK)
    assert result.report.status is ConvergenceStatus.FAILED
    assert result.report.termination_reason is TerminationReason.QUALITY_NOT_REACHED
    silent = result.to_outputs("silent")
    assert "Maybe 20 days." not in silent["findings"]
    assert "confidence 0.40 is below 0.70" in silent["findings"]
    assert silent["openQuestions"] == [TASK]


async def test_contradicting_texts_stopped_by_a_confidence_target_are_not_handed_out() -> None:
    team = Team(
        name="t",
        members=[
            member("a", "solver", MemberReply(content="It is 20 days.", confidence=0.9)),
            member("b", "solver", MemberReply(content="It is 18 days.", confidence=0.9)),
        ],
        termination=ConfidenceReached(0.9, senders=["b"]),
    )
    result = await team.run(TASK)
    assert result.stop.kind == "confidence_reached"
    assert result.report.status is ConvergenceStatus.BLOCKED
    assert [r.kind for r in result.report.unresolved_risks] == ["answers_disagree"]
    assert result.to_outputs("direct")["answered"] is False


async def test_an_accepted_review_settles_answers_that_differ() -> None:
    team = Team(
        name="t",
        members=[
            member("a", "solver", MemberReply(content="Output held steady.", confidence=0.9)),
            member("b", "solver", MemberReply(content="Staff slept better.", confidence=0.9)),
            member(
                "c", "critic", MemberReply(content="Both sourced.", verdict="accept", stop=True)
            ),
        ],
    )
    result = await team.run(TASK)
    assert result.report.status is ConvergenceStatus.CONVERGED and result.settled
    assert result.to_outputs("direct")["answered"] is True


async def test_a_stop_signal_on_the_last_allowed_turn_still_converges() -> None:
    team = proposer_critic(
        member("p", "solver", MemberReply(content="New hires get 20 days.", confidence=0.9)),
        member("c", "critic", MemberReply(content="Correct.", verdict="accept", stop=True)),
        max_turns=2,
    )
    result = await team.run(TASK)
    assert result.stop.kind == "stop_token" and len(result.journal) == 2
    assert result.report.status is ConvergenceStatus.CONVERGED
    assert result.report.termination_reason is TerminationReason.QUALITY_REACHED
    assert result.to_outputs("direct")["answered"] is True


# --- the report and the reason name what went wrong ----------------------------------------


async def _down(state: TeamState) -> MemberReply:
    raise RuntimeError("HR backend down (HTTP 503)")


async def test_a_failed_member_and_its_error_are_named_in_the_report_and_the_reason() -> None:
    result = await Team(name="t", members=[Member(name="s", role="solver", function=_down)]).run(
        TASK
    )
    text = format_report(result.report)
    assert "failed: s failed 3 times: RuntimeError: HR backend down (HTTP 503)" in text
    assert "tasks_completed" not in text
    assert result.report.termination_reason is TerminationReason.TASK_FAILED
    assert result.failures == ("solver s failed 3 times: RuntimeError: HR backend down (HTTP 503)",)
    findings = result.to_outputs("silent")["findings"]
    assert "solver s failed" in findings and "HR backend" not in findings
    assert "validation failed" not in findings


async def test_a_member_that_times_out_is_named_with_its_timeout() -> None:
    async def slow(state: TeamState) -> MemberReply:
        await asyncio.sleep(5)
        return MemberReply(content="late")

    team = Team(
        name="t", turn_timeout=0.05, members=[Member(name="s", role="solver", function=slow)]
    )
    result = await team.run(TASK)
    assert result.failures == ("solver s failed 3 times: turn timed out after 0.05s",)
    assert "solver s failed" in result.to_outputs("silent")["findings"]


async def test_a_blocked_runs_report_is_no_pass_and_prints_each_conflict_once() -> None:
    team = Team(
        name="t",
        members=[
            member("a", "solver", MemberReply(content="20.", fields={"days": 20}, confidence=0.8)),
            member("b", "solver", MemberReply(content="18.", fields={"days": 18}, confidence=0.8)),
        ],
        termination=ConfidenceReached(0.8, senders=["b"]),
    )
    result = await team.run(TASK)
    assert result.report.status is ConvergenceStatus.BLOCKED
    lines = format_report(result.report).splitlines()
    assert sum("artifact_mismatch" in line for line in lines) == 1
    (quality,) = [line for line in lines if line.startswith("quality:")]
    assert quality.endswith("reached=True, but the run is blocked: not a pass")
