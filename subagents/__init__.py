"""The sub-agent contract and the child / connected agent wrappers."""

from subagents._base import IOSpec, Reply, Subagent, Tool, ToolContext
from subagents.child import ChildAgent
from subagents.connected import ConnectedAgent
from subagents.contract import (
    ADVISORY_KINDS,
    CONTRACT_INPUTS,
    CONTRACT_OUTPUTS,
    REQUIRED_OUTPUTS,
    ContractViolation,
    HistoryEntry,
    Kind,
    Mode,
    ModeName,
    RequestAnswer,
    SubagentInput,
    SubagentOutputs,
    SubagentResult,
    Usage,
    ViolationKind,
    validate_outputs,
)

__all__ = [
    "ADVISORY_KINDS",
    "CONTRACT_INPUTS",
    "CONTRACT_OUTPUTS",
    "REQUIRED_OUTPUTS",
    "ChildAgent",
    "ConnectedAgent",
    "ContractViolation",
    "HistoryEntry",
    "IOSpec",
    "Kind",
    "Mode",
    "ModeName",
    "Reply",
    "RequestAnswer",
    "Subagent",
    "SubagentInput",
    "SubagentOutputs",
    "SubagentResult",
    "Tool",
    "ToolContext",
    "Usage",
    "ViolationKind",
    "validate_outputs",
]
