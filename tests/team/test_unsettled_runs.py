"""A team whose run did not converge (blocked, failed) hands out no answer, and says why.

Its draft stays in ``TeamResult.answer`` for the audit, but the contract's outputs carry the
reason and hand the task back as an open question, so a parent never relays a rejected or
unverified answer as the team's.
"""

from __future__ import annotations

import pytest

from harness import Parent, RulesModel
from harness.convergence import format_report
from harness.team import ConfidenceReached, Member, MemberReply, Team, TeamResult, TeamState
from harness.team.patterns import debate, proposer_critic
from subagents import Mode, validate_outputs
from tests.team._support import member

TASK = "What is the refund window?"
DRAFT = "The refund policy allows 90 days."


def solver(name: str, content: str, days: float) -> Member:
    reply = MemberReply(content=content, fields={"days": days}, confidence=0.8)
    return member(name, "solver", reply)


def rejected_team(**options: object) -> Team:
    return proposer_critic(
        member("proposer", "solver", MemberReply(content=DRAFT, confidence=0.9)),
        member(
            "critic",
            "critic",
            MemberReply(content="Wrong: the policy says 30 days, not 90.", verdict="reject"),
        ),
        **options,
    )


async def test_a_rejected_answer_is_not_handed_out_in_either_mode() -> None:
    result = await rejected_team().run(TASK)
    assert result.status == "blocked"
    assert result.answer == DRAFT  # kept for the audit
    silent = result.to_outputs("silent")
    assert silent["answered"] is False
    assert DRAFT not in silent["findings"] and "90" not in silent["findings"]
    assert "could not settle on an answer" in silent["findings"]
    assert "the review rejected the answer" in silent["findings"]
    assert silent["openQuestions"][0] == TASK
    direct = result.to_outputs("direct")
    assert direct["answered"] is False
    assert direct["interactionSummary"] == silent["findings"]
    assert direct["openQuestions"] == silent["openQuestions"]
    _, violations = validate_outputs(agent="t", mode=Mode.SILENT, raw=silent)
    assert violations == ()
    _, violations = validate_outputs(
        agent="t", mode=Mode.DIRECT, raw=direct, messages_sent=(direct["interactionSummary"],)
    )
    assert violations == ()


async def test_the_quality_line_agrees_with_a_rejecting_review() -> None:
    result = await rejected_team().run(TASK)
    quality = result.report.quality_state
    assert quality.score == 0.9 and quality.scored
    assert not quality.reached and quality.rejected_by_review
    assert "reached=False (the review rejected the answer)" in format_report(result.report)


async def test_a_debate_whose_arbiter_fails_hands_out_no_debaters_answer() -> None:
    async def arbiter_down(state: TeamState) -> MemberReply:
        raise ValueError("arbiter down")

    team = debate(
        [
            member("a", "solver", MemberReply(content="It is 20 days.", confidence=0.8)),
            member("b", "solver", MemberReply(content="It is 18 days.", confidence=0.8)),
        ],
        Member(name="judge", role="arbiter", function=arbiter_down),
        rounds=1,
    )
    result = await team.run("How many days?")
    assert result.status == "blocked"  # the debaters differ, and no arbiter settled it
    outputs = result.to_outputs("silent")
    assert "20 days" not in outputs["findings"] and "18 days" not in outputs["findings"]
    assert "arbiter judge failed" in outputs["findings"] and "ValueError" not in outputs["findings"]
    assert "its members' answers state values in conflict" in outputs["findings"]
    assert result.failures == ("arbiter judge failed: ValueError: arbiter down",)
    assert outputs["openQuestions"][0] == "How many days?"


async def test_solvers_tied_on_a_value_block_the_run_and_hand_out_neither() -> None:
    team = Team(
        name="t",
        members=[
            solver("a", "It is 20 days.", 20),
            solver("b", "It is 18 days.", 18),
        ],
        max_turns=2,
    )
    result = await team.run("How many days?")
    assert result.aggregated is not None and not result.aggregated.conflicts_resolved[0].resolved
    assert result.status == "blocked"
    outputs = result.to_outputs("silent")
    assert "members disagree on days" in outputs["findings"]
    assert "20 days" not in outputs["findings"] and "18 days" not in outputs["findings"]


async def test_solvers_writing_one_number_two_ways_agree() -> None:
    team = Team(
        name="t",
        members=[
            solver("a", "It is 20 days.", 20),
            solver("b", "Twenty days.", 20.0),
        ],
        termination=ConfidenceReached(0.8, senders=["b"]),
    )
    result = await team.run("How many days?")
    assert result.report.conflicts == ()
    assert result.status == "converged"
    assert result.to_outputs("silent")["findings"] == "It is 20 days.\nTwenty days."


async def test_a_parent_never_relays_the_rejected_answer() -> None:
    for mode in ("silent", "direct"):
        runs: list[TeamResult] = []
        bot = Parent(
            name="shop",
            model=RulesModel(),
            subagents=[
                rejected_team(on_result=runs.append).as_subagent(
                    name="policy",
                    description="Answers questions about the refund policy.",
                    mode=mode,  # type: ignore[arg-type]
                    examples=["what is the refund policy"],
                )
            ],
        )
        turn = await bot.conversation().send("what is the refund policy")
        (result,) = turn.results
        assert result.status == "partial" and not result.answered, mode
        assert all("90 days" not in m.text for m in turn.messages), mode
        assert runs[0].answer == DRAFT


# --- a failed member does not void an answer every member that answered agrees on ------------


async def _raises(state: TeamState) -> MemberReply:
    raise RuntimeError("model timeout")


def flaky_team(*replies: tuple[str, str, dict[str, object]]) -> Team:
    """z fails first, then each member answers; the last one says DONE."""
    members = [  # confidences differ, so a conflict is resolved, never a tie
        member(
            name,
            "solver",
            MemberReply(
                content=text,
                fields=fields,
                confidence=0.8 - n / 10,
                stop=n == len(replies) - 1,
            ),
        )
        for n, (name, text, fields) in enumerate(replies)
    ]
    return Team(name="t", members=[Member(name="z", role="solver", function=_raises), *members])


async def test_an_answer_the_answering_members_agree_on_goes_out_naming_the_failed_one() -> None:
    team = flaky_team(
        ("a", "It is 20 days.", {"days": 20}), ("b", "Twenty days of leave.", {"days": 20.0})
    )
    result = await team.run("How many days?")
    assert result.status == "failed" and result.failed_members == ("z",)
    assert result.settled and result.unsettled_reasons() == ()
    direct = result.to_outputs("direct")
    assert direct["answered"] is True
    assert direct["interactionSummary"].startswith(result.answer)
    assert "z" in direct["interactionSummary"].split(result.answer)[1]
    assert TASK not in direct["openQuestions"] and "How many days?" not in direct["openQuestions"]
    silent = result.to_outputs("silent")
    assert silent["findings"] == direct["interactionSummary"]
    _, violations = validate_outputs(
        agent="t", mode=Mode.DIRECT, raw=direct, messages_sent=(direct["interactionSummary"],)
    )
    assert violations == ()


async def test_one_answering_member_and_a_failed_one_hand_out_its_answer() -> None:
    result = await flaky_team(("a", "It is 20 days.", {})).run("How many days?")
    assert result.status == "failed"
    assert result.to_outputs("direct")["answered"] is True


@pytest.mark.parametrize(
    ("replies", "status"),
    [
        ((("a", "It is 20 days.", {}), ("b", "It is 18 days.", {})), "blocked"),
        ((("a", "It is 20 days.", {"days": 20}), ("b", "It is 20 days.", {"days": 18})), "blocked"),
        # no value in conflict, so nothing blocks; but a failed run hands out an answer only
        # when the members that answered say one thing, and these two cannot be shown to
        ((("a", "Yes, you may.", {}), ("b", "Only with approval.", {})), "failed"),
    ],
    ids=["texts-differ", "fields-differ", "no-values-to-compare"],
)
async def test_members_that_answered_and_differ_still_hand_out_nothing(
    replies: tuple[tuple[str, str, dict[str, object]], ...], status: str
) -> None:
    result = await flaky_team(*replies).run("How many days?")
    assert result.status == status and not result.settled
    direct = result.to_outputs("direct")
    assert direct["answered"] is False and direct["openQuestions"][0] == "How many days?"
    assert "solver z failed" in direct["interactionSummary"]
    assert "model timeout" not in direct["interactionSummary"]


async def test_a_rejecting_review_with_a_failed_member_hands_out_nothing() -> None:
    team = Team(
        name="t",
        members=[
            member("p", "solver", MemberReply(content=DRAFT, confidence=0.9)),
            member("c", "critic", MemberReply(content="Wrong.", verdict="reject", handoff="p")),
            Member(name="z", role="solver", function=_raises),
        ],
        max_turns=3,
    )
    result = await team.run(TASK)
    assert not result.settled and result.to_outputs("direct")["answered"] is False


@pytest.mark.parametrize("role", ["critic", "verifier"])
async def test_an_answer_whose_checker_failed_is_not_handed_out(role: str) -> None:
    team = Team(
        name="t",
        members=[
            member("p", "solver", MemberReply(content=DRAFT, confidence=0.9)),
            Member(name="c", role=role, function=_raises),
        ],
        max_turns=3,
    )
    result = await team.run(TASK)
    assert result.status == "failed" and result.failed_members == ("c",)
    assert not result.settled
    direct = result.to_outputs("direct")
    assert direct["answered"] is False and DRAFT not in direct["interactionSummary"]
    assert f"{role} c failed" in direct["interactionSummary"]
    assert "RuntimeError" not in direct["interactionSummary"]


async def test_a_settled_run_never_says_the_review_rejected_its_answer() -> None:
    drafts = iter(
        (
            MemberReply(content="Draft 1: 12 days.", confidence=0.9),
            MemberReply(content="Draft 2: 14 days.", confidence=0.9, stop=True),
        )
    )

    async def propose(state: TeamState) -> MemberReply:
        return next(drafts)

    critic = member("c", "critic", MemberReply(content="Wrong.", verdict="reject", handoff="p"))
    team = Team(name="t", members=[Member(name="p", role="solver", function=propose), critic])
    result = await team.run(TASK)
    assert result.status == "converged" and result.settled
    assert result.to_outputs("direct")["interactionSummary"] == "Draft 2: 14 days."
    assert not result.report.quality_state.rejected_by_review
    assert "rejected" not in format_report(result.report).splitlines()[-1]
