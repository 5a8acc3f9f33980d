"""A whole helpdesk turn on OpenAIModel over real HTTP: prompts, messages, usage and failures."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import harness
from harness.exceptions import ModelBehaviorError
from harness.models.openai import OpenAIModel
from harness.runtime.parent import Parent
from subagents import Usage
from tests.models.fake_openai import FakeOpenAI, Fault, caller_of, message

CONFIG = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"
QUESTION = (
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
)
PYTHON_REPR = re.compile(r"\bNone\b|['\"]\s*:\s*(?:True|False)\b|\[\{'|\{'\w|\['\w")
"""Python reprs in a prompt: None, a dict or list repr, True/False as values."""
PTO_ANSWER = "You have 12 PTO days left this year (out of 20)."
PAYDAY = "Your next payday is Friday, December 4; you are paid every other Friday."


@pytest.fixture
async def bot(helpdesk_server: FakeOpenAI) -> AsyncIterator[Parent]:
    model = OpenAIModel("gpt-4o-mini", base_url=helpdesk_server.url, api_key="test", backoff=0)
    parent = harness.load_bot(CONFIG, model=model)
    yield parent
    await parent.aclose()


def _system(body: dict[str, Any]) -> str:
    return str(body["messages"][0]["content"])


async def test_multi_intent_turn_with_direct_and_silent_agents(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    turn = await bot.conversation().send(QUESTION)
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("pto", PTO_ANSWER),
        ("helpdesk", PAYDAY),
    ]
    assert [(p.agent, p.request) for p in turn.plan] == [
        ("pto", "How many vacation days do I have remaining"),
        ("payroll", "when will I be getting my next paycheck?"),
    ]
    results = {r.agent: r for r in turn.results}
    assert results["pto"].answered and results["pto"].status == "complete"
    assert results["payroll"].outputs is not None
    assert results["payroll"].outputs.findings == PAYDAY
    # what went over the wire: plan, pto (tool, send, outputs), payroll (tool, outputs), reply
    callers = [caller_of(body) for body in helpdesk_server.requests]
    expected = ["plan", *["pto_outputs"] * 3, *["payroll_outputs"] * 2, "reply"]
    assert sorted(callers) == sorted(expected)
    pto_tools = [
        t["function"]["name"] for t in helpdesk_server.calls_from("pto_outputs")[0]["tools"]
    ]
    payroll_tools = [
        t["function"]["name"] for t in helpdesk_server.calls_from("payroll_outputs")[0]["tools"]
    ]
    assert "send_message_to_user" in pto_tools
    assert "send_message_to_user" not in payroll_tools  # silence is structural


async def test_prompts_hold_the_generated_instructions_and_no_python_repr(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    await bot.conversation().send(QUESTION)
    plan = helpdesk_server.calls_from("plan")[0]
    assert "answered" in _system(plan)  # the generated top-level instruction
    assert "Be brief and friendly." in _system(plan)  # plus the user's own
    assert "If its answered output is true" in _system(plan)  # descriptions for the router
    pto = helpdesk_server.calls_from("pto_outputs")[0]
    assert "Fulfil the request in the `scopedRequest` input" in _system(pto)
    assert "never guess a number" in _system(pto)  # the sub-agent's own instructions
    payroll = helpdesk_server.calls_from("payroll_outputs")[0]
    assert "Do not respond to the user." in _system(payroll)
    for body in helpdesk_server.requests:
        for item in body["messages"]:
            text = str(item.get("content") or "")
            for tool in item.get("tool_calls", []):
                text += tool["function"]["arguments"]
            found = PYTHON_REPR.search(text)
            assert found is None, (caller_of(body), found and found.group(), text[:200])


async def test_usage_is_summed_per_subagent_and_per_turn(bot: Parent) -> None:
    turn = await bot.conversation().send(QUESTION)
    results = {r.agent: r for r in turn.results}
    assert results["pto"].usage.requests == 3
    assert results["payroll"].usage.requests == 2
    assert turn.usage.requests == 7  # plan + 3 + 2 + reply
    summed = sum((r.usage for r in turn.results), Usage())
    assert turn.usage.input_tokens > summed.input_tokens > 0
    assert turn.usage.cost_usd is not None and summed.cost_usd is not None
    assert turn.usage.cost_usd > summed.cost_usd > 0


async def test_schema_breaking_subagent_fails_without_crashing_the_turn(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    brain = helpdesk_server.responder

    def broken_payroll(body: dict[str, Any]) -> Any:
        answer = brain(body)
        if caller_of(body) == "payroll_outputs" and "tool_calls" not in answer:
            return message({"answered": "maybe"})
        return answer

    helpdesk_server.responder = broken_payroll
    turn = await bot.conversation().send(QUESTION)
    results = {r.agent: r for r in turn.results}
    payroll = results["payroll"]
    assert payroll.status == "failed"
    assert payroll.error is not None
    assert "ModelBehaviorError" in payroll.error and "after one repair attempt" in payroll.error
    assert results["pto"].status == "complete"
    assert [m.sender for m in turn.messages] == ["pto", "helpdesk"]
    assert "could not finish" in turn.messages[-1].text
    assert len(helpdesk_server.calls_from("payroll_outputs")) == 3  # tool, bad, repair (bad)


async def test_strict_mode_raises_the_model_behavior_error(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    brain = helpdesk_server.responder
    helpdesk_server.responder = lambda body: (
        message("{oops") if caller_of(body) == "payroll_outputs" else brain(body)
    )
    strict = Parent(
        name=bot.name,
        instructions=bot.instructions,
        subagents=list(bot.subagents.values()),
        model=bot.model,
        strict=True,
    )
    with pytest.raises(ModelBehaviorError) as caught:
        await strict.conversation().send(QUESTION)
    assert caught.value.agent == "payroll"


async def test_a_refusing_subagent_is_reported_as_refused(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    brain = helpdesk_server.responder
    helpdesk_server.responder = lambda body: (
        message(refusal="I can't share that.") if caller_of(body) == "pto_outputs" else brain(body)
    )
    turn = await bot.conversation().send(QUESTION)
    pto = next(r for r in turn.results if r.agent == "pto")
    assert pto.status == "failed"
    assert pto.error is not None and "refused: I can't share that." in pto.error
    assert [m.sender for m in turn.messages] == ["helpdesk"]


async def test_rate_limited_subagent_is_retried_and_the_turn_is_unchanged(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    helpdesk_server.fail(
        Fault(status=429, headers={"retry-after-ms": "10"}, caller="payroll_outputs"),
        Fault(status=502, caller="payroll_outputs"),
    )
    turn = await bot.conversation().send(QUESTION)
    assert [(m.sender, m.text) for m in turn.messages] == [
        ("pto", PTO_ANSWER),
        ("helpdesk", PAYDAY),
    ]
    model = bot.model
    assert isinstance(model, OpenAIModel)
    assert model.attempts == 9 and len(helpdesk_server.requests) == 9  # 7 calls + 2 retries
    assert turn.usage.requests == 9  # every attempt counts, the retried ones too


async def test_a_plan_that_stays_malformed_falls_back_to_the_parent(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    brain = helpdesk_server.responder
    helpdesk_server.responder = lambda body: (
        message('{"requests": [') if caller_of(body) == "plan" else brain(body)
    )
    turn = await bot.conversation().send(QUESTION)
    assert [p.agent for p in turn.plan] == ["helpdesk"]
    assert turn.messages and turn.messages[-1].sender == "helpdesk"


async def test_a_server_that_keeps_failing_gives_a_clear_error(
    bot: Parent, helpdesk_server: FakeOpenAI
) -> None:
    helpdesk_server.fail(*(Fault(status=500, caller="plan") for _ in range(4)))
    # The turn fails (issue 16: a failing plan is a failed turn, not a lost conversation).
    turn = await bot.conversation().send(QUESTION)
    assert turn.failed
    assert "plan request of 'helpdesk' after 4 attempts" in (turn.error or "")
