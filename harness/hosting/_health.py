"""Whether the conversation store answers: ``serve``'s start-up check and ``/healthz``.

A worker that cannot reach its store answers every turn 503, so a load balancer must take it out
of rotation: ``/healthz`` says 503 ``"storage unavailable"`` while the last probe of the store
failed. A probe is one cheap call (``StateStore.ping``: a Redis ``PING``, a read of a missing key
elsewhere), bounded in time.

Probes run when ``/healthz`` is asked, at most once every ``PROBE_EVERY_S`` seconds (one in flight
at a time, its result kept), and ``/healthz`` waits for a probe at most ``ANSWER_WITHIN_S``
seconds before it answers with the last result it has. So a balancer polling every 5-10 s gets a
fresh probe on each poll and its answer well within its own timeout, many balancers polling at
once cost the store one call every few seconds, an idle worker costs it nothing, and no turn ever
waits on a probe. In-memory storage is always healthy.

A probe that raises ``ConfigError`` (a store that refuses its configuration: a malformed
connection string, refused credentials) is not tried again at start-up: ``serve`` stops at once
with that error.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable

from harness.exceptions import ConfigError
from harness.hosting.storage import StateStore

__all__ = [
    "ANSWER_WITHIN_S",
    "PROBE_EVERY_S",
    "PROBE_LIMIT_S",
    "START_WITHIN_S",
    "StoreHealth",
    "shown_storage",
]

PROBE_EVERY_S = 2.0
"""A ``/healthz`` within this many seconds of the last probe's start reuses its result."""

ANSWER_WITHIN_S = 0.5
"""The longest ``/healthz`` waits for a probe; then it answers the last result (the probe goes
on, and the next ``/healthz`` has its result)."""

PROBE_LIMIT_S = 10.0
"""A store that has not answered a probe within this many seconds counts as unavailable (Redis
and Blob stores bound each call by their own ``timeout`` too)."""


START_WITHIN_S = 30.0
"""How long ``serve`` tries the store at start-up before it gives up: a store started at the same
time (a compose file) or busy for a moment does not stop the worker; a wrong address stops it
once this has passed."""


def shown_storage(spec: str) -> str:
    """A ``--storage`` value as it may be shown: a URL's password is replaced by ``***``."""
    return re.sub(r"://([^:@/]*):[^@/]*@", r"://\1:***@", spec)


class StoreHealth:
    """Probes one store and keeps the last result; ``store`` None (memory) is always healthy."""

    def __init__(self, store: StateStore | None) -> None:
        self.store = store
        self.problem: str | None = None
        """Why the last probe failed, or None when it succeeded (or none has run yet)."""
        self.misconfigured: ConfigError | None = None
        """The last probe's ``ConfigError``: the store refused its configuration, which no
        retry mends."""
        self._probe: asyncio.Task[None] | None = None
        self._started = -math.inf

    async def check(self) -> str | None:
        """Probe the store now, keep the result, and return it: why it did not answer, or None."""
        if self.store is None:
            return None
        self._started = asyncio.get_running_loop().time()
        self.misconfigured = None
        try:
            async with asyncio.timeout(PROBE_LIMIT_S):
                await self.store.ping()
        except ConfigError as exc:
            self.problem, self.misconfigured = str(exc), exc
        except TimeoutError:
            self.problem = f"the store did not answer within {PROBE_LIMIT_S:g}s"
        except Exception as exc:  # whatever stops the probe (refused, denied, ...) stops turns too
            self.problem = str(exc) or type(exc).__name__
        else:
            self.problem = None
        return self.problem

    async def check_within(self, within_s: float, on_failure: Callable[[str], None]) -> str | None:
        """Probe until the store answers or ``within_s`` seconds have passed (pausing between
        probes); ``on_failure`` is told the first failure. The last probe's result.

        Raises:
            ConfigError: a probe found the store's configuration refused (``misconfigured``):
                no retry is made.
        """
        loop = asyncio.get_running_loop()
        give_up = loop.time() + within_s
        pause = 0.5
        problem = await self.check()
        if self.misconfigured is not None:
            raise self.misconfigured
        if problem is not None:
            on_failure(problem)
        while problem is not None and loop.time() < give_up:
            await asyncio.sleep(min(pause, max(give_up - loop.time(), 0.0)))
            pause = min(pause * 2, 5.0)
            problem = await self.check()
            if self.misconfigured is not None:
                raise self.misconfigured
        return problem

    async def current(self) -> str | None:
        """The store's state for ``/healthz``: a fresh probe's result when it answers within
        ``ANSWER_WITHIN_S`` seconds, otherwise the last one."""
        if self.store is None:
            return None
        loop = asyncio.get_running_loop()
        if self._probe is None and loop.time() - self._started >= PROBE_EVERY_S:
            self._probe = asyncio.create_task(self._run())
        if self._probe is not None:
            await asyncio.wait([self._probe], timeout=ANSWER_WITHIN_S)
        return self.problem

    async def _run(self) -> None:
        try:
            await self.check()
        finally:
            self._probe = None

    async def aclose(self) -> None:
        """Stop a probe still running (the server is shutting down)."""
        if self._probe is not None:
            self._probe.cancel()
