"""Plain views of the agents, the only thing the renderer reads.

The runtime (``subagents``, ``harness``) builds these from its own agent objects, so this package
stays free of the rest of the SDK and can render from a config alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from instructions.contract import KINDS, MODES

__all__ = ["AgentView", "CopilotStudioSource", "IOView", "ParentView"]


@dataclass(frozen=True, slots=True, kw_only=True)
class IOView:
    """One input or output of a sub-agent."""

    name: str
    """The wire name (``scopedRequest``, ``answered``, or the agent's own)."""
    description: str = ""
    """What it means, as declared; the contract's own inputs and outputs use the contract's words."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentView:
    """A sub-agent, as the generated instructions need to see it."""

    name: str
    """Its name, as written in the config."""
    kind: str
    """``child`` or ``connected``."""
    mode: str
    """``silent``, ``direct`` or ``conversational``."""
    description: str
    """The routing description the maker wrote (without the generated hint)."""
    instructions: str = ""
    """The agent's own instructions; the generated block comes before them."""
    inputs: tuple[IOView, ...] = ()
    """Its declared inputs; ``scopedRequest`` is always described, declared or not."""
    outputs: tuple[IOView, ...] = ()
    """Its declared outputs; the outputs its mode requires are always added."""
    receives_history: bool = True
    """Whether it receives the parent's conversation history."""
    examples: tuple[str, ...] = ()
    """Example requests it handles, shown to the parent's router."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"agent {self.name!r}: kind must be one of {', '.join(KINDS)}, not {self.kind!r}"
            )
        if self.mode not in MODES:
            raise ValueError(
                f"agent {self.name!r}: mode must be one of {', '.join(MODES)}, not {self.mode!r}"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class ParentView:
    """The parent agent and its sub-agents."""

    name: str
    """Its name, as written in the config."""
    instructions: str = ""
    """The parent's own instructions; the generated top-level instruction comes before them."""
    subagents: tuple[AgentView, ...] = ()
    """Its sub-agents, in the order of the config."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CopilotStudioSource:
    """Where an agent of a config read from Copilot Studio files lives there, so that the
    fragments name its display name and its file rather than the config's name."""

    name: str
    """Its name in Copilot Studio (``Balance Agent``), which the config may have had to change."""
    file: str = ""
    """Its file, relative to the workspace, exported solution or folder it was read from; empty
    when not known."""
    external: bool = False
    """An external agent (``InvokeExternalAgentTaskAction``): it cannot declare outputs, so the
    parent's instructions say in a sentence naming it whether it talks to the user."""
    own_file: str = ""
    """A connected agent: the file of the agent it calls (where its own instructions go),
    relative as ``file`` is; empty when not known."""
