"""The research-team sample runs offline and shows the turn, the aggregation and the report."""

from __future__ import annotations

from samples.research_team.demo import QUESTION, run_demo
from samples.research_team.team import build_team


async def test_the_demo_shows_the_turn_the_aggregation_and_the_convergence_report() -> None:
    text = await run_demo()
    assert f"user: {QUESTION}" in text
    assert "pto (direct): You have 12 PTO days left" in text
    assert text.count("output held steady or rose") == 3  # relayed once, journal once, summary once
    assert "[reject] solver_wellbeing states a finding without a source" in text
    assert "conflict companies_in_trial: 61 (solver_output) vs 60 (solver_wellbeing) -> 61" in text
    assert "confidence (minimum, not mean): 0.80" in text
    assert "QA: passed" in text
    assert "status: converged    reason: quality_reached    (decision step 7)" in text
    assert "consensus: 0.50" in text
    assert "all with the run's correlation id: True" in text


async def test_the_sample_team_revises_after_the_critic_and_converges() -> None:
    result = await build_team().run("What does research say about four-day work weeks?")
    assert [m.sender for m in result.journal] == [
        "planner",
        "solver_output",
        "solver_wellbeing",
        "critic",
        "solver_wellbeing",
        "critic",
    ]
    assert result.report.resolved_conflicts == result.report.conflicts
    assert result.aggregated is not None and result.aggregated.ok
