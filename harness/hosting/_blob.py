"""Conversation state in Azure Blob Storage, shared by several ``harness serve`` workers.

The storage Azure Bot Service bots already use. Each conversation's state is one block blob
(``state/{key}``), each log entry another (``log/{key}/{n:010d}``, overwritten when a turn is run
again). A turn holds a blob lease on the state blob (15 seconds, renewed while the turn runs), and
every state write carries that lease, so a worker whose lease has lapsed is refused by the service
itself (``LeaseLostError``). A worker killed mid-turn blocks its conversations for at most the
lease's 15 seconds.

URL: ``azblob://CONTAINER`` (created when missing) with the account's connection string in the
environment variable ``AZURE_STORAGE_CONNECTION_STRING`` (or the one named by the ``connection_env``
query parameter), and optionally ``lease_wait`` (seconds a turn waits for a busy conversation,
default 30) and ``timeout`` (seconds one storage call may take, the SDK's own retries included,
default 10).

An account that cannot be reached (connection refused or reset, DNS, a call that outlasts
``timeout``) or that answers 408, 429 or 5xx raises ``StorageUnavailableError``, which the
server answers 503 with ``Retry-After`` when the turn has sent nothing yet, as for Redis.

A configuration that can never work is a ``ConfigError`` instead, which ``harness serve`` reports
at start without trying again: a container name the service does not accept (checked before any
call), a malformed connection string, and the service's refusal of the first call (creating the
container) with 400, 401 or 403: an invalid request, a wrong account key or signature, or
credentials without the permission.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar
from urllib.parse import parse_qsl, quote, urlsplit

from harness.exceptions import ConfigError, MissingExtraError
from harness.hosting._errors import StorageUnavailableError, UnavailableError
from harness.hosting._lease import acquire, renewing
from harness.hosting.storage import JsonObject, LeaseLostError, StateStore, decoded, encoded

try:
    from azure.core.exceptions import (
        AzureError,
        ClientAuthenticationError,
        HttpResponseError,
        ResourceExistsError,
        ResourceNotFoundError,
        ServiceRequestError,
        ServiceResponseError,
    )
    from azure.storage.blob.aio import BlobLeaseClient, BlobServiceClient, ContainerClient
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("Azure Blob storage", extra="storage") from exc

__all__ = ["BlobStore"]

log = logging.getLogger("harness.hosting")

LEASE_SECONDS = 15
"""The blob lease's length (the service's shortest); renewed every 5 seconds while a turn runs."""

T = TypeVar("T")

_TRANSIENT_STATUS = frozenset({408, 429, 500, 502, 503, 504})
"""Answers that mean "not now" (the service is busy, throttling or failing), not "never"."""


def unavailable(exc: BaseException) -> StorageUnavailableError | None:
    """The ``StorageUnavailableError`` an exception of a storage call stands for, or None when
    it is an answer the caller must handle (a 404, a 409 from a held lease, ...)."""
    if isinstance(exc, HttpResponseError) and exc.status_code in _TRANSIENT_STATUS:
        return StorageUnavailableError(f"Azure Blob Storage answered {exc.status_code}")
    if isinstance(exc, (ServiceRequestError, ServiceResponseError, OSError, TimeoutError)):
        return StorageUnavailableError(f"Azure Blob Storage is unavailable ({type(exc).__name__})")
    return None


async def _guarded(call: Awaitable[T], limit_s: float) -> T:
    """Await one storage call for at most ``limit_s`` seconds; an unreachable, silent or failing
    account is ``StorageUnavailableError``."""
    try:
        async with asyncio.timeout(limit_s):
            return await call
    except (AzureError, OSError, TimeoutError) as exc:
        error = unavailable(exc)
        if error is None:
            raise
        raise error from exc


_CONTAINER_NAME = re.compile(r"(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]|\$root")
"""The container names Azure Storage accepts: 3 to 63 lower-case letters, digits and hyphens,
starting and ending with a letter or digit, no two hyphens in a row (or ``$root``)."""

_RESERVED_CONTAINERS = {
    "$web": "the static website container: with static website hosting on, anyone can read "
    "its blobs over the web, and conversation state would be among them",
    "$logs": "the storage account's own analytics logs, written by the service",
}
"""Names Azure accepts that are no place for a bot's state, with why."""

_REFUSED_STATUS = frozenset({400, 401, 403})
"""Answers to the first call that mean the configuration is wrong, not that the service is busy."""


def _misconfigured(exc: HttpResponseError, what: str, variable: str) -> ConfigError:
    """The ``ConfigError`` for the service's refusal (400, 401, 403) of ``what``."""
    code = getattr(exc, "error_code", None)  # set by the storage SDK, not by azure-core
    code = getattr(code, "value", code) or exc.reason or "no error code"
    if exc.status_code == 400:
        why = "the request was refused as invalid; check the container name and the account"
    else:
        why = (
            f"the credentials in {variable} were refused: check its AccountKey (or the SAS "
            "token's signature, expiry and permissions: read, write, delete, list and create)"
        )
    return ConfigError(
        f"Azure Blob Storage answered HTTP {exc.status_code} ({code}) to {what}: {why}",
        field="storage",
    )


def _seconds(options: Mapping[str, str], name: str, default: float) -> float:
    try:
        value = float(options.get(name, default))
    except ValueError:
        value = -1.0
    if value <= 0:
        raise ConfigError(f"storage URL: {name} must be a positive number", field="storage")
    return value


class BlobStore(StateStore):
    """State, transcript logs and per-conversation leases in one Azure Blob Storage container.

    Args:
        url: ``azblob://CONTAINER`` with optional ``connection_env`` and ``lease_wait`` query
            parameters (see the module docstring).
        connection_string: the account's connection string; by default read from the
            environment.
        client_options: keyword arguments for the SDK's ``BlobServiceClient`` (for example
            ``retry_total``, ``connection_timeout`` or a ``transport``).

    Raises:
        ConfigError: when there is no container name or no connection string.
    """

    def __init__(
        self,
        url: str,
        *,
        connection_string: str | None = None,
        client_options: Mapping[str, Any] | None = None,
    ) -> None:
        parts = urlsplit(url)
        options = dict(parse_qsl(parts.query))
        self.container_name = (parts.netloc + parts.path).strip("/")
        if not self.container_name:
            raise ConfigError("storage URL: azblob:// needs a container name", field="storage")
        if self.container_name in _RESERVED_CONTAINERS:
            raise ConfigError(
                f"storage URL: {self.container_name!r} is a container Azure reserves: "
                f"{_RESERVED_CONTAINERS[self.container_name]}; use a container of your own "
                "(for example azblob://bot-state)",
                field="storage",
            )
        if not _CONTAINER_NAME.fullmatch(self.container_name):
            raise ConfigError(
                f"storage URL: {self.container_name!r} is no Azure container name (3 to 63 "
                "lower-case letters, digits and hyphens, starting and ending with a letter or "
                "digit, no two hyphens in a row)",
                field="storage",
            )
        variable = options.get("connection_env", "AZURE_STORAGE_CONNECTION_STRING")
        self._variable = variable
        self._connection_string = connection_string or os.environ.get(variable, "")
        if not self._connection_string:
            raise ConfigError(
                f"storage {url!r}: set {variable} to the storage account's connection string",
                field="storage",
            )
        self.lease_wait = _seconds(options, "lease_wait", 30.0)
        """Seconds a turn waits for another worker to finish with its conversation."""
        self.timeout = _seconds(options, "timeout", 10.0)
        """Seconds one storage call may take (the SDK's retries included) before the account
        counts as unavailable."""
        self._client_options = dict(client_options or {})
        self._service: BlobServiceClient | None = None
        self._container: ContainerClient | None = None
        self._ready = False
        self._leases: dict[str, BlobLeaseClient] = {}

    async def _client(self) -> ContainerClient:
        """The container's client, the container created on first use.

        Raises:
            ConfigError: the connection string is malformed, or the service refused the first
                call with 400, 401 or 403 (see the module docstring).
        """
        if self._container is None:
            try:
                self._service = BlobServiceClient.from_connection_string(
                    self._connection_string, **self._client_options
                )
            except ValueError as exc:  # "Connection string is either blank or malformed."
                raise ConfigError(
                    f"the connection string in {self._variable} cannot be read ({exc}); it "
                    "looks like 'DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;"
                    "EndpointSuffix=core.windows.net' (the account's Access keys page)",
                    field="storage",
                ) from exc
            self._container = self._service.get_container_client(self.container_name)
        if not self._ready:
            try:
                with contextlib.suppress(ResourceExistsError):
                    await self._call(self._container.create_container())
            except ClientAuthenticationError as exc:
                if exc.status_code is None:  # no answer: the request could not even be signed
                    raise ConfigError(
                        f"the AccountKey in {self._variable} cannot sign a request ({exc}); "
                        "copy the key again from the account's Access keys page",
                        field="storage",
                    ) from exc
                raise self._refused(exc) from exc
            except HttpResponseError as exc:
                if exc.status_code in _REFUSED_STATUS:
                    raise self._refused(exc) from exc
                raise
            self._ready = True
        return self._container

    def _refused(self, exc: HttpResponseError) -> ConfigError:
        what = f"creating or finding the container {self.container_name!r}"
        return _misconfigured(exc, what, self._variable)

    async def _call(self, call: Awaitable[T]) -> T:
        return await _guarded(call, self.timeout)

    @staticmethod
    def _state_name(key: str) -> str:
        return f"state/{quote(key, safe='')}"

    @staticmethod
    def _log_prefix(key: str) -> str:
        return f"log/{quote(key, safe='')}/"

    async def _download(self, name: str) -> bytes | None:
        container = await self._client()
        blob = container.get_blob_client(name)

        async def download() -> bytes:
            stream = await blob.download_blob()
            return bytes(await stream.readall())

        try:
            return await self._call(download())
        except ResourceNotFoundError:
            return None

    async def read(self, keys: Iterable[str]) -> dict[str, JsonObject]:
        names = list(keys)
        found = await asyncio.gather(*(self._download(self._state_name(k)) for k in names))
        # An empty blob is a conversation that was leased but never written.
        return {k: await decoded(v) for k, v in zip(names, found, strict=True) if v}

    async def write(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        container = await self._client()
        for key, value in changes.items():
            blob = container.get_blob_client(self._state_name(key))
            lease = self._leases.get(key)
            data = (await encoded(value)).encode("ascii")
            try:
                await self._call(blob.upload_blob(data, overwrite=True, lease=lease))
            except HttpResponseError as exc:
                if lease is not None and exc.status_code in (409, 412):
                    raise LeaseLostError(key) from exc
                raise

    async def delete(self, keys: Iterable[str]) -> None:
        container = await self._client()
        for key in keys:
            names = [self._state_name(key), *await self._names(self._log_prefix(key))]
            for name in names:
                with contextlib.suppress(ResourceNotFoundError):
                    await self._call(container.delete_blob(name))

    async def _names(self, prefix: str) -> list[str]:
        container = await self._client()

        async def listing() -> list[str]:
            return [n async for n in container.list_blob_names(name_starts_with=prefix)]

        return await self._call(listing())

    async def append_log(self, key: str, entries: Mapping[int, Mapping[str, Any]]) -> None:
        container = await self._client()
        lease = self._leases.get(key)
        if lease is not None:
            try:  # a lapsed lease refuses this: the turn is someone else's now
                await self._call(lease.renew())
            except HttpResponseError as exc:
                raise LeaseLostError(key) from exc
        prefix = self._log_prefix(key)
        for number in sorted(entries):
            data = (await encoded(entries[number])).encode("ascii")
            name = f"{prefix}{number:010d}"
            await self._call(container.upload_blob(name, data, overwrite=True))

    async def read_log(self, key: str) -> list[JsonObject]:
        names = sorted(await self._names(self._log_prefix(key)))
        found = await asyncio.gather(*(self._download(n) for n in names))
        return [await decoded(v) for v in found if v]

    @asynccontextmanager
    async def lease(self, key: str) -> AsyncIterator[None]:
        """Hold a blob lease on ``key``'s state blob while the block runs.

        Raises:
            UnavailableError: when another worker held it for longer than ``lease_wait`` seconds,
                or ``StorageUnavailableError`` when the account cannot be reached. (A lease taken
                by a call that then timed out lapses on its own within 15 seconds.)
        """
        container = await self._client()
        blob = container.get_blob_client(self._state_name(key))
        with contextlib.suppress(ResourceExistsError):  # a lease needs a blob
            await self._call(blob.upload_blob(b"", overwrite=False))
        lease = BlobLeaseClient(blob, lease_id=str(uuid.uuid4()))

        async def attempt() -> bool:
            try:
                await self._call(lease.acquire(lease_duration=LEASE_SECONDS))
            except HttpResponseError as exc:
                if exc.status_code != 409:  # 409: another worker holds it
                    raise
                return False
            return True

        try:
            await acquire(attempt, wait_s=self.lease_wait, pause_s=0.01, max_pause_s=0.2)
        except TimeoutError as exc:  # answered 503 with Retry-After: the channel tries again
            raise UnavailableError(
                f"the conversation was busy on another worker for {self.lease_wait:g}s"
            ) from exc
        self._leases[key] = lease
        try:
            async with renewing(lambda: self._renew(lease, key), every_s=LEASE_SECONDS / 3):
                yield
        finally:
            self._leases.pop(key, None)
            try:
                await self._call(lease.release())
            except (AzureError, StorageUnavailableError) as exc:  # it lapses on its own
                log.warning("could not release the lease on %s (%s)", key, exc)

    async def _renew(self, lease: BlobLeaseClient, key: str) -> bool:
        """Renew the lease once; False once it is no longer this worker's (stop renewing)."""
        try:
            await self._call(lease.renew())
        except StorageUnavailableError as exc:  # unreachable now: the fenced writes will tell
            log.warning("could not renew the lease on %s (%s)", key, exc)
        except HttpResponseError as exc:
            log.warning("could not renew the lease on %s (%s)", key, exc.reason)
            return exc.status_code not in (409, 412)
        return True

    async def aclose(self) -> None:
        if self._service is not None:
            await self._service.close()
            self._service = None
            self._container = None
            self._ready = False
