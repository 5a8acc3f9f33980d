"""The team's message schema (docs/teams.md) and the reply a member gives.

Every message of a team run has the same shape: turn, sender, role, goal, content, context (task id
and memory reference), constraints, allowed tools, signals (``handoff``, ``stop``, ``needs_tool``)
and metadata (confidence, cost estimate, correlation id). Two extensions carry what the convergence
report and the contract need: ``fields`` (structured values, compared across members) and
``open_questions`` (parts the member could not handle). A member answers with a ``MemberReply``; the
loop turns it into a ``TeamMessage``, filling the parts the member must not choose itself (turn,
sender, role, context, correlation id).

Members backed by a plain-text model may use the text protocol instead of structured output: a line
``DONE`` stops, ``HANDOFF:<member>`` hands over, ``NEED_TOOL`` asks for a tool, ``VERDICT: accept``
or ``VERDICT: reject`` reviews, ``CONFIDENCE: 0.8`` reports confidence. ``parse_text_reply`` reads
them, and the loop moves tokens found in a structured reply's content into its signals
(``read_protocol``).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Constraints",
    "MemberReply",
    "MessageContext",
    "MessageMetadata",
    "Signals",
    "TeamMessage",
    "TeamRole",
    "ToolPermission",
    "Verdict",
    "parse_text_reply",
    "read_protocol",
    "strip_protocol",
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")
Verdict = Literal["accept", "reject"]


class TeamRole(StrEnum):
    """What a member does in the team."""

    PLANNER = "planner"
    """Splits the task into steps or sub-questions."""
    SOLVER = "solver"
    """Produces answers (also the proposer of proposer/critic and a debater)."""
    CRITIC = "critic"
    """Reviews answers and accepts or rejects them, with reasons."""
    VERIFIER = "verifier"
    """Tests answers (checks facts, runs tests) and passes or fails them."""
    ARBITER = "arbiter"
    """Settles a debate and writes the final answer."""


class MessageContext(BaseModel):
    model_config = _FROZEN

    task_id: str
    """The run's task id (its correlation id)."""
    memory_ref: str | None = None
    """Where the member's notes went in the scratchpad (``scratchpad:<key>``), if anywhere."""


class Constraints(BaseModel):
    model_config = _FROZEN

    max_tokens: int | None = None
    style: str | None = None
    citations_required: bool = False


class ToolPermission(BaseModel):
    model_config = _FROZEN

    name: str
    allowed: bool = True


class Signals(BaseModel):
    model_config = _FROZEN

    handoff: str | None = None
    """The member who should speak next."""
    stop: bool = False
    """The member considers the task done."""
    needs_tool: bool = False
    """The member needs a tool it could not use."""
    verdict: Verdict | None = None
    """A critic's or verifier's decision on the latest answer."""


class MessageMetadata(BaseModel):
    model_config = _FROZEN

    correlation_id: str
    """The run's correlation id; every message and event carries it."""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    """The member's confidence; None when it reported none."""
    cost_estimate_tokens: int | None = None
    """Tokens the turn cost (the model's usage when known, else the member's estimate)."""
    latency_s: float | None = None
    valid: bool = True
    """False when the turn failed or its output could not be used."""
    error: str | None = None
    guardrail: tuple[str, ...] = ()
    """Ids of the guardrail rules that fired on this message."""


class TeamMessage(BaseModel):
    """One message of the team's journal."""

    model_config = _FROZEN

    turn: int
    sender: str
    role: TeamRole
    goal: str = ""
    content: str
    context: MessageContext
    constraints: Constraints = Field(default_factory=Constraints)
    tools: tuple[ToolPermission, ...] = ()
    signals: Signals = Field(default_factory=Signals)
    metadata: MessageMetadata
    fields: dict[str, Any] = Field(default_factory=dict)
    """Structured values (extension): two members' different values for one key conflict."""
    open_questions: tuple[str, ...] = ()
    """Parts of the task the member could not handle (extension)."""


class MemberReply(BaseModel):
    """What a member says on its turn; also the structured-output schema sent to models."""

    model_config = _FROZEN

    content: str
    """The message itself."""
    handoff: str | None = None
    """Name of the member who should speak next, if this member wants to choose."""
    stop: bool = False
    """True when the task is done (the same as writing DONE)."""
    needs_tool: bool = False
    verdict: Verdict | None = None
    """Critics and verifiers: accept or reject the latest answer."""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    cost_estimate_tokens: int | None = Field(default=None, ge=0)
    fields: dict[str, Any] = Field(default_factory=dict)
    """Structured values of the answer (e.g. ``{"answer": "12 days"}``)."""
    open_questions: tuple[str, ...] = ()
    notes: dict[str, Any] = Field(default_factory=dict)
    """Intermediate results for the scratchpad (hypotheses, sub-questions, variables)."""


_DONE = re.compile(r"(?m)^\s*DONE\s*[.!]?\s*$|\bDONE\s*[.!]?\s*$")
_HANDOFF = re.compile(r"\bHANDOFF:\s*([A-Za-z0-9_-]+)")
_NEED_TOOL = re.compile(r"\bNEED_TOOL\b")
_VERDICT = re.compile(r"\bVERDICT:\s*(accept|reject)\b", re.IGNORECASE)
_CONFIDENCE = re.compile(r"\bCONFIDENCE:\s*([01](?:\.\d+)?)\b")


def strip_protocol(text: str) -> str:
    """The text without protocol tokens (``DONE``, ``HANDOFF:x``, ``NEED_TOOL``, verdicts)."""
    for pattern in (_HANDOFF, _NEED_TOOL, _VERDICT, _CONFIDENCE, _DONE):
        text = pattern.sub("", text)
    return re.sub(r"[ \t]+\n", "\n", text).strip()


def parse_text_reply(text: str) -> MemberReply:
    """Read the text protocol's tokens out of a plain-text reply."""
    handoff = _HANDOFF.search(text)
    verdict = _VERDICT.search(text)
    confidence = _CONFIDENCE.search(text)
    value = float(confidence.group(1)) if confidence else None
    return MemberReply(
        content=strip_protocol(text),
        handoff=handoff.group(1) if handoff else None,
        stop=bool(_DONE.search(text)),
        needs_tool=bool(_NEED_TOOL.search(text)),
        verdict=verdict.group(1).lower() if verdict else None,
        confidence=value if value is not None and value <= 1.0 else None,
    )


def read_protocol(reply: MemberReply) -> MemberReply:
    """Move text-protocol tokens found in a reply's content into its structured signals."""
    parsed = parse_text_reply(reply.content)
    if parsed.content == reply.content:
        return reply
    return reply.model_copy(
        update={
            "content": parsed.content,
            "stop": reply.stop or parsed.stop,
            "handoff": reply.handoff or parsed.handoff,
            "needs_tool": reply.needs_tool or parsed.needs_tool,
            "verdict": reply.verdict or parsed.verdict,
            "confidence": reply.confidence if reply.confidence is not None else parsed.confidence,
        }
    )
