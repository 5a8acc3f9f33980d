"""Plain views of agents for the ``instructions`` renderer (which imports nothing of ours)."""

from __future__ import annotations

from collections.abc import Sequence

from instructions import AgentView, IOView, ParentView
from subagents import Subagent

__all__ = ["agent_view", "parent_view"]


def agent_view(agent: Subagent) -> AgentView:
    """The renderer's view of one sub-agent."""
    return AgentView(
        name=agent.name,
        kind=agent.kind.value,
        mode=agent.mode.value,
        description=agent.description,
        instructions=agent.instructions,
        inputs=tuple(IOView(name=s.name, description=s.description) for s in agent.inputs or ()),
        outputs=tuple(IOView(name=s.name, description=s.description) for s in agent.outputs or ()),
        receives_history=agent.receives_history,
        examples=tuple(agent.examples),
    )


def parent_view(name: str, instructions: str, subagents: Sequence[Subagent]) -> ParentView:
    """The renderer's view of a parent and its sub-agents."""
    return ParentView(
        name=name,
        instructions=instructions,
        subagents=tuple(agent_view(a) for a in subagents),
    )
