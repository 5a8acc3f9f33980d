"""Structured-output modes, the automatic fallback, wire tolerance and settings on the wire.

Each test runs OpenAIModel over real HTTP against the fake server, which stands in for the kinds of
OpenAI-compatible servers met in practice (a llama.cpp-like server that rejects ``json_schema`` and
``content: null``, one that sends tool calls without ids or raw control characters in JSON).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from harness import ChildAgent, Parent
from harness.cli.model_flags import parse_model_settings
from harness.exceptions import ConfigError, ModelRequestError, UsageError
from harness.models import AgentCard, ChatMessage, ModelRequest, ToolCall
from harness.models._slots import CALLER_DEADLINE, ConcurrencyLimit
from harness.models.openai import OpenAIModel
from harness.models.settings import ModelSettings
from harness.planning import PLAN_SCHEMA, PlanInput
from harness.planning import plan_request as planning_request
from tests.models._requests import OUTPUTS, SCHEMA, act_request
from tests.models.fake_openai import FakeOpenAI, Fault, message, tool_call

PLAN = {"requests": [{"request": "next payday", "agent": "payroll"}]}
# What llama-cpp-python 0.3.36's server answers to a json_schema response_format (HTTP 500).
LLAMA_REJECTS_SCHEMA = Fault(
    status=500,
    body={
        "error": {
            "message": "1 validation error for CreateChatCompletionRequest\n"
            "response_format.type\n  Input should be 'text' or 'json_object'",
            "type": "internal_server_error",
        }
    },
)


def plan_request() -> ModelRequest:
    """What the LLM planner asks the parent's model (harness.planning.plan_request)."""
    cards = tuple(
        AgentCard(name=name, description=f"{name} questions", mode="direct")
        for name in ("pto", "payroll")
    )
    given = PlanInput(
        parent="helpdesk", message="When is payday?", agents=cards, system="You are the helpdesk."
    )
    return planning_request(given)


def llama_like(answer: dict[str, Any]) -> Any:
    """A server that accepts only ``text`` and ``json_object`` response formats."""

    def respond(body: dict[str, Any]) -> dict[str, Any] | Fault:
        fmt = body.get("response_format")
        if fmt is not None and fmt.get("type") not in ("text", "json_object"):
            return LLAMA_REJECTS_SCHEMA
        return message(answer)

    return respond


async def test_json_schema_is_the_default_and_limits_plan_agents_to_known_names(
    fake: FakeOpenAI,
) -> None:
    fake.responder = lambda body: message(PLAN)
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    response = await model.request(plan_request())
    await model.aclose()
    assert response.output == PLAN
    fmt = fake.requests[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    agent = fmt["json_schema"]["schema"]["properties"]["requests"]["items"]["properties"]["agent"]
    assert agent["enum"] == ["pto", "payroll", "helpdesk"]
    assert "enum" not in json.dumps(PLAN_SCHEMA)  # the shared schema is left alone


async def test_a_plan_naming_an_unknown_agent_is_repaired(fake: FakeOpenAI) -> None:
    answers = iter([{"requests": [{"request": "payday", "agent": "hr"}]}, PLAN])
    fake.responder = lambda body: message(next(answers))
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    response = await model.request(plan_request())
    await model.aclose()
    assert response.output == PLAN and model.repairs == 1
    repair = fake.requests[1]["messages"][-1]["content"]
    assert "must be one of" in repair and '"hr"' in repair


async def test_json_object_mode_sends_the_schema_in_the_format_and_the_prompt(
    fake: FakeOpenAI,
) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    model = OpenAIModel("m", base_url=fake.url, settings={"output_mode": "json_object"})
    response = await model.request(act_request())
    await model.aclose()
    body = fake.requests[0]
    assert response.output == OUTPUTS
    assert body["response_format"] == {"type": "json_object", "schema": SCHEMA}
    system = body["messages"][0]["content"]
    assert system.startswith("You are payroll.") and json.dumps(SCHEMA) in system
    assert body["tool_choice"] == "auto"  # the request has a tool


async def test_tools_mode_forces_the_answer_function_when_there_is_no_other_tool(
    fake: FakeOpenAI,
) -> None:
    fake.responder = lambda body: message(tool_calls=[tool_call("plan", PLAN)])
    model = OpenAIModel("m", base_url=fake.url, settings={"output_mode": "tools"})
    response = await model.request(plan_request())
    await model.aclose()
    body = fake.requests[0]
    assert response.output == PLAN and response.tool_calls == ()
    assert "response_format" not in body
    assert body["tool_choice"] == {"type": "function", "function": {"name": "plan"}}
    [answer] = body["tools"]
    assert answer["function"]["name"] == "plan"
    assert answer["function"]["parameters"]["properties"]["requests"]["items"]["required"] == [
        "request",
        "agent",
    ]


async def test_tools_mode_with_real_tools_requires_a_call_and_keeps_real_calls(
    fake: FakeOpenAI,
) -> None:
    answers = iter(
        [
            message(tool_calls=[tool_call("lookup", {"q": "payday"})]),
            message(tool_calls=[tool_call("payroll_outputs", OUTPUTS)]),
        ]
    )
    fake.responder = lambda body: next(answers)
    model = OpenAIModel("m", base_url=fake.url, settings={"output_mode": "tools"})
    first = await model.request(act_request())
    second = await model.request(act_request())
    await model.aclose()
    assert [c.name for c in first.tool_calls] == ["lookup"] and first.output is None
    assert second.output == OUTPUTS and second.tool_calls == ()
    body = fake.requests[0]
    assert body["tool_choice"] == "required"
    assert [t["function"]["name"] for t in body["tools"]] == ["lookup", "payroll_outputs"]


async def test_prompt_mode_reads_fenced_json_with_raw_control_characters(fake: FakeOpenAI) -> None:
    raw = (
        '```json\n{"answered": false, "findings": "Friday,\n December 4", "openQuestions": []}\n```'
    )
    fake.responder = lambda body: message(raw)
    model = OpenAIModel("m", base_url=fake.url, settings={"output_mode": "prompt"})
    response = await model.request(act_request(tools=()))
    await model.aclose()
    body = fake.requests[0]
    assert "response_format" not in body and "tools" not in body
    assert json.dumps(SCHEMA) in body["messages"][0]["content"]
    assert response.output == {**OUTPUTS, "findings": "Friday,\n December 4"}
    assert model.repairs == 0


async def test_control_characters_in_json_schema_answers_are_accepted(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(
        '{"answered": false, "findings": "a\tb", "openQuestions": []}'
    )
    model = OpenAIModel("m", base_url=fake.url)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == {**OUTPUTS, "findings": "a\tb"} and model.repairs == 0


async def test_a_rejected_response_format_falls_back_once_and_is_remembered(
    fake: FakeOpenAI,
) -> None:
    fake.responder = llama_like(OUTPUTS)
    model = OpenAIModel("smollm2", base_url=fake.url, backoff=0)
    first = await model.request(act_request())
    second = await model.request(act_request())
    await model.aclose()
    assert first.output == OUTPUTS == second.output
    formats = [body["response_format"]["type"] for body in fake.requests]
    # One rejected json_schema request, then json_object only: no retries of the 500.
    assert formats == ["json_schema", "json_object", "json_object"]
    assert model.output_mode == "json_object"
    assert len(model.fallbacks) == 1 and "json_schema -> json_object" in model.fallbacks[0]
    assert first.usage.requests == 2 and second.usage.requests == 1
    assert model.usage.requests == 3 == model.attempts


async def test_json_object_rejected_too_falls_back_to_prompt(fake: FakeOpenAI) -> None:
    def respond(body: dict[str, Any]) -> dict[str, Any] | Fault:
        if "response_format" in body:
            return Fault(status=400, body={"error": {"message": "unknown field response_format"}})
        return message(OUTPUTS)

    fake.responder = respond
    model = OpenAIModel("m", base_url=fake.url, backoff=0)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS and model.output_mode == "prompt"
    assert len(fake.requests) == 3 and "response_format" not in fake.requests[2]


async def test_other_500s_are_retried_not_taken_for_a_format_problem(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.fail(Fault(status=500))
    model = OpenAIModel("m", base_url=fake.url, backoff=0)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS and model.output_mode == "json_schema"
    assert model.fallbacks == [] and len(fake.requests) == 2


TOOL_TURN = (
    ChatMessage(role="user", content='{"scopedRequest": "next payday"}'),
    ChatMessage(
        role="assistant",
        tool_calls=(ToolCall(id="call_1", name="lookup", arguments={"q": "payday"}),),
    ),
    ChatMessage(role="tool", content="Friday", tool_call_id="call_1", name="lookup"),
)


@pytest.mark.parametrize("null_content", [True, False])
async def test_tool_call_messages_carry_null_or_empty_content(
    fake: FakeOpenAI, null_content: bool
) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    model = OpenAIModel("m", base_url=fake.url, settings={"null_content": null_content})
    await model.request(act_request(messages=TOOL_TURN))
    await model.aclose()
    assistant = fake.requests[0]["messages"][2]
    assert assistant["content"] == (None if null_content else "")


async def test_a_server_rejecting_null_content_gets_empty_strings(fake: FakeOpenAI) -> None:
    def respond(body: dict[str, Any]) -> dict[str, Any] | Fault:
        if any(m.get("content") is None for m in body["messages"]):
            return Fault(status=500, body={"error": {"message": "content: Input should be str"}})
        return message(OUTPUTS)

    fake.responder = respond
    model = OpenAIModel("m", base_url=fake.url, backoff=0)
    first = await model.request(act_request(messages=TOOL_TURN))
    await model.request(act_request(messages=TOOL_TURN))
    await model.aclose()
    assert first.output == OUTPUTS and model.null_content is False
    assert [body["messages"][2]["content"] for body in fake.requests] == [None, "", ""]


async def test_tool_calls_without_ids_get_ids(fake: FakeOpenAI) -> None:
    call = tool_call("lookup", {"q": "payday"})
    del call["id"]
    fake.responder = lambda body: message(tool_calls=[call, {**call, "type": "function"}])
    model = OpenAIModel("m", base_url=fake.url)
    response = await model.request(act_request())
    await model.aclose()
    ids = [c.id for c in response.tool_calls]
    assert len(ids) == 2 and all(ids) and ids[0] != ids[1]


async def test_settings_reach_the_wire(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    settings = {
        "temperature": 0,
        "seed": 42,
        "max_tokens": 256,
        "top_p": 0.9,
        "parallel_tool_calls": False,
        "tool_choice": "required",
        "extra_body": {"top_k": 1},
        "extra_headers": {"X-Trace": "abc"},
    }
    model = OpenAIModel("m", base_url=fake.url, settings=settings)
    await model.request(act_request())
    await model.request(act_request(tools=()))
    await model.aclose()
    body = fake.requests[0]
    for key in ("temperature", "seed", "max_tokens", "top_p", "parallel_tool_calls"):
        assert body[key] == settings[key]
    assert body["tool_choice"] == "required" and body["top_k"] == 1
    assert fake.headers[0]["x-trace"] == "abc"
    without_tools = fake.requests[1]
    assert "tool_choice" not in without_tools and "parallel_tool_calls" not in without_tools
    assert without_tools["seed"] == 42


async def test_a_forced_tool_choice_names_the_function(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(tool_calls=[tool_call("lookup", {"q": "x"})])
    model = OpenAIModel("m", base_url=fake.url, settings={"tool_choice": "lookup"})
    await model.request(act_request())
    await model.aclose()
    assert fake.requests[0]["tool_choice"] == {"type": "function", "function": {"name": "lookup"}}


async def test_a_failed_call_is_still_counted_on_the_model(fake: FakeOpenAI) -> None:
    fake.fail(Fault(status=503), Fault(status=503))
    model = OpenAIModel("m", base_url=fake.url, max_retries=1, backoff=0)
    with pytest.raises(ModelRequestError):
        await model.request(act_request())
    await model.aclose()
    assert model.usage.requests == 2 == len(fake.requests)


def test_settings_are_validated_with_the_key_named() -> None:
    with pytest.raises(
        ConfigError,
        match=r"unknown model setting 'temprature' \(did you mean 'temperature'\?\); known settings:",
    ):
        OpenAIModel("m", settings={"temprature": 0})
    with pytest.raises(ConfigError, match="model setting 'output_mode'"):
        ModelSettings.of({"output_mode": "xml"})
    assert OpenAIModel("m", timeout=5, settings={"timeout": 9}).timeout == 5


def test_model_setting_options_are_read_as_yaml_scalars() -> None:
    parsed = parse_model_settings(
        ["temperature=0", "seed=7", "tool_choice=auto", "parallel-tool-calls=false",
         'extra_headers={"X-A": "1"}', "output_mode=json_object"]
    )  # fmt: skip
    assert parsed == {
        "temperature": 0,
        "seed": 7,
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "extra_headers": {"X-A": "1"},
        "output_mode": "json_object",
    }
    assert ModelSettings.of(parsed).temperature == 0.0
    with pytest.raises(UsageError, match="key=value"):
        parse_model_settings(["temperature"])


async def test_a_concurrency_limit_keeps_one_request_in_flight(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.delay = 0.05
    model = OpenAIModel("m", base_url=fake.url, settings={"max_concurrency": 1})
    responses = await asyncio.gather(*(model.request(act_request()) for _ in range(4)))
    await model.aclose()
    assert [r.output for r in responses] == [OUTPUTS] * 4
    assert fake.max_in_flight == 1
    unlimited = OpenAIModel("m", base_url=fake.url)
    fake.max_in_flight = 0
    await asyncio.gather(*(unlimited.request(act_request()) for _ in range(4)))
    await unlimited.aclose()
    assert fake.max_in_flight > 1  # the limit, not the server, serialised them


async def test_time_queued_for_a_slot_does_not_eat_the_callers_deadline() -> None:
    limit = ConcurrencyLimit(1)
    release = asyncio.Event()

    async def holder() -> None:
        async with limit.slot():
            await release.wait()

    async def caller() -> tuple[float, float]:
        async with asyncio.timeout(0.2) as deadline:
            token = CALLER_DEADLINE.set(deadline)
            try:
                before = deadline.when()
                async with limit.slot() as waited:
                    after = deadline.when()
                    assert after is not None and before is not None
                    return after - before, waited
            finally:
                CALLER_DEADLINE.reset(token)

    async with asyncio.TaskGroup() as group:
        group.create_task(holder())
        waiting = group.create_task(caller())
        # Far longer than the caller's whole deadline: had the wait counted, it would have expired.
        await asyncio.sleep(0.6)
        release.set()
    moved, waited = waiting.result()
    # Measured from when the caller began to wait (it starts a little after the sleep does).
    assert waited > 0.2
    assert moved == pytest.approx(waited, abs=0.01)  # the deadline moved by the time queued
    assert limit.waited == pytest.approx(waited, abs=0.01)  # the holder waited for nothing


async def test_timeouts_are_not_retried_on_a_limited_model(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.delay = 1.0
    limited = OpenAIModel(
        "m", base_url=fake.url, timeout=0.1, backoff=0, settings={"max_concurrency": 1}
    )
    with pytest.raises(ModelRequestError, match=r"no answer within 0\.1s") as raised:
        await limited.request(act_request())
    await limited.aclose()
    assert raised.value.attempts == 1 and limited.usage.requests == 1
    retrying = OpenAIModel("m", base_url=fake.url, timeout=0.1, backoff=0, max_retries=1)
    with pytest.raises(ModelRequestError) as raised:
        await retrying.request(act_request())
    await retrying.aclose()
    assert raised.value.attempts == 2


def _minimal(schema: dict[str, Any]) -> Any:
    """The smallest value of a schema: what a terse but valid model would answer."""
    kind = schema.get("type")
    if kind == "object":
        return {name: _minimal(schema["properties"][name]) for name in schema.get("required", [])}
    if "enum" in schema:
        return schema["enum"][0]
    return {"string": "noted", "boolean": False, "array": []}.get(str(kind))


async def test_subagents_queued_behind_a_one_slot_server_do_not_time_out(fake: FakeOpenAI) -> None:
    names = [f"check{n}" for n in range(8)]

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        schema = body["response_format"]["json_schema"]
        if schema["name"] == "plan":
            return message({"requests": [{"request": "check it", "agent": n} for n in names]})
        if schema["name"] == "reply":
            return message({"message": "All checked.", "route": []})
        return message(_minimal(schema["schema"]))

    fake.responder = respond
    fake.delay = 0.1  # each request takes 0.1 s; eight in a row take 0.8 s
    model = OpenAIModel("m", base_url=fake.url, settings={"max_concurrency": 1})
    agents = [
        ChildAgent(name=n, description=f"Checks {n}.", mode="silent", timeout=0.5) for n in names
    ]
    bot = Parent(name="desk", model=model, subagents=agents)
    turn = await bot.conversation().send("check everything")
    await bot.aclose()
    assert fake.max_in_flight == 1
    assert sorted(r.agent for r in turn.results) == names
    assert {r.status for r in turn.results} == {"complete"}, [r.error for r in turn.results]


def test_a_reply_may_route_only_to_sub_agents() -> None:
    from harness.runtime.parts import COMPOSE_SCHEMA, compose_schema

    limited = compose_schema(("pto",))
    assert limited["properties"]["route"]["items"]["properties"]["agent"]["enum"] == ["pto"]
    assert "enum" not in json.dumps(COMPOSE_SCHEMA)  # the shared schema is left alone
    assert compose_schema(()) is COMPOSE_SCHEMA  # no sub-agents: nothing to limit


async def test_prompt_mode_finds_the_object_in_surrounding_text(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(f"Here is my answer: {json.dumps(OUTPUTS)} Thanks!")
    model = OpenAIModel("m", base_url=fake.url, settings={"output_mode": "prompt"})
    response = await model.request(act_request(tools=()))
    await model.aclose()
    assert response.output == OUTPUTS and model.repairs == 0


async def test_a_request_its_caller_gave_up_on_is_still_counted(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.delay = 5.0
    model = OpenAIModel("m", base_url=fake.url)
    loop = asyncio.get_running_loop()
    with pytest.raises(TimeoutError):
        # As a sub-agent's timeout cancels its model call: here once the server has the request,
        # however long a busy machine takes to send it.
        async with asyncio.timeout(None) as deadline:
            call = asyncio.ensure_future(model.request(act_request()))
            async with asyncio.timeout(120):
                while not fake.requests:  # noqa: ASYNC110 (the fake server has no event for it)
                    await asyncio.sleep(0.01)
            deadline.reschedule(loop.time())
            await call
    await model.aclose()
    assert model.usage.requests == 1 == len(fake.requests)
