"""Conversation state that survives a restart: a SQLite file or a directory of JSON files.

Both adapters keep each conversation's state under a key (``{channelId}/conversations/{id}``) as a
JSON object. Memory is the default (each SDK's own ``MemoryStorage``); a ``StateStore`` here is the
durable option, written once and wrapped by each adapter (botbuilder's ``Storage`` and the Agents
SDK's ``Storage``), so a new server on the same file picks up every conversation where it stopped.

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
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.exceptions import ConfigError

__all__ = ["FileStore", "SqliteStore", "StateStore", "open_store"]

JsonObject = dict[str, Any]


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
        rows = [(key, _encode(value)) for key, value in changes.items()]
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
            (key, _encode({"key": key, "value": dict(value)})) for key, value in changes.items()
        ]
        if records:
            await asyncio.to_thread(self._write, records)

    async def delete(self, keys: Iterable[str]) -> None:
        await asyncio.to_thread(self._delete, list(keys))


def open_store(spec: str | Path | StateStore | None) -> StateStore | None:
    """Turn a ``--storage`` value into a store.

    Args:
        spec: ``None`` or ``memory`` (in-memory, lost on restart: returns None), a path ending in
            ``.sqlite``, ``.sqlite3`` or ``.db`` (a ``SqliteStore``), any other path (a directory
            for a ``FileStore``), or a ready ``StateStore``.

    Raises:
        ConfigError: when the path exists but is neither a database file nor a directory.
    """
    if spec is None or isinstance(spec, StateStore):
        return spec
    text = str(spec)
    if text == "memory":
        return None
    path = Path(text).expanduser()
    if path.suffix.lower() in (".sqlite", ".sqlite3", ".db"):
        if path.exists() and not path.is_file():
            raise ConfigError(f"storage {text!r} is not a file", field="storage")
        return SqliteStore(path)
    if path.exists() and not path.is_dir():
        raise ConfigError(
            f"storage {text!r} must be a directory, or a file ending in .sqlite or .db",
            field="storage",
        )
    return FileStore(path)
