"""Conversation state in Azure Blob Storage, on Azurite: blobs, the log, leases and two workers."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from harness.exceptions import ConfigError
from harness.hosting import LeaseLostError, open_store
from harness.hosting._blob import BlobStore
from tests.hosting._servers import azurite
from tests.hosting._shared import KEY, Worker, transcript
from tests.hosting._support import helpdesk


@pytest.fixture(scope="module")
def connection_string(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with azurite(tmp_path_factory.mktemp("azurite")) as value:
        yield value


@pytest.fixture
async def store(connection_string: str) -> AsyncIterator[BlobStore]:
    opened = BlobStore(f"azblob://t{uuid.uuid4().hex[:10]}", connection_string=connection_string)
    yield opened
    await opened.aclose()


async def test_values_and_log_round_trip(store: BlobStore) -> None:
    await store.write({"a/conversations/x": {"x": 1}, "b": {"y": "\ud800"}})
    found = await store.read(["a/conversations/x", "b", "missing"])
    assert found == {"a/conversations/x": {"x": 1}, "b": {"y": "\ud800"}}
    await store.append_log("b", {1: {"n": 1}, 2: {"n": 2}})
    await store.append_log("b", {2: {"n": "2 again"}, 3: {"n": 3}})  # a rerun replaces entry 2
    assert [e["n"] for e in await store.read_log("b")] == [1, "2 again", 3]
    await store.delete(["b"])
    assert await store.read(["b"]) == {} and await store.read_log("b") == []


async def test_a_lease_keeps_a_second_worker_out(store: BlobStore, connection_string: str) -> None:
    other = BlobStore(f"azblob://{store.container_name}", connection_string=connection_string)
    order: list[str] = []
    try:
        async with store.lease("k"):
            assert await store.read(["k"]) == {}  # the empty blob a lease needs is no state

            async def second() -> None:
                async with other.lease("k"):
                    order.append("second")

            task = asyncio.create_task(second())
            await asyncio.sleep(0.5)
            order.append("first done")
        await task
    finally:
        await other.aclose()
    assert order == ["first done", "second"]


async def test_a_worker_whose_lease_was_broken_cannot_overwrite_the_state(
    store: BlobStore, connection_string: str
) -> None:
    other = BlobStore(f"azblob://{store.container_name}", connection_string=connection_string)
    try:
        async with store.lease("k"):
            await store.write({"k": {"v": 1}})
            await store._leases["k"].break_lease(lease_break_period=0)  # as if it lapsed
            async with other.lease("k"):
                await other.write({"k": {"v": 2}})
                with pytest.raises(LeaseLostError):
                    await store.write({"k": {"v": "stale"}})
                with pytest.raises(LeaseLostError):
                    await store.append_log("k", {1: {"v": "stale"}})
    finally:
        await other.aclose()
    assert await store.read(["k"]) == {"k": {"v": 2}}


async def test_two_workers_with_retries_lose_no_turn_and_apply_none_twice(
    store: BlobStore, connection_string: str
) -> None:
    second = BlobStore(f"azblob://{store.container_name}", connection_string=connection_string)
    workers = [Worker(store), Worker(second)]
    texts = [f"where can i locate my w-2 form ({n})" for n in range(8)]
    try:
        async with asyncio.TaskGroup() as group:
            for n, text in enumerate(texts):
                for worker in workers:
                    group.create_task(worker.say(text, activity=f"a{n}"))
    finally:
        await second.aclose()
    messages = await transcript(store)
    users = [m for m in messages if m["role"] == "user"]
    assert sorted(m["text"] for m in users) == sorted(texts)
    assert [m["turn"] for m in users] == list(range(1, 9))
    alone = helpdesk().conversation(id="c1")
    for user in users:
        await alone.send(user["text"])
    assert messages == [m.to_json() for m in alone.transcript.messages]
    assert len([m for w in workers for m in w.sent]) == len(
        [m for m in messages if m["role"] == "bot"]
    )
    state = json.loads((await store.read([KEY]))[KEY]["harness"])
    assert {m["turn"] for m in state["messages"]} == {6, 7, 8}


def test_a_blob_url_needs_a_connection_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AZURE_STORAGE_CONNECTION_STRING", raising=False)
    with pytest.raises(ConfigError, match="AZURE_STORAGE_CONNECTION_STRING"):
        open_store("azblob://state")
    monkeypatch.setenv("AZURE_STORAGE_CONNECTION_STRING", "UseDevelopmentStorage=true")
    assert isinstance(open_store("azblob://state"), BlobStore)
