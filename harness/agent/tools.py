"""Runs one tool call so that nothing the tool does can take the process down or starve others.

- A plain (sync) tool runs on a daemon thread of its own (``harness.agent._workers``, which reuses
  idle ones), never on asyncio's shared default executor. Threads are bounded twice: at most
  ``TOOL_THREADS_PER_AGENT`` per agent of one owner (a ``ToolThreads``: each bot has its own, so
  two bots with same-named agents never share a quota) and at most ``TOOL_THREADS`` in all. A slot is held
  until the function really returns, so an agent whose tools block can use up only its own slots:
  its later calls wait (and time out under its own timeout) while every other agent's tools keep
  running. Daemon threads do not hold up the process's exit.
- An async tool runs as its own task. When the call is cancelled (the agent's timeout), the task is
  cancelled too; a tool that ignores the cancellation is abandoned after ``CANCEL_GRACE_S`` seconds
  so the turn can end (it is logged, and its task is kept referenced until it finishes).
- ``SystemExit``, ``KeyboardInterrupt`` and other ``BaseException`` escapes become a
  ``ToolCrashError`` (an ordinary exception, so the agent's call fails and the user is told).
- Arguments that do not fit the function's signature are a ``ToolArgumentsError``, told apart from
  a ``TypeError`` raised inside the tool's body (a tool failure).
- Results become text for the model: strings as they are (and a plain ``Reply`` as its text),
  anything else as JSON, with values JSON cannot hold named (``"<not JSON: object>"``; NaN and infinities become ``null``), all capped at
  ``MAX_TOOL_RESULT_CHARS`` characters.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import math
import threading
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from harness.agent._workers import run_in_worker
from harness.exceptions import RunError
from instructions.contract import OPEN_QUESTIONS
from subagents import Reply, Tool, ToolContext

__all__ = [
    "CANCEL_GRACE_S",
    "MAX_TOOL_RESULT_CHARS",
    "SHARED_TOOL_THREADS",
    "TOOL_THREADS",
    "TOOL_THREADS_PER_AGENT",
    "ToolArgumentsError",
    "ToolCrashError",
    "ToolThreads",
    "invoke_tool",
    "tool_result_text",
]

log = logging.getLogger("harness")

TOOL_THREADS = 64
"""Sync tool calls running at once in the whole process."""
TOOL_THREADS_PER_AGENT = 8
"""Sync tool calls running at once for one agent of one ``ToolThreads`` owner (blocked, abandoned
calls included)."""
CANCEL_GRACE_S = 1.0
"""How long a cancelled async tool may take to stop before it is abandoned."""
MAX_TOOL_RESULT_CHARS = 100_000
"""Longer tool results are cut to this many characters (with a note saying so)."""
_MAX_DEPTH = 64

_JSON = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


class ToolCrashError(RunError):
    """A tool raised ``SystemExit``, ``KeyboardInterrupt`` or another non-``Exception`` error."""


class ToolArgumentsError(RunError, TypeError):
    """The model's arguments do not fit the tool's signature."""


class _Slots:
    """A counting limit usable from any event loop and released from any thread."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()
        self._waiters: deque[asyncio.Future[None]] = deque()

    async def acquire(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.used < self.limit and not self._waiters:
                self.used += 1
                return
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            with self._lock:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                    raise
            if waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just as we were cancelled
            raise

    def release(self) -> None:
        with self._lock:
            while self._waiters:
                waiter = self._waiters.popleft()
                try:
                    waiter.get_loop().call_soon_threadsafe(self._hand_over, waiter)
                except RuntimeError:  # its loop is closed
                    continue
                return
            self.used -= 1

    def _hand_over(self, waiter: asyncio.Future[None]) -> None:
        if waiter.done():  # cancelled meanwhile: pass the slot on
            self.release()
        else:
            waiter.set_result(None)


class ToolThreads:
    """One owner's shares of tool threads: at most ``per_agent`` sync calls at once per agent.

    A bot owns one (its ``Dependencies``), so the quota of its agent ``billing`` is not the quota of
    another bot's ``billing`` in the same process. Callers without an owner (a team, a direct
    ``run_tool_call``) share ``SHARED_TOOL_THREADS``.
    """

    __slots__ = ("_agents", "per_agent")

    def __init__(self, per_agent: int = TOOL_THREADS_PER_AGENT) -> None:
        self.per_agent = per_agent
        self._agents: dict[str, _Slots] = {}

    def _slots(self, agent: str) -> _Slots:
        slots = self._agents.get(agent)
        if slots is None:
            slots = self._agents.setdefault(agent, _Slots(self.per_agent))
        return slots

    def in_use(self, agent: str) -> int:
        """Sync calls of ``agent`` running now (blocked and abandoned ones included)."""
        slots = self._agents.get(agent)
        return 0 if slots is None else slots.used


SHARED_TOOL_THREADS = ToolThreads()
"""The shares of callers that own no ``ToolThreads``."""

_all_threads = _Slots(TOOL_THREADS)  # threads are a process resource: one bound for all owners
_abandoned: set[asyncio.Task[Any]] = set()


def _crash(tool: str, exc: BaseException) -> ToolCrashError:
    detail = f"{type(exc).__name__}({exc})" if str(exc) else type(exc).__name__
    return ToolCrashError(f"tool {tool!r} raised {detail}")


def _set_outcome(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():  # the call was cancelled; the thread's result is dropped
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


async def _run_in_thread(
    tool: Tool, kwargs: dict[str, Any], agent: str, threads: ToolThreads
) -> Any:
    agent_slots = threads._slots(agent)
    await agent_slots.acquire()
    try:
        await _all_threads.acquire()
    except BaseException:
        agent_slots.release()
        raise
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def work() -> None:
        ok, value = True, None
        try:
            value = tool.function(**kwargs)
        except Exception as exc:
            ok, value = False, exc
        except BaseException as exc:  # SystemExit and friends end this call only
            ok, value = False, _crash(tool.name, exc)
        finally:
            _all_threads.release()
            agent_slots.release()
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for the result
            loop.call_soon_threadsafe(_set_outcome, future, ok, value)

    try:
        run_in_worker(work, name=f"harness-tool-{agent}-{tool.name}")
    except BaseException:
        _all_threads.release()
        agent_slots.release()
        raise
    result = await future
    if inspect.isawaitable(result):
        result = await _run_awaitable(tool.name, result)
    return result


def _forget(task: asyncio.Task[Any]) -> None:
    _abandoned.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.debug("an abandoned tool task ended with %r", task.exception())


async def _run_awaitable(name: str, awaitable: Any) -> Any:
    async def guarded() -> Any:
        try:
            return await awaitable
        except (Exception, asyncio.CancelledError):
            raise
        except BaseException as exc:  # SystemExit in a task would stop the event loop
            raise _crash(name, exc) from None

    task = asyncio.ensure_future(guarded())
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=CANCEL_GRACE_S)
        if not done:
            log.warning(
                "tool %r ignored cancellation for %gs; abandoned (it may still be running)",
                name,
                CANCEL_GRACE_S,
            )
            _abandoned.add(task)
            task.add_done_callback(_forget)
        elif not task.cancelled():
            task.exception()  # retrieved, so asyncio does not log it as never retrieved
        raise


@dataclass(frozen=True, slots=True)
class _Shape:
    """What ``invoke_tool`` needs of a tool's function, read once per function (reading and
    binding the signature on every call was about a tenth of a simulated turn)."""

    signature: inspect.Signature | None
    """None for callables without one (some builtins): the call itself decides."""
    is_async: bool
    keywords: frozenset[str]
    """Parameters that can be passed by keyword."""
    required: frozenset[str]
    """Parameters without a default that can be passed by keyword."""
    any_keyword: bool
    """The function takes ``**kwargs``."""
    simple: bool
    """No parameter is positional-only (else ``bind``, which is stricter there, always decides)."""

    def check(self, kwargs: Mapping[str, Any]) -> None:
        """Raise ``ToolArgumentsError`` unless ``function(**kwargs)`` fits the signature."""
        if self.signature is None:
            return
        names = kwargs.keys()
        if self.simple and self.required <= names and (self.any_keyword or names <= self.keywords):
            return
        try:  # does not fit, or cannot tell: bind says why
            self.signature.bind(**kwargs)
        except TypeError as exc:
            raise ToolArgumentsError(str(exc)) from None


def _shape_of(function: Callable[..., Any]) -> _Shape:
    is_async = inspect.iscoroutinefunction(function)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # builtins without a signature
        return _Shape(None, is_async, frozenset(), frozenset(), True, False)
    parameters = signature.parameters.values()
    by_keyword = [p for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return _Shape(
        signature,
        is_async,
        keywords=frozenset(p.name for p in by_keyword),
        required=frozenset(p.name for p in by_keyword if p.default is p.empty),
        any_keyword=any(p.kind is p.VAR_KEYWORD for p in parameters),
        simple=not any(p.kind is p.POSITIONAL_ONLY for p in parameters),
    )


_shapes: weakref.WeakKeyDictionary[Callable[..., Any], _Shape] = weakref.WeakKeyDictionary()


def _shape(function: Callable[..., Any]) -> _Shape:
    try:
        return _shapes[function]
    except (KeyError, TypeError):  # TypeError: not weakly referenceable or not hashable
        pass
    shape = _shape_of(function)
    with contextlib.suppress(TypeError):  # such a function is read again on its next call
        _shapes[function] = shape
    return shape


async def invoke_tool(
    tool: Tool,
    arguments: Mapping[str, Any],
    context: ToolContext,
    *,
    agent: str,
    threads: ToolThreads | None = None,
) -> Any:
    """Call ``tool`` with the model's arguments (and its context), safely.

    A sync tool runs on a thread from ``agent``'s share of ``threads`` (the owner's; None: the
    shared ``SHARED_TOOL_THREADS``).

    Raises:
        ToolArgumentsError: the arguments do not fit the function's signature.
        ToolCrashError: the tool raised ``SystemExit`` or another ``BaseException``.
        Exception: whatever the tool raised.
    """
    kwargs = dict(arguments)
    if tool.context_param:
        kwargs[tool.context_param] = context
    shape = _shape(tool.function)
    shape.check(kwargs)
    if shape.is_async:
        return await _run_awaitable(tool.name, tool.function(**kwargs))
    return await _run_in_thread(tool, kwargs, agent, threads or SHARED_TOOL_THREADS)


def _jsonable(value: Any, depth: int = 0) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if depth >= _MAX_DEPTH:
        return "<nested too deeply>"
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v, depth + 1) for v in value]
    dump = getattr(value, "model_dump", None)  # pydantic models
    if callable(dump):
        try:
            return _jsonable(dump(mode="json"), depth + 1)
        except Exception:
            pass
    return f"<not JSON: {type(value).__name__}>"


def _cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[cut: the tool returned {len(text)} characters; the limit is {limit}]"


def tool_result_text(value: Any, *, limit: int = MAX_TOOL_RESULT_CHARS) -> str:
    """A tool's return value as text for the model: JSON for data, capped at ``limit`` characters.

    A ``Reply`` is its text; one that keeps the floor (``done=False``) or hands back open questions
    is a JSON object with ``text``, ``done`` and ``openQuestions``, so the model can see both.
    """
    if isinstance(value, Reply):
        if value.done and not value.open_questions:
            return _cap(value.text, limit)
        value = {
            "text": value.text,
            "done": value.done,
            OPEN_QUESTIONS: list(value.open_questions),
        }
    if isinstance(value, str):
        return _cap(value, limit)
    return _cap(_JSON.encode(_jsonable(value)), limit)
