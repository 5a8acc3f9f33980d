"""What every sub-agent transport shares: the call, where its messages go, and the wire answer.

A transport runs one sub-agent call and returns its raw contract outputs; the runner
(``harness.runtime.runner.run_subagent``) owns the deadline, the validation and the ``SubagentResult``, so
every transport fails, times out and is validated the same way. A remote host's JSON answer (see
``harness.hosting.remote``) is the one wire format: the HTTP transport reads it from the network,
the mock and in-process transports build it in memory, and all three read it with
:func:`reply_from_wire`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.exceptions import SubagentError
from instructions.contract import HISTORY, SCOPED_REQUEST, join_requests
from subagents import (
    ADVISORY_KINDS,
    HistoryEntry,
    Mode,
    Subagent,
    SubagentResult,
    Usage,
    UserAnswer,
)

if TYPE_CHECKING:
    from harness.agent.tools import ToolThreads
    from harness.models.base import Model, ToolDefinition
    from subagents import Tool

__all__ = [
    "ANSWERS",
    "REQUESTS",
    "AgentReply",
    "AgentTransport",
    "Delivery",
    "PreparedAgent",
    "Sender",
    "SubagentCall",
    "answers_from_wire",
    "join_requests",
    "reply_from_wire",
    "result_to_wire",
    "wire_payload",
]

REQUESTS = "requests"
"""The wire key of a call's requests, when it carries two or more (not a contract input: the agent
reads them numbered in ``scopedRequest``; a host passes them on to validate ``answeredRequests``)."""

ANSWERS = "userAnswers"
"""The wire key of the user's answers to what the agent asked about the call's requests, when
there are any: ``[{"request", "question", "value"}]`` (not a contract input: ``scopedRequest``
stays the user's request; docs/contract.md, "The user's answer to an agent's question")."""

Sender = Callable[[str], Awaitable[None]]
"""Delivers one message to the user."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PreparedAgent:
    """What the model loop needs of a sub-agent that never changes between its calls.

    The parent builds one per sub-agent up front (see ``harness.transport.prepare``), so a turn
    does not rebuild the tool definitions and the output schema for every call.
    """

    tools: Mapping[str, Tool]
    """The agent's tools by name."""
    definitions: tuple[ToolDefinition, ...]
    """The tools as the model sees them, without the send tool."""
    schema: dict[str, Any]
    """The JSON schema of its outputs (``harness.transport.output_schema``)."""
    several_schema: dict[str, Any] | None = None
    """The schema of a call carrying two or more requests (``answeredRequests`` required);
    None: built from ``schema`` when needed."""


@dataclass(slots=True, kw_only=True)
class SubagentCall:
    """One call of one sub-agent within a turn."""

    agent: Subagent
    request: str
    """The scoped request (the whole user message when the agent takes no ``scopedRequest``);
    when the call carries several requests, ``join_requests`` of them."""
    history: tuple[HistoryEntry, ...]
    """The parent's conversation before this turn's replies; filtered by ``receives_history``."""
    model: Model
    system: str
    """The agent's system prompt (generated instructions plus its own)."""
    state: MutableMapping[str, Any] = field(default_factory=dict)
    """The agent's memory in this conversation (the agent's own; the runtime writes nothing here)."""
    dialogue: list[dict[str, str]] = field(default_factory=list)
    """A conversational agent's own exchange with the user while it holds the floor (``role`` and
    ``text`` per message); the in-process transport reads it and updates it in place."""
    send: Sender | None = None
    """Delivers a message to the user; never given to a silent agent."""
    continuing: bool = False
    """True when a conversational agent that holds the floor gets the user's next message."""
    max_steps: int = 8
    """Model calls allowed in one sub-agent call."""
    strict: bool = False
    """Re-raise model misbehaviour (``ModelBehaviorError``) instead of returning a failed result."""
    prepared: PreparedAgent | None = None
    """The agent's tools and output schema, built once by ``prepare``; built per call if None."""
    transport: AgentTransport | None = None
    """How the call runs; None picks the default (the agent's handler or model loop in-process,
    or HTTP for a ``ConnectedAgent`` with a ``url``)."""
    tool_threads: ToolThreads | None = None
    """The bot's shares of tool threads (``harness.agent.tools.ToolThreads``); None: the shared
    one of callers without a bot."""
    requests: tuple[str, ...] = ()
    """Each request this call carries, as planned (empty: just ``request``). The agent's outputs
    answer each: ``answered`` covers every request not listed in its ``openQuestions``."""
    answers: tuple[UserAnswer, ...] = ()
    """The user's answers to what the agent asked about this call's requests last turn, each
    naming its request (never joined into ``request``); empty when there are none."""
    spent: Usage = field(default_factory=Usage)
    """Model usage so far; a transport updates it as it goes, so a call that fails later keeps
    what it spent."""
    tools_called: list[str] | None = None
    """The tools the agent called so far, in order (the message tool left out); a transport that
    sees them fills it as it goes (the model loop, a host's answer). None: not known."""


@dataclass(slots=True, eq=False)
class Delivery:
    """Where one call's messages to the user go; the runner makes one per call.

    Calling it delivers a message (when the agent may message the user) and records it; an agent
    that may not message the user (a silent one, or a call without a sender) is refused, and the
    attempt is recorded as a contract violation.
    """

    send: Sender | None
    """The sender; None when the agent may not message the user."""
    sent: list[str] = field(default_factory=list)
    """The messages delivered, in order."""
    attempted: list[str] = field(default_factory=list)
    """The messages refused because the agent may not message the user."""

    @property
    def allowed(self) -> bool:
        """True when the agent may message the user."""
        return self.send is not None

    async def __call__(self, text: str) -> bool:
        """Deliver ``text``; False (and the attempt recorded) when the agent may not."""
        if self.send is None:
            self.attempted.append(text)
            return False
        await self.send(text)
        self.sent.append(text)
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentReply:
    """What a transport returns: the raw contract outputs (validated by the runner) and usage."""

    outputs: Mapping[str, Any]
    """The outputs as the agent returned them."""
    usage: Usage = field(default_factory=Usage)
    """The model usage of the call."""


class AgentTransport(ABC):
    """Runs one sub-agent call: in-process, over HTTP, or scripted for a test.

    A transport delivers the agent's messages with ``deliver`` (in order, as they happen) and
    returns the raw outputs. It may raise: the runner turns any exception into a ``failed``
    result and its deadline into a ``timed_out`` one, so a transport needs no error handling
    of its own beyond meaningful messages.
    """

    @abstractmethod
    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        """Run ``call``; deliver its messages with ``deliver``; return its raw outputs."""

    async def aclose(self) -> None:  # noqa: B027 - an optional hook, a no-op by default
        """Release the transport's resources (connections); the parent calls it on close."""


# --- the wire format ----------------------------------------------------------------------------


def answers_from_wire(raw: object) -> tuple[UserAnswer, ...]:
    """The user's answers of a posted call (``ANSWERS``; absent or null: none).

    Raises:
        ValueError: ``raw`` is not a list of objects with the strings ``request`` and ``value``
            (and ``question``, which may be missing or null).
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError(f"{ANSWERS!r} must be a list of answers")
    answers = []
    for item in raw:
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) and item[k].strip() for k in ("request", "value")
        ):
            raise ValueError(f"{ANSWERS!r} items must be objects with the strings request, value")
        question = item.get("question")
        if question is None:  # missing or null: the question is not known
            question = ""
        elif not isinstance(question, str):
            raise ValueError(f"{ANSWERS!r} items' question must be a string")
        answers.append(UserAnswer(request=item["request"], question=question, value=item["value"]))
    return tuple(answers)


def wire_payload(call: SubagentCall) -> dict[str, Any]:
    """The JSON a caller posts to a host for ``call``: the request, each request when it carries
    two or more (``requests``; ``scopedRequest`` numbers them too, for hosts that read only it),
    the user's answers to the agent's questions when there are any (``userAnswers``), and
    history, state and the agent's dialogue if any."""
    payload: dict[str, Any] = {SCOPED_REQUEST: call.request, "continuing": call.continuing}
    if len(call.requests) > 1:
        payload[REQUESTS] = list(call.requests)
    if call.answers:
        payload[ANSWERS] = [
            {"request": a.request, "question": a.question, "value": a.value} for a in call.answers
        ]
    if call.agent.receives_history:
        payload[HISTORY] = [
            {"role": h.role, "sender": h.sender, "text": h.text, "turn": h.turn}
            for h in call.history
        ]
    if call.state:
        payload["state"] = json.loads(json.dumps(dict(call.state)))
    if call.dialogue:
        payload["dialogue"] = [dict(d) for d in call.dialogue]
    return payload


def result_to_wire(
    result: SubagentResult,
    *,
    state: Mapping[str, Any] | None = None,
    dialogue: Sequence[Mapping[str, str]] = (),
) -> dict[str, Any]:
    """The JSON a host answers with for ``result``, carrying the agent's updated ``state`` and
    its ``dialogue``."""
    usage = result.usage
    return {
        "agent": result.agent,
        "mode": result.mode.value,
        "status": result.status,
        "outputs": result.outputs.to_wire() if result.outputs is not None else None,
        "messages": list(result.messages),
        "error": result.error,
        "violations": [
            {"kind": v.kind.value, "message": v.message, "output": v.output}
            for v in result.violations
        ],
        "state": json.loads(json.dumps(dict(state or {}), default=str)),
        "dialogue": [{"role": str(d["role"]), "text": str(d["text"])} for d in dialogue],
        **({} if result.tool_calls is None else {"tool_calls": list(result.tool_calls)}),
        "usage": {
            "requests": usage.requests,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cost_usd": usage.cost_usd,
        },
    }


async def reply_from_wire(
    data: Mapping[str, Any], call: SubagentCall, deliver: Delivery, *, where: str
) -> AgentReply:
    """Read a host's answer for ``call``: relay its messages, take its state, return its outputs.

    Args:
        data: the host's JSON answer (only ``outputs`` is required).
        call: the call it answers; its ``state`` and ``dialogue`` are replaced with the host's.
        deliver: where the messages go, in order.
        where: names the host in errors (``remote agent at <where>``).

    Raises:
        SubagentError: the answer is for another mode, has malformed messages or messages from an
            agent that may not send any, reports a failed call, or breaks the contract.
    """
    agent = call.agent
    remote_mode = data.get("mode")
    if remote_mode is not None and remote_mode != agent.mode.value:
        raise SubagentError(
            f"remote agent at {where} is {remote_mode}, but is configured here as "
            f"{agent.mode.value}",
            agent=agent.name,
        )
    messages = data.get("messages") or []
    if not isinstance(messages, list) or not all(isinstance(m, str) for m in messages):
        raise SubagentError(
            f"remote agent at {where} returned malformed messages", agent=agent.name
        )
    if messages and (agent.mode is Mode.SILENT or not deliver.allowed):
        raise SubagentError(
            f"remote agent at {where} returned {len(messages)} message(s) but may not message "
            "the user; none was delivered",
            agent=agent.name,
        )
    for text in messages:
        if text.strip():
            await deliver(text)
    state = data.get("state")
    if isinstance(state, Mapping):
        call.state.clear()
        call.state.update(state)
    dialogue = data.get("dialogue")
    if isinstance(dialogue, list):
        call.dialogue[:] = [
            {"role": str(d["role"]), "text": str(d["text"])}
            for d in dialogue
            if isinstance(d, Mapping) and "role" in d and "text" in d
        ]
    called = data.get("tool_calls")
    if isinstance(called, list) and all(isinstance(name, str) for name in called):
        call.tools_called = list(called)
    status = data.get("status")
    outputs = data.get("outputs")
    violations = data.get("violations") or []
    if status in ("failed", "timed_out") or not isinstance(outputs, Mapping):
        reason = data.get("error") or "; ".join(_violation_text(v) for v in violations)
        raise SubagentError(
            f"remote agent at {where} {status or 'failed'}: {reason or 'no outputs'}",
            agent=agent.name,
        )
    violations = [
        v for v in violations if not (isinstance(v, Mapping) and v.get("kind") in _ADVISORY)
    ]
    if violations:
        raise SubagentError(
            f"remote agent at {where} broke its contract: "
            + "; ".join(_violation_text(v) for v in violations),
            agent=agent.name,
        )
    return AgentReply(outputs=dict(outputs), usage=_usage(data.get("usage")))


_ADVISORY = frozenset(kind.value for kind in ADVISORY_KINDS)
"""A host's advisory violations leave the answer usable (the caller validates it again)."""


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


def _violation_text(value: Any) -> str:
    if isinstance(value, Mapping):
        return f"{value.get('kind', 'violation')}: {value.get('message', '')}"
    return str(value)
