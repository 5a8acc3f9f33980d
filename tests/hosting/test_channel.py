"""The simulator as a Bot Framework channel, against bots that know nothing of this SDK."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp import ClientSession, web

from harness.detect import detect
from harness.exceptions import RunError, UsageError
from harness.hosting import EndpointTarget
from tests.hosting._support import running
from tests.hosting.echo_bot import echo_app


async def test_catches_the_duplicate_of_a_plain_botbuilder_bot() -> None:
    async with (
        running(echo_app(times=2)) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        transcript = await channel.run_conversation(
            ["where can I find my W-2 form", "and what about my gross pay"], conversation_id="echo"
        )
    assert [m.role for m in transcript] == ["user", "bot", "bot", "user", "bot", "bot"]
    assert {m.sender for m in transcript.bot_messages()} == {"bot"}
    findings = [f for f in detect(transcript) if f.kind == "duplicate"]
    assert [(f.turn, f.scope, f.method) for f in findings] == [
        (1, "same_turn", "exact"),
        (2, "same_turn", "exact"),
    ]
    first, second = transcript.bot_messages(1)
    assert findings[0].message_ids == (first.id, second.id)
    assert first.id != second.id  # the bot left ids empty; the channel assigned distinct ones


async def test_a_bot_that_answers_once_has_no_findings() -> None:
    async with (
        running(echo_app(times=1)) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        transcript = await channel.run_conversation(["hello there my friend"], conversation_id="e")
    assert len(transcript.bot_messages()) == 1
    assert detect(transcript) == []


class _LateBot:
    """Answers the HTTP post at once (202) and sends its replies afterwards, with delays."""

    def __init__(self, delays: list[float]) -> None:
        self.delays = delays
        self.tasks: set[asyncio.Task[None]] = set()

    async def reply_later(self, activity: dict[str, Any]) -> None:
        url = (
            f"{activity['serviceUrl']}/v3/conversations/{activity['conversation']['id']}"
            f"/activities/{activity['id']}"
        )
        async with ClientSession() as session:
            for index, delay in enumerate(self.delays):
                await asyncio.sleep(delay)
                reply = {
                    "type": "message",
                    "text": f"part {index + 1} of the answer to {activity['text']}",
                    "from": {"id": "late", "name": "late-bot"},
                    "replyToId": activity["id"],
                }
                async with session.post(url, json=reply) as response:
                    assert response.status == 200

    def app(self) -> web.Application:
        async def messages(request: web.Request) -> web.Response:
            task = asyncio.create_task(self.reply_later(await request.json()))
            self.tasks.add(task)
            return web.Response(status=202)

        async def finish(_app: web.Application) -> None:
            await asyncio.gather(*self.tasks)

        app = web.Application()
        app.router.add_post("/api/messages", messages)
        app.on_cleanup.append(finish)
        return app


async def test_waits_for_late_replies_until_the_quiet_period_passes() -> None:
    bot = _LateBot([0.05, 0.2])
    async with (
        running(bot.app()) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.5) as channel,
    ):
        received = await channel.send_turn("late", "status")
    assert [r.activity["text"] for r in received] == [
        "part 1 of the answer to status",
        "part 2 of the answer to status",
    ]
    assert received[0].latency_s < received[1].latency_s
    assert received[1].latency_s >= 0.2


async def test_a_short_quiet_period_ends_the_turn_before_a_slow_reply() -> None:
    bot = _LateBot([0.02, 0.8])
    async with (
        running(bot.app()) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.2) as channel,
    ):
        received = await channel.send_turn("slow", "status")
        assert [r.activity["text"] for r in received] == ["part 1 of the answer to status"]
        # The slow part still reaches the channel afterwards, tied to its turn by replyToId.
        await asyncio.wait_for(asyncio.gather(*bot.tasks), 3)
        assert [r.turn for r in channel.replies["slow"]] == [1, 1]


async def test_a_bot_that_fails_is_a_clear_error() -> None:
    async def broken(_request: web.Request) -> web.Response:
        return web.Response(status=500, text="boom")

    app = web.Application()
    app.router.add_post("/api/messages", broken)
    async with (
        running(app) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
    ):
        with pytest.raises(RunError, match="answered HTTP 500: boom"):
            await channel.run_conversation(["hi"], conversation_id="b")


async def test_an_unreachable_bot_is_a_clear_error() -> None:
    async with running(web.Application()) as base:
        dead = f"{base}/api/messages"
    async with EndpointTarget(dead, quiet_period=0.05) as channel:
        # aiohttp's own words name "ssl:default" even for http://; the error says what happened.
        with pytest.raises(RunError, match=r"cannot reach the bot .*: connection refused \(is it"):
            await channel.send_turn("d", "hi")


async def test_a_bot_that_never_settles_times_out() -> None:
    release = asyncio.Event()

    async def stuck(_request: web.Request) -> web.Response:
        await release.wait()
        return web.Response(status=201)

    app = web.Application()
    app.router.add_post("/api/messages", stuck)
    async with (
        running(app) as base,
        EndpointTarget(f"{base}/api/messages", quiet_period=0.05, turn_timeout=0.3) as channel,
    ):
        with pytest.raises(RunError, match=r"did not finish turn 1 within 0\.3s"):
            await channel.send_turn("s", "hi")
        release.set()


def test_rejects_a_bad_endpoint() -> None:
    with pytest.raises(UsageError, match="http"):
        EndpointTarget("localhost:3978/api/messages")
