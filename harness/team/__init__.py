"""Teams of agents that work on one task together and answer like a sub-agent (docs/teams.md).

A ``Team`` runs its ``Member``s in turns chosen by a ``SpeakerPolicy`` until a
``TerminationCondition`` fires, under ``Guardrails``; every message follows one schema
(``TeamMessage``) and lands in an append-only journal; every run emits events with a correlation
id and ends with a ``ConvergenceReport`` (``harness.convergence``). ``Team.as_subagent`` makes a
team usable by a parent like any sub-agent. ``patterns`` builds the classic collaboration shapes.
"""

from harness.team.events import EventHandler, EventLog
from harness.team.guardrails import (
    INJECTION_RULES,
    Guardrails,
    InjectionFinding,
    InjectionRule,
    LoopWatchdog,
    Screening,
    ToolOutcome,
    call_tool,
    normalize_text,
    screen,
)
from harness.team.loop import Team, TeamFailedError, TeamResult
from harness.team.members import ROLE_PROMPTS, Member, MemberFunction
from harness.team.messages import (
    Constraints,
    MemberReply,
    MessageContext,
    MessageMetadata,
    Signals,
    TeamMessage,
    TeamRole,
    ToolPermission,
    parse_text_reply,
    read_protocol,
    strip_protocol,
)
from harness.team.patterns import (
    debate,
    planner_solver,
    produce_test_fix,
    proposer_critic,
    self_ask,
)
from harness.team.policies import RoundRobin, Selector, SpeakerPolicy
from harness.team.state import Journal, Scratchpad, TeamState
from harness.team.termination import (
    AllOf,
    AnyOf,
    BudgetLimit,
    ConfidenceNotReached,
    ConfidenceReached,
    MaxTurns,
    StopReason,
    StopToken,
    TerminationCondition,
    ValidationFailures,
)

__all__ = [
    "INJECTION_RULES",
    "ROLE_PROMPTS",
    "AllOf",
    "AnyOf",
    "BudgetLimit",
    "ConfidenceNotReached",
    "ConfidenceReached",
    "Constraints",
    "EventHandler",
    "EventLog",
    "Guardrails",
    "InjectionFinding",
    "InjectionRule",
    "Journal",
    "LoopWatchdog",
    "MaxTurns",
    "Member",
    "MemberFunction",
    "MemberReply",
    "MessageContext",
    "MessageMetadata",
    "RoundRobin",
    "Scratchpad",
    "Screening",
    "Selector",
    "Signals",
    "SpeakerPolicy",
    "StopReason",
    "StopToken",
    "Team",
    "TeamFailedError",
    "TeamMessage",
    "TeamResult",
    "TeamRole",
    "TeamState",
    "TerminationCondition",
    "ToolOutcome",
    "ToolPermission",
    "ValidationFailures",
    "call_tool",
    "debate",
    "normalize_text",
    "parse_text_reply",
    "planner_solver",
    "produce_test_fix",
    "proposer_critic",
    "read_protocol",
    "screen",
    "self_ask",
    "strip_protocol",
]
