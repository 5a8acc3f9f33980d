"""A Direct Line call answered with HTTP 429 or 5xx is made again (after ``Retry-After``, else a
doubling backoff, within ``retry_wait``); the user's activity only after a 429. The waits go
through an injected ``sleep`` that returns at once, so no test sleeps."""

from __future__ import annotations

from typing import Any

import pytest

from harness.exceptions import UsageError
from harness.simulate.directline import DirectLineTarget
from harness.simulate.targets import ConversationError
from tests.simulate._directline_fake import FakeClock, FakeDirectLine

FAST = {"quiet_period": 0.15, "reply_timeout": 3.0, "turn_timeout": 10.0, "poll_interval": 0.05}
TRANSPORTS = pytest.mark.parametrize("transport", ["websocket", "polling"])


class _Sleeps:
    """Records each wait asked for and returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def _counting_bot() -> Any:
    """Answers each message once and counts the messages it received."""
    received: list[str] = []

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        received.append(activity["text"])
        text = f"Answer {len(received)}: your next payday is Friday, December 4."
        return [{"type": "message", "text": text, "from": {"id": "bot", "name": "Bot"}}]

    reply.received = received  # type: ignore[attr-defined]
    return reply


async def _run(fake: FakeDirectLine, sleeps: _Sleeps, turns: list[str], **options: Any) -> Any:
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, sleep=sleeps, **{**FAST, **options}) as target,
    ):
        return await target.run_conversation(turns, conversation_id="r")


async def test_a_poll_answered_with_5xx_is_made_again_with_a_doubling_backoff() -> None:
    fake = FakeDirectLine(_counting_bot())
    fake.transient["GET activities"] = [(502, {}), (503, {}), (500, {})]
    sleeps = _Sleeps()
    transcript = await _run(fake, sleeps, ["one", "two"], transport="polling")
    assert [m.turn for m in transcript.bot_messages()] == [1, 2]
    assert sleeps.waits == [1.0, 2.0, 4.0]


async def test_retry_after_is_honoured_in_seconds_and_as_a_date() -> None:
    fake = FakeDirectLine(_counting_bot())
    fake.transient["GET activities"] = [
        (429, {"Retry-After": "7"}),
        (503, {"Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"}),  # a date passed: at once
    ]
    sleeps = _Sleeps()
    transcript = await _run(fake, sleeps, ["one"], transport="polling")
    assert len(transcript.bot_messages()) == 1
    assert sleeps.waits == [7.0, 0.0]


async def test_the_total_wait_is_bounded() -> None:
    """A Retry-After beyond what retry_wait leaves ends the retries at once, with the error."""
    fake = FakeDirectLine(_counting_bot())
    fake.transient["GET activities"] = [(429, {"Retry-After": "3"}), (429, {"Retry-After": "120"})]
    sleeps = _Sleeps()
    with pytest.raises(ConversationError) as caught:
        await _run(fake, sleeps, ["one"], transport="polling", retry_wait=30)
    assert sleeps.waits == [3.0]
    assert "Direct Line answered HTTP 429 on GET /conversations/" in str(caught.value)
    assert "(tried 2 times; Retry-After asked for 120s, more than the 27s of retry_wait left)" in (
        str(caught.value)
    )


async def test_a_backoff_beyond_the_wait_left_says_so() -> None:
    """No Retry-After: the error names the backoff's wait, not a Retry-After never sent."""
    fake = FakeDirectLine(_counting_bot())
    fake.transient["GET activities"] = [(503, {})] * 2
    sleeps = _Sleeps()
    with pytest.raises(ConversationError) as caught:
        await _run(fake, sleeps, ["one"], transport="polling", retry_backoff=20, retry_wait=30)
    assert sleeps.waits == [20.0]
    assert (
        "(tried 2 times; the next retry would wait 40s, more than the 10s of retry_wait left)"
        in (str(caught.value))
    )
    assert "Retry-After" not in str(caught.value)


async def test_retries_spent_fail_the_turn_with_the_last_error() -> None:
    fake = FakeDirectLine(_counting_bot())
    fake.transient["GET activities"] = [(502, {})] * 3
    sleeps = _Sleeps()
    with pytest.raises(ConversationError) as caught:
        await _run(fake, sleeps, ["one"], transport="polling", retries=2)
    assert sleeps.waits == [1.0, 2.0]
    assert "HTTP 502 on GET" in str(caught.value) and "(tried 3 times)" in str(caught.value)


async def test_no_retries_when_told() -> None:
    fake = FakeDirectLine(_counting_bot())
    fake.transient["GET activities"] = [(503, {})]
    sleeps = _Sleeps()
    with pytest.raises(ConversationError, match="HTTP 503 on GET"):
        await _run(fake, sleeps, ["one"], transport="polling", retries=0)
    assert sleeps.waits == []


@pytest.mark.parametrize("route", ["POST /tokens/generate", "POST /conversations", "WS stream"])
async def test_starting_a_conversation_survives_a_transient_failure(route: str) -> None:
    fake = FakeDirectLine(_counting_bot())
    fake.transient[route] = [(503, {})]
    sleeps = _Sleeps()
    transcript = await _run(fake, sleeps, ["one"])
    assert len(transcript.bot_messages()) == 1
    assert sleeps.waits == [1.0]
    assert fake.requests.count(route) == 2


async def test_a_token_refresh_answered_with_503_is_made_again() -> None:
    clock = FakeClock()
    fake = FakeDirectLine(_counting_bot(), clock=clock, token_lifetime=60, advance_per_post=40)
    fake.transient["POST /tokens/refresh"] = [(503, {})]
    sleeps = _Sleeps()
    transcript = await _run(fake, sleeps, ["a b c", "d e f"], clock=clock)
    assert len(transcript.bot_messages()) == 2
    assert fake.requests.count("POST /tokens/refresh") == 2
    assert sleeps.waits == [1.0]


async def test_a_reconnect_answered_with_502_is_made_again() -> None:
    fake = FakeDirectLine(_counting_bot())
    fake.drop_sockets = 1
    fake.transient["GET /conversations/{id}"] = [(502, {})]
    sleeps = _Sleeps()
    transcript = await _run(fake, sleeps, ["first question", "second question"])
    assert [m.turn for m in transcript.bot_messages()] == [1, 2]
    assert fake.requests.count("GET /conversations/{id}") == 2


@TRANSPORTS
async def test_the_users_activity_is_not_posted_again_after_a_5xx(transport: str) -> None:
    """The bot may have received it: posting again would run the turn twice."""
    bot = _counting_bot()
    fake = FakeDirectLine(bot)
    fake.transient["POST activities"] = [(503, {})]
    sleeps = _Sleeps()
    with pytest.raises(ConversationError, match=r"turn 1: Direct Line answered HTTP 503 on POST"):
        await _run(fake, sleeps, ["one"], transport=transport)
    assert fake.requests.count("POST activities") == 1
    assert sleeps.waits == []


async def test_the_users_activity_is_posted_again_after_a_429() -> None:
    """A 429 turned the activity away: it is sent again, and the bot answers it once."""
    bot = _counting_bot()
    fake = FakeDirectLine(bot)
    fake.transient["POST activities"] = [(429, {"Retry-After": "2"})]
    sleeps = _Sleeps()
    transcript = await _run(fake, sleeps, ["one"])
    assert [m.text for m in transcript.bot_messages()] == [
        "Answer 1: your next payday is Friday, December 4."
    ]
    assert bot.received == ["one"]
    assert sleeps.waits == [2.0]


def test_rejects_negative_retry_settings() -> None:
    for option in ("retries", "retry_wait", "retry_backoff"):
        with pytest.raises(UsageError, match="must be >= 0"):
            DirectLineTarget("http://127.0.0.1:1/v3/directline", **{option: -1})
