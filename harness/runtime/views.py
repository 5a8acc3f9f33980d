"""Plain views of agents for the ``instructions`` renderer (which imports nothing of ours), and
the public ``render_instructions`` that renders a built bot's generated instructions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from harness.exceptions import UsageError
from instructions import AgentView, IOView, ParentView, render_copilot_studio, render_markdown
from subagents import Subagent

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["UnknownNameError", "agent_view", "parent_view", "render_instructions"]


class UnknownNameError(UsageError, ValueError):
    """A name the caller gave (a sub-agent, an output format) is not one the bot knows.

    Also a ``ValueError``, which ``render_instructions`` raised before it joined the error tree.
    """


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
        UnknownNameError: when ``agent`` names no sub-agent of the bot, or ``format`` is unknown
            (a ``UsageError`` and a ``ValueError``).
    """
    if format not in ("md", "copilot-studio"):
        raise UnknownNameError(f"unknown format {format!r}: use 'md' or 'copilot-studio'")
    if agent is not None and agent not in bot.subagents:
        known = ", ".join(bot.subagents) or "none"
        raise UnknownNameError(
            f"{bot.name} has no sub-agent named {agent!r}; its sub-agents: {known}"
        )
    view = parent_view(bot.name, bot.instructions, list(bot.subagents.values()))
    render = render_markdown if format == "md" else render_copilot_studio
    return render(view, agent=agent)
