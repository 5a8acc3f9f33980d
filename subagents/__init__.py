"""The sub-agent contract and the child / connected agent wrappers."""

from subagents._base import IOSpec, Reply, Subagent, Tool, ToolContext
from subagents.child import ChildAgent
from subagents.connected import ConnectedAgent
from subagents.contract import (
    CONTRACT_INPUTS,
    CONTRACT_OUTPUTS,
    REQUIRED_OUTPUTS,
    ContractViolation,
    HistoryEntry,
    Kind,
    Mode,
    ModeName,
    SubagentInput,
    SubagentOutputs,
    SubagentResult,
    Usage,
    ViolationKind,
    validate_outputs,
)

__all__ = [
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
