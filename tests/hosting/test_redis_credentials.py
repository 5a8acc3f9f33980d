"""Redis credentials the server refuses are a configuration error, not an outage: no retry mends a
wrong password, so ``serve`` must stop at once and say what is wrong (it retried for 30 s and
said Redis was unavailable)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from harness.exceptions import ConfigError
from harness.hosting._errors import StorageUnavailableError
from harness.hosting._health import StoreHealth
from harness.hosting._redis import RedisStore
from tests.hosting._servers import redis_process

PASSWORD = "correct-horse"


@pytest.fixture
def guarded_url(tmp_path: Path) -> Iterator[str]:
    """A private redis-server that asks for a password; its URL without one."""
    with redis_process(tmp_path) as (url, _process):
        yield url


async def _require_password(url: str) -> None:
    admin = Redis.from_url(url)
    try:
        await admin.config_set("requirepass", PASSWORD)
    finally:
        await admin.aclose()


@pytest.mark.parametrize("credentials", ["", ":wrong-password@"], ids=["none", "wrong"])
async def test_refused_credentials_are_a_config_error_that_names_the_url(
    guarded_url: str, credentials: str
) -> None:
    await _require_password(guarded_url)
    store = RedisStore(guarded_url.replace("redis://", f"redis://{credentials}"))
    try:
        with pytest.raises(ConfigError) as raised:
            await store.ping()
    finally:
        await store.aclose()
    message = str(raised.value)
    assert "refused the storage URL's credentials" in message
    assert "wrong-password" not in message


async def test_the_start_up_check_stops_at_once_on_refused_credentials(guarded_url: str) -> None:
    await _require_password(guarded_url)
    store = RedisStore(guarded_url.replace("redis://", "redis://:wrong-password@"))
    failures: list[str] = []
    try:
        with pytest.raises(ConfigError):
            # A generous window: the check must give up on the first probe, not wait it out.
            await StoreHealth(store).check_within(30.0, failures.append)
    finally:
        await store.aclose()
    assert failures == []


async def test_the_right_password_still_works(guarded_url: str) -> None:
    await _require_password(guarded_url)
    store = RedisStore(guarded_url.replace("redis://", f"redis://:{PASSWORD}@"))
    try:
        await store.ping()
        await store.write({"k": {"v": 1}})
        assert await store.read(["k"]) == {"k": {"v": 1}}
    finally:
        await store.aclose()


async def test_in_a_turn_refused_credentials_stay_a_retryable_outage_that_says_why(
    guarded_url: str,
) -> None:
    """A password changed under a running worker: its turns get 503 (the channel retries) as
    for an outage, and the reason names the credentials."""
    await _require_password(guarded_url)
    store = RedisStore(guarded_url.replace("redis://", "redis://:wrong-password@"))
    try:
        with pytest.raises(StorageUnavailableError, match="refused the storage URL's credentials"):
            await store.read(["k"])
    finally:
        await store.aclose()
