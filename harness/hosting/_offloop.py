"""Running an SDK's blocking work without stalling the event loop, with a time limit.

Some SDK calls are coroutines that block anyway: botframework validates tokens with ``requests``
and msal discovers its authority with ``requests``, neither with a timeout. ``off_the_loop`` runs
such a coroutine on its own event loop in a daemon thread; after the limit the thread is
abandoned (it ends when its call does) and ``TimeoutError`` is raised, so one hung identity
endpoint costs the request waiting for it and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["off_the_loop"]

T = TypeVar("T")


async def off_the_loop(
    factory: Callable[[], Coroutine[Any, Any, T]], limit_s: float, *, name: str = "harness-io"
) -> T:
    """Run ``factory()`` on its own event loop in a daemon thread; its result here.

    Raises:
        TimeoutError: when it has not finished within ``limit_s`` seconds.
        Exception: whatever the coroutine raised.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not done.done():
            outcome()

    def work() -> None:
        try:
            value = asyncio.run(factory())
        except BaseException as exc:
            error = exc
            with contextlib.suppress(RuntimeError):  # the caller's loop is gone
                loop.call_soon_threadsafe(settle, lambda: done.set_exception(error))
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, lambda: done.set_result(value))

    threading.Thread(target=work, name=name, daemon=True).start()
    async with asyncio.timeout(limit_s):
        return await done
