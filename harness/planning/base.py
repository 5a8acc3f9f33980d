"""The planning seam: what a planner is given, what it returns, and the interface it implements.

A planner splits the user's message into scoped requests and names the agent for each. The runtime
asks its planner once per turn and never looks inside: an LLM planner over any ``Model``
(``LLMPlanner``) and the offline rules planner (``RulesPlanner``) are interchangeable.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from harness.models.base import AgentCard, ChatMessage
from subagents import Usage, UserAnswer

__all__ = ["Plan", "PlanEntry", "PlanInput", "Planner", "WaitingRequest"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanEntry:
    """One request of the user's message and the agent that should handle it."""

    request: str
    """The scoped request, self-contained."""
    agent: str
    """A sub-agent's name, or the parent's (the parent handles it itself)."""
    answers: tuple[UserAnswer, ...] = ()
    """The user's answers to what ``agent`` asked about this request (``PlanInput.awaiting``),
    each naming it: the values travel beside the request, never in its text, to the agent
    (``SubagentCall.answers``) and into the turn's record. Empty for a request as the user made
    it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitingRequest:
    """A request a sub-agent asked the user a question about (a value it needs)."""

    request: str
    """The scoped request, as the agent got it."""
    agent: str
    """The sub-agent that asked."""
    question: str = ""
    """What it asked ("What amount do you want?"): which kind of value answers it."""
    answers: tuple[UserAnswer, ...] = ()
    """The user's earlier answers to this agent's questions about the request (it asked again
    for another value): the next answer is added to them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanInput:
    """Everything a planner may read to plan one user message."""

    parent: str
    """The parent's name; entries naming it are handled by the parent itself."""
    message: str
    """The user's message (stripped)."""
    agents: tuple[AgentCard, ...]
    """The sub-agents a request may go to."""
    system: str = ""
    """The parent's system prompt (its generated and own instructions)."""
    recent: tuple[ChatMessage, ...] = ()
    """The last few turns before this one (follow-ups such as "yes" need them)."""
    active_agent: str | None = None
    """A conversational agent that holds the floor and gets its part of the message."""
    awaiting: tuple[WaitingRequest, ...] = ()
    """The requests a sub-agent asked the user a question about in the last turn (a value it
    needs), in the order they were asked: a reply that only gives the value completes the one
    whose question it fits (the offline planner plans that request again, for that agent, with
    the value as a ``PlanEntry.answers`` item)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """A planner's answer: the requests in the order the user made them."""

    entries: tuple[PlanEntry, ...]
    """One entry per request (a planner may already join several for one agent)."""
    usage: Usage = field(default_factory=Usage)
    """Model usage spent on planning."""


class Planner(ABC):
    """Splits a user message into scoped requests, each with the agent that handles it."""

    @abstractmethod
    async def plan(self, given: PlanInput) -> Plan:
        """Plan one message.

        Raises:
            ModelBehaviorError: the plan is unusable (the parent then handles the whole message).
        """

    async def aclose(self) -> None:  # noqa: B027 - optional hook, no-op by default
        """Release resources; a no-op by default (a planner's model is closed by its owner)."""
