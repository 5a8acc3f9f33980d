"""Speaker selection (round robin with handoffs, selector) and the five collaboration patterns."""

from __future__ import annotations

import pytest

from harness.convergence import ConflictKind, ConvergenceStatus, TerminationReason
from harness.exceptions import ConfigError
from harness.models import FunctionModel, ModelRequest, ModelResponse
from harness.team import (
    Member,
    MemberReply,
    RoundRobin,
    Selector,
    Team,
    TeamRole,
    TeamState,
    debate,
    planner_solver,
    produce_test_fix,
    proposer_critic,
    self_ask,
)
from tests.team._support import counting, member

TASK = "Should the helpdesk move to a four-day week?"


def order(result: object) -> list[str]:
    return [m.sender for m in result.journal]  # type: ignore[attr-defined]


# --- policies -------------------------------------------------------------------------------


async def test_round_robin_follows_the_member_order_and_wraps() -> None:
    team = Team(name="t", members=[counting("a"), counting("b"), counting("c")], max_turns=5)
    assert order(await team.run(TASK)) == ["a", "b", "c", "a", "b"]


async def test_round_robin_resumes_after_a_handoff() -> None:
    team = Team(
        name="t",
        members=[
            member("a", "solver", MemberReply(content="a hands to c", handoff="c"), "a again"),
            counting("b"),
            counting("c"),
        ],
        max_turns=4,
    )
    assert order(await team.run(TASK)) == ["a", "c", "a", "b"]


async def test_handoffs_can_be_ignored_and_a_schedule_may_repeat_names() -> None:
    team = Team(
        name="t",
        members=[
            member("a", "solver", MemberReply(content="to c", handoff="c"), "a more"),
            counting("b"),
            counting("c"),
        ],
        policy=RoundRobin(["a", "b", "a", "c"], handoffs=False),
        max_turns=6,
    )
    assert order(await team.run(TASK)) == ["a", "b", "a", "c", "a", "b"]


async def test_an_order_naming_a_stranger_is_rejected() -> None:
    team = Team(name="t", members=[counting("a")], policy=RoundRobin(["a", "zed"]))
    with pytest.raises(ValueError, match="zed"):
        await team.run(TASK)


async def test_a_selector_function_chooses_the_speaker() -> None:
    def pick(state: TeamState) -> str:
        return "critic" if state.turn % 2 else "solver"

    team = Team(
        name="t",
        members=[counting("solver"), counting("critic", "critic")],
        policy=Selector(pick, allow_repeat=True),
        max_turns=4,
    )
    assert order(await team.run(TASK)) == ["solver", "critic", "solver", "critic"]


async def test_a_selector_model_chooses_among_the_allowed_members() -> None:
    asked: list[ModelRequest] = []

    def choose(request: ModelRequest) -> ModelResponse:
        asked.append(request)
        allowed = request.output_schema["properties"]["speaker"]["enum"]  # type: ignore[index]
        return ModelResponse(output={"speaker": allowed[-1]})

    team = Team(
        name="t",
        members=[counting("planner", "planner"), counting("solver"), counting("critic", "critic")],
        policy=Selector(model=FunctionModel(choose)),
        max_turns=3,
    )
    assert order(await team.run(TASK)) == ["critic", "solver", "critic"]
    assert asked[1].output_schema["properties"]["speaker"]["enum"] == ["planner", "solver"]  # type: ignore[index]
    assert "- critic: critic" in (asked[0].messages[0].content or "")


async def test_an_invalid_selection_falls_back_to_round_robin() -> None:
    team = Team(
        name="t",
        members=[counting("a"), counting("b")],
        policy=Selector(lambda state: "nobody"),
        max_turns=3,
    )
    assert order(await team.run(TASK)) == ["a", "b", "a"]


def test_a_selector_needs_exactly_one_way_to_choose() -> None:
    with pytest.raises(ValueError):
        Selector()


# --- patterns -------------------------------------------------------------------------------


async def test_planner_then_solvers() -> None:
    team = planner_solver(
        member("plan", "planner", "1. Survey staff 2. Check coverage"),
        [
            member("s1", "solver", MemberReply(content="Staff favour it.", confidence=0.8)),
            member("s2", "solver", MemberReply(content="Coverage holds. DONE", confidence=0.7)),
        ],
    )
    result = await team.run(TASK)
    assert order(result) == ["plan", "s1", "s2"]
    assert result.answer == "Coverage holds."  # the solver that said DONE gives the answer
    assert result.report.termination_reason is TerminationReason.QUALITY_REACHED


async def test_proposer_and_critic_revise_until_accepted() -> None:
    critic_replies = [
        MemberReply(content="No data on coverage.", verdict="reject", handoff="proposer"),
        MemberReply(content="Convincing now. DONE", verdict="accept"),
    ]
    team = proposer_critic(
        member(
            "proposer",
            "solver",
            MemberReply(content="Yes, morale would rise.", confidence=0.5),
            MemberReply(content="Yes: morale rises and a rota keeps coverage.", confidence=0.8),
        ),
        member("critic", "critic", *critic_replies),
    )
    result = await team.run(TASK)
    assert order(result) == ["proposer", "critic", "proposer", "critic"]
    assert result.answer == "Yes: morale rises and a rota keeps coverage."
    assert result.report.status is ConvergenceStatus.CONVERGED
    assert result.report.conflicts == ()  # the latest review accepted


async def test_a_critics_last_word_rejection_is_an_unresolved_review_disagreement() -> None:
    team = proposer_critic(
        counting("proposer"),
        member("critic", "critic", MemberReply(content="Still unconvincing.", verdict="reject")),
        max_rejections=2,
    )
    result = await team.run(TASK)
    assert result.stop.kind == "validation_failed"
    (conflict,) = result.report.conflicts
    assert conflict.kind is ConflictKind.REVIEW_DISAGREEMENT and not conflict.resolved
    assert result.report.status is ConvergenceStatus.BLOCKED


async def test_a_rejection_acted_upon_counts_as_resolved() -> None:
    team = proposer_critic(
        counting("proposer"),
        member(
            "critic", "critic", MemberReply(content="Redo.", verdict="reject", handoff="proposer")
        ),
        max_turns=3,
    )
    result = await team.run(TASK)
    assert order(result) == ["proposer", "critic", "proposer"]
    (conflict,) = result.report.conflicts
    assert conflict.resolved and "redo proposer" in conflict.resolution


async def test_a_controlled_debate_ends_with_the_arbiter() -> None:
    team = debate(
        [
            member(
                "pro",
                "solver",
                MemberReply(content="For: morale.", fields={"decision": "yes"}),
                "For: retention.",
            ),
            member(
                "con",
                "solver",
                MemberReply(content="Against: coverage.", fields={"decision": "no"}),
                "Against: cost.",
            ),
        ],
        member(
            "judge",
            "arbiter",
            MemberReply(
                content="Pilot it for one quarter.",
                fields={"decision": "pilot"},
                confidence=0.75,
                stop=True,
            ),
        ),
        rounds=2,
    )
    result = await team.run(TASK)
    assert order(result) == ["pro", "con", "pro", "con", "judge"]
    assert result.answer == "Pilot it for one quarter."
    (mismatch,) = result.report.conflicts
    assert mismatch.kind is ConflictKind.ARTIFACT_MISMATCH and mismatch.field == "decision"
    assert mismatch.resolved and "judge" in mismatch.resolution  # the arbiter decided
    assert result.report.termination_reason is TerminationReason.QUALITY_REACHED


async def test_self_ask_sub_questions_then_the_final_decision() -> None:
    asker = member(
        "asker",
        "planner",
        "Sub-question: does coverage hold?",
        "Sub-question: does output hold?",
        MemberReply(content="Yes, move to a four-day week.", stop=True, confidence=0.8),
    )
    answerer = member("answerer", "solver", "Coverage holds with a rota.", "Output held in pilots.")
    result = await self_ask(asker, answerer).run(TASK)
    assert order(result) == ["asker", "answerer", "asker", "answerer", "asker"]
    assert result.answer == "Yes, move to a four-day week."


async def test_produce_test_fix_until_the_verifier_passes() -> None:
    verdicts = [
        MemberReply(content="Fails: no coverage plan.", verdict="reject", handoff="producer"),
        MemberReply(content="All checks pass. DONE", verdict="accept"),
    ]
    team = produce_test_fix(
        member(
            "producer",
            "solver",
            MemberReply(content="Plan v1", fields={"plan": "v1"}),
            MemberReply(content="Plan v2 with rota", fields={"plan": "v2"}),
        ),
        member("tester", "verifier", *verdicts),
    )
    result = await team.run(TASK)
    assert order(result) == ["producer", "tester", "producer", "tester"]
    assert result.answer == "Plan v2 with rota"
    assert result.report.conflicts == ()  # the fixed version passed its test


async def test_an_unverified_fix_is_untested_not_failed() -> None:
    team = produce_test_fix(
        counting("producer"),
        member(
            "tester",
            "verifier",
            MemberReply(content="Fails.", verdict="reject", handoff="producer"),
        ),
        max_turns=3,
    )
    result = await team.run(TASK)
    assert result.report.conflicts == ()
    assert result.report.termination_reason is TerminationReason.MAX_ROUNDS_REACHED


def test_patterns_check_the_roles() -> None:
    with pytest.raises(ConfigError, match="critic"):
        proposer_critic(counting("a"), counting("b"))
    with pytest.raises(ConfigError):
        debate([counting("a")], counting("j", "arbiter"))
    with pytest.raises(ConfigError, match="verifier"):
        produce_test_fix(counting("a"), counting("b", "critic"))
    with pytest.raises(ConfigError, match="planner"):
        self_ask(counting("a"), counting("b"))
    with pytest.raises(ConfigError, match="planner"):
        planner_solver(counting("a"), counting("b"))


async def test_several_solvers_without_a_final_word_are_aggregated() -> None:
    team = Team(
        name="t",
        members=[
            member(
                "s1",
                "solver",
                MemberReply(content="Morale rises in pilots.", confidence=0.9, fields={"n": 61}),
            ),
            member(
                "s2",
                "solver",
                MemberReply(content="Costs stay flat in pilots.", confidence=0.6, fields={"n": 60}),
            ),
            member("c", "critic", MemberReply(content="Both fine.", verdict="accept", stop=True)),
        ],
        termination=None,
    )
    result = await team.run(TASK)
    assert result.answer == "Morale rises in pilots.\nCosts stay flat in pilots."
    assert result.confidence == 0.6  # the minimum, not the mean
    assert result.aggregated is not None and result.aggregated.details["n"] == 61
    mismatch = result.report.conflicts[0]
    assert mismatch.resolved and "s1's value" in mismatch.resolution
    last = Team(name="t", members=team.members, synthesis="last")
    assert (await last.run(TASK)).answer == "Costs stay flat in pilots."


async def test_a_member_with_a_planner_that_never_spoke_is_a_dependency_inconsistency() -> None:
    team = Team(
        name="t",
        members=[member("plan", "planner", "1. think"), member("s", "solver", "Answer. DONE")],
        policy=RoundRobin(["s", "plan"]),
    )
    result = await team.run(TASK)
    (conflict,) = result.report.conflicts
    assert conflict.kind is ConflictKind.DEPENDENCY_INCONSISTENCY
    assert result.report.status is ConvergenceStatus.BLOCKED


async def test_declared_dependencies_override_the_role_defaults() -> None:
    team = Team(
        name="t",
        members=[
            member("plan", "planner", "1. think"),
            Member(
                name="s",
                role=TeamRole.SOLVER,
                function=member("x", "solver", "Answer. DONE").function,
                depends_on=(),
            ),
        ],
        policy=RoundRobin(["s", "plan"]),
    )
    assert (await team.run(TASK)).report.conflicts == ()
