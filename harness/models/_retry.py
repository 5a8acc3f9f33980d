"""Retries with exponential backoff and jitter, honouring ``Retry-After``, with counted attempts.

The OpenAI SDK can retry by itself, but then a caller cannot see how many attempts a call took nor
test the policy; the model turns the SDK's retries off and runs this loop instead. Each attempt
either returns, or raises ``AttemptFailed`` saying whether a retry may help (HTTP 408, 409, 429,
5xx, connection errors, timeouts) and how long the server asked to wait.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from harness._retry_after import retry_after_seconds as retry_after
from harness.exceptions import ModelRequestError, RunError

__all__ = ["AttemptFailed", "RetryPolicy", "call_with_retries", "retry_after_seconds"]

T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({408, 409, 429})
"""HTTP statuses worth another attempt, besides every 5xx."""


def is_retryable_status(status: int) -> bool:
    """True for 408, 409, 429 and every 5xx."""
    return status in RETRYABLE_STATUSES or status >= 500


class AttemptFailed(RunError):
    """One attempt failed.

    Attributes:
        reason: a one-line description for the final error.
        retryable: whether another attempt may succeed.
        status: the HTTP status, when there was a response.
        retry_after: seconds the server asked to wait, when it said.
    """

    def __init__(
        self,
        reason: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.reason = reason
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        super().__init__(reason)


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """How long a response asks the client to wait: ``retry-after-ms``, or ``Retry-After``.

    ``Retry-After`` may be seconds or an HTTP date. Returns None when neither header is usable.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    return retry_after(lowered.get("retry-after"))


@dataclass(frozen=True, slots=True, kw_only=True)
class RetryPolicy:
    """How many times to retry and how long to wait between attempts."""

    max_retries: int = 3
    """Retries after the first attempt (0 makes one attempt only)."""
    backoff: float = 0.5
    """The first wait in seconds; it doubles each retry, with 50-100 % jitter."""
    max_backoff: float = 30.0
    """The longest computed wait."""
    max_retry_after: float = 60.0
    """The longest ``Retry-After`` honoured; a server asking for more ends the retries."""

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before the ``retry``-th retry (1-based)."""
        if retry_after is not None:
            return retry_after
        base: float = min(self.backoff * 2.0 ** (retry - 1), self.max_backoff)
        return base * (0.5 + random.random() / 2)


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    describe: Callable[[AttemptFailed, int], str],
    on_attempt: Callable[[int], None] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Run ``attempt`` until it returns, retrying the failures that may pass.

    Args:
        attempt: one try; raises ``AttemptFailed`` when it fails.
        policy: the retry policy.
        describe: builds the final error message from the last failure and the attempt count.
        on_attempt: called with the 1-based attempt number before each attempt.
        sleep: the wait (tests replace it).

    Raises:
        ModelRequestError: after a failure that cannot pass, or after the last retry, with
            ``status`` and ``attempts``.
    """
    number = 0
    while True:
        number += 1
        if on_attempt is not None:
            on_attempt(number)
        try:
            return await attempt()
        except AttemptFailed as failure:
            last = number > policy.max_retries
            too_long = (
                failure.retry_after is not None and failure.retry_after > policy.max_retry_after
            )
            if not failure.retryable or last or too_long:
                raise ModelRequestError(
                    describe(failure, number), status=failure.status, attempts=number
                ) from failure
            await sleep(policy.delay(number, failure.retry_after))
