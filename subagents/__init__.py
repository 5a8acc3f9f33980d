"""The sub-agent contract and the child / connected agent wrappers.

Names are imported on first use, so importing ``subagents._errors`` (the exception classes that
``harness.exceptions`` exports) does not load the contract's pydantic models and the instruction
templates: ``harness detect`` and ``harness lint`` start without them.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from subagents._base import IOSpec, Reply, Subagent, Tool, ToolContext, UserAnswer
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
    "UserAnswer",
    "ViolationKind",
    "validate_outputs",
]

_BASE = frozenset({"IOSpec", "Reply", "Subagent", "Tool", "ToolContext", "UserAnswer"})


def _module(name: str) -> ModuleType:
    """The module that defines ``name``, imported by an explicit statement (so the import
    contracts see it)."""
    if name in _BASE:
        import subagents._base

        return subagents._base
    elif name == "ChildAgent":
        import subagents.child

        return subagents.child
    elif name == "ConnectedAgent":
        import subagents.connected

        return subagents.connected
    else:
        import subagents.contract

        return subagents.contract


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'subagents' has no attribute {name!r}")
    value = getattr(_module(name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
