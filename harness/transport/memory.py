"""Transports for tests: a scripted one, and one that calls another parent in this process.

As httpx ships ``MockTransport`` and an ASGI transport, these let a test exercise a remote
connected agent without a server. Both answer in the remote host's wire format and go through the
same reading as ``HTTPTransport`` (:func:`~harness.transport.base.reply_from_wire`), so a mode
mismatch, a silent agent's message or a failed remote call behaves exactly as over HTTP.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from harness.transport.base import (
    AgentReply,
    AgentTransport,
    Delivery,
    SubagentCall,
    reply_from_wire,
    result_to_wire,
)

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["InProcessTransport", "MockHandler", "MockTransport"]

MockHandler = Callable[[SubagentCall], Mapping[str, Any] | Awaitable[Mapping[str, Any]]]
"""Answers a call with a host's JSON answer (only ``outputs`` is required)."""


class MockTransport(AgentTransport):
    """Answers every call with ``handler(call)``, a remote host's answer, without a network.

    The answer is what a host's ``POST /agents/{name}`` returns; only ``outputs`` is required::

        from harness import ConnectedAgent, Parent, run_sync
        from harness.testing import MockTransport

        payroll = ConnectedAgent(name="payroll", mode="direct", description="Knows paydays.")
        transport = MockTransport(lambda call: {
            "outputs": {"answered": True, "interactionSummary": "Payday is Friday."},
            "messages": ["Payday is Friday."],
        })
        bot = Parent(name="desk", subagents=[payroll], transports={"payroll": transport},
                     model="rules")
        turn = run_sync(bot.conversation().send("When is payday?"))

    ``messages`` are what a direct or conversational agent says to the user; a silent agent (the
    default mode) may not send any, and answers with ``outputs`` only (``findings``,
    ``openQuestions``, ``answered: false``). ``handler`` may be a function or a coroutine
    function, and may raise to simulate a failing agent. Every call is kept in :attr:`calls`, to
    assert what the agent was given.
    """

    def __init__(self, handler: MockHandler) -> None:
        self.handler = handler
        self.calls: list[SubagentCall] = []
        """Every call made through this transport, in order."""

    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        self.calls.append(call)
        answer = self.handler(call)
        if inspect.isawaitable(answer):
            answer = await answer
        return await reply_from_wire(answer, call, deliver, where=f"mock:{call.agent.name}")


class InProcessTransport(AgentTransport):
    """Calls a sub-agent of another ``Parent`` in this process, as its host would over HTTP.

    The host parent runs the call with its own model and instructions
    (:meth:`Parent.run_subagent <harness.Parent.run_subagent>`); the request, history and state
    cross as JSON, exactly as ``serve --expose`` would send them.

    Args:
        host: the parent that owns the agent.
        agent: the agent's name there; None uses the calling agent's name.
    """

    def __init__(self, host: Parent, *, agent: str | None = None) -> None:
        self.host = host
        self.agent = agent

    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        name = self.agent or call.agent.name
        history = call.history if call.agent.receives_history else ()
        state: dict[str, Any] = json.loads(json.dumps(dict(call.state)))
        dialogue = [dict(d) for d in call.dialogue]
        messages: list[str] = []

        async def collect(text: str) -> None:
            messages.append(text)

        result = await self.host.run_subagent(
            name,
            call.request,
            history=history,
            state=state,
            dialogue=dialogue,
            send=collect,
            continuing=call.continuing,
            requests=call.requests,
            answers=call.answers,
        )
        answer = result_to_wire(result, state=state, dialogue=dialogue)
        return await reply_from_wire(answer, call, deliver, where=f"in-process:{name}")
