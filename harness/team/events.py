"""Structured events of a team run, each with the run's correlation id.

A run emits ``team.started``, ``team.message`` (one per journal entry), ``guardrail.flagged`` /
``guardrail.blocked``, ``tool.called`` / ``tool.failed``, ``team.stopped``, the convergence events
(``convergence.started``, ``conflict.detected``, ``conflict.resolved``, ``consensus.updated``,
``convergence.reached`` / ``convergence.failed``) and ``team.finished``. Every event is a JSON-safe
dict: ``{"type", "correlation_id", "seq", "turn", "sender", "data"}``. Handlers (sync or async
callables taking the dict) are called in order as events happen; an exception in a handler
propagates, because a broken observer should be seen, not hidden.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

__all__ = ["EventHandler", "EventLog"]

EventHandler = Callable[[dict[str, Any]], Awaitable[None] | None]


class EventLog:
    """Records a run's events and forwards each to the handlers."""

    __slots__ = ("_events", "_handlers", "correlation_id")

    def __init__(self, correlation_id: str, handlers: Sequence[EventHandler | None] = ()) -> None:
        self.correlation_id = correlation_id
        self._handlers = [h for h in handlers if h is not None]
        self._events: list[dict[str, Any]] = []

    async def emit(
        self, type: str, *, turn: int | None = None, sender: str | None = None, **data: Any
    ) -> dict[str, Any]:
        """Record one event and call the handlers with it."""
        event = {
            "type": type,
            "correlation_id": self.correlation_id,
            "seq": len(self._events) + 1,
            "turn": turn,
            "sender": sender,
            "data": data,
        }
        self._events.append(event)
        for handler in self._handlers:
            outcome = handler(event)
            if inspect.isawaitable(outcome):
                await outcome
        return event

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        return tuple(self._events)
