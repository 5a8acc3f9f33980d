"""GitHub Actions workflow commands: one annotation line, escaped as the Actions toolkit escapes
them, so no text of a message can end the line or start a command of its own. Used by the
linter's and the detector's ``--format github`` reports."""

from __future__ import annotations

__all__ = ["annotation"]


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, message: str, **properties: str | int) -> str:
    """``::LEVEL key=value,...::MESSAGE`` (``error``, ``warning`` or ``notice``), the properties
    (``file``, ``line``, ``col``, ``title``) in the order given."""
    given = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {given}::{_escape_data(message)}"
