"""Choosing a store from a ``--storage`` value: memory, a file, SQLite, Redis or Azure Blob.

Kept apart from ``storage`` (the interface and the local stores) so that the Redis and Blob stores,
which build on that interface, are imported only here, when a URL asks for them.
"""

from __future__ import annotations

from pathlib import Path

from harness.exceptions import ConfigError
from harness.hosting.storage import FileStore, SqliteStore, StateStore

__all__ = ["open_store"]


def open_store(spec: str | Path | StateStore | None) -> StateStore | None:
    """Turn a ``--storage`` value into a store.

    Args:
        spec: ``None`` or ``memory`` (in-memory, lost on restart: returns None), a
            ``redis://`` or ``rediss://`` URL (a ``RedisStore``), an ``azblob://CONTAINER`` URL
            (a ``BlobStore``), a path ending in ``.sqlite``, ``.sqlite3`` or ``.db`` (a
            ``SqliteStore``), any other path (a directory for a ``FileStore``), or a ready
            ``StateStore``.

    Raises:
        ConfigError: when the path exists but is neither a database file nor a directory, or
            a URL is malformed.
        MissingExtraError: for a Redis or Blob URL without the ``storage`` extra.
    """
    if spec is None or isinstance(spec, StateStore):
        return spec
    text = str(spec)
    if text == "memory":
        return None
    scheme = text.split("://", 1)[0].lower() if "://" in text else ""
    if scheme in ("redis", "rediss"):
        from harness.hosting._redis import RedisStore

        return RedisStore(text)
    if scheme == "azblob":
        from harness.hosting._blob import BlobStore

        return BlobStore(text)
    if scheme:
        raise ConfigError(
            f"storage {text!r}: unknown scheme {scheme!r}; use redis://, rediss:// or azblob://",
            field="storage",
        )
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
