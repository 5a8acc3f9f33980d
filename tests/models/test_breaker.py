"""The OpenAI model's circuit breaker: a hanging server costs two timeouts, not every retry (issue 27).

Counted, not timed: the fake server records each request it receives; the breaker's clock is a
fake one the test moves.
"""

from __future__ import annotations

import pytest

from harness.exceptions import ModelRequestError
from harness.models.openai import OpenAIModel
from harness.models.settings import ModelSettings
from tests.models._requests import OUTPUTS, act_request
from tests.models.fake_openai import FakeOpenAI, Fault, message


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


async def _no_sleep(seconds: float) -> None:
    return None


def _model(fake: FakeOpenAI, clock: Clock, **settings: object) -> OpenAIModel:
    model = OpenAIModel(
        "gpt-4o-mini",
        base_url=fake.url,
        api_key="sk-test",
        settings={"timeout": 3.0, "max_retries": 3, **settings},
    )
    model._sleep = _no_sleep
    model._clock = clock
    return model


def test_the_default_breaker_is_documented() -> None:
    settings = ModelSettings()
    assert settings.breaker_timeouts == 2 and settings.breaker_cooldown == 30.0


async def test_two_timeouts_in_a_row_stop_the_calls_until_the_cooldown(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.fail(*(Fault(status=200, delay=20.0) for _ in range(2)))
    clock = Clock()
    model = _model(fake, clock)
    with pytest.raises(ModelRequestError, match="circuit breaker"):
        await model.request(act_request())
    assert model.usage.requests == 2  # two attempts timed out; the 3rd and 4th never went out
    with pytest.raises(ModelRequestError, match="circuit breaker"):
        await model.request(act_request())  # fails at once: nothing sent
    assert model.usage.requests == 2
    clock.now += 31  # the cooldown is over: one attempt goes through, and it answers
    response = await model.request(act_request())
    assert response.output == OUTPUTS and model.usage.requests == 3
    await model.aclose()


async def test_an_answer_between_timeouts_keeps_the_breaker_closed(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.fail(Fault(status=200, delay=20.0))
    clock = Clock()
    model = _model(fake, clock)
    assert (await model.request(act_request())).output == OUTPUTS  # a timeout, then an answer
    fake.fail(Fault(status=200, delay=20.0))
    assert (await model.request(act_request())).output == OUTPUTS
    assert model.usage.requests == 4
    await model.aclose()


async def test_the_breaker_can_be_switched_off(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    fake.fail(*(Fault(status=200, delay=20.0) for _ in range(4)))
    model = _model(fake, Clock(), breaker_timeouts=0)
    with pytest.raises(ModelRequestError, match="no answer within"):
        await model.request(act_request())
    assert model.usage.requests == 4  # every retry went out
    await model.aclose()


async def test_a_server_that_is_down_opens_the_breaker_after_two_refused_attempts() -> None:
    """Nothing listens: two refused connections open the breaker, so the request's last retries
    and every later request fail at once (no waits), and the error still says what is wrong."""
    import socket

    with socket.socket() as sock:  # a port the OS gave, then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    model = OpenAIModel(
        "m",
        base_url=f"http://127.0.0.1:{port}/v1",
        api_key="sk-test",
        settings={"max_retries": 3},
    )
    model._sleep = _no_sleep
    model._clock = Clock()
    with pytest.raises(ModelRequestError) as first:
        await model.request(act_request())
    assert model.usage.requests == 2  # the 3rd and 4th attempts never went out
    assert "circuit breaker" in str(first.value) and "cannot reach" in str(first.value)
    with pytest.raises(ModelRequestError, match="circuit breaker"):
        await model.request(act_request())
    assert model.usage.requests == 2  # at once: nothing sent
    await model.aclose()
