"""Reading config files without being tripped by what is in them.

Every file the linter reads goes through :func:`read_config`, so a huge file, a UTF-16 export, a
binary file, a named pipe or bytes that are not UTF-8 each give one clear HC100 message instead of
a traceback, a hang or an empty read.
"""

from __future__ import annotations

import stat
from pathlib import Path

from harness._yaml import MAX_FILE_BYTES
from harness.exceptions import UsageError

__all__ = ["MAX_BYTES", "UnreadableFileError", "read_config"]

MAX_BYTES = MAX_FILE_BYTES
"""Largest file read: the safe YAML reader's limit (``harness._yaml.MAX_FILE_BYTES``, 4 MiB)."""


class UnreadableFileError(UsageError, ValueError):
    """A file that cannot be read as a UTF-8 config.

    Attributes:
        line: the 1-based line of the first undecodable byte, when known.
        problem: what is wrong, in one line.
    """

    def __init__(self, problem: str, *, line: int | None = None) -> None:
        self.problem = problem
        self.line = line
        super().__init__(problem)


def read_config(path: Path) -> str:
    """The text of a config file (UTF-8, a byte-order mark dropped).

    Raises:
        UnreadableFileError: when the file cannot be read, is not a regular file (a pipe would
            block), is over :data:`MAX_BYTES`, is UTF-16 or UTF-32, holds NUL bytes or is not
            valid UTF-8.
    """
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFileError("not a regular file (a pipe or a device)")
        size = info.st_size
        if size > MAX_BYTES:
            raise UnreadableFileError(
                f"the file is {size / 1024 / 1024:.1f} MiB, over the {MAX_BYTES // 1024 // 1024} "
                "MiB limit for agent configs"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read the file: {exc.strerror or exc}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableFileError(
            "the file is UTF-16 (or UTF-32) encoded; save it as UTF-8", line=1
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        raise UnreadableFileError(
            "the file holds NUL bytes: a binary file, or UTF-16 without a byte-order mark; "
            "save it as UTF-8",
            line=data.count(b"\n", 0, nul) + 1,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(
            f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8",
            line=data.count(b"\n", 0, exc.start) + 1,
        ) from None
    return text.removeprefix("\ufeff")
