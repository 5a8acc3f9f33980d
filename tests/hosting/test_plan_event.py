"""``harness serve`` sends a turn's plan to the channel on request (a ``harness.plan`` event), and
the endpoint channel puts it in the transcript, so deployed runs can be checked for missed
requests and wrong scopes too (issue 29)."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from harness.detect.activities import plan_record
from harness.detect.detectors import detect
from harness.hosting import create_app
from harness.simulate.endpoint import EndpointTarget
from tests.hosting._support import ADAPTERS, helpdesk, running

TWO_REQUESTS = "how many vacation days do I have left, and when is payday?"


async def _transcript(adapter: str, *, ask_plan: bool, send_plans: bool = False):  # type: ignore[no-untyped-def]
    app = create_app(helpdesk(), adapter=adapter, send_plans=send_plans)
    async with (
        running(app) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.2, ask_plan=ask_plan) as channel,
    ):
        return await channel.run_conversation([TWO_REQUESTS], conversation_id="planned")


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_plan_comes_when_the_activity_asks_for_it(adapter: str) -> None:
    transcript = asyncio.run(_transcript(adapter, ask_plan=True))
    assert [t.turn for t in transcript.turns] == [1]
    plan = transcript.turns[0].plan
    assert sorted(p.agent for p in plan) == ["payroll", "pto"]
    assert "pto" in transcript.turns[0].answered_by  # payroll is silent: the parent answers
    # The plan is not a message: the transcript's messages are the user's and the bot's alone.
    assert all(m.role in ("user", "bot") and m.text for m in transcript.messages)
    # With the plan, the detectors can check each request against the replies.
    assert not [f for f in detect(transcript) if f.kind == "missed_request"]


def test_no_plan_unless_asked_or_served_with_send_plans() -> None:
    assert asyncio.run(_transcript("botbuilder", ask_plan=False)).turns == []
    always = asyncio.run(_transcript("botbuilder", ask_plan=False, send_plans=True))
    assert sorted(p.agent for p in always.turns[0].plan) == ["payroll", "pto"]


def test_a_malformed_plan_event_is_an_empty_plan_not_an_error() -> None:
    record = plan_record({"type": "event", "name": "harness.plan", "value": {"plan": [1, {}]}}, 3)
    assert record is not None and record.turn == 3 and record.plan == ()
    assert plan_record({"type": "message", "text": "hi"}, 1) is None
    assert plan_record({"type": "event", "name": "other"}, 1) is None


def test_a_served_runs_plan_and_replies_are_enough_to_check_wrong_scope() -> None:
    """Over the wire, each sub-agent reply carries the request it answered and the plan event says
    whose request that was: the wrong-scope check is live for a deployed run. The served helpdesk
    answers in scope; the same transcript with the reply's sender swapped is flagged."""
    transcript = asyncio.run(_transcript("botbuilder", ask_plan=True))
    assert not [f for f in detect(transcript) if f.kind == "wrong_scope"]
    index, reply = next(
        (i, m) for i, m in enumerate(transcript.messages) if m.sender == "pto" and m.request
    )
    transcript.messages[index] = dataclasses.replace(reply, sender="payroll")
    (finding,) = [f for f in detect(transcript) if f.kind == "wrong_scope"]
    assert finding.senders == ("payroll",) and "planned for pto" in finding.evidence
