"""Load a bot built in Python (``module:attr``) into the neutral model, so that it is linted by the
same rules as a YAML config.

Unlike the other loaders this one imports and runs code: a ``module:attr`` target is the module
that builds the ``harness.Parent`` (as ``harness chat`` would import it). Findings point at the
line of the ``ChildAgent(...)`` / ``ConnectedAgent(...)`` / ``Parent(...)`` call that made the agent,
or of the argument concerned (:mod:`harness.lint._python_sites` reads the source); a misspelt
constructor keyword is an HC100 problem with its file, line and "did you mean".
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path

from harness.exceptions import HarnessError
from harness.lint._python_sites import CallSite, call_sites, constructor_typo
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
    except (HarnessError, TypeError) as exc:
        # A misspelt constructor keyword: a TypeError from a function that builds the bot
        # (``module:make_bot``), or a config error at the user's line whose cause it is (raised
        # while the module ran). Lint names the argument meant, with "did you mean".
        cause = exc if isinstance(exc, TypeError) else exc.__cause__
        typo = constructor_typo(cause) if isinstance(cause, TypeError) else None
        if typo is not None:
            where, line, message = typo
            result.problems.append((display(Path(where)), line, None, message))
        elif isinstance(exc, HarnessError):
            result.problems.append((target, None, None, str(exc)))
        else:
            raise
        return
    module = sys.modules.get(module_name)
    source = inspect.getsourcefile(module) if module is not None else None
    file = display(Path(source)) if source else target
    result.files.add(file)
    sites, parent_site = _sites(source)

    def at(site: CallSite | None, argument: str | None = None) -> int | None:
        if site is None:
            return None
        return site.arguments.get(argument, site.line) if argument else site.line

    parent = ParentSpec(
        name=bot.name,
        instructions=TextField(
            text=bot.instructions, file=file, line=at(parent_site, "instructions")
        )
        if bot.instructions
        else None,
        generated_instructions=bot.generated_instructions,
        file=file,
        line=at(parent_site),
    )
    subagents = tuple(
        SubagentSpec(
            name=agent.name,
            kind=agent.kind,
            mode=agent.mode,
            mode_source="config",
            history=agent.receives_history,
            history_line=at(site, "pass_history"),
            description=TextField(text=agent.description, file=file, line=at(site, "description"))
            if agent.description
            else None,
            instructions=TextField(
                text=agent.instructions, file=file, line=at(site, "instructions")
            ),
            inputs=tuple(
                IOField(name=s.name, description=s.description, file=file, line=at(site, "inputs"))
                for s in agent.inputs or ()
            ),
            outputs=tuple(
                IOField(name=s.name, description=s.description, file=file, line=at(site, "outputs"))
                for s in agent.outputs or ()
            ),
            inputs_line=_argument_line(site, "inputs"),
            outputs_line=_argument_line(site, "outputs"),
            generated_instructions=agent.generated_instructions,
            file=file,
            line=at(site),
            source="harness",
        )
        for agent, site in ((a, sites.get(a.name)) for a in bot.subagents.values())
    )
    result.systems.append(
        AgentSystem(
            name=bot.name, source="harness", parent=parent, subagents=subagents, files=(file,)
        )
    )


def _argument_line(site: CallSite | None, argument: str) -> int | None:
    return site.arguments.get(argument) if site is not None else None


def _sites(source: str | None) -> tuple[dict[str, CallSite], CallSite | None]:
    if source is None:
        return {}, None
    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}, None
    return call_sites(text)
