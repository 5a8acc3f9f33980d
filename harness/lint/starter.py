"""A config of this SDK to start from, read from Copilot Studio files (``harness instructions``).

``harness instructions`` generates from this SDK's YAML, which a Copilot Studio maker would have to
write by hand. The linter already reads what that YAML needs from a workspace or an export: each
parent, its child and connected agents, their descriptions, own instructions, history setting and
inferred mode. :func:`starter_configs` writes it out, one config per parent with sub-agents, so the
maker checks the modes and saves it.

What is already generated is left out, so that generating again does not add it twice: a text
pasted from earlier fragments keeps only its ``Role`` section (the maker's own text), and a
description keeps only the sentences that do not tell the parent how to read ``answered``.

Each agent's ``name:`` line ends with a comment giving its name in Copilot Studio and its file
(``# Copilot Studio: "Balance Agent", agents/Balance Agent/agent.mcs.yml``), with ``external
agent`` for an ``InvokeExternalAgentTaskAction`` and ``ConnectedAgentTool`` for the newer layouts'
connected agent; :func:`copilot_studio_sources` reads those comments back, so that the fragments
name the maker's display names and real files, keep an external agent external, and name no file
of the newer layouts, which the fragments are not shaped for (this SDK's config has no field for
any of it).
"""

from __future__ import annotations

import io
import json
import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString

from harness.lint import phrases
from harness.lint._generated import generated_first_lines, routing_text
from harness.lint.model import AgentSystem, SubagentSpec, TextField
from instructions import CopilotStudioSource

__all__ = ["copilot_studio_sources", "starter_configs"]

_ROLE = re.compile(r"^#{1,6}\s+Role\s*$", re.MULTILINE)
_NOT_IN_NAME = re.compile(r"[^\w-]+")
_CHECK = (
    "check it: silent if it only fills outputs, direct if it answers the user once, "
    "conversational if it talks with the user over several turns"
)
_WHY = {
    "config": "",
    "instructions": "inferred: its instructions forbid messaging the user",
    "outputs": "inferred: its outputs return findings, not an interactionSummary",
    "default": f"assumed: Copilot Studio has no mode; {_CHECK}",
}
_ASKS = "its instructions ask the user questions: conversational may fit"
"""Added to the mode's comment when the instructions ask the user something: a hint, not a mode,
as a one-shot agent may confirm or clarify once (``harness lint`` keeps the inferred mode)."""
_EXTERNAL = (
    "an external agent (InvokeExternalAgentTaskAction): it cannot declare outputs, so the "
    "fragments name it in the parent's instructions instead"
)
_PASTABLE = re.compile(r"(?:^|/)(?:agent\.mcs\.yml|data|actions/[^/]+\.mcs\.yml)$")
"""A file a fragment is pasted into as it is: a classic ``GptComponentMetadata``, ``AgentDialog``
or ``TaskDialog`` (``agent.mcs.yml``, ``actions/*.mcs.yml``, an exported solution's ``data``). Not
the newer layouts' ``settings.mcs.yml`` or JSON files, nor a ``ConnectedAgentTool``'s file (no
``TaskDialog``): for those the fragments list where each kind of component is kept."""
_SOURCE = re.compile(
    r"^\s*(?:-\s+)?name:\s*(?P<value>[^#]*?)\s+#\s*Copilot Studio:\s*"
    r'(?P<name>"(?:[^"\\]|\\.)*")(?:,\s*(?P<layout>external agent|ConnectedAgentTool))?'
    r"(?:,\s*(?P<file>.*?))?(?:;\s*its own file:\s*(?P<own>.*?))?\s*$",
    re.MULTILINE,
)
_OWN = "; its own file: "
"""In a connected agent's source comment: the file of the agent it calls (:func:`_source`)."""


def starter_configs(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """One YAML config of this SDK per Copilot Studio parent with sub-agents under ``paths``.

    Each is a commented YAML document ready to save and pass to ``harness instructions``; an empty
    list when no such parent is found.

    Raises:
        UsageError: for a path that does not exist.
    """
    from harness.lint._engine import load_paths

    paths = list(paths)
    return _starters(load_paths(paths).systems, [Path(p).resolve() for p in paths])


def _starters(systems: Iterable[AgentSystem], roots: list[Path]) -> list[str]:
    """The starter config of each Copilot Studio parent with sub-agents among ``systems``."""
    return [
        _config(system, roots)
        for system in systems
        if system.source == "copilot-studio" and system.parent is not None and system.subagents
    ]


def copilot_studio_sources(text: str) -> dict[str, CopilotStudioSource]:
    """Each agent's name and file in Copilot Studio, by its name in the config, from the comments a
    starter config carries (none for a config written by hand, or whose comments were removed)."""
    yaml = YAML(typ="safe")
    sources: dict[str, CopilotStudioSource] = {}
    for match in _SOURCE.finditer(text):
        try:
            name = yaml.load(match["value"])
            display = json.loads(match["name"])
        except Exception:  # a comment edited by hand: the config's own name is what is left
            continue
        if isinstance(name, str) and isinstance(display, str) and display.strip():
            file = (match["file"] or "").strip()
            if match["layout"] == "ConnectedAgentTool" or not _PASTABLE.search(file):
                file = ""  # the fragments list where each kind of component is kept instead
            own = (match["own"] or "").strip()
            sources[name] = CopilotStudioSource(
                name=display.strip(),
                file=file,
                external=match["layout"] == "external agent",
                own_file=own if _PASTABLE.search(own) else "",
            )
    return sources


def _config(system: AgentSystem, roots: list[Path]) -> str:
    assert system.parent is not None
    parent = CommentedMap(name=system.parent.name)
    _source(parent, system.parent.name, _relative(system.parent.file, roots), indent=2)
    own = _own_text(system.parent.instructions)
    if own:
        parent["instructions"] = _text(own)
    agents = CommentedSeq()
    taken = {system.parent.name.lower()}  # a sub-agent named like the parent is renamed
    for agent in system.subagents:
        agents.append(_agent(agent, taken, roots))
    document = CommentedMap(parent=parent, subagents=agents)
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _agent(agent: SubagentSpec, taken: set[str], roots: list[Path]) -> CommentedMap:
    name = _name(agent.name, taken)
    entry = CommentedMap(name=name, kind=agent.kind.value, mode=agent.mode.value)
    why = _WHY[agent.mode_source]
    own = _relative(agent.own_file, roots) if agent.own_file else ""
    if agent.mode_source == "default" and agent.instructions is None:
        why = "assumed: its instructions are not among the linted files; check it"
    elif agent.mode_source == "default" and own:
        # As `harness lint` reads it: the agent's own instructions were found and let it talk.
        why = (
            f"assumed: Copilot Studio has no mode; its instructions ({own}) let it message the "
            f"user; {_CHECK}"
        )
    asks = agent.instructions is not None and phrases.asks_user(agent.instructions.text)
    if agent.mode_source != "config" and asks:
        why = f"{_ASKS}; {why}" if why else _ASKS
    if why:
        _note(entry, "mode", why)
    if agent.layout == "connected-agent-tool":
        _note(
            entry, "kind", 'a ConnectedAgentTool: see "The newer layouts" in docs/instructions.md'
        )
    elif agent.layout == "external-agent":
        _note(entry, "kind", _EXTERNAL)
    _source(entry, agent.name, _relative(agent.file, roots), indent=4, layout=agent.layout, own=own)
    if agent.kind.value == "connected":
        entry["pass_history"] = agent.history
    description = _routing(agent.description)
    if description:
        entry["description"] = _text(description)
    own = _own_text(agent.instructions)
    if own:
        entry["instructions"] = _text(own)
    return entry


def _note(entry: CommentedMap, key: str, text: str, *, indent: int = 4) -> None:
    """A comment two spaces after ``key: value`` of an entry (a sub-agent's is indented by 4)."""
    entry.yaml_add_eol_comment(text, key, column=indent + len(f"{key}: {entry[key]}") + 2)


def _source(
    entry: CommentedMap,
    name: str,
    file: str,
    *,
    indent: int,
    layout: str = "standard",
    own: str = "",
) -> None:
    """The comment :func:`copilot_studio_sources` reads: the Copilot Studio name, the layout when
    it is not the standard one, the file, and for a connected agent whose own files were read, the
    file of the agent it calls."""
    parts = [json.dumps(name, ensure_ascii=False)]
    if layout == "external-agent":
        parts.append("external agent")
    elif layout == "connected-agent-tool":
        parts.append("ConnectedAgentTool")
    if file:
        parts.append(file)
    tail = f"{_OWN}{own}" if own else ""
    _note(entry, "name", "Copilot Studio: " + ", ".join(parts) + tail, indent=indent)


def _relative(file: str, roots: list[Path]) -> str:
    """``file`` relative to the workspace or solution it was read from (given as a path, or as
    a file in it); as shown when it is under none of them."""
    path = Path(file).resolve()
    for root in roots:
        base = root if root.is_dir() else root.parent
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return Path(file).as_posix()


def _name(name: str, taken: set[str]) -> str:
    """A sub-agent name this SDK accepts (letters and digits of any script, ``-``, ``_``), unique
    in the config. Composed first (NFC), so that an accent typed as its own mark (macOS folder
    names) stays on its letter."""
    base = _NOT_IN_NAME.sub("_", unicodedata.normalize("NFC", name)).strip("_") or "agent"
    candidate, number = base, 2
    while candidate.lower() in taken:
        candidate, number = f"{base}_{number}", number + 1
    taken.add(candidate.lower())
    return candidate


def _own_text(field: TextField | None) -> str:
    """The maker's own text: all of it, or of pasted fragments only the ``Role`` section."""
    if field is None:
        return ""
    text = field.text.strip()
    if text.splitlines() and text.splitlines()[0].strip() in generated_first_lines():
        role = _ROLE.search(text)
        text = text[role.end() :].strip() if role is not None else ""
    return text


def _routing(field: TextField | None) -> str:
    """A description without what tells the parent how to read the agent's outputs (generated or
    written by hand), which a generated description adds again."""
    return "" if field is None else routing_text(field.text)


def _text(value: str) -> str:
    return LiteralScalarString(value) if "\n" in value else value


def _not_copilot_studio(path: str, systems: list[AgentSystem]) -> str:
    """What to say of a folder given to ``harness instructions`` that holds no Copilot Studio agent:
    this SDK's configs found under it, to give one of them, or that there is nothing to read."""
    files = sorted({f for s in systems if s.source == "harness" for f in s.files})
    if len(files) == 1:
        return (
            f"{path} is a folder; {files[0]} in it is this SDK's config: run "
            f"`harness instructions {files[0]}`."
        )
    if files:
        return (
            f"{path} is a folder; `harness instructions` reads one config of this SDK at a time. "
            f"Configs found in it: {', '.join(files)}; run `harness instructions FILE` on one."
        )
    return (
        f"{path} holds no config of this SDK and no Copilot Studio agent. Give `harness "
        "instructions` a YAML config of this SDK (or a Python bot as module:attr), or a Copilot "
        "Studio workspace, exported solution or .mcs.yml file; to start, describe the agents in a "
        "config (see the instructions page of the docs)."
    )


def refusal(path: str, *, output: str | None = None) -> tuple[str, str]:
    """What ``harness instructions`` says when given Copilot Studio files (it reads this SDK's
    YAML), and that YAML, read from them, to save and check: (message, config). The config is
    empty when they hold no parent with sub-agents.

    Args:
        path: the workspace, exported solution or file given.
        output: the file the config is written to (``-o``); None for stdout.
    """
    from harness.lint._engine import load_paths

    if not Path(path).exists():
        return f"{path}: cannot read the file: no such file", ""
    try:
        result = load_paths([path])
    except Exception:  # a path the linter cannot read: the plain advice is all there is
        result = None
    systems = [] if result is None else result.systems
    if Path(path).is_dir() and not any(s.source == "copilot-studio" for s in systems):
        # A folder only: a .mcs.yml or solution file is Copilot Studio's, agent or not.
        return _not_copilot_studio(path, systems), ""
    head = (
        f"{path} looks like a Copilot Studio agent; `harness instructions` reads this SDK's YAML "
        "config."
    )
    configs = _starters(systems, [Path(path).resolve()])
    if not configs:
        return (
            f"{head} Run `harness lint` on it to see what to add, and describe the agents in a "
            "config to generate their instructions (see the instructions page of the docs).",
            "",
        )
    modes = (
        "check each mode (silent: it only fills its outputs; direct: it answers the user once; "
        "conversational: it talks with the user over several turns)"
    )
    if len(configs) == 1:
        file = output or "agents.yaml"
        where = (
            f"is written to {output}"
            if output
            else f"is on stdout: save it as {file} (`harness instructions {path} -o {file}`)"
        )
        message = (
            f"{head} Its config, read from the Copilot Studio files, {where}; {modes}, then run "
            f"`harness instructions {file} --format copilot-studio`."
        )
        return message, configs[0]
    files = [f"agents-{n}.yaml" for n in range(1, 1 + len(configs))]
    where = f"are written to {output}" if output else "are on stdout"
    message = (
        f"{head} It holds {len(configs)} parents with sub-agents; their configs, read from the "
        f"Copilot Studio files, {where}, one YAML document each: save each as its own file "
        f"({', '.join(files)}), {modes}, then run `harness instructions FILE --format "
        "copilot-studio` on each."
    )
    text = "---\n".join(f"# {file}\n{config}" for file, config in zip(files, configs, strict=True))
    return message, text
