"""OpenAIModel failures over real HTTP: retries, Retry-After, timeouts, repairs, clear errors."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from harness.exceptions import ModelBehaviorError, ModelRequestError
from harness.models._retry import RetryPolicy, retry_after_seconds
from harness.models._wire import schema_errors
from harness.models.openai import OpenAIModel
from tests.models._requests import OUTPUTS, SCHEMA, act_request
from tests.models.fake_openai import FakeOpenAI, Fault, message, tool_call


class Sleeps:
    """Records the waits between attempts instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def model_for(fake: FakeOpenAI, **options: Any) -> tuple[OpenAIModel, Sleeps]:
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url, **options)
    sleeps = Sleeps()
    model._sleep = sleeps
    return model, sleeps


@pytest.fixture
def outputs_server(fake: FakeOpenAI) -> FakeOpenAI:
    fake.responder = lambda body: message(OUTPUTS)
    return fake


async def test_429_and_500_are_retried_and_counted(outputs_server: FakeOpenAI) -> None:
    model, sleeps = model_for(outputs_server)
    outputs_server.fail(Fault(status=429, headers={"Retry-After": "7"}), Fault(status=503))
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS
    assert model.attempts == 3 and len(outputs_server.requests) == 3
    assert sleeps.delays[0] == 7.0  # the server's Retry-After, not the backoff
    assert 0.5 <= sleeps.delays[1] <= 1.0  # backoff 0.5 doubled for the 2nd retry, with jitter
    # Every attempt the server saw is a request; the failed ones report no tokens.
    assert response.usage.requests == 3 == len(outputs_server.requests)
    assert response.usage.input_tokens > 0 and model.usage == response.usage


async def test_retry_after_ms_wins_over_retry_after(outputs_server: FakeOpenAI) -> None:
    model, sleeps = model_for(outputs_server)
    outputs_server.fail(Fault(status=429, headers={"retry-after-ms": "250", "Retry-After": "9"}))
    await model.request(act_request())
    await model.aclose()
    assert sleeps.delays == [0.25]


async def test_retry_after_is_really_waited(outputs_server: FakeOpenAI) -> None:
    model = OpenAIModel("gpt-4o-mini", base_url=outputs_server.url)
    outputs_server.fail(Fault(status=429, headers={"retry-after-ms": "300"}))
    started = time.perf_counter()
    await model.request(act_request())
    await model.aclose()
    assert time.perf_counter() - started >= 0.3


async def test_error_after_the_last_retry_names_status_and_attempts(fake: FakeOpenAI) -> None:
    model, sleeps = model_for(fake, max_retries=2)
    fake.fail(*(Fault(status=500) for _ in range(3)))
    with pytest.raises(ModelRequestError) as caught:
        await model.request(act_request())
    await model.aclose()
    error = caught.value
    assert (error.status, error.attempts) == (500, 3)
    assert "after 3 attempts: HTTP 500: fake error 500" in str(error)
    assert "'payroll'" in str(error)
    assert len(sleeps.delays) == 2


async def test_client_errors_are_not_retried_and_give_a_hint(fake: FakeOpenAI) -> None:
    model, sleeps = model_for(fake)
    fake.fail(Fault(status=401, body={"error": {"message": "Incorrect API key provided"}}))
    with pytest.raises(ModelRequestError, match=r"Incorrect API key.*check the API key") as caught:
        await model.request(act_request())
    await model.aclose()
    assert caught.value.attempts == 1 and caught.value.status == 401
    assert sleeps.delays == []


async def test_a_retry_after_beyond_the_limit_ends_the_retries(fake: FakeOpenAI) -> None:
    model, sleeps = model_for(fake)
    fake.fail(Fault(status=429, headers={"Retry-After": "3600"}))
    with pytest.raises(ModelRequestError, match="asked to wait 3600s") as caught:
        await model.request(act_request())
    await model.aclose()
    assert caught.value.attempts == 1 and sleeps.delays == []


async def test_each_attempt_has_a_deadline(outputs_server: FakeOpenAI) -> None:
    model, _ = model_for(outputs_server, max_retries=1)
    outputs_server.fail(Fault(status=200, delay=2.0), Fault(status=200, delay=2.0))
    started = time.perf_counter()
    with pytest.raises(ModelRequestError, match=r"after 2 attempts: no answer within 0\.2s") as err:
        await model.request(act_request(timeout=0.2))
    await model.aclose()
    assert err.value.attempts == 2
    assert time.perf_counter() - started < 1.5


async def test_the_model_timeout_applies_when_the_request_sets_none(
    outputs_server: FakeOpenAI,
) -> None:
    model, _ = model_for(outputs_server, timeout=0.2, max_retries=0)
    outputs_server.fail(Fault(status=200, delay=2.0))
    with pytest.raises(ModelRequestError, match=r"no answer within 0\.2s"):
        await model.request(act_request())
    await model.aclose()


async def test_a_body_that_is_not_json_is_retried(outputs_server: FakeOpenAI) -> None:
    model, _ = model_for(outputs_server)
    outputs_server.fail(Fault(status=200, body="<html>bad gateway</html>"))
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS and model.attempts == 2


async def test_malformed_json_gets_one_repair_attempt(fake: FakeOpenAI) -> None:
    answers = iter([message('{"answered": false, "findings": "Fri'), message(OUTPUTS)])
    fake.responder = lambda body: next(answers)
    model, _ = model_for(fake)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS
    assert model.repairs == 1 and response.usage.requests == 2
    repair = fake.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"answered": false, "findings": "Fri'}
    assert repair[-1]["role"] == "user"
    assert "not valid JSON" in repair[-1]["content"]
    assert "payroll_outputs" in repair[-1]["content"]


async def test_schema_breaking_json_twice_is_a_model_behavior_error(fake: FakeOpenAI) -> None:
    bad = {"answered": "no", "findings": None}
    fake.responder = lambda body: message(bad)
    model, _ = model_for(fake)
    with pytest.raises(ModelBehaviorError, match="after one repair attempt") as caught:
        await model.request(act_request())
    await model.aclose()
    error = caught.value
    assert error.agent == "payroll"
    assert json.loads(error.body or "") == bad
    assert len(fake.requests) == 2
    reason = fake.requests[1]["messages"][-1]["content"]
    assert '`answered` must be of type "boolean", not "no"' in reason
    assert "`openQuestions`" in reason  # the missing field is named
    assert "None" not in reason and "'" not in reason.split("schema:")[1].split("Answer")[0]


async def test_malformed_tool_arguments_get_a_repair_attempt(fake: FakeOpenAI) -> None:
    answers = iter(
        [
            message(tool_calls=[tool_call("lookup", '{"q": "pay')]),
            message(tool_calls=[tool_call("lookup", {"q": "payday"}, id="call_ok")]),
        ]
    )
    fake.responder = lambda body: next(answers)
    model, _ = model_for(fake)
    response = await model.request(act_request())
    await model.aclose()
    assert [c.arguments for c in response.tool_calls] == [{"q": "payday"}]
    assert "`lookup` tool call are not valid JSON" in fake.requests[1]["messages"][-1]["content"]


async def test_an_empty_answer_is_repaired(fake: FakeOpenAI) -> None:
    answers = iter([message(""), message(OUTPUTS)])
    fake.responder = lambda body: next(answers)
    model, _ = model_for(fake)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS and model.repairs == 1


def test_retry_after_parsing() -> None:
    assert retry_after_seconds({"Retry-After": "2.5"}) == 2.5
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_backoff_doubles_with_jitter_and_is_capped() -> None:
    policy = RetryPolicy(backoff=1.0, max_backoff=3.0)
    for retry, (low, high) in enumerate([(0.5, 1.0), (1.0, 2.0), (1.5, 3.0), (1.5, 3.0)], 1):
        assert low <= policy.delay(retry) <= high


@pytest.mark.parametrize(
    "value",
    [
        {"answered": "no", "findings": "x", "openQuestions": []},
        {"answered": True, "findings": "x"},
        {"answered": True, "findings": "x", "openQuestions": [1], "extra": 2},
        ["not", "an", "object"],
    ],
)
def test_schema_errors_read_the_same_without_jsonschema(value: object) -> None:
    """The built-in checker (used when jsonschema is not installed) words errors alike."""
    with_lib = schema_errors(SCHEMA, value)
    without = schema_errors(SCHEMA, value, use_jsonschema=False)
    assert with_lib and sorted(with_lib) == sorted(without)
    assert schema_errors(SCHEMA, OUTPUTS, use_jsonschema=False) == []
