"""A conversational agent holding the floor over several turns, and resuming it from a snapshot."""

from __future__ import annotations

import asyncio
import json

import pytest

from harness import (
    ChildAgent,
    ConfigError,
    ConnectedAgent,
    Mode,
    Parent,
    Reply,
    ToolContext,
    load_bot,
)
from harness.composing import RulesComposer
from tests.core._support import HELPDESK, planned_rules

ACCOUNT_TURN = "It's 123456789, and also how many vacation days have I taken?"


async def test_the_direct_deposit_dialogue_holds_the_floor_for_three_turns() -> None:
    bot = load_bot(HELPDESK)
    conversation = bot.conversation()

    first = await conversation.send("I want to change my direct deposit account")
    assert [m.sender for m in first.messages] == ["direct_deposit"]
    assert "account number" in first.messages[0].text
    assert conversation.active_agent == "direct_deposit"
    assert not first.results[0].answered

    second = await conversation.send(ACCOUNT_TURN)
    # The message is still split: the floor holder gets its own part, the rest is routed as usual.
    assert [(p.agent, p.request) for p in second.plan] == [
        ("direct_deposit", "It's 123456789"),
        ("pto", "how many vacation days have I taken"),
    ]
    deposit, pto = second.results
    assert deposit.agent == "direct_deposit" and deposit.status == "complete"
    assert not deposit.answered  # it still needs the user's confirmation
    assert deposit.outputs is not None
    assert deposit.outputs.scoped_request == "It's 123456789"
    assert deposit.outputs.open_questions == ()
    assert pto.answered
    # Both parts run concurrently, so either message may come first.
    said = {m.sender: (m.mode, m.text) for m in second.messages}
    assert sorted(said) == ["direct_deposit", "pto"] and len(second.messages) == 2
    assert said["direct_deposit"][0] == "conversational"
    assert "ending in 6789" in said["direct_deposit"][1]
    assert said["pto"][0] == "direct"
    assert "used 8 PTO days" in said["pto"][1]
    assert conversation.active_agent == "direct_deposit"

    third = await conversation.send("yes")
    assert [p.agent for p in third.plan] == ["direct_deposit"]
    assert third.results[0].answered
    assert [m.sender for m in third.messages] == ["direct_deposit"]
    assert "from the next payroll" in third.text
    assert conversation.active_agent is None
    assert conversation.transcript.turns[-1].answered_by == ("direct_deposit",)

    # Released: the next message is routed normally again.
    fourth = await conversation.send("How many vacation days do I have remaining?")
    assert [p.agent for p in fourth.plan] == ["pto"]


async def test_the_agent_remembers_its_own_dialogue_while_it_holds_the_floor() -> None:
    bot = load_bot(HELPDESK)
    conversation = bot.conversation()
    await conversation.send("I want to change my direct deposit account")
    state = conversation.agent_states["direct_deposit"]
    assert state["step"] == "account"
    assert "_dialogue" not in state  # the runtime keeps its own state apart from the agent's
    assert [d["role"] for d in conversation.state.dialogues["direct_deposit"]] == ["user", "agent"]
    await conversation.send("123456789")
    assert conversation.agent_states["direct_deposit"]["account"] == "123456789"
    await conversation.send("no")
    assert conversation.active_agent is None
    assert conversation.agent_states["direct_deposit"] == {}
    assert conversation.state.dialogues["direct_deposit"] == []


async def test_a_question_asked_while_the_agent_waits_for_an_answer_is_not_lost() -> None:
    bot = load_bot(HELPDESK)
    conversation = bot.conversation()
    await conversation.send("I want to change my direct deposit account")
    await conversation.send("123456789")
    turn = await conversation.send("when is my next payday?")
    assert "Friday, December 4" in turn.text
    assert conversation.active_agent == "direct_deposit"


async def test_a_snapshot_resumes_the_floor_and_the_agents_state_in_a_new_parent() -> None:
    conversation = load_bot(HELPDESK).conversation()
    await conversation.send("I want to change my direct deposit account")
    await conversation.send("123456789")
    stored = json.dumps(conversation.snapshot())

    resumed = load_bot(HELPDESK).conversation(id=conversation.id, state=json.loads(stored))
    assert resumed.active_agent == "direct_deposit"
    assert resumed.agent_states["direct_deposit"]["step"] == "confirm"
    assert resumed.transcript.turn_count == 2
    assert [m.to_json() for m in resumed.transcript] == [
        m.to_json() for m in conversation.transcript
    ]
    turn = await resumed.send("yes")
    assert turn.number == 3
    assert [m.sender for m in turn.messages] == ["direct_deposit"]
    assert "ending in 6789 from the next payroll" in turn.text
    assert resumed.active_agent is None
    assert len({m.id for m in resumed.transcript}) == len(resumed.transcript)
    assert [t.turn for t in resumed.transcript.turns] == [1, 2, 3]


async def test_a_resumed_conversation_keeps_its_id() -> None:
    conversation = load_bot(HELPDESK).conversation(id="conv-42")
    await conversation.send("I want to change my direct deposit account")
    resumed = load_bot(HELPDESK).conversation(state=conversation.snapshot())
    assert resumed.id == "conv-42"
    assert resumed.transcript.conversation == "conv-42"
    turn = await resumed.send("123456789")
    assert turn.messages[0].id.startswith("conv-42-")


async def test_a_snapshot_naming_an_agent_the_bot_no_longer_has_releases_the_floor() -> None:
    conversation = load_bot(HELPDESK).conversation()
    await conversation.send("I want to change my direct deposit account")
    state = conversation.snapshot()
    state["active_agent"] = "retired_agent"
    resumed = load_bot(HELPDESK).conversation(state=state)
    assert resumed.active_agent is None


def test_a_snapshot_of_an_unknown_version_is_refused() -> None:
    with pytest.raises(ConfigError, match="version"):
        load_bot(HELPDESK).conversation(state={"version": 99})


async def test_a_floor_holder_that_times_out_releases_the_floor() -> None:
    async def survey(ctx: ToolContext) -> Reply:
        """Run a short survey."""
        if not ctx.state:
            ctx.state["asked"] = True
            return Reply(text="How happy are you with IT, from 1 to 5?", done=False)
        await asyncio.sleep(5)
        return Reply(text="Thanks!")

    agent = ConnectedAgent(
        name="survey",
        description="Runs the IT satisfaction survey.",
        mode=Mode.CONVERSATIONAL,
        tools=[survey],
        timeout=0.2,
    )
    conversation = Parent(
        name="desk", model=planned_rules(), composer=RulesComposer(), subagents=[agent]
    ).conversation()
    await conversation.send("survey please")
    assert conversation.active_agent == "survey"
    turn = await conversation.send("5")
    assert turn.results[0].status == "timed_out"
    assert conversation.active_agent is None
    assert [m.sender for m in turn.messages] == ["desk"]
    assert "could not finish" in turn.text


async def test_a_conversational_handler_holds_the_floor_until_it_reports_answered() -> None:
    async def quiz(ctx: ToolContext) -> dict[str, object]:
        count = ctx.state["count"] = ctx.state.get("count", 0) + 1
        done = count == 3
        return {
            "answered": done,
            "scopedRequest": ctx.scoped_request,
            "interactionSummary": "All done." if done else f"Question {count} of 3?",
            "openQuestions": [],
        }

    agent = ChildAgent(name="quiz", description="A quiz.", mode=Mode.CONVERSATIONAL, handler=quiz)
    conversation = Parent(
        name="desk", model=planned_rules(), composer=RulesComposer(), subagents=[agent]
    ).conversation()
    holders = []
    for text in ("quiz start", "yes", "no"):
        turn = await conversation.send(text)
        assert [m.sender for m in turn.messages] == ["quiz"]
        holders.append(conversation.active_agent)
    assert holders == ["quiz", "quiz", None]
    assert conversation.transcript.bot_messages()[-1].text == "All done."
