"""Why a request is answered 503 with ``Retry-After``: a dependency is unavailable right now.

An ``UnavailableError`` raised before the bot has sent anything in a turn becomes a
``503 Service Unavailable`` with a ``Retry-After`` header (``harness.hosting.app``), so a channel
or a load balancer sends the message again, and the user never sees an apology for it. Raised
after a reply went out, it is an ordinary failed turn (the user is told once).
"""

from __future__ import annotations

from harness.exceptions import RunError

__all__ = [
    "DEFAULT_RETRY_AFTER_S",
    "AuthUnavailableError",
    "StorageUnavailableError",
    "UnavailableError",
]

DEFAULT_RETRY_AFTER_S = 5
"""The ``Retry-After`` (seconds) of a 503 for an unavailable dependency."""


class UnavailableError(RunError):
    """Something the turn needs cannot be used right now; nothing was sent; try again later."""

    def __init__(self, message: str, *, retry_after: int = DEFAULT_RETRY_AFTER_S) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class AuthUnavailableError(UnavailableError):
    """Tokens cannot be validated or obtained right now (the identity provider is unreachable)."""


class StorageUnavailableError(UnavailableError):
    """The state store cannot be reached (or did not answer in time)."""
