"""Reading a user's text file safely: UTF-8 only, with a size limit, every problem one ``ConfigError``.

The YAML reader (``harness._yaml``) and the transcript readers (``harness.detect.readers``)
read their files through :func:`read_text`, so both refuse the same things with the same words.
"""

from __future__ import annotations

from pathlib import Path

from harness.exceptions import ConfigError

__all__ = ["read_text"]


def read_text(path: str | Path, *, max_bytes: int) -> str:
    """Read a UTF-8 text file (a BOM is dropped) of at most ``max_bytes`` bytes.

    Raises:
        ConfigError: the file is missing, too large, UTF-16/32, holds NUL bytes or is not UTF-8.
    """
    file = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError as exc:
        raise ConfigError("cannot read the file: no such file", file=file) from exc
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror or exc}", file=file) from exc
    if len(data) > max_bytes:
        raise ConfigError(
            f"the file is larger than {max_bytes:,} bytes; refusing to load it", file=file
        )
    return _decode(data, file)


def _decode(data: bytes, file: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) > 1 and data[1:2] == b"\x00"):
        raise ConfigError(
            "the file is UTF-16 (or UTF-32) encoded; save it as UTF-8", file=file, line=1
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise ConfigError(
            "the file contains a NUL byte; it is not a text file", file=file, line=line
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"the file is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8",
            file=file,
            line=line,
        ) from None
