"""What every store that several workers share must do, run on each backend's real server.

Each test runs once on Redis (redis-server) and once on Azure Blob Storage (Azurite): values and
the log round-trip, a lease keeps a second worker out, a worker that lost its lease cannot
overwrite the state, and two workers that each get every message lose no turn and run none twice.
What only one backend does stays in ``test_redis_store.py`` / ``test_blob_store.py``.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import pytest

from harness.hosting import LeaseLostError
from harness.hosting._blob import BlobStore
from harness.hosting._redis import RedisStore
from harness.hosting.storage import StateStore
from tests.hosting._shared import KEY, Worker, transcript
from tests.hosting._support import helpdesk


@dataclass(frozen=True, slots=True, kw_only=True)
class Backend:
    """One backend under test, with a namespace (key prefix, container) of the test's own."""

    open: Callable[[], StateStore]
    """A new client on the test's namespace: another worker."""
    lose_lease: Callable[[StateStore, str], Awaitable[None]]
    """Make a client's lease on a key lapse, as if the worker had stalled past it."""
    hold: float
    """Seconds the lease test holds a lease (Redis: past its 1 s TTL, so renewal must keep it)."""
    turns: int
    """Messages in the two-worker test (Azurite is slower than redis-server)."""


async def _delete_redis_lease(store: StateStore, key: str) -> None:
    assert isinstance(store, RedisStore)
    await store.client.delete(store._lease_key(key))


async def _break_blob_lease(store: StateStore, key: str) -> None:
    assert isinstance(store, BlobStore)
    await store._leases[key].break_lease(lease_break_period=0)


@pytest.fixture(params=["redis", "blob"])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "redis":
        url = f"{request.getfixturevalue('redis_url')}?prefix=t{uuid.uuid4().hex[:8]}:&lease_ttl=1"
        return Backend(
            open=lambda: RedisStore(url), lose_lease=_delete_redis_lease, hold=1.5, turns=24
        )
    connection_string = request.getfixturevalue("connection_string")
    container = f"azblob://t{uuid.uuid4().hex[:10]}"
    return Backend(
        open=lambda: BlobStore(container, connection_string=connection_string),
        lose_lease=_break_blob_lease,
        hold=0.5,
        turns=8,
    )


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[StateStore]:
    opened = backend.open()
    yield opened
    await opened.aclose()


@pytest.fixture
async def other(backend: Backend) -> AsyncIterator[StateStore]:
    """A second worker's client on the same namespace."""
    opened = backend.open()
    yield opened
    await opened.aclose()


async def test_values_and_log_round_trip(store: StateStore) -> None:
    await store.write({"a/conversations/x": {"x": 1}, "b": {"y": "\ud800"}})
    found = await store.read(["a/conversations/x", "b", "missing"])
    assert found == {"a/conversations/x": {"x": 1}, "b": {"y": "\ud800"}}
    await store.append_log("b", {1: {"n": 1}, 2: {"n": 2}})
    await store.append_log("b", {2: {"n": "2 again"}, 3: {"n": 3}})  # a rerun replaces entry 2
    assert [e["n"] for e in await store.read_log("b")] == [1, "2 again", 3]
    await store.delete(["b"])
    assert await store.read(["b"]) == {} and await store.read_log("b") == []
    assert await store.read(["a/conversations/x"]) == {"a/conversations/x": {"x": 1}}


async def test_a_lease_keeps_a_second_worker_out_until_it_is_released(
    backend: Backend, store: StateStore, other: StateStore
) -> None:
    order: list[str] = []
    async with store.lease("k"):
        assert await store.read(["k"]) == {}  # holding a lease stores no state

        async def second() -> None:
            async with other.lease("k"):
                order.append("second")

        task = asyncio.create_task(second())
        await asyncio.sleep(backend.hold)
        order.append("first done")
    await task
    assert order == ["first done", "second"]


async def test_a_worker_whose_lease_lapsed_cannot_overwrite_the_state(
    backend: Backend, store: StateStore, other: StateStore
) -> None:
    async with store.lease("k"):
        await store.write({"k": {"v": 1}})
        await backend.lose_lease(store, "k")
        async with other.lease("k"):
            await other.write({"k": {"v": 2}})
            with pytest.raises(LeaseLostError):  # while the other worker holds it
                await store.write({"k": {"v": "stale"}})
            with pytest.raises(LeaseLostError):
                await store.append_log("k", {1: {"v": "stale"}})
        with pytest.raises(LeaseLostError):  # and after it let go
            await store.write({"k": {"v": "stale"}})
        with pytest.raises(LeaseLostError):
            await store.append_log("k", {1: {"v": "stale"}})
    assert await store.read(["k"]) == {"k": {"v": 2}}
    assert await store.read_log("k") == []


async def test_two_workers_with_retries_lose_no_turn_and_apply_none_twice(
    backend: Backend, store: StateStore, other: StateStore
) -> None:
    workers = [Worker(store), Worker(other)]
    turns = backend.turns
    texts = [f"how many vacation days do I have remaining? ({n})" for n in range(turns)]
    # Every turn waits for all those before it: on a busy machine that can outlast the default
    # lease_wait (30 s), which is a production setting, not this test's subject. Nor is a lapsed
    # lease (the fencing tests above are about that): Redis's 1 s test lease, renewed every third
    # of a second, lapsed mid-turn beside four busy loops, and the refused write failed the turn.
    for shared in (store, other):
        if hasattr(shared, "lease_wait"):
            shared.lease_wait = 600.0
        if hasattr(shared, "lease_ttl"):
            shared.lease_ttl = 60.0
    # Every message goes to both workers at once, as a channel's retry after a timeout would.
    async with asyncio.TaskGroup() as group:
        for n, text in enumerate(texts):
            for worker in workers:
                group.create_task(worker.say(text, activity=f"a{n}"))
    messages = await transcript(store)
    users = [m for m in messages if m["role"] == "user"]
    assert sorted(m["text"] for m in users) == sorted(texts)  # each once: none lost, none doubled
    assert [m["turn"] for m in users] == list(range(1, turns + 1))
    assert len({m["id"] for m in messages}) == len(messages)
    # The same as one conversation sent those messages in that order, in one process.
    alone = helpdesk().conversation(id="c1")
    for user in users:
        await alone.send(user["text"])
    assert messages == [m.to_json() for m in alone.transcript.messages]
    sent = sorted(m.text for w in workers for m in w.sent)
    assert sent == sorted(m["text"] for m in messages if m["role"] == "bot")  # each sent once
    state = json.loads((await store.read([KEY]))[KEY]["harness"])
    assert {m["turn"] for m in state["messages"]} == {turns - 2, turns - 1, turns}  # 3-turn window
    assert len(await store.read_log(KEY)) == turns
