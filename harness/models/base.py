"""The model interface: one async call, ``Model.request(ModelRequest) -> ModelResponse``.

A request is what an LLM is shown: ``system``, ``messages``, ``tools`` and an ``output_schema``
named by ``output_name`` (``plan``, ``reply``, an agent's outputs ...). A model needs no notion of
which step asked: planning is ``harness.planning``'s and composing ``harness.composing``'s, each of
which sends an ordinary request. Only a sub-agent's *act* step still attaches a typed ``context``
(``ActContext``) with the same facts in structured form, which the offline ``RulesModel`` and test
doubles read. New concerns become fields here, not new parameters.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.exceptions import ModelRequestError
from subagents import HistoryEntry, Usage, UserAnswer

__all__ = [
    "ActContext",
    "AgentCard",
    "ChatMessage",
    "Model",
    "ModelRequest",
    "ModelResponse",
    "ModelSetupError",
    "ToolCall",
    "ToolDefinition",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCall:
    """A model's request to call a tool."""

    id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatMessage:
    """One message of the prompt, in chat-completions terms."""

    role: Literal["user", "assistant", "tool"]
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    """Tool calls made by an assistant message."""
    tool_call_id: str | None = None
    """For a tool message: the call it answers."""
    name: str | None = None
    """For a tool message: the tool's name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolDefinition:
    """A tool as the model sees it."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    """JSON schema of the arguments."""
    keywords: tuple[str, ...] = ()
    """Extra routing words (read by the offline rules model only)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentCard:
    """What the parent's router knows about one sub-agent."""

    name: str
    description: str
    mode: str
    examples: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    """Words from its tools' names and descriptions."""
    instructions: str = ""
    """Its own instructions, as its author wrote them (the offline planner routes by them too)."""
    tools: tuple[str, ...] = ()
    """Its tools' names (a one-word reply that names what a tool reads, "hours" of
    ``gym_hours``, is a new request, not the answer to a question)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ActContext:
    """Structured facts of a sub-agent's act request."""

    agent: str
    mode: str
    scoped_request: str
    history: tuple[HistoryEntry, ...] | None
    """The parent's history, only when the agent receives it."""
    required_outputs: tuple[str, ...]
    can_message_user: bool
    """False for silent agents: they have no send tool at all."""
    continuing: bool = False
    """True when a conversational agent holding the floor receives the user's next message."""
    requests: tuple[str, ...] = ()
    """Each request of a call that carries two or more (``scoped_request`` numbers them)."""
    answers: tuple[UserAnswer, ...] = ()
    """The user's answers to what the agent asked about the call's requests last turn (the value,
    the question and the request each completes); never part of ``scoped_request``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelRequest:
    """Everything one model call needs."""

    agent: str
    """The calling agent's name (the parent's or a sub-agent's)."""
    system: str
    """The system prompt: generated instructions plus the agent's own."""
    messages: tuple[ChatMessage, ...]
    """The conversation of this call."""
    tools: tuple[ToolDefinition, ...] = ()
    """Tools the model may call."""
    output_schema: Mapping[str, Any] | None = None
    """JSON schema of the structured output expected as the final answer, if any."""
    output_name: str | None = None
    """A name for the structured output (OpenAI's ``json_schema.name``)."""
    context: ActContext | None = None
    """The facts of a sub-agent's act step in structured form, for the offline model and test
    doubles (an LLM reads them from the prompt); None for every other request."""
    timeout: float | None = None
    """Seconds this call may take, when the caller sets a deadline."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelResponse:
    """A model's answer: tool calls, or a final text and/or structured output."""

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    output: Mapping[str, Any] | None = None
    """The structured output, parsed, when the request asked for one."""
    refusal: str | None = None
    """The model's refusal, when it refused."""
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    """Which model answered."""


class ModelSetupError(ModelRequestError):
    """A model cannot answer because the run is set up wrong (a replayed request missing from its
    cassette). The parent never falls back from it, even when it is not strict: the setup needs
    fixing, and a fallback would hide that."""


class Model(ABC):
    """A language model, or anything that answers like one."""

    name: str = "model"

    @abstractmethod
    async def request(self, request: ModelRequest) -> ModelResponse:
        """Answer one request."""

    def check(self) -> None:  # noqa: B027 - optional hook, no-op by default
        """Raise ``ConfigError`` now if the model cannot work as configured (a hosted model with
        no API key), so a command fails at start rather than at the first message. A no-op by
        default."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook, no-op by default
        """Release resources (HTTP clients); a no-op by default."""
