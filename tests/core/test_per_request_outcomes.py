"""Per request, not per call: which requests were answered (``Turn.answered``,
``TurnRecord.answered``) and which were lost when a call carrying several failed (the apology
names each, the missed-request check lists each), docs/contract.md "Several requests in one call".

The plan is fixed (``FixedPlanner``), so these tests exercise the runtime, the composers and the
missed-request check, not the offline planner's routing.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
from collections.abc import Mapping
from typing import Any

import pytest

import harness.cli.chat as local_chat
import harness.cli.remote_chat as remote_chat
from harness import Parent
from harness.composing import ResultView
from harness.detect.activities import plan_record
from harness.detect.transcript import PlannedRequest
from harness.hosting.core import PLAN_EVENT, plan_value
from harness.runtime.parts import fallback_reply
from subagents import ChildAgent, Mode, ToolContext
from tests.core.test_request_answers import PAYDAY, REQUESTS, FixedPlanner, per_request_handler

PTO = "You have 12 vacation days left."
VACATION = "how many vacation days do I have left"
MESSAGE = "How many vacation days do I have left, when is payday, and where is my W-2?"


def _agent(name: str, handler: Any, *, timeout: float | None = None) -> ChildAgent:
    return ChildAgent(
        name=name,
        mode=Mode.DIRECT,
        description=f"The {name} desk.",
        handler=handler,
        **({"timeout": timeout} if timeout is not None else {}),
    )


async def _pto(ctx: ToolContext) -> Mapping[str, Any]:
    return {"answered": True, "interactionSummary": PTO}


async def _broken(ctx: ToolContext) -> Mapping[str, Any]:
    raise RuntimeError("payroll is down")


async def _hangs(ctx: ToolContext) -> Mapping[str, Any]:
    await asyncio.sleep(30)
    raise AssertionError("the timeout should have ended the call")


# --- answered, per request ------------------------------------------------------------------------


async def test_a_call_that_answered_one_of_its_two_requests_is_listed_for_that_one() -> None:
    bot = Parent(
        name="helpdesk",
        subagents=[_agent("payroll", per_request_handler())],
        planner=FixedPlanner(*((r, "payroll") for r in REQUESTS)),
    )
    conversation = bot.conversation()
    turn = await conversation.send("when is payday and where is my W-2")
    payday = PlannedRequest(request=REQUESTS[0], agent="payroll")
    assert not turn.results[0].answered  # the call as a whole: one request is still open
    assert turn.answered == (payday,)
    [record] = conversation.transcript.turns
    assert record.answered == (payday,) and record.answered_by == ("payroll",)
    assert record.answered_request(payday)
    assert not record.answered_request(PlannedRequest(request=REQUESTS[1], agent="payroll"))
    # The plan event a served bot sends carries it, and a transcript reader reads it back.
    value = plan_value(turn)
    assert value["answered_by"] == ["payroll"]
    assert value["requests_answered"] == [{"agent": "payroll", "request": REQUESTS[0]}]
    read = plan_record({"type": "event", "name": PLAN_EVENT, "value": value}, 1)
    assert read is not None and read.answered == (payday,)
    # So does the conversation's stored state.
    restored = bot.conversation()
    restored.state.restore(conversation.snapshot(), agents=bot.subagents)
    assert restored.transcript.turns[0].answered == (payday,)


def test_a_record_without_per_request_answers_reads_its_agents_as_before() -> None:
    value = {"plan": [{"agent": "payroll", "request": REQUESTS[0]}], "answered_by": ["payroll"]}
    record = plan_record({"type": "event", "name": PLAN_EVENT, "value": value}, 1)
    assert record is not None and record.answered == ()
    assert record.answered_request(PlannedRequest(request=REQUESTS[0], agent="payroll"))


# --- a failed call, per request -------------------------------------------------------------------


def _three_requests(payroll: ChildAgent) -> Parent:
    return Parent(
        name="helpdesk",
        subagents=[payroll, _agent("pto", _pto)],
        planner=FixedPlanner((VACATION, "pto"), *((r, "payroll") for r in REQUESTS)),
    )


@pytest.mark.parametrize(
    ("payroll", "what"),
    [
        (_agent("payroll", _broken), "failed"),
        (_agent("payroll", _hangs, timeout=0.2), "timed out"),
    ],
    ids=["failed", "timed_out"],
)
async def test_a_failed_call_is_apologised_for_per_request(payroll: ChildAgent, what: str) -> None:
    bot = _three_requests(payroll)
    conversation = bot.conversation()
    turn = await conversation.send(MESSAGE)
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("pto", PTO),
        (
            "helpdesk",
            f'Sorry, I could not finish "{REQUESTS[0]}" and "{REQUESTS[1]}": the payroll service '
            f"{what}. Please try again later.",
        ),
    ]
    assert turn.answered == (PlannedRequest(request=VACATION, agent="pto"),)


async def test_a_request_another_agent_answered_is_not_apologised_for() -> None:
    backup = _agent("payroll_backup", per_request_handler())
    bot = Parent(
        name="helpdesk",
        subagents=[_agent("payroll", _broken), backup],
        planner=FixedPlanner(
            (REQUESTS[0], "payroll"), (REQUESTS[1], "payroll"), (REQUESTS[0], "payroll_backup")
        ),
    )
    conversation = bot.conversation()
    turn = await conversation.send("when is payday and where is my W-2")
    assert (backup.name, PAYDAY) in [(m.sender, m.text) for m in turn.messages]
    reply = turn.messages[-1]
    assert reply.sender == "helpdesk"
    assert reply.text.startswith(f'Sorry, I could not finish "{REQUESTS[1]}": the payroll service')
    assert REQUESTS[0] not in reply.text


def test_the_fallback_reply_names_each_request_of_a_failed_call() -> None:
    view = ResultView(
        agent="payroll",
        mode="direct",
        request="(1) when is payday; (2) where is my W-2",
        requests=REQUESTS,
        status="timed_out",
        answered=False,
    )
    assert fallback_reply([view]) == (
        f'Sorry, I could not finish "{REQUESTS[0]}" and "{REQUESTS[1]}".'
    )


# --- the chat's public seam -----------------------------------------------------------------------


def test_the_remote_chat_uses_only_the_local_chats_public_names() -> None:
    tree = ast.parse(inspect.getsource(remote_chat))
    imported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "harness.cli.chat"
        for alias in node.names
    ]
    assert "line_editing" in imported
    assert set(imported) <= set(local_chat.__all__)


def test_the_fallback_reply_apologises_once_for_every_failed_request_and_the_reply() -> None:
    """Two failed calls and a failed reply: one apology naming both requests, not "Sorry" three
    times (this is what the user reads in the chat)."""
    views = [
        ResultView(agent=agent, mode="direct", request=request, status=status, answered=False)
        for agent, request, status in (
            ("status", "is AA123 on time", "failed"),
            ("loyalty", "how many miles do I have", "timed_out"),
        )
    ]
    assert fallback_reply(views, apologise=True) == (
        'Sorry, I could not finish "is AA123 on time" and "how many miles do I have", and '
        "something went wrong on my side while I was writing my reply."
    )
    assert fallback_reply(views) == (
        'Sorry, I could not finish "is AA123 on time" and "how many miles do I have".'
    )
    assert fallback_reply([], apologise=True) == (
        "Sorry, something went wrong on my side while I was writing my reply."
    )
