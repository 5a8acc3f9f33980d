"""Remote connected agents: a host exposes its sub-agents over HTTP; a parent calls them by URL.

The wire format is the contract itself. The caller posts the inputs::

    {"scopedRequest": "...", "requests": [...]?, "history": [...]?, "state": {...}?,
     "continuing": false}

``requests`` lists each request when the call carries two or more (``scopedRequest`` numbers
them too); the agent's ``answeredRequests`` output answers each. ``history`` is sent only when the ``ConnectedAgent`` has ``pass_history`` on; ``state`` is the
agent's memory in the caller's conversation (the host keeps none, so a conversational agent works
across turns and restarts). The host runs one call and answers::

    {"agent", "mode", "status", "outputs": {...} | null, "messages": [...], "error",
     "violations": [...], "state": {...}, "usage": {...}}

The host never talks to the user: it returns the messages its agent wants sent, and the caller
relays each one through the sending agent's channel, in order. Connection errors and 5xx answers
are retried (``ConnectedAgent.retries``); nothing is relayed until a call succeeds, so a retry
never repeats a message.

Exposed agents run tools, so a host can require a shared token (``expose_token``, the CLI's
``--expose-token``), compared in constant time; callers send it from the environment variable
their ``ConnectedAgent`` names in ``token_env``, or ``HARNESS_AGENT_TOKEN`` by default.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from harness.exceptions import MissingExtraError
from harness.transport.base import (
    ANSWERS,
    REQUESTS,
    Delivery,
    SubagentCall,
    answers_from_wire,
    result_to_wire,
)
from harness.transport.http import TOKEN_ENV, HTTPTransport
from instructions.contract import HISTORY, SCOPED_REQUEST
from subagents import HistoryEntry, Mode, Usage

try:
    from aiohttp import web
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("remote connected agents", extra="hosting") from exc

from pydantic import ValidationError

from harness.hosting._http import BodyError, error_response, read_json_object

if TYPE_CHECKING:
    from harness.hosting.core import HarnessBot

__all__ = ["TOKEN_ENV", "add_agent_routes", "remote_outputs"]


# --- the calling side -------------------------------------------------------------------------


async def remote_outputs(call: SubagentCall, sent: list[str]) -> tuple[Mapping[str, Any], Usage]:
    """Run ``call`` on the remote host at ``call.agent.url`` and relay its messages.

    Kept for callers of earlier versions; a parent uses ``harness.transport.HTTPTransport``,
    which this calls. Each message the remote agent wants sent is delivered with ``call.send``
    (in order) and appended to ``sent``. The agent's conversation state (``call.state``) is sent
    along and replaced with the host's updated copy.

    Returns:
        The raw contract outputs (validated by the caller) and the remote model usage.

    Raises:
        SubagentError: the host refused the call, was unreachable after the retries, broke the
            contract, or reported a failed call.
        TimeoutError: no answer within the agent's timeout.
    """
    deliver = Delivery(send=None if call.agent.mode is Mode.SILENT else call.send, sent=sent)
    reply = await HTTPTransport().run(call, deliver)
    return reply.outputs, reply.usage


# --- the host side ----------------------------------------------------------------------------


def _history(value: Any) -> tuple[HistoryEntry, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BodyError(400, "BadArgument", f"{HISTORY!r} must be a list of messages")
    try:
        return tuple(HistoryEntry.model_validate(entry) for entry in value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BodyError(400, "BadArgument", f"bad history entry: {where}: {first['msg']}") from exc


def add_agent_routes(
    app: web.Application, bot: HarnessBot, *, max_body_bytes: int, token: str | None = None
) -> None:
    """Serve the bot's sub-agents: ``GET /agents`` lists them, ``POST /agents/{name}`` runs one.

    Args:
        app: the application to add the routes to.
        bot: the bot whose sub-agents are served (with its parent's models).
        max_body_bytes: larger bodies are refused with 413.
        token: when set, every request must carry ``Authorization: Bearer <token>``.
    """
    parent = bot.parent
    if token is not None and not token.strip():
        raise ValueError("an empty agent token would leave /agents open")
    expected = token.encode() if token else None

    def refused(request: web.Request) -> web.Response | None:
        if expected is None:
            return None
        # The scheme is case-insensitive (RFC 9110): "bearer", "Bearer" and "BEARER" all work.
        scheme, _, given = request.headers.get("Authorization", "").strip().partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), expected):
            return None
        return error_response(401, "Unauthorized", "a valid agent token is required")

    async def listing(request: web.Request) -> web.Response:
        denied = refused(request)
        if denied is not None:
            return denied
        agents = [
            {
                "name": agent.name,
                "kind": agent.kind.value,
                "mode": agent.mode.value,
                "description": agent.description,
                "passHistory": agent.receives_history,
                "url": f"/agents/{agent.name}",
            }
            for agent in parent.subagents.values()
        ]
        return web.json_response({"agents": agents})

    async def run(request: web.Request) -> web.StreamResponse:
        denied = refused(request)
        if denied is not None:
            return denied
        if not bot.accepting:
            return error_response(503, "ServiceUnavailable", "the host is shutting down")
        name = request.match_info["name"]
        agent = parent.subagents.get(name)
        if agent is None:
            return error_response(404, "NotFound", f"no agent named {name!r} here")
        try:
            body = await read_json_object(request, max_bytes=max_body_bytes)
            scoped = body.get(SCOPED_REQUEST)
            if not isinstance(scoped, str) or not scoped.strip():
                raise BodyError(
                    400, "BadArgument", f"{SCOPED_REQUEST!r} must be a non-empty string"
                )
            requests = body.get(REQUESTS) or []
            if not isinstance(requests, list) or not all(
                isinstance(r, str) and r.strip() for r in requests
            ):
                raise BodyError(400, "BadArgument", f"{REQUESTS!r} must be a list of requests")
            try:
                answers = answers_from_wire(body.get(ANSWERS))
            except ValueError as exc:
                raise BodyError(400, "BadArgument", str(exc)) from exc
            history = _history(body.get(HISTORY))
            state = body.get("state") or {}
            if not isinstance(state, dict):
                raise BodyError(400, "BadArgument", "'state' must be an object")
            dialogue = body.get("dialogue") or []
            if not isinstance(dialogue, list) or not all(
                isinstance(d, dict) and isinstance(d.get("text"), str) for d in dialogue
            ):
                raise BodyError(400, "BadArgument", "'dialogue' must be a list of messages")
        except BodyError as exc:
            return exc.response()
        messages: list[str] = []

        async def collect(text: str) -> None:
            messages.append(text)

        state = dict(state)
        dialogue = [{"role": str(d.get("role")), "text": d["text"]} for d in dialogue]
        async with bot.request():
            result = await parent.run_subagent(
                name,
                scoped.strip(),
                history=history,
                state=state,
                dialogue=dialogue,
                send=collect,
                continuing=bool(body.get("continuing", False)),
                requests=tuple(requests),
                answers=answers,
            )
        return web.json_response(result_to_wire(result, state=state, dialogue=dialogue))

    app.router.add_get("/agents", listing)
    app.router.add_post("/agents/{name}", run)
