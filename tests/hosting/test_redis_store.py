"""Conversation state on a real redis-server: what only Redis does (the contract it shares with
the other stores: test_store_contract.py).

Two ``HarnessBot``s on two ``RedisStore`` clients stand for two workers: the lease is what keeps
them apart (each bot's in-process lock knows nothing of the other).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from harness.hosting import OutgoingMessage, open_store
from harness.hosting._redis import RedisStore
from tests.hosting._cluster import expected_replies
from tests.hosting._shared import KEY, Worker, load_state, transcript
from tests.hosting._support import helpdesk


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    # Each test its own key prefix on the shared server.
    opened = open_store(f"{redis_url}?prefix=t{uuid.uuid4().hex[:8]}:&lease_ttl=1")
    assert isinstance(opened, RedisStore)
    yield opened
    await opened.aclose()


async def test_the_log_refuses_a_gap(store: RedisStore) -> None:
    await store.append_log("a", {1: {"n": 1}, 2: {"n": 2}, 3: {"n": 3}})
    with pytest.raises(Exception, match="after only 3"):
        await store.append_log("a", {5: {"n": 5}})
    assert [e["n"] for e in await store.read_log("a")] == [1, 2, 3]


async def test_a_retried_turn_whose_worker_died_midway_is_run_again_once(
    store: RedisStore, redis_url: str
) -> None:
    dying = Worker(store)
    survivor = Worker(RedisStore(f"{redis_url}?prefix={store.prefix}"))
    await dying.say("i want to change my direct deposit account", activity="a1")
    stuck = asyncio.Event()

    async def hang(message: OutgoingMessage) -> None:  # dies after the state was saved
        stuck.set()
        await asyncio.Event().wait()

    dying.bot.reply_timeout = 60
    task = asyncio.create_task(
        dying.bot.handle_message(
            key=KEY,
            conversation_id="c1",
            text="my new account number is 12345678",
            load=lambda: load_state(store),
            save=lambda s: store.write({KEY: {"harness": s}}),
            send=hang,
            activity_id="a2",
        )
    )
    await stuck.wait()
    task.cancel()  # the worker is gone mid-turn (its lease is released here; a kill waits out the TTL)
    with pytest.raises(asyncio.CancelledError):
        await task
    partial = json.loads((await store.read([KEY]))[KEY]["harness"])
    assert partial["hosting"]["pending"]["activity"].startswith("a2:")
    turn = await survivor.say("my new account number is 12345678", activity="a2")
    assert turn is not None and turn.number == 2
    assert await survivor.say("my new account number is 12345678", activity="a2") is None
    messages = await transcript(store)
    assert [m["turn"] for m in messages if m["role"] == "user"] == [1, 2]
    assert len({m["id"] for m in messages}) == len(messages)
    # The dialogue finished on the survivor: the conversational agent's floor survived the move.
    assert survivor.sent and survivor.sent[-1].sender == "direct_deposit"
    await survivor.store.aclose()


async def test_a_rerun_turn_resends_only_the_reply_that_may_not_have_gone_out(
    store: RedisStore,
) -> None:
    dying, survivor = Worker(store), Worker(store)
    text = (
        "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
    )
    delivered: list[str] = []
    second = asyncio.Event()

    async def send_one_then_hang(message: OutgoingMessage) -> None:
        if delivered:
            second.set()  # saved, but the worker dies before it goes out
            await asyncio.Event().wait()
        delivered.append(message.text)

    dying.bot.reply_timeout = 60
    task = asyncio.create_task(
        dying.bot.handle_message(
            key=KEY,
            conversation_id="c1",
            text=text,
            load=lambda: load_state(store),
            save=lambda s: store.write({KEY: {"harness": s}}),
            send=send_one_then_hang,
            activity_id="a1",
        )
    )
    await second.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await survivor.say(text, activity="a1")
    assert [m.sender for m in survivor.sent] == ["helpdesk"]  # pto's answer is not sent twice
    assert delivered + [m.text for m in survivor.sent] == [
        m["text"] for m in await transcript(store) if m["role"] == "bot"
    ]


async def test_state_is_bounded_while_the_log_keeps_everything(store: RedisStore) -> None:
    worker = Worker(store)
    for n in range(12):
        await worker.say(f"when will I be getting my next paycheck ({n})", activity=f"a{n}")
    stored = (await store.read([KEY]))[KEY]["harness"]
    state = json.loads(stored)
    assert {m["turn"] for m in state["messages"]} == {10, 11, 12}
    assert state["message_count"] == 24 and state["hosting"]["logged"] == 12
    log = await store.read_log(KEY)
    assert [e["turn"] for e in log] == list(range(1, 13))
    assert log[0]["messages"][0]["text"] == "when will I be getting my next paycheck (0)"


def test_an_unknown_scheme_is_a_config_error(tmp_path: Path) -> None:
    from harness.exceptions import ConfigError

    with pytest.raises(ConfigError, match="unknown scheme"):
        open_store("mongodb://localhost/x")


@pytest.mark.parametrize("adapter", ["botbuilder", "agents-sdk"])
async def test_both_adapters_share_a_conversation_across_two_apps(
    redis_url: str, adapter: str
) -> None:
    """A dialogue whose turns alternate between two servers on one Redis, on each adapter."""
    from aiohttp import ClientSession

    from harness.hosting import create_app
    from tests.hosting._cluster import Channel
    from tests.hosting._support import activity, running

    prefix = f"a{uuid.uuid4().hex[:8]}:"
    channel = Channel()
    await channel.start()
    turns = [
        "I want to change my direct deposit account",
        "It's 123456789",
        "yes",
    ]
    try:
        async with (
            running(
                create_app(helpdesk(), adapter=adapter, storage=f"{redis_url}?prefix={prefix}")
            ) as first,
            running(
                create_app(helpdesk(), adapter=adapter, storage=f"{redis_url}?prefix={prefix}")
            ) as second,
            ClientSession() as session,
        ):
            for n, text in enumerate(turns):
                body = activity(text, conversation="d1", service_url=channel.url, id=f"u{n}")
                for _ in range(2):  # each message twice: the retry is not run again
                    url = (first, second)[n % 2]
                    async with session.post(f"{url}/api/messages", json=body) as response:
                        assert response.status < 300, await response.text()
    finally:
        await channel.stop()
    want = [[(s, t) for s, t in turn] for turn in await expected_replies(turns)]
    got = [[(r.sender, r.text) for r in channel.replies if r.reply_to == f"u{n}"] for n in range(3)]
    assert got == want
