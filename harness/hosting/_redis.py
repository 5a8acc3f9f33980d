"""Conversation state in Redis, shared by several ``harness serve`` workers.

Each conversation's state is one Redis string (JSON), its transcript log one Redis list. A turn
holds a per-conversation lease: ``SET lease token NX PX ttl``, renewed while the turn runs and
released by a compare-and-delete script, so a worker killed mid-turn blocks its conversations for
at most ``lease_ttl`` seconds. Every write under a lease is fenced: a script writes only while the
lease still holds this worker's token, so a worker that stalled past its lease cannot overwrite
the turn another worker has run since (``LeaseLostError``).

Every command has ``timeout`` seconds (connect and answer); a Redis that is down, paused or slow
raises ``StorageUnavailableError``, which the server answers 503 with ``Retry-After`` when the
turn has sent nothing yet. A lease that cannot be released because Redis is unreachable is
released again in the background until it would have expired anyway.

URL: ``redis://[:password@]host:port/db`` (or ``rediss://`` for TLS) with optional query
parameters ``prefix`` (default ``harness:``), ``lease_ttl`` (seconds, default 10),
``lease_wait`` (seconds a turn waits for a busy conversation, default 30) and ``timeout``
(seconds one command may take, default 5).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness.exceptions import ConfigError, MissingExtraError
from harness.hosting._errors import StorageUnavailableError, UnavailableError
from harness.hosting._lease import acquire, renewing
from harness.hosting.storage import JsonObject, LeaseLostError, StateStore, decoded, encoded

try:
    from redis.asyncio import Redis
    from redis.exceptions import AuthenticationError as RedisAuthenticationError
    from redis.exceptions import AuthorizationError as RedisAuthorizationError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import ResponseError as RedisResponseError
    from redis.exceptions import TimeoutError as RedisTimeoutError
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("Redis storage", extra="storage") from exc

__all__ = ["RedisStore"]

log = logging.getLogger("harness.hosting")

T = TypeVar("T")

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError)


_REFUSED_CREDENTIALS = (
    "Redis refused the storage URL's credentials ({why}): check the password (and user name) in "
    "the URL, redis://:PASSWORD@host:port/db or redis://USER:PASSWORD@host:port/db"
)


async def _guarded(
    call: Awaitable[T], limit_s: float, refused: type[Exception] = StorageUnavailableError
) -> T:
    """Await one Redis command (its retries included) for at most ``limit_s`` seconds; an
    unreachable or silent Redis is ``StorageUnavailableError``. Refused credentials (a wrong
    password, none where the server asks for one, a user the server's ACL does not allow) are
    ``refused``, with what to check: the probe (:meth:`RedisStore.ping`) makes them a
    ``ConfigError``, so a server stops at start-up at once (no retry mends them); in a turn they
    stay ``StorageUnavailableError`` (a 503 the channel retries, as for an outage)."""
    try:
        async with asyncio.timeout(limit_s):
            return await call
    except (RedisAuthenticationError, RedisAuthorizationError) as exc:
        # AuthenticationError is a ConnectionError in redis-py: asked before the outage case.
        raise refused(_REFUSED_CREDENTIALS.format(why=_first_line(exc))) from exc
    except RedisResponseError as exc:
        if not str(exc).startswith(("NOAUTH", "WRONGPASS", "NOPERM")):
            raise
        raise refused(_REFUSED_CREDENTIALS.format(why=_first_line(exc))) from exc
    except _UNREACHABLE as exc:
        raise StorageUnavailableError(f"Redis is unavailable ({type(exc).__name__})") from exc


def _first_line(exc: BaseException) -> str:
    """The error's first line, without anything a URL could carry."""
    return (str(exc).splitlines() or [type(exc).__name__])[0][:200]


# KEYS[1] value key, KEYS[2] lease key; ARGV[1] value, ARGV[2] token ("" when not leased).
_FENCED_SET = """
if ARGV[2] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""

# KEYS[1] log list, KEYS[2] lease key; ARGV[1] token, then (number, entry) pairs in order.
_FENCED_LOG = """
if ARGV[1] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
for i = 2, #ARGV, 2 do
  local n = tonumber(ARGV[i])
  local size = redis.call('LLEN', KEYS[1])
  if n <= size then
    redis.call('LSET', KEYS[1], n - 1, ARGV[i + 1])
  elseif n == size + 1 then
    redis.call('RPUSH', KEYS[1], ARGV[i + 1])
  else
    return redis.error_reply('log entry ' .. n .. ' after only ' .. size)
  end
end
return 1
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _seconds(options: dict[str, str], name: str, default: float) -> float:
    text = options.pop(name, None)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value <= 0:
        raise ConfigError(f"storage URL: {name} must be a positive number of seconds", field=name)
    return value


class RedisStore(StateStore):
    """State, transcript logs and per-conversation leases in one Redis database.

    Args:
        url: ``redis://host:port/db`` or ``rediss://...``, with optional ``prefix``,
            ``lease_ttl`` and ``lease_wait`` query parameters (see the module docstring).
    """

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        options = dict(parse_qsl(parts.query))
        self.prefix = options.pop("prefix", "harness:")
        self.lease_ttl = _seconds(options, "lease_ttl", 10.0)
        """Seconds a lease lasts unless renewed (a killed worker's turns wait this long)."""
        self.lease_wait = _seconds(options, "lease_wait", 30.0)
        """Seconds a turn waits for another worker to finish with its conversation."""
        self.timeout = _seconds(options, "timeout", 5.0)
        """Seconds one command may take (connecting included) before Redis counts as down."""
        self.url = urlunsplit(parts._replace(query=urlencode(options)))
        self._client: Redis | None = None
        self._tokens: dict[str, str] = {}
        self._releases: set[asyncio.Task[None]] = set()

    @property
    def client(self) -> Redis:
        """The Redis client (connected lazily, on first use)."""
        if self._client is None:
            self._client = Redis.from_url(
                self.url,
                decode_responses=True,
                socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout,
            )
        return self._client

    def _state_key(self, key: str) -> str:
        return f"{self.prefix}state:{key}"

    def _lease_key(self, key: str) -> str:
        return f"{self.prefix}lease:{key}"

    def _log_key(self, key: str) -> str:
        return f"{self.prefix}log:{key}"

    async def read(self, keys: Iterable[str]) -> dict[str, JsonObject]:
        names = list(keys)
        if not names:
            return {}
        values = await _guarded(self.client.mget([self._state_key(k) for k in names]), self.timeout)
        return {k: await decoded(v) for k, v in zip(names, values, strict=True) if v is not None}

    async def write(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        for key, value in changes.items():
            token = self._tokens.get(key, "")
            keys = [self._state_key(key), self._lease_key(key)]
            written = await _guarded(
                self.client.eval(_FENCED_SET, 2, *keys, await encoded(value), token), self.timeout
            )
            if not written:
                raise LeaseLostError(key)

    async def delete(self, keys: Iterable[str]) -> None:
        names = list(keys)
        if names:
            await _guarded(
                self.client.delete(
                    *[self._state_key(k) for k in names], *[self._log_key(k) for k in names]
                ),
                self.timeout,
            )

    async def append_log(self, key: str, entries: Mapping[int, Mapping[str, Any]]) -> None:
        if not entries:
            return
        args: list[str | int] = [self._tokens.get(key, "")]
        for number in sorted(entries):
            args += [number, await encoded(entries[number])]
        keys = [self._log_key(key), self._lease_key(key)]
        if not await _guarded(self.client.eval(_FENCED_LOG, 2, *keys, *args), self.timeout):
            raise LeaseLostError(key)

    async def read_log(self, key: str) -> list[JsonObject]:
        found = await _guarded(self.client.lrange(self._log_key(key), 0, -1), self.timeout)
        return [await decoded(v) for v in found]

    async def ping(self) -> None:
        await _guarded(self.client.ping(), self.timeout, refused=ConfigError)

    @asynccontextmanager
    async def lease(self, key: str) -> AsyncIterator[None]:
        """Hold ``key`` against every worker on this Redis while the block runs.

        Raises:
            UnavailableError: when another worker held it for longer than ``lease_wait``
                seconds (the conversation is busy), or ``StorageUnavailableError`` when Redis
                cannot be reached.
        """
        token = uuid.uuid4().hex
        name = self._lease_key(key)
        ttl_ms = int(self.lease_ttl * 1000)

        async def attempt() -> bool:
            return bool(
                await _guarded(self.client.set(name, token, nx=True, px=ttl_ms), self.timeout)
            )

        try:
            await acquire(attempt, wait_s=self.lease_wait, pause_s=0.005, max_pause_s=0.1)
        except StorageUnavailableError:
            # A SET that timed out may still be applied when Redis comes back: take it back.
            self._release_in_background(key, name, token)
            raise
        except TimeoutError as exc:
            raise UnavailableError(
                f"the conversation was busy on another worker for {self.lease_wait:g}s"
            ) from exc
        self._tokens[key] = token
        try:
            async with renewing(
                lambda: self._renew(name, token, ttl_ms), every_s=self.lease_ttl / 3
            ):
                yield
        finally:
            self._tokens.pop(key, None)
            await self._release(key, name, token)

    async def _release(self, key: str, name: str, token: str) -> None:
        try:
            await _guarded(self.client.eval(_RELEASE, 1, name, token), self.timeout)
        except Exception as exc:  # try again in the background until it would expire anyway
            log.warning("could not release the lease on %s (%s); retrying", key, exc)
            self._release_in_background(key, name, token)

    def _release_in_background(self, key: str, name: str, token: str) -> None:
        task = asyncio.create_task(self._release_later(key, name, token))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release_later(self, key: str, name: str, token: str) -> None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + max(self.lease_ttl, 60.0)
        pause = 0.05
        while loop.time() < give_up:
            await asyncio.sleep(pause)
            pause = min(pause * 2, 1.0)
            try:
                await _guarded(self.client.eval(_RELEASE, 1, name, token), self.timeout)
            except StorageUnavailableError:
                continue
            log.info("released the lease on %s", key)
            return

    async def _renew(self, name: str, token: str, ttl_ms: int) -> bool:
        """Renew the lease once; False once it is no longer this worker's (stop renewing)."""
        try:
            renewed = await _guarded(self.client.eval(_RENEW, 1, name, token, ttl_ms), self.timeout)
        except StorageUnavailableError as exc:  # Redis unreachable: the fenced writes will tell
            log.warning("could not renew the lease %s (%s)", name, exc)
            return True
        if not renewed:
            log.warning("the lease %s expired mid-turn; this turn's writes will be refused", name)
        return bool(renewed)

    async def aclose(self) -> None:
        for task in list(self._releases):
            task.cancel()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
