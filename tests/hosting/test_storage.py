"""Durable conversation state: a restart in the middle of a dialogue loses nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.exceptions import ConfigError
from harness.hosting import EndpointTarget, FileStore, SqliteStore, create_app, open_store
from tests.hosting._support import ADAPTERS, helpdesk, running


async def _turn(base: str, conversation: str, text: str) -> list[str]:
    async with EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel:
        return [r.activity["text"] for r in await channel.send_turn(conversation, text)]


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("kind", ["state.sqlite", "state-dir"])
async def test_restart_mid_dialogue_loses_nothing(tmp_path: Path, adapter: str, kind: str) -> None:
    storage = tmp_path / kind
    async with running(create_app(helpdesk(), adapter=adapter, storage=storage)) as base:  # type: ignore[arg-type]
        first = await _turn(base, "dd", "I want to change my direct deposit account")
        second = await _turn(base, "dd", "It's 123456789")
    assert "account number" in first[0]
    assert "ending in 6789" in second[0]
    # A new server process would build a new bot and app on the same storage.
    async with running(create_app(helpdesk(), adapter=adapter, storage=storage)) as base:  # type: ignore[arg-type]
        third = await _turn(base, "dd", "yes")
        fourth = await _turn(base, "dd", "How many vacation days have I taken?")
    assert third == ["Done: your pay will go to the account ending in 6789 from the next payroll."]
    assert fourth == ["You have used 8 PTO days so far this year."]


async def test_memory_storage_forgets_on_restart() -> None:
    async with running(create_app(helpdesk())) as base:
        await _turn(base, "dd", "I want to change my direct deposit account")
        await _turn(base, "dd", "It's 123456789")
    async with running(create_app(helpdesk())) as base:
        third = await _turn(base, "dd", "yes")
    assert not any(text.startswith("Done") for text in third)


@pytest.mark.parametrize(
    "factory", [lambda p: SqliteStore(p / "s.db"), lambda p: FileStore(p / "d")]
)
async def test_store_round_trip(tmp_path: Path, factory: object) -> None:
    store = factory(tmp_path)  # type: ignore[operator]
    await store.write({"a/conversations/1": {"harness": {"turns": [1]}}, "b": {"x": "é"}})
    assert await store.read(["a/conversations/1", "b", "missing"]) == {
        "a/conversations/1": {"harness": {"turns": [1]}},
        "b": {"x": "é"},
    }
    await store.write({"b": {"x": 2}})
    await store.delete(["a/conversations/1", "missing"])
    assert await store.read(["a/conversations/1", "b"]) == {"b": {"x": 2}}
    with pytest.raises(ValueError, match="JSON-serialisable"):
        await store.write({"c": {"bad": object()}})
    await store.aclose()
    # A new store on the same path sees the data (what a restart does).
    again = factory(tmp_path)  # type: ignore[operator]
    assert await again.read(["b"]) == {"b": {"x": 2}}
    await again.aclose()


async def test_file_store_leaves_no_temporary_files(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    for n in range(5):
        await store.write({f"k{n}": {"n": n}})
    names = await asyncio.to_thread(lambda: [p.name for p in tmp_path.iterdir()])
    assert len(names) == 5 and all(n.endswith(".json") for n in names)
    assert not [n for n in names if n.startswith(".tmp-")]


def test_open_store(tmp_path: Path) -> None:
    assert open_store(None) is None
    assert open_store("memory") is None
    assert isinstance(open_store(tmp_path / "x.sqlite"), SqliteStore)
    assert isinstance(open_store(tmp_path / "dir"), FileStore)
    (tmp_path / "plain.txt").write_text("x")
    with pytest.raises(ConfigError, match="directory"):
        open_store(tmp_path / "plain.txt")
    (tmp_path / "folder.db").mkdir()
    with pytest.raises(ConfigError, match="not a file"):
        open_store(tmp_path / "folder.db")
