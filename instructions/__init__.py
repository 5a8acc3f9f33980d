"""Generated instructions: the parent's top-level instruction, sub-agent instructions and descriptions.

This package imports nothing else of ours: it renders from plain views of the agents
(``ParentView``, ``AgentView``, ``IOView``) that the runtime builds from its own objects.

    >>> from instructions import AgentView, render_subagent_description
    >>> pto = AgentView(name="pto", kind="child", mode="direct", description="Answers PTO questions.")
    >>> print(render_subagent_description(pto).splitlines()[0])
    Answers PTO questions.
"""

from instructions.contract import INPUT_DESCRIPTIONS, OUTPUT_DESCRIPTIONS
from instructions.render import (
    output_description,
    render_copilot_studio,
    render_markdown,
    render_parent_system,
    render_subagent_description,
    render_subagent_instructions,
    render_subagent_system,
    render_top_level_instruction,
)
from instructions.views import AgentView, IOView, ParentView

__all__ = [
    "INPUT_DESCRIPTIONS",
    "OUTPUT_DESCRIPTIONS",
    "AgentView",
    "IOView",
    "ParentView",
    "output_description",
    "render_copilot_studio",
    "render_markdown",
    "render_parent_system",
    "render_subagent_description",
    "render_subagent_instructions",
    "render_subagent_system",
    "render_top_level_instruction",
]
