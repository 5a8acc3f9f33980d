"""Small bots the offline-model tests write as the docs show: a YAML config and a ``tools.py``
where every tool answers with its own name in brackets, so the reply shows which one ran."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

Agent = tuple[str, str, str, Sequence[tuple[str, str]]]
"""A sub-agent: its name, description, mode ("direct" or "conversational") and tools (each a
name and a docstring)."""


def _tool(tool: str, doc: str, mode: str) -> str:
    if mode == "conversational":
        return (
            "from harness import Reply, ToolContext\n\n\n"
            f'def {tool}(ctx: ToolContext) -> Reply:\n    """{doc}"""\n'
            f'    return Reply(text="[{tool}]")\n'
        )
    return f'def {tool}(request: str) -> str:\n    """{doc}"""\n    return "[{tool}]"\n'


def write_bot(folder: Path, name: str, agents: Sequence[Agent]) -> Path:
    """Write the bot ``name`` with ``agents`` into ``folder``; return its config's path."""
    lines = ["parent:", f"  name: {name}", "subagents:"]
    functions: list[str] = []
    for agent, description, mode, tools in agents:
        lines += _agent_lines(agent, mode, description, [tool for tool, _ in tools])
        functions += [_tool(tool, doc, mode) for tool, doc in tools]
    return _write(folder, lines, functions)


def _agent_lines(agent: str, mode: str, description: str, tools: Sequence[str]) -> list[str]:
    """A sub-agent's entry in the bot's YAML, its tools in ``tools.py``."""
    names = ", ".join(f'"tools.py:{tool}"' for tool in tools)
    return [
        f"  - name: {agent}",
        "    kind: child",
        f"    mode: {mode}",
        f"    description: {json.dumps(description)}",
        f"    tools: [{names}]",
    ]


def _write(folder: Path, lines: Sequence[str], functions: Sequence[str]) -> Path:
    """Write the bot's ``bot.yaml`` and ``tools.py`` into ``folder``; return the config's path."""
    (folder / "bot.yaml").write_text("\n".join(lines) + "\n")
    (folder / "tools.py").write_text("\n\n".join(functions))
    return folder / "bot.yaml"


AnsweringAgent = tuple[str, str, Sequence[str], Sequence[tuple[str, str, bool, str]]]
"""A sub-agent whose tools answer with a text of their own: its mode, description, routing
examples (none: the key is left out) and tools (each a name, a docstring, whether it takes the
request, and its answer)."""


def write_answering_bot(
    folder: Path, name: str, agents: Mapping[str, AnsweringAgent], *, tagged: bool = False
) -> Path:
    """Write the bot ``name`` with ``agents`` into ``folder``; return its config's path. Each tool
    returns its answer, after its own name in brackets when ``tagged``."""
    lines = ["parent:", f"  name: {name}", "subagents:"]
    functions: list[str] = []
    for agent, (mode, description, examples, tools) in agents.items():
        lines += _agent_lines(agent, mode, description, [tool for tool, *_ in tools])
        if examples:
            lines.append(f"    examples: {json.dumps(list(examples))}")
        for tool, doc, takes, answer in tools:
            argument = "request: str" if takes else ""
            said = f"[{tool}] {answer}" if tagged else answer
            functions.append(
                f'def {tool}({argument}) -> str:\n    """{doc}"""\n    return {said!r}\n'
            )
    return _write(folder, lines, functions)
