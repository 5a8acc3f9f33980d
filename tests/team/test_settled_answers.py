"""Which team runs hand out an answer, after the review of s60-fixteam: a planner's wrap-up is no
answer when no solver answered; paraphrases and complementary answers are no contradiction, only
values in conflict are; an exception's text never reaches the user; a member that failed on every
turn makes the call fail even when the run ends blocked; a stop token inside ``&`` concludes."""

from __future__ import annotations

from typing import Any

import pytest

from harness import Parent
from harness.team import (
    ConfidenceReached,
    MaxTurns,
    Member,
    MemberReply,
    StopToken,
    Team,
    TeamFailedError,
    TeamState,
)
from harness.team.outcome import agree, conflicting
from harness.team.patterns import debate
from subagents import ToolContext
from tests.team._support import member

SECRET = "401 Unauthorized for url 'https://hr.example/api?api_key=sk-live-123'"


async def _leaks(state: TeamState) -> MemberReply:
    raise RuntimeError(SECRET)


def _solver(name: str, text: str, *, stop: bool = False, confidence: float = 0.8) -> Member:
    return member(name, "solver", MemberReply(content=text, confidence=confidence, stop=stop))


async def test_a_planner_s_wrap_up_is_no_answer_when_no_solver_answered() -> None:
    turns = iter(range(10))

    async def plan(state: TeamState) -> MemberReply:
        if next(turns) == 0:
            return MemberReply(content="Steps: 1) productivity evidence 2) wellbeing evidence.")
        return MemberReply(content="Summary of the findings above.", stop=True)

    team = Team(
        name="t",
        members=[
            Member(name="p", role="planner", function=plan),
            Member(name="s1", role="solver", function=_leaks),
        ],
    )
    result = await team.run("What does research say about four-day weeks?")
    assert result.failed_members == ("s1",) and result.stop.kind == "stop_token"
    assert not result.settled
    direct = result.to_outputs("direct")
    assert direct["answered"] is False
    assert "the members that answered agree" not in direct["interactionSummary"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Paris is the capital of France.", "The capital of France is Paris."),
        (
            "Sick leave needs a doctor's note after three days.",
            "Sick leave is paid at full salary.",
        ),
    ],
    ids=["paraphrase", "complementary"],
)
@pytest.mark.parametrize("synthesis", ["auto", "last"])
async def test_paraphrases_and_complementary_answers_are_handed_out(
    first: str, second: str, synthesis: Any
) -> None:
    team = Team(
        name="t",
        synthesis=synthesis,
        members=[_solver("a", first), _solver("b", second, stop=True)],
    )
    result = await team.run("q")
    assert result.status == "converged" and result.settled
    assert result.to_outputs("direct")["answered"] is True


async def test_an_aggregated_paraphrase_is_handed_out() -> None:
    team = Team(
        name="t",
        members=[
            _solver("a", "Paris is the capital of France.", confidence=0.8),
            _solver("b", "The capital of France is Paris.", confidence=0.9),
        ],
        termination=ConfidenceReached(0.85),
    )
    result = await team.run("q")
    assert result.aggregated is not None and result.settled


async def test_answers_stating_values_in_conflict_block_the_run() -> None:
    team = Team(
        name="t",
        members=[
            _solver("a", "New hires get 20 PTO days a year."),
            _solver("b", "The wiki says eighteen days of paid leave.", stop=True),
        ],
    )
    result = await team.run("How many PTO days do new hires get?")
    assert result.status == "blocked" and not result.settled
    assert "state values in conflict" in result.to_outputs("direct")["interactionSummary"]


def test_what_conflicts() -> None:
    assert conflicting("It is 20 days.", "It is 18 days.")
    assert conflicting("20 days, and 5 carry over.", "18 days, and 5 carry over.")
    assert not conflicting("It is 20 days.", "Twenty days of leave.")
    assert not conflicting("A note after three days.", "It is paid at full salary.")
    assert not conflicting("Paris is the capital.", "The capital is Paris.")


def test_long_answers_are_compared_by_their_values() -> None:
    # 3,000 values each, over 10,000 characters: compared, not refused
    common = " ".join(f"Item {n} costs {n + 13} pounds." for n in range(3_000))
    assert len(common) > 10_000
    assert agree([common, common + " In all, 14 items."])
    assert not agree([common + " Total 99999.", common + " Total 88888."])
    assert conflicting(common + " Total 99999.", common + " Total 88888.")


async def test_an_exception_s_text_never_reaches_the_user() -> None:
    team = Team(
        name="research",
        members=[
            _solver("a", "New hires get 20 days."),
            Member(name="z", role="solver", function=_leaks),
            _solver("b", "New hires get 18 days.", stop=True),
        ],
    )
    result = await team.run("What does the leave policy say for new hires?")
    for mode in ("direct", "silent"):
        outputs = result.to_outputs(mode)
        text = outputs.get("interactionSummary") or outputs["findings"]
        assert "solver z failed" in text and "sk-live" not in text and "Unauthorized" not in text
    assert any(SECRET in line for line in result.failures)
    bot = Parent(
        name="helpdesk",
        model="rules",
        subagents=[
            team.as_subagent(
                name="research",
                description="Researches HR leave policy questions in depth.",
                examples=["what does the leave policy say"],
            )
        ],
    )
    turn = await bot.conversation().send("What does the leave policy say for new hires?")
    (call,) = turn.results
    assert call.status == "failed" and call.error is not None and SECRET in call.error
    assert all("sk-live" not in m.text for m in turn.messages)


async def test_a_debate_whose_arbiter_is_down_is_a_failed_call() -> None:
    async def down(state: TeamState) -> MemberReply:
        raise RuntimeError("arbiter backend down (HTTP 503)")

    team = debate(
        [
            member("pro", "solver", MemberReply(content="It is 20 days.")),
            member("con", "solver", MemberReply(content="It is 18 days.")),
        ],
        Member(name="judge", role="arbiter", function=down),
        rounds=1,
    )
    handler = team.as_subagent(name="policy", description="Policy debates.").handler
    assert handler is not None
    with pytest.raises(TeamFailedError) as caught:
        await handler(ToolContext(agent="policy", scoped_request="How many days?", history=None))
    assert caught.value.members == ("judge",)
    assert "arbiter backend down" in str(caught.value)


async def test_a_blocked_run_with_a_member_down_on_every_turn_is_a_failed_call() -> None:
    team = Team(
        name="research",
        members=[
            _solver("a", "New hires get 20 days."),
            Member(name="z", role="solver", function=_leaks),
            _solver("b", "New hires get 18 days.", stop=True),
        ],
    )
    result = await team.run("q")
    assert result.status == "blocked" and result.failed_call


async def test_a_settled_run_beside_a_member_down_is_no_failed_call() -> None:
    team = Team(
        name="t",
        members=[
            _solver("a", "It is 20 days."),
            Member(name="z", role="solver", function=_leaks),
            _solver("b", "Twenty days of leave.", stop=True),
        ],
    )
    result = await team.run("q")
    assert result.settled and not result.failed_call


async def test_a_stop_token_inside_and_concludes_the_run_at_the_turn_limit() -> None:
    turns = iter(range(10))

    async def speak(state: TeamState) -> MemberReply:
        n = next(turns)
        texts = ("Twenty days.", "The answer: 20 days.", "Still 20 days.", "It is 20 days.")
        return MemberReply(content=texts[n], confidence=0.9, stop=n == 1)

    team = Team(
        name="t",
        max_turns=4,
        members=[Member(name="a", role="solver", function=speak)],
        termination=StopToken() & MaxTurns(4),
    )
    result = await team.run("q")
    assert result.stop.kind == "max_turns" and "said DONE" in result.stop.detail
    assert result.status == "converged" and result.settled
    assert "before a member said DONE" not in result.to_outputs("direct")["interactionSummary"]
