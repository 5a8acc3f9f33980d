"""The OpenAI model's circuit breaker: a hanging server costs two timeouts, not every retry (issue 27).

Counted, not timed: the fake server records each request it receives; the breaker's clock is a
fake one the test moves.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import harness
from harness.exceptions import ModelRequestError
from harness.models.base import ChatMessage
from harness.models.openai import OpenAIModel
from harness.models.settings import ModelSettings
from tests.models._requests import OUTPUTS, act_request
from tests.models.fake_openai import FakeOpenAI, Fault, message

HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml"


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
    assert settings.breaker_errors == 2


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


@pytest.mark.parametrize(
    "fault",
    [Fault(status=429, headers={"Retry-After": "2"}), Fault(status=500), Fault(status=503)],
    ids=["429", "500", "503"],
)
async def test_a_model_that_only_answers_errors_opens_the_breaker_after_two_requests(
    fake: FakeOpenAI, fault: Fault
) -> None:
    """Audit s58 finding 7: 429s and 5xx never opened the breaker, so every request of a turn
    (plan, sub-agents, reply) ran its whole retry cycle before the user got an apology."""
    fake.responder = lambda body: fault
    clock = Clock()
    model = _model(fake, clock)
    for _ in range(2):
        with pytest.raises(ModelRequestError, match=f"after 4 attempts: HTTP {fault.status}"):
            await model.request(act_request())
    assert model.usage.requests == 8  # two requests' retries
    with pytest.raises(ModelRequestError) as third:
        await model.request(act_request())  # fails at once: nothing sent
    assert model.usage.requests == 8
    assert "circuit breaker" in str(third.value)
    assert "its last 2 requests failed after all their retries" in str(third.value)
    assert f"(HTTP {fault.status}" in str(third.value)
    clock.now += 31  # the cooldown is over: one attempt goes through, and it answers
    fake.responder = lambda body: message(OUTPUTS)
    assert (await model.request(act_request())).output == OUTPUTS
    assert model.usage.requests == 9
    await model.aclose()


async def test_after_the_cooldown_a_model_still_failing_gets_one_attempt(fake: FakeOpenAI) -> None:
    """As the docs say: after the cooldown one attempt goes through; an error reopens the
    breaker at once instead of running the request's retries and their waits."""
    fake.responder = lambda body: Fault(status=500)
    clock = Clock()
    model = _model(fake, clock, breaker_errors=1)
    with pytest.raises(ModelRequestError, match="after 4 attempts"):
        await model.request(act_request())
    clock.now += 31
    with pytest.raises(ModelRequestError, match="after 1 attempt: HTTP 500") as trial:
        await model.request(act_request())
    assert "circuit breaker" in str(trial.value)
    assert model.usage.requests == 5
    with pytest.raises(ModelRequestError, match="circuit breaker"):
        await model.request(act_request())  # open again: nothing sent
    assert model.usage.requests == 5
    await model.aclose()


async def test_an_answer_to_a_request_in_flight_closes_the_breaker(fake: FakeOpenAI) -> None:
    """One request spends its retries on 429s and opens the breaker while another, already sent,
    is answered: the model works, so the next request goes through (review of s58-fixmisc)."""
    unlucky_failed = asyncio.Event()

    async def responder(body: dict[str, object]) -> dict[str, object] | Fault:
        if "unlucky" in json.dumps(body.get("messages")):
            return Fault(status=429, headers={"Retry-After": "1"})
        await unlucky_failed.wait()  # answered only once the breaker is open
        return message(OUTPUTS)

    fake.responder = responder
    model = _model(fake, Clock(), breaker_errors=1)
    unlucky = act_request(
        messages=(ChatMessage(role="user", content='{"scopedRequest": "unlucky"}'),)
    )

    async def unlucky_request() -> None:
        with pytest.raises(ModelRequestError, match="after 4 attempts: HTTP 429"):
            await model.request(unlucky)
        unlucky_failed.set()

    healthy = asyncio.create_task(model.request(act_request()))
    await unlucky_request()
    assert (await healthy).output == OUTPUTS
    assert (await model.request(act_request())).output == OUTPUTS  # closed again
    assert model.usage.requests == 6
    await model.aclose()


async def test_an_answer_between_errors_keeps_the_breaker_closed(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: message(OUTPUTS)
    model = _model(fake, Clock())
    for _ in range(3):
        fake.fail(*(Fault(status=500) for _ in range(3)))  # three errors, then an answer
        assert (await model.request(act_request())).output == OUTPUTS
    assert model.usage.requests == 12
    await model.aclose()


async def test_a_burst_of_429s_that_the_retries_get_past_keeps_the_breaker_closed(
    fake: FakeOpenAI,
) -> None:
    """Requests, not attempts, are counted: four concurrent requests that each meet one 429 in
    a burst, then pass, must not open the breaker for everyone else."""
    fake.responder = lambda body: message(OUTPUTS)
    fake.fail(*(Fault(status=429, headers={"Retry-After": "1"}) for _ in range(4)))
    model = _model(fake, Clock())
    answers = await asyncio.gather(*(model.request(act_request()) for _ in range(4)))
    assert [a.output for a in answers] == [OUTPUTS] * 4
    assert model.usage.requests == 8  # each request: one 429, then an answer
    assert (await model.request(act_request())).output == OUTPUTS  # still closed
    await model.aclose()


async def test_two_failed_requests_when_the_setting_asks_for_two(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: Fault(status=503)
    model = _model(fake, Clock(), breaker_errors=2)
    for _ in range(2):
        with pytest.raises(ModelRequestError, match="after 4 attempts: HTTP 503"):
            await model.request(act_request())
    with pytest.raises(ModelRequestError, match="its last 2 requests failed after all"):
        await model.request(act_request())
    assert model.usage.requests == 8
    await model.aclose()


async def test_the_error_breaker_can_be_switched_off_alone(fake: FakeOpenAI) -> None:
    fake.responder = lambda body: Fault(status=500)
    model = _model(fake, Clock(), breaker_errors=0)
    for _ in range(2):
        with pytest.raises(ModelRequestError, match="after 4 attempts: HTTP 500"):
            await model.request(act_request())
    assert model.usage.requests == 8  # every retry of both requests went out
    await model.aclose()


async def test_a_rejected_response_format_does_not_count_as_an_error(fake: FakeOpenAI) -> None:
    """A 500 naming ``response_format`` moves the model one output mode along; the server is
    working, so it does not count toward the breaker."""
    seen: list[str] = []

    def responder(body: dict[str, object]) -> object:
        mode = "json_schema" if "json_schema" in str(body.get("response_format")) else "other"
        seen.append(mode)
        if mode == "json_schema":
            return Fault(status=500, body={"error": {"message": "response_format not supported"}})
        return message(OUTPUTS)

    fake.responder = responder  # type: ignore[assignment]
    model = _model(fake, Clock(), max_retries=0)  # one failed attempt is a spent request
    assert (await model.request(act_request())).output == OUTPUTS
    assert seen[0] == "json_schema" and model.fallbacks
    await model.aclose()


async def test_a_helpdesk_turn_on_a_failing_model_costs_one_retry_cycle(
    helpdesk_server: FakeOpenAI,
) -> None:
    """The whole turn: the plan's and the sub-agent's four attempts each open the breaker, so
    the reply fails at once instead of running its own four attempts."""
    helpdesk_server.responder = lambda body: Fault(status=429, headers={"Retry-After": "2"})
    model = OpenAIModel("gpt-4o-mini", base_url=helpdesk_server.url, api_key="test", backoff=0)
    model._sleep = _no_sleep
    model._clock = Clock()
    bot = harness.load_bot(HELPDESK, model=model)
    try:
        turn = await bot.conversation().send("when is payday")
    finally:
        await bot.aclose()
    assert len(helpdesk_server.requests) == 8
    assert turn.messages  # the user still gets an answer (an apology)
