"""Test doubles for the ``Model`` interface: a scripted model and a function model.

Both record every request they receive (``calls``), so a test can assert on what an agent was
shown, for example that a connected agent with history off never saw an earlier turn.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from harness.models.base import Model, ModelRequest, ModelResponse

__all__ = ["FunctionModel", "ScriptedModel"]

Responder = Callable[[ModelRequest], ModelResponse | Awaitable[ModelResponse]]


class FunctionModel(Model):
    """A model whose answers come from a function of the request (sync or async).

    Args:
        function: called with each ``ModelRequest``; returns a ``ModelResponse``.
        delay: seconds to sleep before answering (to simulate a slow model).
        record: keep every request in ``calls``. Turn it off for long simulations: a kept
            request holds its whole prompt, so memory (and the garbage collector's work) grows
            with every call.
    """

    name = "function"

    def __init__(self, function: Responder, *, delay: float = 0.0, record: bool = True) -> None:
        self.function = function
        self.delay = delay
        self.record = record
        self.calls: list[ModelRequest] = []

    async def request(self, request: ModelRequest) -> ModelResponse:
        if self.record:
            self.calls.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        result: Any = self.function(request)
        if inspect.isawaitable(result):
            result = await result
        if not isinstance(result, ModelResponse):
            raise TypeError(f"FunctionModel's function returned {type(result).__name__}")
        return result


class ScriptedModel(Model):
    """A model that plays back a fixed list of responses, in order.

    Args:
        responses: the responses to return; an exception instance in the list is raised instead.

    Raises:
        AssertionError: when asked for more responses than were scripted.
    """

    name = "scripted"

    def __init__(self, responses: Iterable[ModelResponse | BaseException]) -> None:
        self._responses = list(responses)
        self.calls: list[ModelRequest] = []

    @property
    def remaining(self) -> int:
        """How many scripted responses are left."""
        return len(self._responses) - len(self.calls)

    async def request(self, request: ModelRequest) -> ModelResponse:
        index = len(self.calls)
        self.calls.append(request)
        if index >= len(self._responses):
            raise AssertionError(
                f"ScriptedModel ran out of responses after {len(self._responses)} "
                f"(call {index + 1} was a {(request.output_name or 'text')!r} request for {request.agent!r})"
            )
        item = self._responses[index]
        if isinstance(item, BaseException):
            raise item
        return item
