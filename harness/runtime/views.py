"""Plain views of agents for the ``instructions`` renderer (which imports nothing of ours), and
the public ``render_instructions`` that renders a built bot's generated instructions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from instructions import AgentView, IOView, ParentView, render_copilot_studio, render_markdown
from subagents import Subagent

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["agent_view", "parent_view", "render_instructions"]


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


def render_instructions(
    bot: Parent, *, format: Literal["md", "copilot-studio"] = "md", agent: str | None = None
) -> str:
    """The generated instructions of a bot, as ``harness instructions`` prints them.

    Works for a bot built in Python as for one loaded from YAML::

        print(render_instructions(bot, agent="pto"))

    Args:
        bot: the parent and its sub-agents.
        format: ``md`` (Markdown: the parent's instructions, then each sub-agent's description,
            instructions, inputs and outputs) or ``copilot-studio`` (YAML fragments to paste into
            Copilot Studio, each introduced by a comment saying where it goes).
        agent: only this sub-agent (the parent's part is left out).

    Raises:
        ValueError: when ``agent`` names no sub-agent of the bot, or ``format`` is unknown.
    """
    view = parent_view(bot.name, bot.instructions, list(bot.subagents.values()))
    if format == "md":
        return render_markdown(view, agent=agent)
    if format == "copilot-studio":
        return render_copilot_studio(view, agent=agent)
    raise ValueError(f"unknown format {format!r}: use 'md' or 'copilot-studio'")
