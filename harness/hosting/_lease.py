"""What the leases of the shared stores (Redis, Azure Blob) have in common: waiting for a busy
conversation with a growing pause, and renewing the lease in the background while a turn runs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["acquire", "renewing"]


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
async def renewing(renewal: Coroutine[Any, Any, None]) -> AsyncIterator[None]:
    """Run ``renewal`` (a loop that keeps a lease alive) while the block runs; stop it after."""
    task = asyncio.create_task(renewal)
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
