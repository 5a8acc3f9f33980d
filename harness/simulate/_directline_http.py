"""How the Direct Line target retries a call and words an HTTP failure.

Direct Line answers a call it cannot take now with HTTP 429 (throttled) or a 5xx. Such a call is
made again, up to ``retries`` times, after the wait its ``Retry-After`` asks for, else after
``retry_backoff`` seconds doubled with each retry, and never after more than ``retry_wait``
seconds of waiting in all. One loop (:meth:`RetryPolicy.call`) serves the HTTP calls and the
WebSocket handshake alike.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from harness._retry_after import retry_after_seconds
from harness.detect.activities import error_detail
from harness.exceptions import RunError

__all__ = [
    "RefusedError",
    "Retry",
    "RetryPolicy",
    "describe",
    "without_secrets",
]

_log = logging.getLogger("harness.simulate.directline")

_T = TypeVar("_T")

Retry = Literal["transient", "throttled"]
"""Which error statuses a call is made again after: 429 and 5xx, or 429 only."""


class RefusedError(RunError):
    """An attempt Direct Line answered with an error status (its text ``message``): the retry
    loop decides whether to try again, else raises a plain :class:`~harness.exceptions.RunError`
    saying how often the call was tried."""

    def __init__(self, status: int, retry_after: str | None, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.message = message


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """When a refused call is made again (the target's ``retries``, ``retry_wait``,
    ``retry_backoff`` and ``sleep``)."""

    retries: int
    retry_wait: float
    retry_backoff: float
    sleep: Callable[[float], Awaitable[None]]

    async def call(
        self, attempt: Callable[[], Awaitable[_T]], *, what: str, retry: Retry = "transient"
    ) -> _T:
        """``attempt()``'s result, once an attempt is not :class:`RefusedError`; a refusal that is not
        tried again raises :class:`~harness.exceptions.RunError` saying how often it was tried
        and why it stopped, when that is not plain."""
        waited = 0.0
        tries = 0
        while True:
            try:
                return await attempt()
            except RefusedError as refused:
                delay, why = self.delay(refused, tries, waited, retry)
                if delay is None:
                    raise RunError(refused.message + _after(tries, why)) from None
                _log.warning(
                    "Direct Line answered HTTP %d on %s; trying again in %.3gs (retry %d of %d)",
                    refused.status,
                    what,
                    delay,
                    tries + 1,
                    self.retries,
                )
            await self.sleep(delay)
            waited += delay
            tries += 1

    def delay(
        self, refused: RefusedError, attempt: int, waited: float, retry: Retry
    ) -> tuple[float | None, str]:
        """How long to wait before trying a refused call again, or None when it is not tried
        again (not transient, retries or ``retry_wait`` spent), with why not when it says more
        than the status does."""
        status = refused.status
        if status != 429 and not (status >= 500 and retry == "transient"):
            return None, ""
        if attempt >= self.retries:
            return None, ""
        asked = retry_after_seconds(refused.retry_after)
        delay = asked if asked is not None else self.retry_backoff * 2**attempt
        if waited + delay > self.retry_wait:
            left = f"more than the {self.retry_wait - waited:g}s of retry_wait left"
            if asked is not None:
                return None, f"Retry-After asked for {delay:g}s, {left}"
            return None, f"the next retry would wait {delay:g}s, {left}"
        return delay, ""


def _after(attempt: int, why: str = "") -> str:
    """What a failed call's error adds: how many times it was tried, when more than once, and
    why it was not tried again, when that is not plain."""
    said = [f"tried {attempt + 1} times"] if attempt else []
    said += [why] if why else []
    return f" ({'; '.join(said)})" if said else ""


def describe(status: int, body: str, what: str) -> str:
    """An error status Direct Line gave ``what``, in words, with what to check."""
    code, message = error_detail(body)
    detail = ": ".join(part for part in (code, message) if part) or "no details"
    if status == 401:
        return f"Direct Line refused the credentials (HTTP 401 on {what}: {detail}); check the secret or token"
    if status == 403 and (code == "TokenExpired" or "expired" in message.lower()):
        return f"the Direct Line token has expired (HTTP 403 on {what}: {detail})"
    if status == 403:
        return f"Direct Line refused {what} (HTTP 403: {detail}); check the secret or token"
    if status == 404:
        return f"Direct Line has no {what} (HTTP 404: {detail}); check the URL and the conversation"
    if status in (502, 504) and code in ("BotError", "BotTimeout", "BotRejectedActivity"):
        return f"the bot failed behind Direct Line (HTTP {status} on {what}: {detail})"
    return f"Direct Line answered HTTP {status} on {what}: {detail}"


def without_secrets(text: str, url: str) -> str:
    """``text`` with ``url``'s query string (where Direct Line puts the stream's token) and any
    ``t=`` parameter blanked, for error messages and logs."""
    bare, _, query = url.partition("?")
    if query:
        text = text.replace(url, f"{bare}?…")
    return _TOKEN_PARAMETER.sub(r"\1…", text)


_TOKEN_PARAMETER = re.compile(r"([?&](?:t|token)=)[^&\s'\"]+")
