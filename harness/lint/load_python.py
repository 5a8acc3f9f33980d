"""Load a bot built in Python (``module:attr``) into the neutral model, so that it is linted by the
same rules as a YAML config.

Unlike the other loaders this one imports and runs code: a ``module:attr`` target is the module
that builds the ``harness.Parent`` (as ``harness chat`` would import it). Findings point at the
module's file; they carry no line, since the agents are objects, not text.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path

from harness.exceptions import HarnessError
from harness.lint.model import (
    AgentSystem,
    IOField,
    LoadResult,
    ParentSpec,
    SubagentSpec,
    TextField,
)

__all__ = ["is_python_target", "system_from_python"]

_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*\Z")


def is_python_target(text: str) -> bool:
    """True for ``package.module:attr`` (a path with a drive letter or a suffix is not one)."""
    return bool(_TARGET.match(text))


def system_from_python(
    target: str, *, result: LoadResult, display: Callable[[Path], str] = str
) -> None:
    """Import ``target`` (``module:attr``, a ``Parent`` or a function returning one) and add its
    agent system to ``result``; an import or type problem becomes an HC100 problem.

    Args:
        target: ``package.module:attr``.
        result: where the system and the problems go.
        display: how to show the module's file (the engine's: relative to the working directory).
    """
    from harness.runtime.loading import load_bot

    module_name = target.split(":", 1)[0]
    try:
        bot = load_bot(target)
    except HarnessError as exc:
        result.problems.append((target, None, None, str(exc)))
        return
    module = sys.modules.get(module_name)
    source = inspect.getsourcefile(module) if module is not None else None
    file = display(Path(source)) if source else target
    result.files.add(file)
    parent = ParentSpec(
        name=bot.name,
        instructions=TextField(text=bot.instructions, file=file, line=None)
        if bot.instructions
        else None,
        generated_instructions=bot.generated_instructions,
        file=file,
        line=None,
    )
    subagents = tuple(
        SubagentSpec(
            name=agent.name,
            kind=agent.kind,
            mode=agent.mode,
            mode_source="config",
            history=agent.receives_history,
            history_line=None,
            description=TextField(text=agent.description, file=file, line=None)
            if agent.description
            else None,
            instructions=TextField(text=agent.instructions, file=file, line=None),
            inputs=tuple(
                IOField(name=s.name, description=s.description, file=file, line=None)
                for s in agent.inputs or ()
            ),
            outputs=tuple(
                IOField(name=s.name, description=s.description, file=file, line=None)
                for s in agent.outputs or ()
            ),
            generated_instructions=agent.generated_instructions,
            file=file,
            line=None,
            source="harness",
        )
        for agent in bot.subagents.values()
    )
    result.systems.append(
        AgentSystem(
            name=bot.name, source="harness", parent=parent, subagents=subagents, files=(file,)
        )
    )
