"""The composing seam: what a composer is given, what it returns, and the interface it implements.

A composer writes the parent's message from the turn's results (only what the user has not
received yet) and may route open questions to other agents. The runtime asks its composer at each
compose step and never looks inside: an LLM composer over any ``Model`` (``LLMComposer``) and the
offline rules composer (``RulesComposer``) are interchangeable.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.models.base import AgentCard
from harness.text import quote
from instructions.contract import (
    ANSWERED,
    ANSWERED_REQUESTS,
    FINDINGS,
    INTERACTION_SUMMARY,
    OPEN_QUESTIONS,
    SCOPED_REQUEST,
)
from subagents import RequestAnswer, Usage

__all__ = ["ComposeInput", "Composer", "Composition", "ResultView", "Route", "quote_each"]

SENT_TO_USER = "sentToUser"
"""The key of a result's messages in the LLM composer's JSON (``ResultView.to_json``)."""
SAID_ANSWERED = "saidAnswered"
"""The key, next to ``sentToUser``, of what a broken result's own outputs said of ``answered``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultView:
    """A sub-agent result as the parent's compose step sees it."""

    agent: str
    mode: str
    request: str
    status: str
    answered: bool
    interaction_summary: str | None = None
    findings: str | None = None
    open_questions: tuple[str, ...] = ()
    error: str | None = None
    """Why it failed, or which contract rules it broke."""
    request_answers: tuple[RequestAnswer, ...] = ()
    """One item per request, when the call carried several and the agent answered each
    (``answeredRequests``); empty otherwise (``answered`` covers the whole call)."""
    requests: tuple[str, ...] = ()
    """Each request the call carried, as planned, when it carried two or more (``request`` is
    then their numbered join); empty for one."""
    sent: tuple[str, ...] = ()
    """The messages the agent sent the user during the call: the user has read them, whatever its
    outputs say (even when they broke the contract), so the parent never says them again."""
    broke_contract: bool = False
    """Its outputs broke the contract (``error`` names the rules), so ``answered`` is false
    whatever they said."""
    said_answered: bool = False
    """What its outputs said of ``answered``, read even when they broke the contract: whether the
    agent itself holds that what it sent is the answer."""
    said_answered_requests: tuple[str, ...] = ()
    """The requests its outputs' ``answeredRequests`` items said answered (each by its planned
    text), read even when they broke the contract; empty for a call with one request."""

    @property
    def each_request(self) -> tuple[str, ...]:
        """The requests the call carried, each by its own text (``request`` when it was one)."""
        return self.requests or (self.request,)

    def to_json(self) -> dict[str, Any]:
        """The result as the LLM composer shows it (wire names)."""
        per_request = {
            ANSWERED_REQUESTS: [
                {"request": a.request, ANSWERED: a.answered, FINDINGS: a.findings or ""}
                for a in self.request_answers
            ]
        }
        return {
            "agent": self.agent,
            "mode": self.mode,
            SCOPED_REQUEST: self.request,
            "status": self.status,
            ANSWERED: self.answered,
            INTERACTION_SUMMARY: self.interaction_summary,
            FINDINGS: self.findings,
            OPEN_QUESTIONS: list(self.open_questions),
            **({"requests": list(self.requests)} if self.requests else {}),
            **(per_request if self.request_answers else {}),
            "error": self.error,
            # What the user already read, when ``answered`` cannot say so: its outputs broke the
            # contract after it messaged them. Only then, so that the request of a result that
            # kept the contract (a conversational agent's question) is what it always was, and
            # recorded cassettes still match it.
            # With it, what the outputs themselves said of ``answered`` (the note tells the model
            # to read the messages as the answer only when they said so).
            **(
                {SENT_TO_USER: list(self.sent), SAID_ANSWERED: self.said_answered}
                if self.sent and self.broke_contract
                else {}
            ),
        }


def quote_each(requests: Sequence[str]) -> str:
    """Requests quoted one by one for a sentence: ``"a"``, ``"a" and "b"``, ``"a", "b" and "c"``."""
    quoted = [f'"{quote(r)}"' for r in requests]
    if len(quoted) < 2:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


@dataclass(frozen=True, slots=True, kw_only=True)
class ComposeInput:
    """Everything a composer may read to write one reply."""

    parent: str
    """The parent's name."""
    user_message: str
    """The user's message (stripped)."""
    results: tuple[ResultView, ...]
    """Every sub-agent result of the turn so far, in dispatch order."""
    system: str = ""
    """The parent's system prompt (its generated and own instructions)."""
    own_requests: tuple[str, ...] = ()
    """Requests the plan gave to the parent itself."""
    agents: tuple[AgentCard, ...] = ()
    """Sub-agents the parent may route open questions to."""
    routed: tuple[tuple[str, str], ...] = ()
    """``(request, agent)`` of every request dispatched this turn (a route is never taken twice)."""
    steps_left: int = 0
    """Rounds of routing this turn may still start."""
    schema: Mapping[str, Any] | None = None
    """The reply's JSON schema (``compose_schema``, route agents limited to the bot's)."""
    handoff: str = ""
    """What the parent adds when it cannot help with a request (its ``handoff`` option; empty:
    nothing). A model's parent reads it in ``system`` too."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Route:
    """An open question handed to a sub-agent this turn."""

    request: str
    agent: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Composition:
    """A composer's answer: what the parent says now, and what it routes."""

    message: str
    """Only what the user has not received yet; empty if nothing."""
    routes: tuple[Route, ...] = ()
    """Open questions to dispatch (the runtime drops unknown agents and routes already taken)."""
    usage: Usage = field(default_factory=Usage)
    """Model usage spent on composing."""


class Composer(ABC):
    """Writes the parent's reply from the turn's results."""

    @abstractmethod
    async def compose(self, given: ComposeInput) -> Composition:
        """Compose one reply.

        Raises:
            ModelBehaviorError: the reply is unusable (the runtime then relays the results as they
                are, ``harness.runtime.parts.fallback_reply``).
        """

    async def aclose(self) -> None:  # noqa: B027 - optional hook, no-op by default
        """Release resources; a no-op by default (a composer's model is closed by its owner)."""
