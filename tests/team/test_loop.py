"""The team loop: model and function members, the message schema, journal, scratchpad, events."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from harness.exceptions import ConfigError, UsageError
from harness.models import FunctionModel, ModelResponse, ScriptedModel
from harness.team import (
    Journal,
    Member,
    MemberReply,
    Team,
    TeamMessage,
    TeamRole,
    TeamState,
    parse_text_reply,
    strip_protocol,
)
from harness.team.messages import MessageContext, MessageMetadata
from tests.team._support import counting, member, types

TASK = "What does research say about four-day work weeks?"


# --- the message schema ---------------------------------------------------------------------


def test_the_text_protocol_is_parsed() -> None:
    reply = parse_text_reply(
        "The pilot kept output steady.\nCONFIDENCE: 0.7\nVERDICT: Accept\nHANDOFF: arbiter\nNEED_TOOL\nDONE"
    )
    assert reply.content == "The pilot kept output steady."
    assert (reply.confidence, reply.verdict, reply.handoff) == (0.7, "accept", "arbiter")
    assert reply.needs_tool and reply.stop
    plain = parse_text_reply("Nothing special; we are done here.")
    assert not plain.stop and plain.handoff is None and plain.confidence is None
    assert strip_protocol("Answer. DONE") == "Answer."


def test_team_messages_follow_one_strict_frozen_schema() -> None:
    message = TeamMessage(
        turn=1,
        sender="solver",
        role=TeamRole.SOLVER,
        content="x",
        context=MessageContext(task_id="T-1"),
        metadata=MessageMetadata(correlation_id="T-1", confidence=0.6),
    )
    dumped = message.model_dump(mode="json")
    assert set(dumped) == {
        "turn", "sender", "role", "goal", "content", "context", "constraints", "tools",
        "signals", "metadata", "fields", "open_questions",
    }  # fmt: skip
    assert set(dumped["signals"]) == {"handoff", "stop", "needs_tool", "verdict"}
    assert dumped["context"] == {"task_id": "T-1", "memory_ref": None}
    with pytest.raises(ValidationError):
        message.content = "changed"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        TeamMessage.model_validate({**dumped, "surprise": 1})
    with pytest.raises(ValidationError):
        MessageMetadata(correlation_id="x", confidence=1.5)


def test_the_journal_only_grows() -> None:
    journal = Journal()
    first = TeamMessage(
        turn=1,
        sender="a",
        role=TeamRole.SOLVER,
        content="x",
        context=MessageContext(task_id="c"),
        metadata=MessageMetadata(correlation_id="c"),
    )
    journal.append(first)
    with pytest.raises(ValueError, match="turn 1 after turn 1"):
        journal.append(first)
    assert journal.entries == (first,)
    assert not hasattr(journal, "remove") and not hasattr(journal, "__setitem__")


# --- model members --------------------------------------------------------------------------


async def test_a_model_member_gets_an_act_request_with_its_role_and_the_schema() -> None:
    model = ScriptedModel(
        [
            ModelResponse(output={"content": "1. Output 2. Wellbeing", "notes": {"steps": 2}}),
            ModelResponse(
                output={
                    "content": "Output held steady.",
                    "confidence": 0.8,
                    "fields": {"output": "steady"},
                    "stop": True,
                }
            ),
        ]
    )
    team = Team(
        name="research",
        members=[
            Member(name="planner", role=TeamRole.PLANNER, goal="Split the question"),
            Member(name="solver", role=TeamRole.SOLVER, instructions="Cite a source."),
        ],
        model=model,
    )
    result = await team.run(TASK, correlation_id="run-42")
    first, second = model.calls
    assert (first.output_name, first.agent, second.agent) == ("team_message", "planner", "solver")
    assert "Role: planner" in first.system and "Goal: Split the question" in first.system
    assert "Role: solver" in second.system and "Cite a source." in second.system
    assert first.output_schema == MemberReply.model_json_schema()
    assert first.context is not None and first.context.scoped_request == TASK  # type: ignore[union-attr]
    assert first.messages[0].content == f"Task: {TASK}"
    # the solver sees the planner's message and the scratchpad
    assert "[turn 1] planner (planner): 1. Output 2. Wellbeing" in [
        m.content for m in second.messages
    ]
    assert 'Scratchpad: {"steps": 2}' in (second.messages[0].content or "")
    assert result.answer == "Output held steady." and result.confidence == 0.8
    assert result.journal[0].context.memory_ref == "scratchpad:steps"
    assert result.scratchpad == {"steps": 2}


async def test_a_member_can_use_its_own_model_and_plain_text() -> None:
    own = FunctionModel(lambda r: ModelResponse(text="Output held steady. CONFIDENCE: 0.9 DONE"))
    team = Team(name="t", members=[Member(name="s", role=TeamRole.SOLVER, model=own)])
    result = await team.run(TASK)
    assert result.answer == "Output held steady." and result.confidence == 0.9


async def test_malformed_model_output_is_a_failed_turn_not_a_crash() -> None:
    model = ScriptedModel(
        [
            ModelResponse(output={"text": "wrong key"}),
            ModelResponse(text=""),
            ModelResponse(output={"content": "Recovered. DONE"}),
        ]
    )
    team = Team(name="t", members=[Member(name="s", role=TeamRole.SOLVER)], model=model)
    result = await team.run(TASK)
    assert [m.metadata.valid for m in result.journal] == [False, False, True]
    assert "does not match the message schema" in (result.journal[0].metadata.error or "")
    assert "returned nothing" in (result.journal[1].metadata.error or "")
    assert result.answer == "Recovered."


async def test_a_member_without_any_driver_is_a_config_error() -> None:
    team = Team(name="t", members=[Member(name="s", role=TeamRole.SOLVER)])
    with pytest.raises(ConfigError, match="no model"):
        await team.run(TASK)


def test_member_and_team_configuration_is_checked() -> None:
    with pytest.raises(ConfigError):
        Member(name="bad name!", role=TeamRole.SOLVER)
    with pytest.raises(ConfigError):
        Member(
            name="s",
            role=TeamRole.SOLVER,
            model=ScriptedModel([]),
            function=counting("x").function,
        )
    with pytest.raises(ConfigError, match="repeat"):
        Team(name="t", members=[counting("a"), counting("a")])
    with pytest.raises(ConfigError):
        Team(name="t", members=[])


async def test_an_empty_task_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        await Team(name="t", members=[counting("a")]).run("  ")


# --- handoffs, scratchpad, state ------------------------------------------------------------


async def test_a_handoff_may_name_a_role_and_goes_to_that_member() -> None:
    team = Team(
        name="t",
        members=[
            member("writer", "solver", MemberReply(content="Draft.", handoff="critic")),
            member("helper", "solver", "I should be skipped."),
            member("reviewer", "critic", MemberReply(content="Good.", verdict="accept", stop=True)),
        ],
    )
    result = await team.run(TASK)
    assert [m.sender for m in result.journal] == ["writer", "reviewer"]
    assert result.journal[0].signals.handoff == "reviewer"


async def test_members_see_a_frozen_snapshot_of_the_run() -> None:
    seen: list[TeamState] = []

    async def look(state: TeamState) -> MemberReply:
        seen.append(state)
        return MemberReply(content=f"turn {state.turn} notes", notes={"count": state.turn})

    team = Team(
        name="t", members=[Member(name="s", role=TeamRole.SOLVER, function=look)], max_turns=2
    )
    await team.run(TASK)
    first, second = seen
    assert first.journal == () and second.journal[0].content == "turn 0 notes"
    assert second.speaker == "s" and second.scratchpad == {"count": 0}
    with pytest.raises(TypeError):
        second.scratchpad["count"] = 9  # type: ignore[index]
    assert isinstance(second.journal, tuple)


# --- events ---------------------------------------------------------------------------------


async def test_every_event_and_message_carries_the_correlation_id() -> None:
    sync_events: list[dict[str, object]] = []
    async_events: list[dict[str, object]] = []

    async def record(event: dict[str, object]) -> None:
        async_events.append(event)

    team = Team(
        name="t",
        members=[
            counting("a"),
            member("b", "critic", MemberReply(content="ok", verdict="accept", stop=True)),
        ],
        on_event=sync_events.append,
    )
    result = await team.run(TASK, correlation_id="corr-7", on_event=record)
    assert sync_events == async_events == list(result.events)
    assert all(e["correlation_id"] == "corr-7" for e in result.events)
    assert all(m.metadata.correlation_id == "corr-7" for m in result.journal)
    assert all(m.context.task_id == "corr-7" for m in result.journal)
    assert [e["seq"] for e in result.events] == list(range(1, len(result.events) + 1))
    assert types(result.events) == [
        "team.started",
        "team.message",
        "team.message",
        "team.stopped",
        "convergence.started",
        "consensus.updated",
        "convergence.reached",
        "team.finished",
    ]
    message_event = result.events[1]
    assert message_event["sender"] == "a" and message_event["turn"] == 1
    json.dumps(list(result.events))  # JSON-safe


async def test_a_random_correlation_id_is_used_when_none_is_given() -> None:
    team = Team(name="t", members=[member("s", "solver", "Answer. DONE")])
    first, second = await team.run(TASK), await team.run(TASK)
    assert first.correlation_id != second.correlation_id
    assert len(first.correlation_id) == 32


async def test_on_result_receives_every_finished_run() -> None:
    results: list[object] = []
    team = Team(name="t", members=[member("s", "solver", "Answer. DONE")], on_result=results.append)
    run = await team.run(TASK)
    assert results == [run]
