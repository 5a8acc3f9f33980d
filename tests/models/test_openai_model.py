"""OpenAIModel over real HTTP against the fake server: the wire format, answers, usage, settings."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from harness.exceptions import ConfigError, ModelRequestError
from harness.models import ChatMessage, ToolCall, resolve_model
from harness.models.openai import OpenAIModel
from tests.models._requests import LOOKUP, OUTPUTS, SCHEMA, act_request
from tests.models.fake_openai import FakeOpenAI, message, tool_call


async def test_request_goes_over_the_wire_in_chat_completions_form(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url, api_key="sk-test")
    request = act_request(
        messages=(
            ChatMessage(role="user", content='{"scopedRequest": "next payday"}'),
            ChatMessage(
                role="assistant",
                tool_calls=(ToolCall(id="call_1", name="lookup", arguments={"q": "payday"}),),
            ),
            ChatMessage(role="tool", content="Friday", tool_call_id="call_1", name="lookup"),
        )
    )
    await model.request(request)
    await model.aclose()
    body = fake.requests[0]
    assert body["model"] == "gpt-4o-mini"
    assert body["messages"] == [
        {"role": "system", "content": "You are payroll."},
        {"role": "user", "content": '{"scopedRequest": "next payday"}'},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"q": "payday"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "Friday"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Look a thing up.",
                "parameters": LOOKUP.parameters,
                "strict": False,
            },
        }
    ]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "payroll_outputs", "schema": SCHEMA, "strict": True},
    }
    assert fake.headers[0]["authorization"] == "Bearer sk-test"


async def test_request_without_tools_or_schema_sends_neither(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message("Hello there.")
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    response = await model.request(act_request(tools=(), output_schema=None, output_name=None))
    await model.aclose()
    assert response.text == "Hello there."
    assert response.output is None
    assert "tools" not in fake.requests[0]
    assert "response_format" not in fake.requests[0]


async def test_tool_calls_come_back_parsed(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(
        tool_calls=[tool_call("lookup", {"q": "payday"}, id="call_9"), tool_call("lookup", "")]
    )
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    response = await model.request(act_request())
    await model.aclose()
    assert response.tool_calls[0] == ToolCall(id="call_9", name="lookup", arguments={"q": "payday"})
    assert response.tool_calls[1].arguments == {}  # an empty arguments string means no arguments
    assert response.output is None


async def test_structured_output_usage_and_cost(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS
    assert response.model == "gpt-4o-mini-2024-07-18"
    usage = response.usage
    assert usage.requests == 1
    assert usage.input_tokens > 0 and usage.output_tokens > 0
    expected = (usage.input_tokens * 0.15 + usage.output_tokens * 0.60) / 1_000_000
    assert usage.cost_usd == pytest.approx(expected)


async def test_cost_is_none_for_an_unknown_model_and_prices_override() -> None:
    async with FakeOpenAI(model="my-local-llama") as fake:
        unknown = OpenAIModel("my-local-llama", base_url=fake.url)
        priced = OpenAIModel("my-local-llama", base_url=fake.url, prices={"my-local-llama": (1, 2)})
        plain = await unknown.request(act_request(output_schema=None))
        custom = await priced.request(act_request(output_schema=None))
        await unknown.aclose()
        await priced.aclose()
    assert plain.usage.cost_usd is None
    assert plain.usage.input_tokens > 0
    assert custom.usage.cost_usd == pytest.approx(
        (custom.usage.input_tokens * 1 + custom.usage.output_tokens * 2) / 1_000_000
    )


async def test_refusal_is_reported_as_a_refusal(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(refusal="I can't help with that.")
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    response = await model.request(act_request())
    await model.aclose()
    assert response.refusal == "I can't help with that."
    assert response.output is None and not response.tool_calls
    assert len(fake.requests) == 1  # a refusal is an answer, not something to repair


async def test_missing_key_is_a_config_error_at_first_use_naming_the_variable() -> None:
    model = OpenAIModel("gpt-4o-mini")  # constructing needs no key
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        await model.request(act_request())


async def test_a_local_base_url_needs_no_key(fake: FakeOpenAI) -> None:
    model = resolve_model("openai:gpt-4o-mini", base_url=fake.url)
    response = await model.request(act_request(output_schema=None))
    await model.aclose()
    assert response.text == '{"ok": true}'


async def test_settings_come_from_the_environment(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    monkeypatch.setenv("OPENAI_BASE_URL", fake.url)
    monkeypatch.setenv("OPENAI_ORG_ID", "org-123")
    model = OpenAIModel("gpt-4o-mini")
    await model.request(act_request(output_schema=None))
    await model.aclose()
    assert fake.headers[0]["authorization"] == "Bearer sk-from-env"
    assert fake.headers[0]["openai-organization"] == "org-123"


async def test_azure_settings_from_the_environment(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", fake.url.removesuffix("/v1"))
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "azure-key")
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-10-21")
    model = OpenAIModel("helpdesk-mini")
    await model.request(act_request(output_schema=None))
    await model.aclose()
    assert (
        fake.paths[0] == "/openai/deployments/helpdesk-mini/chat/completions?api-version=2024-10-21"
    )
    assert fake.headers[0]["api-key"] == "azure-key"


async def test_azure_without_a_version_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    model = OpenAIModel("x", azure_endpoint="https://example.invalid", api_key="k")
    with pytest.raises(ConfigError, match="OPENAI_API_VERSION"):
        await model.request(act_request())


def test_bad_settings_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="needs a name"):
        OpenAIModel(" ")
    with pytest.raises(ConfigError, match="timeout"):
        OpenAIModel("gpt-4o", timeout=0)
    with pytest.raises(ConfigError, match="max_retries"):
        OpenAIModel("gpt-4o", max_retries=-1)


async def test_concurrent_requests_share_one_client(fake: FakeOpenAI) -> None:
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url)
    responses = await asyncio.gather(
        *(model.request(act_request(output_schema=None)) for _ in range(8))
    )
    await model.aclose()
    assert len(responses) == 8 and model.attempts == 8 and len(fake.requests) == 8


@contextmanager
def _server_in_thread() -> Iterator[FakeOpenAI]:
    loop = asyncio.new_event_loop()
    server = FakeOpenAI()
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.__aenter__())
        started.set()
        loop.run_forever()
        loop.run_until_complete(server.__aexit__(None, None, None))
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(5)
    try:
        yield server
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def test_one_model_works_across_event_loops() -> None:
    """Scripts call run_sync() once per message: each call runs on a new event loop."""
    with _server_in_thread() as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url, max_retries=0)
        for _ in range(2):
            response = asyncio.run(_request_and_close(model))
            assert json.loads(response) == {"ok": True}


async def _request_and_close(model: OpenAIModel) -> str:
    response = await model.request(act_request(output_schema=None))
    await model.aclose()
    return response.text or ""


async def test_connection_errors_are_retried_then_reported() -> None:
    # With the circuit breaker off every retry goes out (with it, two refused attempts open it:
    # tests/models/test_breaker.py).
    model = OpenAIModel(
        "gpt-4o-mini",
        base_url="http://127.0.0.1:9/v1",
        max_retries=2,
        backoff=0,
        settings={"breaker_timeouts": 0},
    )
    with pytest.raises(ModelRequestError, match=r"after 3 attempts: cannot reach") as caught:
        await model.request(act_request())
    await model.aclose()
    assert caught.value.attempts == 3
    assert caught.value.status is None


def test_without_the_openai_package_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib
    import sys

    from harness.exceptions import MissingExtraError

    monkeypatch.setitem(sys.modules, "openai", None)
    monkeypatch.delitem(sys.modules, "harness.models.openai")
    with pytest.raises(MissingExtraError, match=r"connected-agent-harness\[openai\]"):
        importlib.import_module("harness.models.openai")
    with pytest.raises(MissingExtraError):
        resolve_model("openai:gpt-4o-mini")
