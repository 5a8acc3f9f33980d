"""Sub-agent transports: how one sub-agent call runs (in-process, over HTTP, or scripted).

Every transport implements one method, ``AgentTransport.run(call, deliver)``: it runs the call,
delivers the agent's messages with ``deliver`` and returns the raw outputs. The runner around it
owns the deadline, validation and failure policy, so all transports fail the same way. A
``Parent`` picks ``LocalTransport`` for its own agents and ``HTTPTransport`` for a
``ConnectedAgent`` with a ``url``; ``Parent(transports={...})`` overrides that per agent, which is
how a test swaps in a ``MockTransport`` or an ``InProcessTransport``.
"""

from harness.transport.base import (
    AgentReply,
    AgentTransport,
    Delivery,
    SubagentCall,
    reply_from_wire,
    result_to_wire,
)
from harness.transport.http import TOKEN_ENV, HTTPTransport
from harness.transport.local import SEND_TOOL, LocalTransport, output_schema, prepare
from harness.transport.memory import InProcessTransport, MockHandler, MockTransport

__all__ = [
    "SEND_TOOL",
    "TOKEN_ENV",
    "AgentReply",
    "AgentTransport",
    "Delivery",
    "HTTPTransport",
    "InProcessTransport",
    "LocalTransport",
    "MockHandler",
    "MockTransport",
    "SubagentCall",
    "output_schema",
    "prepare",
    "reply_from_wire",
    "result_to_wire",
]
