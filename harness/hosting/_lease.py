"""What the leases of the shared stores (Redis, Azure Blob) have in common: waiting for a busy
conversation with a growing pause, and renewing the lease in the background while a turn runs.

The renewal must end when the turn does, whatever happens to a cancellation. On Python 3.11,
``asyncio.wait_for`` (which client libraries use around socket writes) returns its result and
drops a cancellation that arrives as the write completes; a renewal loop stopped only by
``cancel()`` then lives on, renews the lease forever and blocks its conversation on every
worker, and a turn that awaits it never answers. So the loop is stopped by a flag it checks after
every await, and the turn waits for it only a bounded time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

__all__ = ["acquire", "renewing"]

log = logging.getLogger("harness.hosting")

_RUNNING: set[asyncio.Task[None]] = set()
"""Renewal loops still winding down after their turn ended (kept referenced until they do)."""


async def acquire(
    attempt: Callable[[], Awaitable[bool]], *, wait_s: float, pause_s: float, max_pause_s: float
) -> None:
    """Call ``attempt`` until it takes the lease (True), pausing ``pause_s`` seconds after the
    first refusal and twice as long after each further one, up to ``max_pause_s``.

    Raises:
        TimeoutError: when the lease was not taken within ``wait_s`` seconds.
    """
    async with asyncio.timeout(wait_s):
        while not await attempt():
            await asyncio.sleep(pause_s)
            pause_s = min(pause_s * 2, max_pause_s)


@asynccontextmanager
async def renewing(renew: Callable[[], Awaitable[bool]], *, every_s: float) -> AsyncIterator[None]:
    """Call ``renew`` every ``every_s`` seconds while the block runs; stop when it returns False.

    ``renew`` handles its own errors (an exception ends the renewal, and the lease lapses).
    When the block ends, the renewal stops: at once if it is waiting, or as soon as the
    renewal in flight returns; the block's exit waits for that at most ``every_s`` seconds
    (a renewal after the lease was released renews nothing: the stores check the lease's owner).
    """
    stop = asyncio.Event()

    async def keep() -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(every_s):
                    await stop.wait()
            if stop.is_set():
                return
            try:
                if not await renew():
                    return
            except Exception as exc:  # the fenced writes tell the turn its lease is gone
                log.warning("lease renewal stopped (%s: %s)", type(exc).__name__, exc)
                return
            if stop.is_set():  # the turn ended while this renewal was in flight
                return

    task = asyncio.create_task(keep())
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    try:
        yield
    finally:
        stop.set()
        task.cancel()
        # Never unbounded: a cancellation the renewal's client library dropped must not hold
        # the turn (the flag ends the loop once the renewal in flight returns).
        await asyncio.wait({task}, timeout=every_s)
