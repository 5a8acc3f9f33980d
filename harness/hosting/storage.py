"""Conversation state that survives a restart: SQLite, JSON files, Redis or Azure Blob Storage.

Both adapters keep each conversation's state under a key (``{channelId}/conversations/{id}``) as a
JSON object. Memory is the default (each SDK's own ``MemoryStorage``); a ``StateStore`` here is the
durable option, written once and wrapped by each adapter (botbuilder's ``Storage`` and the Agents
SDK's ``Storage``), so a new server on the same store picks up every conversation where it stopped.

Beside the state, a store keeps each conversation's full transcript as an append-only log (one
entry per finished turn, ``append_log`` / ``read_log``), so the state itself holds only a window
of recent turns. Stores shared by several workers (``RedisStore``, ``BlobStore``) also hand out a
per-conversation ``lease``: one worker at a time runs a conversation's turn, and a worker whose
lease has expired cannot overwrite the state (``LeaseLostError``).

Blocking file and database work runs in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import tempfile
import threading
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from harness.hosting._errors import StorageUnavailableError
from harness.hosting._offloop import sized, text_size

__all__ = ["FileStore", "LeaseLostError", "SqliteStore", "StateStore", "StorageUnavailableError"]

JsonObject = dict[str, Any]

_LOG_BATCH = 100

_PING_KEY = "harness/ping"
"""The key ``ping`` reads (no conversation key has this form: theirs hold ``/conversations/``)."""


class LeaseLostError(StorageUnavailableError):
    """A worker's lease on a conversation expired (another worker may hold it): its write is refused.

    Before the turn's first reply it is answered 503 with ``Retry-After``, like an unreachable
    store: the channel's retry runs the turn where the lease is held now.
    """

    def __init__(self, key: str) -> None:
        super().__init__(f"the lease on {key!r} was lost; the state was not written", retry_after=1)
        self.key = key


class StateStore(ABC):
    """A key/value store of JSON objects, shared by the hosting adapters.

    Keys are strings; values are JSON-serialisable dicts. Writes replace the whole value.
    """

    @abstractmethod
    async def read(self, keys: Iterable[str]) -> dict[str, JsonObject]:
        """The stored values of ``keys``; missing keys are left out."""

    @abstractmethod
    async def write(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        """Store each value under its key, replacing what was there."""

    @abstractmethod
    async def delete(self, keys: Iterable[str]) -> None:
        """Remove ``keys``; missing keys are ignored."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release the store's resources."""

    async def ping(self) -> None:
        """Check that the store answers, with one cheap call (``harness serve``'s start-up check
        and ``/healthz``); raises what the call raised (``StorageUnavailableError`` when the store
        cannot be reached).

        The default reads a key no conversation has.
        """
        await self.read([_PING_KEY])

    @asynccontextmanager
    async def lease(self, key: str) -> AsyncIterator[None]:
        """Hold ``key`` for one turn, against other processes sharing the store.

        The default holds nothing: a SQLite file or a directory serves one process, and turns of
        one conversation in one process already run one at a time. Shared stores override it.
        """
        yield

    async def append_log(self, key: str, entries: Mapping[int, Mapping[str, Any]]) -> None:
        """Store log entries of ``key`` by their 1-based number; writing an entry again replaces it.

        The default keeps entry ``n`` under the key ``{key}/log/{n}``.
        """
        if entries:
            await self.write({f"{key}/log/{n}": entry for n, entry in entries.items()})

    async def read_log(self, key: str) -> list[JsonObject]:
        """The log entries of ``key``, in order (entry 1 first)."""
        found: list[JsonObject] = []
        while True:
            names = [f"{key}/log/{n}" for n in range(len(found) + 1, len(found) + _LOG_BATCH + 1)]
            batch = await self.read(names)
            for name in names:
                if name not in batch:
                    return found
                found.append(batch[name])


async def encoded(value: Mapping[str, Any]) -> str:
    """``_encode(value)``, on a worker thread when the value holds long text."""
    return await sized(text_size(value), _encode, value)


async def decoded(text: str | bytes) -> Any:
    """``json.loads(text)``, on a worker thread when the text is long."""
    return await sized(len(text), json.loads, text)


def _encode(value: Mapping[str, Any]) -> str:
    try:
        # ASCII: a lone surrogate is escaped ("\ud800"), which SQLite and UTF-8 files can store.
        return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"conversation state must be JSON-serialisable: {exc}") from exc


class SqliteStore(StateStore):
    """State in one SQLite file (WAL mode), safe across restarts.

    Args:
        path: the database file; created with its table when missing.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            self._db = db
        return self._db

    def _read(self, keys: list[str]) -> dict[str, JsonObject]:
        if not keys:
            return {}
        with self._lock:
            db = self._connect()
            marks = ",".join("?" * len(keys))
            rows = db.execute(f"SELECT key, value FROM state WHERE key IN ({marks})", keys)
            return {key: json.loads(value) for key, value in rows.fetchall()}

    def _write(self, rows: list[tuple[str, str]]) -> None:
        with self._lock:
            db = self._connect()
            db.execute("BEGIN")
            try:
                db.executemany("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", rows)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _delete(self, keys: list[str]) -> None:
        with self._lock:
            self._connect().executemany("DELETE FROM state WHERE key = ?", [(k,) for k in keys])

    async def read(self, keys: Iterable[str]) -> dict[str, JsonObject]:
        return await asyncio.to_thread(self._read, list(keys))

    async def write(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        rows = [(key, await encoded(value)) for key, value in changes.items()]
        if rows:
            await asyncio.to_thread(self._write, rows)

    async def delete(self, keys: Iterable[str]) -> None:
        await asyncio.to_thread(self._delete, list(keys))

    async def aclose(self) -> None:
        def close() -> None:
            with self._lock:
                if self._db is not None:
                    self._db.close()
                    self._db = None

        await asyncio.to_thread(close)


class FileStore(StateStore):
    """State as one JSON file per key in a directory, replaced atomically on every write.

    Args:
        directory: where the files live; created when missing.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    def _file(self, key: str) -> Path:
        return self.directory / (hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + ".json")

    def _read(self, keys: list[str]) -> dict[str, JsonObject]:
        found: dict[str, JsonObject] = {}
        for key in keys:
            try:
                record = json.loads(self._file(key).read_text(encoding="utf-8"))
            except FileNotFoundError:
                continue
            if isinstance(record, dict) and record.get("key") == key:
                found[key] = record["value"]
        return found

    def _write(self, records: list[tuple[str, str]]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for key, text in records:
            target = self._file(key)
            fd, temp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temp, target)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise

    def _delete(self, keys: list[str]) -> None:
        for key in keys:
            self._file(key).unlink(missing_ok=True)

    async def read(self, keys: Iterable[str]) -> dict[str, JsonObject]:
        return await asyncio.to_thread(self._read, list(keys))

    async def write(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        records = [
            (key, await encoded({"key": key, "value": dict(value)}))
            for key, value in changes.items()
        ]
        if records:
            await asyncio.to_thread(self._write, records)

    async def delete(self, keys: Iterable[str]) -> None:
        await asyncio.to_thread(self._delete, list(keys))
