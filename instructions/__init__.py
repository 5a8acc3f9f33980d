"""Generated instructions: the parent's top-level instruction, sub-agent instructions and descriptions.

This package imports nothing else of ours: it renders from plain views of the agents
(``ParentView``, ``AgentView``, ``IOView``) that the runtime builds from its own objects.

    >>> from instructions import AgentView, render_subagent_description
    >>> pto = AgentView(name="pto", kind="child", mode="direct", description="Answers PTO questions.")
    >>> print(render_subagent_description(pto).splitlines()[0])
    Answers PTO questions.

Names are imported on first use, so reading ``instructions.contract`` (the contract's tables, which
the transcript readers use) does not load the templates and jinja2.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from instructions.contract import INPUT_DESCRIPTIONS, OUTPUT_DESCRIPTIONS
    from instructions.render import (
        COPILOT_STUDIO_INSTRUCTIONS_LIMIT,
        InstructionsLength,
        copilot_studio_lengths,
        output_description,
        render_copilot_studio,
        render_markdown,
        render_parent_system,
        render_subagent_description,
        render_subagent_instructions,
        render_subagent_system,
        render_top_level_instruction,
    )
    from instructions.views import AgentView, CopilotStudioSource, IOView, ParentView

__all__ = [
    "COPILOT_STUDIO_INSTRUCTIONS_LIMIT",
    "INPUT_DESCRIPTIONS",
    "OUTPUT_DESCRIPTIONS",
    "AgentView",
    "CopilotStudioSource",
    "IOView",
    "InstructionsLength",
    "ParentView",
    "copilot_studio_lengths",
    "output_description",
    "render_copilot_studio",
    "render_markdown",
    "render_parent_system",
    "render_subagent_description",
    "render_subagent_instructions",
    "render_subagent_system",
    "render_top_level_instruction",
]


def _module(name: str) -> ModuleType:
    """The module that defines ``name``, imported by an explicit statement (so the import
    contracts see it)."""
    if name in ("INPUT_DESCRIPTIONS", "OUTPUT_DESCRIPTIONS"):
        import instructions.contract

        return instructions.contract
    elif name in ("AgentView", "CopilotStudioSource", "IOView", "ParentView"):
        import instructions.views

        return instructions.views
    else:
        import instructions.render

        return instructions.render


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'instructions' has no attribute {name!r}")
    value = getattr(_module(name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
