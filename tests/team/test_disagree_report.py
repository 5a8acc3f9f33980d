"""A run blocked by ``answers_disagree`` (audit s61-audit7, finding 11): its report's consensus
and conflict lines agree with the verdict, and the text the user gets names no member (the
report and the developer's error still do)."""

from __future__ import annotations

import pytest

from harness.convergence import (
    Risk,
    RunState,
    TaskState,
    TaskStatus,
    compute_convergence,
    format_report,
)
from harness.team import Member, MemberReply, Team
from tests.team._support import member

NAMES = ("fares_db", "fares_web")


def _team() -> Team:
    members: list[Member] = [
        member(NAMES[0], "solver", MemberReply(content="An off-peak return to York is £14.60.")),
        member(
            NAMES[1],
            "solver",
            MemberReply(content="An off-peak return to York costs £16.20.", stop=True),
        ),
    ]
    return Team(name="fares", members=members, max_turns=4)


async def test_the_report_of_a_disagreement_shows_no_consensus_and_no_clean_conflicts() -> None:
    result = await _team().run("How much is an off-peak return to York?")
    assert result.status == "blocked" and not result.settled
    text = format_report(result.report)
    assert "consensus: 0.00" in text
    assert "conflicts: none" not in text
    assert "risk answers_disagree" in text and "fares_db and fares_web" in text  # the developer's


async def test_the_user_text_names_no_member() -> None:
    result = await _team().run("How much is an off-peak return to York?")
    for mode, key in (("direct", "interactionSummary"), ("silent", "findings")):
        text = result.to_outputs(mode)[key]
        assert "its members' answers state values in conflict" in text
        assert not any(name in text for name in NAMES), text


def test_a_blocking_risk_naming_tasks_touches_them_in_the_consensus() -> None:
    done = (
        TaskState(id="a", agent="a", status=TaskStatus.COMPLETE),
        TaskState(id="b", agent="b", status=TaskStatus.COMPLETE),
        TaskState(id="c", agent="c", status=TaskStatus.COMPLETE),
    )
    risk = Risk(id="answers_disagree:a,b", kind="answers_disagree", tasks=("a", "b"))
    report = compute_convergence(RunState(tasks=done, risks=(risk,)))
    assert report.consensus_score == pytest.approx(1 / 3)
    loose = risk.model_copy(update={"blocking": False})
    assert compute_convergence(RunState(tasks=done, risks=(loose,))).consensus_score == 1.0


def test_a_run_without_conflicts_or_risks_still_says_conflicts_none() -> None:
    done = (TaskState(id="a", agent="a", status=TaskStatus.COMPLETE),)
    text = format_report(compute_convergence(RunState(tasks=done)))
    assert "consensus: 1.00" in text and "conflicts: none" in text
