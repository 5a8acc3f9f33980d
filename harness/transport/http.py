"""The HTTP transport: calls a sub-agent exposed by another harness host (``serve --expose``).

The client side of ``harness.hosting.remote``; it lives here, below hosting, so a parent with a
remote ``ConnectedAgent`` loads aiohttp and nothing of the hosting layer. Connection errors and
5xx answers are retried with backoff; nothing is relayed until a call succeeds, so a retry never
repeats a message. The call's deadline is the runner's (``asyncio.timeout``), and aiohttp's own
timeout is the same, so a slow host gives a ``timed_out`` result, not a retry.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from typing import Any

from harness.exceptions import MissingExtraError, SubagentError
from harness.transport.base import (
    AgentReply,
    AgentTransport,
    Delivery,
    SubagentCall,
    reply_from_wire,
    wire_payload,
)

__all__ = ["TOKEN_ENV", "HTTPTransport"]

TOKEN_ENV = "HARNESS_AGENT_TOKEN"
"""The environment variable holding the token sent to (and required by) exposed agents."""

_BACKOFF_S = 0.1
_MAX_BACKOFF_S = 2.0


class HTTPTransport(AgentTransport):
    """Posts each call to a remote host and relays the messages of its answer.

    Args:
        url: the agent's endpoint; None uses the ``ConnectedAgent``'s ``url``.
        retries: retries on connection errors and 5xx answers; None uses the agent's ``retries``.
        token_env: the environment variable holding the bearer token; None uses the agent's
            ``token_env``, then ``HARNESS_AGENT_TOKEN`` when that is set.

    Needs the ``hosting`` extra (aiohttp); without it a call fails with a ``MissingExtraError``.
    """

    def __init__(
        self, url: str | None = None, *, retries: int | None = None, token_env: str | None = None
    ) -> None:
        self.url = url
        self.retries = retries
        self.token_env = token_env

    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        url = self.url or str(getattr(call.agent, "url", "") or "")
        if not url:
            raise SubagentError("no url to call this agent at", agent=call.agent.name)
        data = await self._post(call, url, wire_payload(call))
        return await reply_from_wire(data, call, deliver, where=url)

    async def _post(self, call: SubagentCall, url: str, payload: dict[str, Any]) -> dict[str, Any]:
        try:
            import aiohttp
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise MissingExtraError("remote connected agents", extra="hosting") from exc
        agent = call.agent
        retries = self.retries if self.retries is not None else getattr(agent, "retries", 0)
        attempts = 1 + int(retries)
        timeout = aiohttp.ClientTimeout(total=agent.timeout)
        last = "no attempt made"
        token_env = self.token_env or getattr(agent, "token_env", None)
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
                        f"remote agent at {url} refused the call (HTTP {status}): "
                        f"{_error_text(body)}",
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


def _error_text(body: str) -> str:
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return body.strip()[:200] or "no body"
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, Mapping):
        return str(error.get("message") or error)
    return str(error or body)[:200]
