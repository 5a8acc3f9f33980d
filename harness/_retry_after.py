"""How long an HTTP ``Retry-After`` header asks a client to wait: one reading for every client of
this SDK (the OpenAI backend's retries, the Direct Line target's)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

__all__ = ["retry_after_seconds"]


def retry_after_seconds(raw: str | None) -> float | None:
    """The wait a ``Retry-After`` value asks for (seconds or an HTTP date; a date without a zone
    is read as UTC), at least 0; None when there is none or it cannot be read (or is not
    finite)."""
    if raw is None or not raw.strip():
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(seconds, 0.0)
