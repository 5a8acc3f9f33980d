"""Where a Python bot builds its agents: the line of each ``ChildAgent(...)`` / ``ConnectedAgent(...)``
/ ``Parent(...)`` call and of each of its keyword arguments, and what a misspelt keyword meant.

The linter imports a ``module:attr`` bot and reads its objects, which carry no position; this module
reads the module's source with :mod:`ast`, so findings point at the call (or the argument) that
made the agent, as they point at the YAML line for a config file.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import inspect
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CallSite", "call_sites", "constructor_typo"]

_CONSTRUCTORS = frozenset({"ChildAgent", "ConnectedAgent", "Parent"})
_UNEXPECTED = re.compile(r"(\w+)\.__init__\(\) got an unexpected keyword argument '(\w+)'")


@dataclass(frozen=True, slots=True, kw_only=True)
class CallSite:
    """One constructor call in the module's source."""

    constructor: str
    """``ChildAgent``, ``ConnectedAgent`` or ``Parent``."""
    line: int
    """The line of the call."""
    arguments: dict[str, int] = field(default_factory=dict)
    """The line of each keyword argument."""


def _name_of(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def call_sites(source: str) -> tuple[dict[str, CallSite], CallSite | None]:
    """The sub-agent calls keyed by their constant ``name=``, and the first ``Parent(...)`` call.

    Calls whose name is not a string literal (built in a loop, say) are left out: their agents keep
    the module's file without a line.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}, None
    agents: dict[str, CallSite] = {}
    parent: CallSite | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        constructor = _name_of(node.func)
        if constructor not in _CONSTRUCTORS:
            continue
        site = CallSite(
            constructor=constructor,
            line=node.lineno,
            arguments={k.arg: k.value.lineno for k in node.keywords if k.arg is not None},
        )
        name = next((k.value for k in node.keywords if k.arg == "name"), None)
        if constructor == "Parent":
            parent = parent or site
        elif isinstance(name, ast.Constant) and isinstance(name.value, str):
            agents.setdefault(name.value, site)
    return agents, parent


def constructor_typo(exc: TypeError) -> tuple[str, int, str] | None:
    """(file, line, message) for a misspelt keyword in an agent's constructor, else None.

    The message names the keyword and, when one is close, the field it was meant to be:
    ``ChildAgent() has no argument 'pass_histroy'; did you mean 'pass_history'?``.
    """
    match = _UNEXPECTED.search(str(exc))
    if match is None or match.group(1) not in _CONSTRUCTORS:
        return None
    constructor, keyword = match.groups()
    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if f.lineno is not None and Path(f.filename).suffix == ".py" and "<" not in f.filename
    ]
    if not frames:
        return None
    frame = frames[-1]
    fields = _fields(constructor)
    close = difflib.get_close_matches(keyword, fields, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else f" (it takes: {', '.join(sorted(fields))})"
    return (
        frame.filename,
        int(frame.lineno or 0),
        f"{constructor}() has no argument {keyword!r}{hint}",
    )


def _fields(constructor: str) -> list[str]:
    from harness.runtime.parent import Parent
    from subagents import ChildAgent, ConnectedAgent

    cls = {"ChildAgent": ChildAgent, "ConnectedAgent": ConnectedAgent, "Parent": Parent}[
        constructor
    ]
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls) if f.init]
    return [p for p in inspect.signature(cls).parameters if p != "self"]
