"""Storage outages are honest 503s, and no turn holds its conversation for ever (issue 27, item 4).

A private redis-server is paused (SIGSTOP: connections are accepted, nothing is answered) or
stopped. A message that arrives meanwhile gets ``503`` with ``Retry-After`` before anything is
sent, so the channel sends it again; once Redis is back, the retry is answered and the lease the
failed turn may have left behind does not block it. A turn that never finishes is cancelled after
``turn_timeout`` and gives its lease up.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, ClientTimeout, web

from harness.hosting import HarnessBot, create_app
from harness.hosting._redis import RedisStore
from tests.hosting._servers import redis_process
from tests.hosting._support import ADAPTERS, activity, helpdesk, running


class _Channel:
    """Where the bot replies: records each reply's ``replyToId``."""

    def __init__(self) -> None:
        self.reply_to: list[str] = []
        self.arrived = asyncio.Event()

    async def receive(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.reply_to.append(str(body.get("replyToId")))
        self.arrived.set()
        return web.json_response({"id": "r"})


async def _wait_for_reply(channel: _Channel, activity_id: str) -> None:
    async with asyncio.timeout(60):
        while activity_id not in channel.reply_to:
            channel.arrived.clear()
            await channel.arrived.wait()


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("outage", ["paused", "stopped"])
async def test_a_storage_outage_is_a_503_before_anything_is_sent(
    tmp_path: Path, adapter: Any, outage: str
) -> None:
    channel = _Channel()
    callback = web.Application()
    callback.router.add_post("/v3/conversations/{c}/activities/{a}", channel.receive)
    with redis_process(tmp_path) as (url, redis):
        # A long lease: a lease the failed turn left behind would block the retry, not expire.
        app = create_app(
            helpdesk(), adapter=adapter, storage=f"{url}?timeout=1&lease_ttl=120&lease_wait=60"
        )
        async with (
            running(callback) as service_url,
            running(app) as base,
            # A safety net, not a measurement: a request stuck on a paused Redis fails the test.
            ClientSession(timeout=ClientTimeout(total=120)) as session,
        ):

            async def post(activity_id: str, text: str) -> tuple[int, dict[str, str]]:
                body = activity(text, service_url=service_url, id=activity_id)
                async with session.post(f"{base}/api/messages", json=body) as response:
                    await response.read()
                    return response.status, dict(response.headers)

            status, _ = await post("u1", "How many vacation days do I have remaining?")
            assert status < 300
            await _wait_for_reply(channel, "u1")

            redis.send_signal(signal.SIGSTOP)
            if outage == "stopped":
                redis.send_signal(signal.SIGCONT)
                redis.terminate()
                redis.wait(30)
            try:
                during, headers = await post("u2", "When will I be getting my next paycheck?")
            finally:
                if outage == "paused":
                    redis.send_signal(signal.SIGCONT)
            assert during == 503
            assert int(headers["Retry-After"]) >= 1
            assert "u2" not in channel.reply_to  # nothing was sent: no apology either

            if outage == "paused":  # Redis is back: the channel's retry is answered
                after, _ = await post("u2", "When will I be getting my next paycheck?")
                assert after < 300
                await _wait_for_reply(channel, "u2")
                assert channel.reply_to.count("u2") == 1


async def test_redis_commands_are_bounded_while_it_is_paused(tmp_path: Path) -> None:
    from harness.hosting._errors import StorageUnavailableError

    with redis_process(tmp_path) as (url, redis):
        store = RedisStore(f"{url}?timeout=0.5")
        try:
            await store.write({"k": {"v": 1}})
            redis.send_signal(signal.SIGSTOP)
            try:
                with pytest.raises(StorageUnavailableError):
                    await store.read(["k"])
                with pytest.raises(StorageUnavailableError):
                    async with store.lease("k"):
                        pass
            finally:
                redis.send_signal(signal.SIGCONT)
            # The lease whose SET may have reached Redis late is taken back in the background.
            pending = list(store._releases)
            async with asyncio.timeout(60):
                await asyncio.gather(*pending)
            assert await store.client.exists(store._lease_key("k")) == 0
        finally:
            await store.aclose()


async def test_a_turn_that_never_ends_gives_its_lease_up(tmp_path: Path) -> None:
    from harness.hosting.core import TurnTimeoutError

    with redis_process(tmp_path) as (url, _redis):
        store = RedisStore(f"{url}?lease_ttl=120")
        bot = HarnessBot(helpdesk(), store=store, turn_timeout=0.5)
        loaded = asyncio.Event()

        async def load() -> Any:
            loaded.set()
            await asyncio.Event().wait()  # a turn stuck for ever

        async def save(_snapshot: str) -> None:
            raise AssertionError("nothing to save")

        async def send(_message: Any) -> None:
            raise AssertionError("nothing to send")

        try:
            with pytest.raises(TurnTimeoutError):
                await bot.handle_message(
                    key="c/stuck",
                    conversation_id="stuck",
                    text="hi",
                    load=load,
                    save=save,
                    send=send,
                )
            assert loaded.is_set()
            # Given up: another worker can take the conversation at once (not after 120 s).
            other = RedisStore(f"{url}?lease_wait=0.5")
            try:
                async with other.lease("c/stuck"):
                    pass
            finally:
                await other.aclose()
        finally:
            await store.aclose()


async def test_a_conversation_busy_past_lease_wait_is_a_retryable_refusal(tmp_path: Path) -> None:
    from harness.hosting._errors import UnavailableError

    with redis_process(tmp_path) as (url, _redis):
        holder, waiter = RedisStore(url), RedisStore(f"{url}?lease_wait=0.2")
        try:
            async with holder.lease("c/busy"):
                with pytest.raises(UnavailableError, match="busy on another worker"):
                    async with waiter.lease("c/busy"):
                        pass
        finally:
            await holder.aclose()
            await waiter.aclose()


async def test_a_log_write_failing_after_the_replies_is_a_503_and_the_retry_logs_the_turn(
    tmp_path: Path,
) -> None:
    """Redis fails as the finished turn's log entries are written (every reply is out and saved):
    no apology, the request fails as unavailable (503 with Retry-After), and the channel's retry
    of the same activity writes the turn's log entries (once)."""
    from harness.hosting._errors import StorageUnavailableError
    from harness.hosting.core import SAVE_FAILED_APOLOGY

    class Flaky(RedisStore):
        failures = 1

        async def append_log(self, key: str, entries: Any) -> None:
            if self.failures:
                self.failures -= 1
                raise StorageUnavailableError("Redis is unavailable (TimeoutError)")
            await super().append_log(key, entries)

    with redis_process(tmp_path) as (url, _redis):
        store = Flaky(url)
        bot = HarnessBot(helpdesk(), store=store)
        slot: dict[str, Any] = {"state": None}
        sent: list[str] = []

        async def load() -> Any:
            return slot["state"]

        async def save(value: str) -> None:
            slot["state"] = value

        async def send(message: Any) -> None:
            sent.append(message.text)

        async def say(text: str, activity_id: str) -> Any:
            return await bot.handle_message(
                key="c/log",
                conversation_id="log",
                text=text,
                load=load,
                save=save,
                send=send,
                activity_id=activity_id,
            )

        try:
            question = "How many vacation days do I have remaining?"
            with pytest.raises(StorageUnavailableError):
                await say(question, "u1")
            assert sent and SAVE_FAILED_APOLOGY not in sent
            assert await store.read_log("c/log") == []
            assert await say(question, "u1") is not None  # the channel's retry
            assert await say("When is my next paycheck?", "u2") is not None
            assert SAVE_FAILED_APOLOGY not in sent
            assert [e["turn"] for e in await store.read_log("c/log")] == [1, 2]
        finally:
            await store.aclose()
