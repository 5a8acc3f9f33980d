"""A deeply nested JSON answer from a model is the model misbehaving, not a RecursionError (issue 27)."""

from __future__ import annotations

import json

import pytest

from harness.exceptions import ModelBehaviorError
from harness.models._wire import MAX_JSON_DEPTH, loads_checked, loads_lenient
from harness.models.openai import OpenAIModel
from tests.models._requests import act_request
from tests.models.fake_openai import FakeOpenAI, message, tool_call

DEEP = '{"answered": ' + "[" * 100_000 + "]" * 100_000 + "}"
JUST_DEEP = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)


@pytest.mark.parametrize("loads", [loads_checked, loads_lenient])
@pytest.mark.parametrize("text", [DEEP, JUST_DEEP])
def test_deep_json_is_a_decode_error(loads: object, text: str) -> None:
    with pytest.raises(json.JSONDecodeError, match="nests deeper than"):
        loads(text)  # type: ignore[operator]


def test_json_at_the_limit_is_read() -> None:
    text = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert loads_checked(text) == json.loads(text)


async def test_a_deep_structured_answer_is_a_model_behavior_error(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(DEEP)
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url, api_key="sk-test")
    with pytest.raises(ModelBehaviorError):
        await model.request(act_request())
    await model.aclose()


async def test_deep_tool_arguments_are_a_model_behavior_error(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(tool_calls=[tool_call("lookup", DEEP)])
    model = OpenAIModel("gpt-4o-mini", base_url=fake.url, api_key="sk-test")
    with pytest.raises(ModelBehaviorError):
        await model.request(act_request())
    await model.aclose()
