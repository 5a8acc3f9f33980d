"""A team sub-agent whose members failed is a failed call, as an agent that raises is; and a huge
team answer is cut before it reaches the user."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import Parent
from harness.cli import cli
from harness.runtime.state import MAX_MESSAGE_UNITS
from harness.team import Member, MemberReply, Team, TeamFailedError, TeamResult, TeamState
from subagents import ToolContext
from tests.team._support import member
from tests.team.down_team_bot import make

QUESTION = "What does research say about four-day work weeks?"
WHY = "solver s failed 3 times: RuntimeError: HR backend down (HTTP 503)"


async def test_the_call_fails_with_the_member_and_its_error() -> None:
    turn = await make().conversation().send(QUESTION)
    (result,) = turn.results
    assert result.agent == "research" and result.status == "failed"
    assert result.error == f"TeamFailedError: {WHY}"
    assert "the research service failed" in turn.messages[-1].text


async def test_handle_raises_with_the_result_and_the_failed_members() -> None:
    team = make().subagents["research"]
    assert team.handler is not None
    with pytest.raises(TeamFailedError) as caught:
        await team.handler(ToolContext(agent="research", scoped_request=QUESTION, history=None))
    assert caught.value.agent == "research" and caught.value.members == ("s",)
    assert str(caught.value) == WHY
    assert isinstance(caught.value.result, TeamResult) and not caught.value.result.settled


async def test_a_member_failure_beside_an_answer_that_settles_is_no_failed_call() -> None:
    async def down(state: TeamState) -> MemberReply:
        raise RuntimeError("down")

    team = Team(
        name="t",
        members=[
            Member(name="z", role="solver", function=down),
            member("a", "solver", MemberReply(content="It is 20 days.", stop=True)),
        ],
    )
    bot = Parent(
        name="hr",
        model="rules",
        subagents=[
            team.as_subagent(
                name="leave",
                description="Answers questions about leave policy.",
                examples=["how many leave days do new hires get"],
            )
        ],
    )
    turn = await bot.conversation().send("how many leave days do new hires get")
    (result,) = turn.results
    assert result.status == "complete" and result.error is None
    assert "It is 20 days." in turn.messages[-1].text


def test_simulate_exits_1_and_names_the_member(tmp_path: Path) -> None:
    scenario = tmp_path / "scenarios.yaml"
    scenario.write_text(
        f'scenarios:\n  - name: research\n    turns:\n      - user: "{QUESTION}"\n',
        encoding="utf-8",
    )
    out = tmp_path / "report.json"
    ran = CliRunner().invoke(
        cli,
        [
            *("simulate", str(scenario), "--bot", "tests.team.down_team_bot:make", "-q"),
            *("--format", "json", "-o", str(out)),
        ],
    )
    assert ran.exit_code == 1, ran.output
    assert f"research failed: TeamFailedError: {WHY}" in ran.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["totals"]["failed"] == 1


@pytest.mark.parametrize("mode", ["silent", "direct"])
async def test_a_huge_team_answer_is_cut_before_it_reaches_the_user(mode: str) -> None:
    big = "New hires get 20 PTO days. " + " ".join(
        f"Clause {i} of the leave policy applies to staff group {i}." for i in range(5_000)
    )
    team = Team(name="t", members=[member("s", "solver", MemberReply(content=big, stop=True))])
    bot = Parent(
        name="hr",
        model="rules",
        subagents=[
            team.as_subagent(
                name="leave",
                mode=mode,  # type: ignore[arg-type]
                description="Answers questions about leave policy.",
                examples=["what does the leave policy say"],
            )
        ],
    )
    turn = await bot.conversation().send("what does the leave policy say")
    (message,) = turn.messages
    assert len(big) > 10 * MAX_MESSAGE_UNITS
    assert len(message.text) <= MAX_MESSAGE_UNITS
    assert message.text.startswith("New hires get 20 PTO days. Clause 0")
    assert message.text.endswith(
        f"[The rest of this message was cut: it had {len(big):,} UTF-16 code units, and a message "
        f"holds at most {MAX_MESSAGE_UNITS:,}.]"
    )
