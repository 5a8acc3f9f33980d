"""Remote connected agents: a host exposes its sub-agents over HTTP; a parent calls them by URL.

The wire format is the contract itself. The caller posts the inputs::

    {"scopedRequest": "...", "history": [...]?, "state": {...}?, "continuing": false}

``history`` is sent only when the ``ConnectedAgent`` has ``pass_history`` on; ``state`` is the
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

import asyncio
import hmac
import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from harness.exceptions import MissingExtraError, SubagentError
from subagents import HistoryEntry, Mode, Usage

try:
    import aiohttp
    from aiohttp import web
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("remote connected agents", extra="hosting") from exc

from pydantic import ValidationError

from harness.hosting._http import BodyError, error_response, read_json_object

if TYPE_CHECKING:
    from harness._runner import SubagentCall
    from harness.hosting.core import HarnessBot

__all__ = ["TOKEN_ENV", "add_agent_routes", "remote_outputs"]

TOKEN_ENV = "HARNESS_AGENT_TOKEN"
"""The environment variable holding the token sent to (and required by) exposed agents."""

_BACKOFF_S = 0.1
_MAX_BACKOFF_S = 2.0


# --- the calling side -------------------------------------------------------------------------


def _payload(call: SubagentCall) -> dict[str, Any]:
    payload: dict[str, Any] = {"scopedRequest": call.request, "continuing": call.continuing}
    if call.agent.receives_history:
        payload["history"] = [
            {"role": h.role, "sender": h.sender, "text": h.text, "turn": h.turn}
            for h in call.history
        ]
    if call.state:
        payload["state"] = json.loads(json.dumps(dict(call.state)))
    return payload


def _error_text(body: str) -> str:
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return body.strip()[:200] or "no body"
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, Mapping):
        return str(error.get("message") or error)
    return str(error or body)[:200]


async def _post(call: SubagentCall, url: str, payload: dict[str, Any]) -> dict[str, Any]:
    agent = call.agent
    attempts = 1 + int(getattr(agent, "retries", 0))
    timeout = aiohttp.ClientTimeout(total=agent.timeout)
    last = "no attempt made"
    token_env = getattr(agent, "token_env", None)
    token = os.environ.get(token_env or TOKEN_ENV)
    if token_env and not token:
        raise SubagentError(
            f"the environment variable {token_env} (the token for {url}) is not set",
            agent=agent.name,
        )
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession(timeout=timeout, headers=headers) as session:
        for attempt in range(attempts):
            if attempt:
                await asyncio.sleep(min(_BACKOFF_S * 2 ** (attempt - 1), _MAX_BACKOFF_S))
            try:
                async with session.post(url, json=payload) as response:
                    body = await response.text()
                    status = response.status
            except TimeoutError:
                raise  # the call's deadline: a timed-out result, not a retry
            except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
                last = f"{type(exc).__name__}: {exc}"
                continue
            if status >= 500:
                last = f"HTTP {status}: {_error_text(body)}"
                continue
            if status >= 400:
                raise SubagentError(
                    f"remote agent at {url} refused the call (HTTP {status}): {_error_text(body)}",
                    agent=agent.name,
                )
            try:
                data = json.loads(body)
            except json.JSONDecodeError as exc:
                raise SubagentError(
                    f"remote agent at {url} answered with invalid JSON", agent=agent.name
                ) from exc
            if not isinstance(data, dict):
                raise SubagentError(
                    f"remote agent at {url} answered with a non-object", agent=agent.name
                )
            return data
    raise SubagentError(
        f"remote agent at {url} failed after {attempts} attempt(s): {last}", agent=agent.name
    )


def _usage(value: Any) -> Usage:
    if not isinstance(value, Mapping):
        return Usage()
    cost = value.get("cost_usd")
    return Usage(
        requests=int(value.get("requests", 0) or 0),
        input_tokens=int(value.get("input_tokens", 0) or 0),
        output_tokens=int(value.get("output_tokens", 0) or 0),
        cost_usd=float(cost) if isinstance(cost, int | float) else None,
    )


async def remote_outputs(call: SubagentCall, sent: list[str]) -> tuple[Mapping[str, Any], Usage]:
    """Run ``call`` on the remote host at ``call.agent.url`` and relay its messages.

    Each message the remote agent wants sent is delivered with ``call.send`` (in order) and
    appended to ``sent``. The agent's conversation state (``call.state``) is sent along and
    replaced with the host's updated copy.

    Returns:
        The raw contract outputs (validated by the caller) and the remote model usage.

    Raises:
        SubagentError: the host refused the call, was unreachable after the retries, broke the
            contract, or reported a failed call.
        TimeoutError: no answer within the agent's timeout.
    """
    agent = call.agent
    url = str(getattr(agent, "url", "") or "")
    data = await _post(call, url, _payload(call))
    remote_mode = data.get("mode")
    if remote_mode is not None and remote_mode != agent.mode.value:
        raise SubagentError(
            f"remote agent at {url} is {remote_mode}, but is configured here as {agent.mode.value}",
            agent=agent.name,
        )
    messages = data.get("messages") or []
    if not isinstance(messages, list) or not all(isinstance(m, str) for m in messages):
        raise SubagentError(f"remote agent at {url} returned malformed messages", agent=agent.name)
    if messages and (agent.mode is Mode.SILENT or call.send is None):
        raise SubagentError(
            f"remote agent at {url} returned {len(messages)} message(s) but may not message "
            "the user; none was delivered",
            agent=agent.name,
        )
    for text in messages:
        if call.send is not None and text.strip():
            await call.send(text)
            sent.append(text)
    state = data.get("state")
    if isinstance(state, Mapping):
        call.state.clear()
        call.state.update(state)
    status = data.get("status")
    outputs = data.get("outputs")
    violations = data.get("violations") or []
    if status in ("failed", "timed_out") or not isinstance(outputs, Mapping):
        reason = data.get("error") or "; ".join(_violation_text(v) for v in violations)
        raise SubagentError(
            f"remote agent at {url} {status or 'failed'}: {reason or 'no outputs'}",
            agent=agent.name,
        )
    if violations:
        raise SubagentError(
            f"remote agent at {url} broke its contract: "
            + "; ".join(_violation_text(v) for v in violations),
            agent=agent.name,
        )
    return dict(outputs), _usage(data.get("usage"))


def _violation_text(value: Any) -> str:
    if isinstance(value, Mapping):
        return f"{value.get('kind', 'violation')}: {value.get('message', '')}"
    return str(value)


# --- the host side ----------------------------------------------------------------------------


def _history(value: Any) -> tuple[HistoryEntry, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BodyError(400, "BadArgument", "'history' must be a list of messages")
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
    from harness._runner import SubagentCall, run_subagent

    parent = bot.parent
    expected = f"Bearer {token}".encode() if token else None

    def refused(request: web.Request) -> web.Response | None:
        if expected is None:
            return None
        given = request.headers.get("Authorization", "").encode()
        if hmac.compare_digest(given, expected):
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
            scoped = body.get("scopedRequest")
            if not isinstance(scoped, str) or not scoped.strip():
                raise BodyError(400, "BadArgument", "'scopedRequest' must be a non-empty string")
            history = _history(body.get("history"))
            state = body.get("state") or {}
            if not isinstance(state, dict):
                raise BodyError(400, "BadArgument", "'state' must be an object")
        except BodyError as exc:
            return exc.response()
        messages: list[str] = []

        async def collect(text: str) -> None:
            messages.append(text)

        call = SubagentCall(
            agent=agent,
            request=scoped.strip(),
            history=history,
            model=parent._agent_models.get(name, parent.model),
            system=parent.system_prompt_for(name),
            state=dict(state),
            send=None if agent.mode is Mode.SILENT else collect,
            continuing=bool(body.get("continuing", False)),
        )
        async with bot.request():
            result = await run_subagent(call)
        usage = result.usage
        return web.json_response(
            {
                "agent": name,
                "mode": agent.mode.value,
                "status": result.status,
                "outputs": result.outputs.to_wire() if result.outputs is not None else None,
                "messages": list(result.messages),
                "error": result.error,
                "violations": [
                    {"kind": v.kind.value, "message": v.message, "output": v.output}
                    for v in result.violations
                ],
                "state": json.loads(json.dumps(dict(call.state), default=str)),
                "usage": {
                    "requests": usage.requests,
                    "input_tokens": usage.input_tokens,
                    "output_tokens": usage.output_tokens,
                    "cost_usd": usage.cost_usd,
                },
            }
        )

    app.router.add_get("/agents", listing)
    app.router.add_post("/agents/{name}", run)
