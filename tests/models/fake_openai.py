"""A small OpenAI-compatible chat-completions server for tests and benchmarks (aiohttp, 127.0.0.1).

It answers ``POST /v1/chat/completions`` from a *responder* (a function of the request body that
returns the assistant message) and records every request it receives, so tests can assert on
exactly what went over the wire. Faults (HTTP 429 with ``Retry-After``, 500, a body that is not
JSON, a slow answer) are queued with ``fail()`` and served before the responder, optionally only to
one caller (the ``json_schema.name`` of the request: ``plan``, ``reply`` or ``<agent>_outputs``),
because sub-agents run concurrently and a plain queue would hand them out by chance.

Run it by hand (from the repository root) for ``harness simulate ... --base-url``::

    .venv/bin/python -m tests.models.fake_openai --port 8765
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

__all__ = [
    "FakeOpenAI",
    "Fault",
    "caller_of",
    "completion",
    "message",
    "schema_of",
    "tool_call",
]

Responder = Callable[[dict[str, Any]], "dict[str, Any] | Fault | Awaitable[dict[str, Any] | Fault]"]
"""Returns the answer to a request body, or an awaitable of it (to hold an answer back until the
test says)."""


@dataclass(slots=True, kw_only=True)
class Fault:
    """A failure to serve instead of an answer."""

    status: int = 500
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str | dict[str, Any] | None = None
    """The response body; an OpenAI-style error object by default."""
    delay: float = 0.0
    """Seconds to wait before answering (longer than the client's timeout makes a timeout)."""
    caller: str | None = None
    """Serve only to this caller (see ``caller_of``); None serves the next request."""


def caller_of(body: Mapping[str, Any]) -> str:
    """Who sent a request: its structured output's name (``plan``, ``reply``, ``pto_outputs``),
    or in ``tools`` mode the function it forces; ``text`` when neither says."""
    fmt = body.get("response_format") or {}
    schema = fmt.get("json_schema") or {}
    choice = body.get("tool_choice")
    forced = choice.get("function", {}).get("name") if isinstance(choice, Mapping) else None
    if not schema and not forced and isinstance(fmt.get("schema"), Mapping):
        # json_object mode sends the schema without a name: tell the parent's two by their shape.
        properties = fmt["schema"].get("properties", {})
        return "plan" if "requests" in properties else "reply" if "route" in properties else "act"
    return str(schema.get("name") or forced or "text")


def schema_of(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The structured output's schema, in whichever mode the request asks for it."""
    fmt = body.get("response_format") or {}
    if fmt.get("json_schema"):
        return dict(fmt["json_schema"]["schema"])
    if isinstance(fmt.get("schema"), Mapping):
        return dict(fmt["schema"])
    return None


_ids = itertools.count(1)


def tool_call(
    name: str, arguments: Mapping[str, Any] | str, *, id: str | None = None
) -> dict[str, Any]:
    """One tool call of an assistant message (``arguments`` as a mapping, or raw text)."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "id": id or f"call_{next(_ids)}",
        "type": "function",
        "function": {"name": name, "arguments": raw},
    }


def message(
    content: str | Mapping[str, Any] | None = None,
    *,
    tool_calls: list[dict[str, Any]] | None = None,
    refusal: str | None = None,
) -> dict[str, Any]:
    """An assistant message (a mapping ``content`` is sent as JSON text, like structured output)."""
    text = json.dumps(content) if isinstance(content, Mapping) else content
    msg: dict[str, Any] = {"role": "assistant", "content": text, "refusal": refusal}
    if tool_calls:
        msg["tool_calls"] = tool_calls
    return msg


def completion(
    msg: Mapping[str, Any],
    *,
    model: str = "gpt-4o-mini-2024-07-18",
    prompt_tokens: int = 100,
    completion_tokens: int = 20,
    finish_reason: str | None = None,
) -> dict[str, Any]:
    """A whole ``chat.completion`` body around an assistant message."""
    reason = finish_reason or ("tool_calls" if msg.get("tool_calls") else "stop")
    return {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [{"index": 0, "message": dict(msg), "finish_reason": reason, "logprobs": None}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


class FakeOpenAI:
    """The fake server. Use ``async with FakeOpenAI(responder) as server`` and ``server.url``.

    Args:
        responder: returns the assistant message (see ``message``) or a ``Fault`` for a request
            body; by default every request gets ``{"ok": true}``.
        model: the model name it reports.
        port: 0 picks a free port.
    """

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        model: str = "gpt-4o-mini-2024-07-18",
        port: int = 0,
    ) -> None:
        self.responder: Responder = responder or (lambda body: message({"ok": True}))
        self.model = model
        self.port = port
        self.requests: list[dict[str, Any]] = []
        """Every request body received (faults included), in arrival order."""
        self.headers: list[dict[str, str]] = []
        """The headers of every request (names in lower case), in the same order."""
        self.paths: list[str] = []
        """The path and query of every request (Azure puts the deployment and version there)."""
        self.faults: list[Fault] = []
        self.delay = 0.0
        """Seconds to wait before each answer (not faults), as a slow server would."""
        self.in_flight = 0
        self.max_in_flight = 0
        """The most requests it was working on at once."""
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """The base URL to give the client (``.../v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def fail(self, *faults: Fault) -> None:
        """Queue faults; each is served once, to the next request from its caller."""
        self.faults.extend(faults)

    def calls_from(self, caller: str) -> list[dict[str, Any]]:
        """The request bodies one caller sent."""
        return [body for body in self.requests if caller_of(body) == caller]

    async def __aenter__(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        app.router.add_post("/openai/deployments/{deployment}/chat/completions", self._handle)
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=0.1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _take_fault(self, caller: str) -> Fault | None:
        for index, fault in enumerate(self.faults):
            if fault.caller is None or fault.caller == caller:
                return self.faults.pop(index)
        return None

    async def _handle(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            return await self._answer(request)
        finally:
            self.in_flight -= 1

    async def _answer(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        self.headers.append({k.lower(): v for k, v in request.headers.items()})
        self.paths.append(request.path_qs)
        caller = caller_of(body)
        answer: dict[str, Any] | Fault | None = self._take_fault(caller)
        if answer is None:
            given = self.responder(body)
            answer = await given if inspect.isawaitable(given) else given
        if isinstance(answer, Fault):
            if answer.delay:
                await asyncio.sleep(answer.delay)
            payload = answer.body
            if payload is None:
                payload = {"error": {"message": f"fake error {answer.status}", "type": "fake"}}
            text = payload if isinstance(payload, str) else json.dumps(payload)
            return web.Response(
                status=answer.status,
                text=text,
                headers=dict(answer.headers),
                content_type="application/json",
            )
        if self.delay:
            await asyncio.sleep(self.delay)
        prompt = sum(_tokens(json.dumps(m)) for m in body.get("messages", []))
        out = _tokens(json.dumps(answer))
        data = completion(answer, model=self.model, prompt_tokens=prompt, completion_tokens=out)
        return web.json_response(data)


def _main() -> None:  # pragma: no cover - a manual helper
    import argparse

    from tests.models.helpdesk_brain import helpdesk_brain

    parser = argparse.ArgumentParser(
        description="Serve the fake OpenAI API with the helpdesk brain."
    )
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()

    async def serve() -> None:
        async with FakeOpenAI(helpdesk_brain, port=args.port) as server:
            print(f"fake OpenAI API on {server.url}", flush=True)
            await asyncio.Event().wait()

    asyncio.run(serve())


if __name__ == "__main__":  # pragma: no cover
    _main()
