"""A worker that cannot reach its store is not healthy (audit F4).

``harness serve`` stops with exit code 2 when the store does not answer at start-up, and
``/healthz`` answers 503 ``"storage unavailable"`` while the last probe of the store failed, so a
load balancer takes the worker out of rotation. The stores here are in-process fakes whose probe
fails or stalls on command (no timing), and a closed port on 127.0.0.1 for Redis.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from click.testing import CliRunner

from harness.cli import cli
from harness.hosting import _health, create_app
from harness.hosting._errors import StorageUnavailableError
from harness.hosting._health import StoreHealth
from harness.hosting.storage import SqliteStore, StateStore
from tests.hosting._servers import free_port
from tests.hosting._support import ADAPTERS, HELPDESK, helpdesk, running


class _Store(StateStore):
    """State in a dict; ``down`` (a reason) makes the probe fail, ``held`` makes it wait."""

    def __init__(self) -> None:
        self.values: dict[str, dict[str, Any]] = {}
        self.down: str | None = None
        self.held: asyncio.Event | None = None
        self.pings = 0

    async def read(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        return {k: self.values[k] for k in keys if k in self.values}

    async def write(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        self.values.update({k: dict(v) for k, v in changes.items()})

    async def delete(self, keys: Iterable[str]) -> None:
        for key in keys:
            self.values.pop(key, None)

    async def ping(self) -> None:
        self.pings += 1
        if self.held is not None:
            await self.held.wait()
        if self.down is not None:
            raise StorageUnavailableError(self.down)


async def _healthz(session: ClientSession, base: str) -> tuple[int, dict[str, Any]]:
    async with session.get(f"{base}/healthz") as response:
        return response.status, await response.json()


def test_serve_stops_with_exit_2_when_redis_does_not_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_health, "START_WITHIN_S", 0.0)  # one probe: no retries
    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"  # nothing listens there
    result = CliRunner().invoke(cli, ["serve", str(HELPDESK), "--port", "0", "--storage", url])
    assert result.exit_code == 2, result.output
    shown = url.replace("hunter2", "***")
    assert f"{shown} does not answer (Redis is unavailable" in result.output
    assert "check that it is running" in result.output
    assert "hunter2" not in result.output  # the password is not printed
    assert "/api/messages" not in result.output  # it never listened


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_healthz_is_503_while_the_store_does_not_answer(
    adapter: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_health, "PROBE_EVERY_S", 0.0)  # every /healthz probes
    # and waits for its probe however busy the machine is (the probe answers at once here)
    monkeypatch.setattr(_health, "ANSWER_WITHIN_S", 300.0)
    store = _Store()
    app = create_app(helpdesk(), adapter=adapter, storage=store)
    async with running(app) as base, ClientSession() as session:
        assert await _healthz(session, base) == (
            200,
            {"status": "ok", "bot": "helpdesk", "adapter": adapter, "inFlight": 0},
        )
        store.down = "Redis is unavailable (ConnectionError)"
        status, body = await _healthz(session, base)
        assert status == 503
        assert body["status"] == "storage unavailable"
        assert body["reason"] == "Redis is unavailable (ConnectionError)"
        store.down = None  # back: in rotation again
        assert (await _healthz(session, base))[0] == 200


async def test_healthz_does_not_wait_for_a_stalled_probe_nor_start_another() -> None:
    store = _Store()
    store.held = asyncio.Event()
    async with running(create_app(helpdesk(), storage=store)) as base, ClientSession() as session:
        # The probe hangs: /healthz answers the last result it has (none failed) meanwhile.
        assert (await _healthz(session, base))[0] == 200
        assert (await _healthz(session, base))[0] == 200
        assert store.pings == 1  # one probe in flight at a time
        store.down = "the store did not answer"
        store.held.set()  # the stalled probe fails now; the next /healthz has its result
        status, body = await _healthz(session, base)
    assert (status, body["status"]) == (503, "storage unavailable")
    assert store.pings == 1


async def test_the_probe_of_a_local_store_and_of_memory(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "state.sqlite")
    try:
        assert await StoreHealth(store).check() is None
    finally:
        await store.aclose()
    assert await StoreHealth(None).check() is None
    failing = _Store()
    failing.down = "refused"
    health = StoreHealth(failing)
    assert await health.check() == "refused"
    assert health.problem == "refused"


async def test_at_start_up_a_store_that_answers_on_a_later_try_is_healthy() -> None:
    class _Starting(_Store):  # a store started at the same time as the worker
        async def ping(self) -> None:
            await super().ping()
            if self.pings == 1:
                raise StorageUnavailableError("Redis is unavailable (ConnectionError)")

    told: list[str] = []
    store = _Starting()
    assert await StoreHealth(store).check_within(300.0, told.append) is None
    assert told == ["Redis is unavailable (ConnectionError)"]  # said once, at the first failure
    assert store.pings == 2
