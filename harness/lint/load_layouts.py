"""The Copilot Studio layouts on disk: which file holds which agent.

Read from Microsoft's own readers (repository microsoft/vscode-copilotstudio,
``src/CopilotStudio.McsCore/LspProjection.cs`` and ``AgentFormatDetector.cs``) and their test data:

- **classic workspace** (VS Code extension): ``agent.mcs.yml`` (the parent),
  ``agents/<Child>/agent.mcs.yml``, connected and external agents in ``actions/*.mcs.yml``, agents in
  ``topics/``; ``settings.mcs.yml`` gives the bot's schema name.
- **newer workspace** (template ``cliagent-*`` or a ``CLICopilotRecognizer``): no ``agent.mcs.yml``;
  ``settings.mcs.yml`` holds the parent's instructions under ``configuration.agentSettings``,
  connected agents are ``capabilities/tools/*.mcs.yml`` with ``kind: ConnectedAgentTool`` (their
  routing description in ``mcs.metadata.description``), ``behaviors/`` holds skills.
- **classic solution export**: ``botcomponents/<bot>.<type>.<name>/data``: ``.gpt.default`` the
  parent, ``.agent.<Name>`` a child, ``.InvokeConnectedAgentTaskAction.<Name>`` a connected agent.
- **newer solution export**: ``bots/<bot>/configuration.json`` holds each bot's instructions
  (``agentSettings.instructions`` segments), the parent's and each connected agent's own;
  ``botcomponents/<bot>.tool.connected-agent.<child>/data`` is a ``ConnectedAgentTool``, with its
  routing description in that folder's ``botcomponent.xml``.
- **``botdefinition.json``** (the extension's cache, ``.mcs/botdefinition.json``, also seen on its
  own): the bot record (``entity``) and its components, each with its YAML as a string.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any

from harness._yaml import LMap, LSeq, YamlSyntaxError, parse_yaml
from harness.lint._cs_tools import agent_settings_instructions
from harness.lint._files import UnreadableFileError, read_config
from harness.lint.load_copilot import Display, Reader
from harness.lint.model import LoadResult, TextField

__all__ = [
    "AGENT_MARKERS",
    "is_cli_workspace",
    "load_bot_definition",
    "load_component_file",
    "load_solution",
    "load_workspace",
]

AGENT_MARKERS = (
    "AgentDialog",
    "InvokeConnectedAgentTaskAction",
    "GptComponentMetadata",
    "ConnectedAgentTool",
    "InvokeExternalAgentTaskAction",
)
"""Text that a file holding an agent contains; files without any are not parsed."""

_SKIP_DIRS = frozenset({"variables", "knowledge", "node_modules", "__pycache__"})
_CLI_MARKERS = re.compile(r"template:\s*['\"]?cliagent-|CLICopilotRecognizer|CLIAgentRecognizer")
_XML_FIELD = re.compile(r"<(description|name)>(.*?)</\1>", re.DOTALL)


def is_cli_workspace(root: Path) -> bool:
    """A newer workspace: ``settings.mcs.yml`` marked as a CLI agent, as Microsoft's detector does."""
    try:
        text = read_config(root / "settings.mcs.yml")
    except UnreadableFileError:
        return False
    return bool(_CLI_MARKERS.search(text))


def _walk_mcs(root: Path) -> list[Path]:
    found: list[Path] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith(".") and entry.name not in _SKIP_DIRS:
                    stack.append(Path(entry.path))
            elif entry.name.endswith((".mcs.yml", ".mcs.yaml")):
                found.append(Path(entry.path))
    return sorted(found)


def _parse(reader: Reader, path: Path, *, report: bool) -> Any:
    """Parse a whole file, reporting problems (and the file) only when ``report``."""
    file = reader.display(path)
    if report:
        reader.files.append(file)
        reader.result.files.add(file)
    try:
        return parse_yaml(read_config(path))
    except YamlSyntaxError as exc:
        if report:
            reader.problem(file, exc.line, None, f"invalid YAML: {exc.problem}")
    except UnreadableFileError as exc:
        if report:
            reader.problem(file, exc.line, None, exc.problem)
    return None


def load_workspace(root: Path, result: LoadResult, display: Display) -> None:
    """A VS Code extension workspace, classic (``agent.mcs.yml``) or newer (``settings.mcs.yml``).

    Args:
        root: the workspace folder.
        result: where systems and problems go.
        display: turns a path into its display form.
    """
    reader = Reader(result, display)
    # `.` and `..` name the folder they stand for (the parent's name when none is written).
    folder = root.name if root.name not in ("", ".", "..") else root.resolve().name
    classic = (root / "agent.mcs.yml").is_file()
    settings: Any = None
    settings_path = root / "settings.mcs.yml"
    for path in _walk_mcs(root):
        relative = path.relative_to(root).parts
        if relative == ("agent.mcs.yml",):
            reader.read(path, name=folder, role="parent")
        elif len(relative) == 3 and relative[0] == "agents" and relative[2] == "agent.mcs.yml":
            reader.read(path, name=relative[1], role="child")
        elif relative == ("settings.mcs.yml",):
            settings = _parse(reader, path, report=not classic)
        else:
            _read_if_agent(reader, path, name=_stem(path))
    schema_name = None
    if isinstance(settings, LMap):
        raw = settings.get("schemaName")
        schema_name = raw if isinstance(raw, str) and raw else None
        configuration = settings.get("configuration")
        if not classic and isinstance(configuration, LMap):
            name = settings.get("displayName")
            reader.settings_parent(
                agent_settings_instructions(
                    configuration.get("agentSettings"), file=display(settings_path)
                ),
                name=name if isinstance(name, str) and name else folder,
                file=display(settings_path),
            )
    reader.system(folder, schema_name)


def _component_xml(folder: Path, reader: Reader) -> tuple[str | None, TextField | None]:
    """(name, description) from a solution component's ``botcomponent.xml``, when present."""
    path = folder / "botcomponent.xml"
    try:
        text = read_config(path)
    except UnreadableFileError:
        return None, None
    name: str | None = None
    description: TextField | None = None
    for match in _XML_FIELD.finditer(text):
        value = html.unescape(match.group(2)).strip()
        if match.group(1) == "name" and name is None:
            name = value or None
        elif match.group(1) == "description" and description is None:
            file = reader.display(path)
            reader.files.append(file)
            reader.result.files.add(file)
            line = text.count("\n", 0, match.start()) + 1
            description = TextField(text=value, file=file, line=line)
    return name, description


def load_solution(root: Path, result: LoadResult, display: Display) -> None:
    """An exported solution, classic or newer: one system per bot.

    Args:
        root: the folder holding ``botcomponents`` and / or ``bots``.
        result: where systems and problems go.
        display: turns a path into its display form.
    """
    components = root / "botcomponents"
    bots: dict[str, Reader] = {}
    try:
        folders = sorted(e.name for e in os.scandir(components) if e.is_dir())
    except FileNotFoundError:
        folders = []
    except OSError as exc:
        result.problems.append((display(components), None, None, f"cannot read the folder: {exc}"))
        return
    for folder in folders:
        data = components / folder / "data"
        if not data.is_file():
            continue
        prefix, _, rest = folder.partition(".")
        kind, _, name = rest.partition(".")
        reader = bots.get(prefix)
        if reader is None:
            reader = bots[prefix] = Reader(result, display)
        if kind == "gpt":
            reader.read(data, name=prefix, role="parent")
        elif kind == "agent":
            reader.read(data, name=name or folder, role="child")
        elif kind == "InvokeConnectedAgentTaskAction":
            reader.read(data, name=name or folder, role="connected")
        elif kind == "tool" and name.startswith("connected-agent."):
            xml_name, description = _component_xml(components / folder, reader)
            reader.read(
                data,
                name=xml_name or name.removeprefix("connected-agent."),
                role="connected",
                description=description,
            )
        else:
            _read_if_agent(reader, data, name=name or folder)
    _read_bots(root / "bots", bots, result, display)
    for prefix, reader in bots.items():
        reader.system(prefix, prefix)


def _read_bots(folder: Path, bots: dict[str, Reader], result: LoadResult, display: Display) -> None:
    """Newer exports: each bot's instructions in ``bots/<schema>/configuration.json``."""
    try:
        schemas = sorted(e.name for e in os.scandir(folder) if e.is_dir())
    except OSError:
        return
    for schema in schemas:
        path = folder / schema / "configuration.json"
        if not path.is_file():
            continue
        reader = bots.get(schema)
        if reader is None:
            reader = bots[schema] = Reader(result, display)
        if reader.parent is not None:
            continue
        data = _parse(reader, path, report=True)
        settings = data.get("agentSettings") if isinstance(data, LMap) else None
        if settings is None:
            continue
        file = display(path)
        reader.settings_parent(
            agent_settings_instructions(settings, file=file), name=schema, file=file
        )


def load_bot_definition(path: Path, result: LoadResult, display: Display) -> None:
    """A ``botdefinition.json`` cache: the bot record and its components' YAML.

    Args:
        path: the JSON file.
        result: where systems and problems go.
        display: turns a path into its display form.
    """
    reader = Reader(result, display)
    data = _parse(reader, path, report=True)
    file = display(path)
    if not isinstance(data, LMap):
        if data is not None:
            reader.problem(file, 1, None, "a botdefinition.json holds a JSON object")
        return
    entity = data.get("entity")
    entity = entity if isinstance(entity, LMap) else LMap(1)
    schema = entity.get("schemaName")
    schema = schema if isinstance(schema, str) and schema else None
    components = data.get("components")
    if not isinstance(components, LSeq):
        components = LSeq(1)
    for index, component in enumerate(components):
        if not isinstance(component, LMap):
            continue
        body = component.get("dialog", component.get("metadata"))
        if not isinstance(body, str) or not any(m in body for m in AGENT_MARKERS):
            continue
        line = components.line_of(index)
        component_schema = component.get("schemaName")
        component_schema = component_schema if isinstance(component_schema, str) else ""
        try:
            parsed = parse_yaml(body)
        except YamlSyntaxError as exc:
            reader.problem(file, line, None, f"{component_schema}: invalid YAML: {exc.problem}")
            continue
        _pin_lines(parsed, line)
        role = (
            "parent"
            if ".gpt." in component_schema
            else "child"
            if ".agent." in component_schema
            else None
        )
        name = component.get("displayName")
        description = component.get("description")
        reader.component(
            parsed,
            file=file,
            name=name if isinstance(name, str) and name else component_schema,
            role=role,
            description=TextField(text=description, file=file, line=line)
            if isinstance(description, str)
            else None,
        )
    configuration = entity.get("configuration")
    if isinstance(configuration, LMap) and "agentSettings" in configuration:
        name = entity.get("displayName")
        reader.settings_parent(
            agent_settings_instructions(configuration["agentSettings"], file=file),
            name=name if isinstance(name, str) and name else schema or path.parent.name,
            file=file,
        )
    reader.system(schema or file, schema)


def _pin_lines(node: Any, line: int) -> None:
    """Point every line of a component embedded as a string at its record in the JSON file."""
    if isinstance(node, LMap):
        node.line = line
        for key, value in node.items():
            node.key_lines[key] = line
            _pin_lines(value, line)
    elif isinstance(node, LSeq):
        node.line = line
        node.item_lines = [line] * len(node)
        for value in node:
            _pin_lines(value, line)


def load_component_file(path: Path, result: LoadResult, display: Display) -> None:
    """One Copilot Studio file on its own (a ``.mcs.yml`` file or a solution component's ``data``)."""
    reader = Reader(result, display)
    if path.name == "data":
        folder = path.parent.name
        prefix, _, rest = folder.partition(".")
        kind, _, name = rest.partition(".")
        role = {"gpt": "parent", "agent": "child", "InvokeConnectedAgentTaskAction": "connected"}
        description = None
        if kind == "tool" and name.startswith("connected-agent."):
            xml_name, description = _component_xml(path.parent, reader)
            name = xml_name or name.removeprefix("connected-agent.")
        reader.read(
            path,
            name=prefix if kind == "gpt" else name or folder,
            role=role.get(kind),
            description=description,
        )
        reader.system(prefix, prefix)
        return
    if path.name == "agent.mcs.yml":
        reader.read(path, name=path.parent.name, role="agent")
    else:
        reader.read(path, name=_stem(path))
    reader.system(display(path), None)


def _read_if_agent(reader: Reader, path: Path, *, name: str) -> None:
    try:
        text = read_config(path)
    except UnreadableFileError:
        return
    if any(marker in text for marker in AGENT_MARKERS):
        description = None
        if path.name == "data" and "ConnectedAgentTool" in text:
            xml_name, description = _component_xml(path.parent, reader)
            name = xml_name or name
        reader.read(path, name=name, text=text, description=description)


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".mcs.yml", ".mcs.yaml"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem
