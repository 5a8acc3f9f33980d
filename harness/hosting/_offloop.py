"""Running an SDK's blocking work without stalling the event loop, with a time limit.

Some SDK calls are coroutines that block anyway: botframework validates tokens with ``requests``
and msal discovers its authority with ``requests``, neither with a timeout. ``off_the_loop`` runs
such a coroutine on its own event loop in a daemon thread; after the limit the thread is
abandoned (it ends when its call does) and ``TimeoutError`` is raised, so one hung identity
endpoint costs the request waiting for it and nothing else.

``sized`` runs plain CPU work (JSON, hashing) whose cost grows with a message's length on a worker
thread when the text is long (``OFF_LOOP_CHARS``), so one very long message never holds the
loop that every conversation shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["OFF_LOOP_CHARS", "off_the_loop", "sized", "text_size"]

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


OFF_LOOP_CHARS = 32_768
"""Text this long or longer (in characters, summed over a value's strings) is encoded, decoded
or hashed on a worker thread: a 1 MB message's JSON costs the event loop milliseconds per pass,
and a turn makes several (every conversation waits meanwhile). Shorter text stays on the loop,
where it costs less than the hand-over to a thread."""


def text_size(value: Any, limit: int = OFF_LOOP_CHARS) -> int:
    """The characters in ``value``'s strings (keys included), counted without recursion over
    dicts, lists and tuples; the count stops once it passes ``limit``. Work: one step per
    container item, never per character."""
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return total


async def sized(size: int, function: Callable[..., T], *args: Any) -> T:
    """``function(*args)``: on a worker thread when ``size`` (characters of text it works
    through) reaches ``OFF_LOOP_CHARS``, else right here on the loop."""
    if size >= OFF_LOOP_CHARS:
        return await asyncio.to_thread(function, *args)
    return function(*args)
