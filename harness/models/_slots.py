"""A per-model limit on requests in flight, whose queue time does not eat a caller's deadline.

A local server often serves one request at a time; a parent that fans out to four sub-agents would
otherwise send four requests at once, and three would wait on the server while their sub-agents'
timeouts ran. ``ConcurrencyLimit`` queues them in the client instead, and when a request has waited
for a slot it moves the enclosing deadline (``CALLER_DEADLINE``, set by the sub-agent runner around
its ``asyncio.timeout``) later by the time waited, so a timeout measures work, not queueing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

__all__ = ["CALLER_DEADLINE", "ConcurrencyLimit"]

CALLER_DEADLINE: ContextVar[asyncio.Timeout | None] = ContextVar("CALLER_DEADLINE", default=None)
"""The ``asyncio.Timeout`` of the sub-agent call running in this task, if any."""


class ConcurrencyLimit:
    """At most ``limit`` holders at once, per event loop (a semaphore belongs to one loop).

    Attributes:
        waited: total seconds requests spent waiting for a slot.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.waited = 0.0
        self._semaphore: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _current(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._loop is not loop:
            self._semaphore = asyncio.Semaphore(self.limit)
            self._loop = loop
        return self._semaphore

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[float]:
        """Hold one slot; yields the seconds waited for it.

        While it waits, the caller's deadline is suspended; once a slot is free the deadline is
        put back, later by the time waited.
        """
        semaphore = self._current()
        deadline = CALLER_DEADLINE.get()
        when = deadline.when() if deadline is not None else None
        if not semaphore.locked():
            when = None  # a free slot: nothing to suspend
        elif deadline is not None and when is not None:
            deadline.reschedule(None)
        started = time.monotonic()
        try:
            await semaphore.acquire()
        finally:
            waited = time.monotonic() - started
            if deadline is not None and when is not None:
                deadline.reschedule(when + waited)
        self.waited += waited
        try:
            yield waited
        finally:
            semaphore.release()
