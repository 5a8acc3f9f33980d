"""OpenAIModel with HTTP mocked by respx (openai 3.x runs on httpcore2: the ``httpx2_mock`` fixture).

The default endpoint (api.openai.com) is mocked, so these tests also pin that nothing here needs
a custom base URL; the fake-server tests cover real HTTP.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

import harness
from harness.exceptions import ModelRequestError
from harness.models.openai import OpenAIModel
from tests.models._requests import OUTPUTS, act_request
from tests.models.fake_openai import completion, message
from tests.models.helpdesk_brain import helpdesk_brain

URL = "https://api.openai.com/v1/chat/completions"
CONFIG = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"


def _brain(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    return httpx.Response(200, json=completion(helpdesk_brain(body)))


async def test_full_turn_over_mocked_completions(httpx2_mock: respx.Router) -> None:
    route = httpx2_mock.post(URL).mock(side_effect=_brain)
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test")
    bot = harness.load_bot(CONFIG, model=model)
    turn = await bot.conversation().send(
        "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
    )
    await bot.aclose()
    assert [m.sender for m in turn.messages] == ["pto", "helpdesk"]
    assert "12 PTO days left" in turn.messages[0].text
    assert "Friday, December 4" in turn.messages[1].text
    assert route.call_count == 7
    sent: list[Any] = [json.loads(call.request.content) for call in route.calls]
    assert all(body["model"] == "gpt-4o-mini" for body in sent)
    assert route.calls[0].request.headers["authorization"] == "Bearer sk-test"


async def test_retries_are_counted(httpx2_mock: respx.Router) -> None:
    route = httpx2_mock.post(URL).mock(
        side_effect=[
            httpx.Response(
                429, headers={"retry-after-ms": "1"}, json={"error": {"message": "slow"}}
            ),
            httpx.Response(500, json={"error": {"message": "boom"}}),
            httpx.Response(200, json=completion(message(OUTPUTS))),
        ]
    )
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test", backoff=0.001)
    response = await model.request(act_request())
    await model.aclose()
    assert response.output == OUTPUTS
    assert route.call_count == 3 and model.attempts == 3


async def test_exhausted_retries_raise_with_the_count(httpx2_mock: respx.Router) -> None:
    httpx2_mock.post(URL).mock(
        return_value=httpx.Response(503, json={"error": {"message": "down"}})
    )
    model = OpenAIModel("gpt-4o-mini", api_key="sk-test", max_retries=1, backoff=0.001)
    with pytest.raises(ModelRequestError, match="after 2 attempts: HTTP 503: down") as caught:
        await model.request(act_request())
    await model.aclose()
    assert caught.value.attempts == 2 and caught.value.status == 503
