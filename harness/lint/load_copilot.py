"""Read one Copilot Studio component into the neutral model (``Reader``); the layouts that say which
file holds which component are in ``load_layouts``.

Mapping:

- parent: ``kind: GptComponentMetadata`` (``instructions``);
- child agent: ``kind: AgentDialog`` (routing text in ``beginDialog.description``, instructions in
  ``settings.instructions``, contract in ``inputs[]`` / ``inputType`` and ``outputType``; history off
  only with ``settings.historyType: {kind: NoHistory}``);
- connected agent: ``kind: TaskDialog`` with ``action.kind: InvokeConnectedAgentTaskAction``
  (``modelDisplayName``, ``modelDescription``, ``inputs[]`` / ``outputs[]``, ``action.inputType`` /
  ``action.outputType``, history in ``action.historyType``: ``ConversationHistory`` = on (also the
  default), ``NoHistory`` = off). Its own instructions live in the agent it calls
  (``botSchemaName``); they are linked when that agent's files are linted too;
- connected agent of the newer layouts: ``kind: ConnectedAgentTool`` (``_cs_tools``);
- external agent: ``TaskDialog`` with ``InvokeExternalAgentTaskAction`` over the Activity or
  Agent-to-Agent protocol (``_cs_tools``); over MCP it is a tool, not an agent.

Copilot Studio has no explicit mode: an agent whose instructions forbid messaging the user is silent;
one whose outputs are silent-shaped (``findings`` without ``interactionSummary``) is silent too, so
HC006 can say its instructions still let it talk; any other is direct. Topics, actions and variables
are read only when they hold an agent (a cheap text check first), so connector actions and the usual
system topics cost nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness._yaml import LMap, LSeq, YamlSyntaxError, parse_yaml
from harness.lint._cs_tools import (
    AGENT_PROTOCOLS,
    connected_tool_spec,
    external_agent_spec,
    kind_of,
)
from harness.lint._files import UnreadableFileError, read_config
from harness.lint.model import (
    AgentSystem,
    IOField,
    LoadResult,
    ModeSource,
    ParentSpec,
    SubagentSpec,
    TextField,
    normalize_io_name,
)
from harness.lint.phrases import forbids_user_messages
from instructions.contract import FINDINGS, INTERACTION_SUMMARY
from subagents.contract import Kind, Mode

__all__ = ["Display", "Reader", "component_name", "infer_mode"]

Display = Callable[[Path], str]

_COMPONENT_KINDS = frozenset(
    {"GptComponentMetadata", "AgentDialog", "TaskDialog", "AdaptiveDialog", "ConnectedAgentTool"}
)
_HISTORY_KINDS = frozenset({"ConversationHistory", "NoHistory"})


_FINDINGS_KEY = normalize_io_name(FINDINGS)
_SUMMARY_KEY = normalize_io_name(INTERACTION_SUMMARY)


def infer_mode(
    instructions: TextField | None, outputs: tuple[IOField, ...] | None
) -> tuple[Mode, ModeSource]:
    """Copilot Studio's implicit mode: silent when told not to message the user, else direct."""
    if instructions is not None and forbids_user_messages(instructions.text):
        return Mode.SILENT, "instructions"
    keys = {o.key for o in outputs or ()}
    if _FINDINGS_KEY in keys and _SUMMARY_KEY not in keys:
        return Mode.SILENT, "outputs"
    return Mode.DIRECT, "default"


def component_name(data: LMap) -> str | None:
    """The component's display name, ``mcs.metadata.componentName``, when written.

    The VS Code extension writes the component's display name there, the name Copilot Studio
    shows; the folder of a child agent is only derived from it (microsoft/vscode-copilotstudio,
    ``SubAgentFolderNaming``: spaces and punctuation dropped) and is not renamed with it. That the
    orchestrator lists the agent by this name is inferred from that source, not documented. So the
    folder is the name only when no display name is written.
    """
    metadata = data.get("mcs.metadata")
    if not isinstance(metadata, LMap):
        return None
    name = metadata.get("componentName")
    return name.strip() if isinstance(name, str) and name.strip() else None


class Reader:
    """Reads components and records what it found, for one system."""

    def __init__(self, result: LoadResult, display: Display) -> None:
        self.result = result
        self.display = display
        self.parent: ParentSpec | None = None
        self.subagents: list[SubagentSpec] = []
        self.files: list[str] = []

    def problem(self, file: str, line: int | None, agent: str | None, message: str) -> None:
        self.result.problems.append((file, line, agent, message))

    def read(
        self,
        path: Path,
        *,
        name: str,
        role: str | None = None,
        text: str | None = None,
        description: TextField | None = None,
    ) -> None:
        """Parse one component file and add what it defines.

        Args:
            path: the file.
            name: the agent's name when the file does not give a better one.
            role: what the file's place says it must be: ``parent``, ``child``, ``connected``, or
                ``agent`` (a parent or a child); None accepts anything and ignores non-agents.
            text: the file's text, when already read.
            description: the routing description kept outside the file (a solution component's
                ``botcomponent.xml``), for a ``ConnectedAgentTool``.
        """
        file = self.display(path)
        self.files.append(file)
        self.result.files.add(file)
        try:
            if text is None:
                text = read_config(path)
            data = parse_yaml(text)
        except YamlSyntaxError as exc:
            self.problem(file, exc.line, None, f"invalid YAML: {exc.problem}")
            return
        except UnreadableFileError as exc:
            self.problem(file, exc.line, None, exc.problem)
            return
        self.component(data, file=file, name=name, role=role, description=description)

    def component(
        self,
        data: object,
        *,
        file: str,
        name: str,
        role: str | None,
        description: TextField | None = None,
    ) -> None:
        """Add what one parsed component defines (see :meth:`read`)."""
        if not isinstance(data, LMap):
            if role is not None:
                self.problem(file, 1, None, "a Copilot Studio component must be a YAML mapping")
            return
        kind = data.get("kind")
        if kind is None and role == "parent" and "instructions" in data:
            kind = "GptComponentMetadata"  # a workspace's agent.mcs.yml may leave it out
        expected = {
            "parent": "GptComponentMetadata",
            "child": "AgentDialog",
            "connected": "TaskDialog or ConnectedAgentTool",
            "agent": "GptComponentMetadata or AgentDialog",
        }.get(role or "")
        if expected is not None and kind not in expected.split(" or "):
            what = f"unknown kind {kind!r}" if kind is not None else "missing 'kind'"
            if isinstance(kind, str) and kind in _COMPONENT_KINDS:
                what = f"kind {kind!r} where this file's place calls for {expected}"
            self.problem(file, data.line_of("kind"), None, f"{what}: expected {expected}")
            return
        if kind == "GptComponentMetadata":
            self._parent(data, file, component_name(data) or name)
        elif kind == "AgentDialog":
            self._child(data, file, component_name(data) or name)
        elif kind == "TaskDialog":
            self._task(data, file, name, must_be_agent=role == "connected")
        elif kind == "ConnectedAgentTool":
            self._connected_tool(data, file, name, description)

    def _connected_tool(
        self, data: LMap, file: str, name: str, description: TextField | None
    ) -> None:
        name = component_name(data) or name
        metadata = data.get("mcs.metadata")
        if isinstance(metadata, LMap) and description is None:
            description = _text(self, metadata, "description", file, name)
        spec = connected_tool_spec(data, file=file, name=name, description=description)
        if spec.target is None:
            self.problem(file, data.line, name, "botSchemaName: required (the agent to call)")
        self.subagents.append(spec)

    def settings_parent(self, instructions: TextField | None, *, name: str, file: str) -> None:
        """The parent of the newer layouts, whose instructions are in ``agentSettings``."""
        if self.parent is not None:
            return
        self.parent = ParentSpec(
            name=name,
            instructions=instructions or TextField(text="", file=file, line=1),
            file=file,
            line=1,
        )

    # -- components -----------------------------------------------------------------------

    def _parent(self, data: LMap, file: str, name: str) -> None:
        instructions = _text(self, data, "instructions", file, name)
        if self.parent is not None:
            self.problem(
                file,
                data.line,
                name,
                f"a second parent (GptComponentMetadata); the first is in {self.parent.file}",
            )
            return
        self.parent = ParentSpec(
            name=name,
            instructions=instructions or TextField(text="", file=file, line=data.line_of("kind")),
            generated_instructions=False,
            file=file,
            line=data.line,
        )

    def _child(self, data: LMap, file: str, name: str) -> None:
        begin = _mapping(self, data, "beginDialog", file, name)
        settings = _mapping(self, data, "settings", file, name)
        description = _text(self, begin, "description", file, name) if begin is not None else None
        instructions = (
            _text(self, settings, "instructions", file, name) if settings is not None else None
        )
        inputs = _task_inputs(self, data, file, name)
        properties = _record(self, data, "inputType", file, name)
        inputs += properties
        outputs = _record(self, data, "outputType", file, name)
        history = True
        history_line = None
        if settings is not None and "historyType" in settings:
            history_line = settings.line_of("historyType")
            history = _history(self, settings, file, name) is not False
        actions_line = None
        if begin is not None:
            actions = begin.get("actions")
            if isinstance(actions, LSeq) and actions:
                actions_line = begin.line_of("actions")
        mode, source = infer_mode(instructions, tuple(outputs))
        self.subagents.append(
            SubagentSpec(
                name=name,
                kind=Kind.CHILD,
                mode=mode,
                mode_source=source,
                history=history,
                history_line=history_line,
                description=description,
                instructions=instructions or TextField(text="", file=file, line=data.line),
                inputs=_merge(inputs),
                outputs=_merge(outputs),
                inputs_line=_first_line(data, ("inputType", "inputs")),
                outputs_line=_first_line(data, ("outputType",)),
                file=file,
                line=data.line,
                source="copilot-studio",
                actions_line=actions_line,
                input_entries=_input_entries(data, file),
                input_properties=tuple(properties),
            )
        )

    def _task(self, data: LMap, file: str, name: str, *, must_be_agent: bool) -> None:
        action = data.get("action")
        if (
            isinstance(action, LMap)
            and action.get("kind") == "InvokeExternalAgentTaskAction"
            and kind_of(action.get("operationDetails")) in AGENT_PROTOCOLS
        ):
            inputs = _task_inputs(self, data, file, name)
            self.subagents.append(
                external_agent_spec(data, action, file=file, name=name, inputs=inputs)
            )
            return
        if not isinstance(action, LMap) or action.get("kind") != "InvokeConnectedAgentTaskAction":
            if must_be_agent:
                self.problem(
                    file,
                    data.line_of("action"),
                    name,
                    "expected action.kind InvokeConnectedAgentTaskAction (a connected agent)",
                )
            return
        display_name = data.get("modelDisplayName")
        if isinstance(display_name, str) and display_name.strip():
            name = display_name.strip()
        description = _text(self, data, "modelDescription", file, name)
        properties = _record(self, action, "inputType", file, name)
        inputs = _task_inputs(self, data, file, name) + properties
        outputs = _task_outputs(self, data, file, name)
        outputs += _record(self, action, "outputType", file, name)
        misplaced: list[tuple[str, int | None]] = []
        for key in ("inputType", "outputType"):
            if key in data:
                misplaced.append((key, data.line_of(key)))
                fields = _record(self, data, key, file, name)
                (inputs if key == "inputType" else outputs).extend(fields)
        history = _history(self, action, file, name) is not False
        target = action.get("botSchemaName")
        if not isinstance(target, str) or not target:
            self.problem(
                file, action.line, name, "action.botSchemaName: required (the agent to call)"
            )
            target = None
        outputs_tuple = _merge(outputs)
        io_line = _first_line(action, ("inputType",)) or _first_line(data, ("inputs", "inputType"))
        self.subagents.append(
            SubagentSpec(
                name=name,
                kind=Kind.CONNECTED,
                # Worked out in one place, once connected agents are linked (harness.lint._engine).
                mode=Mode.DIRECT,
                mode_source="default",
                history=history,
                history_line=action.line_of("historyType") if "historyType" in action else None,
                description=description,
                instructions=None,
                inputs=_merge(inputs),
                outputs=outputs_tuple,
                inputs_line=io_line,
                outputs_line=_first_line(action, ("outputType",))
                or _first_line(data, ("outputs", "outputType")),
                file=file,
                line=data.line,
                source="copilot-studio",
                target=target,
                misplaced_io=tuple(misplaced),
                input_entries=_input_entries(data, file),
                input_properties=tuple(properties),
            )
        )

    def system(self, name: str, schema_name: str | None) -> None:
        if self.parent is None and not self.subagents:
            return
        self.result.systems.append(
            AgentSystem(
                name=name,
                source="copilot-studio",
                parent=self.parent,
                subagents=tuple(self.subagents),
                files=tuple(self.files),
                schema_name=schema_name,
            )
        )


# -- field readers ----------------------------------------------------------------------------


def _mapping(reader: Reader, node: LMap, key: str, file: str, agent: str) -> LMap | None:
    value = node.get(key)
    if value is None:
        return None
    if not isinstance(value, LMap):
        reader.problem(file, node.line_of(key), agent, f"{key}: must be a mapping")
        return None
    return value


def _text(reader: Reader, node: LMap, key: str, file: str, agent: str) -> TextField | None:
    if key not in node:
        return None
    value = node[key]
    line = node.line_of(key)
    if value is None:
        return TextField(text="", file=file, line=line)
    if isinstance(value, bool | int | float):
        value = str(value)
    if not isinstance(value, str):
        reader.problem(file, line, agent, f"{key}: must be text")
        return None
    return TextField(text=value, file=file, line=line)


def _record(reader: Reader, node: LMap, key: str, file: str, agent: str) -> list[IOField]:
    record = _mapping(reader, node, key, file, agent)
    if record is None:
        return []
    properties = record.get("properties")
    if properties is None:
        return []
    if not isinstance(properties, LMap):
        reader.problem(
            file, record.line_of("properties"), agent, f"{key}.properties: must be a mapping"
        )
        return []
    fields: list[IOField] = []
    for prop, info in properties.items():
        description: str | None = None
        if isinstance(info, LMap):
            raw = info.get("description")
            description = raw if isinstance(raw, str) else None
        elif info is not None:
            reader.problem(
                file, properties.line_of(prop), agent, f"{key}.properties.{prop}: must be a mapping"
            )
        fields.append(
            IOField(
                name=str(prop),
                description=description,
                file=file,
                line=properties.line_of(prop),
                type=_type_of(info),
                type_line=info.line_of("type")
                if isinstance(info, LMap) and "type" in info
                else None,
            )
        )
    return fields


def _type_of(info: object) -> str | None:
    """A property's declared type: ``type: Boolean`` or ``type: {kind: Boolean}``."""
    declared = info.get("type") if isinstance(info, LMap) else None
    if isinstance(declared, LMap):
        declared = declared.get("kind")
    return declared.strip() if isinstance(declared, str) and declared.strip() else None


def _task_inputs(reader: Reader, node: LMap, file: str, agent: str) -> list[IOField]:
    return _property_list(reader, node, "inputs", file, agent, skip_kind="ManualTaskInput")


def _input_entries(node: LMap, file: str) -> tuple[IOField, ...]:
    """Every ``inputs`` entry with a name, automatic or manual, as written (problems with the
    list are reported by :func:`_task_inputs`)."""
    items = node.get("inputs")
    if not isinstance(items, LSeq):
        return ()
    return tuple(
        IOField(name=item["propertyName"], description=None, file=file, line=items.line_of(i))
        for i, item in enumerate(items)
        if isinstance(item, LMap) and isinstance(item.get("propertyName"), str)
    )


def _task_outputs(reader: Reader, node: LMap, file: str, agent: str) -> list[IOField]:
    return _property_list(reader, node, "outputs", file, agent, skip_kind=None)


def _property_list(
    reader: Reader, node: LMap, key: str, file: str, agent: str, *, skip_kind: str | None
) -> list[IOField]:
    items = node.get(key)
    if items is None:
        return []
    if not isinstance(items, LSeq):
        reader.problem(file, node.line_of(key), agent, f"{key}: must be a list")
        return []
    fields: list[IOField] = []
    for index, item in enumerate(items):
        line = items.line_of(index)
        if not isinstance(item, LMap) or not isinstance(item.get("propertyName"), str):
            reader.problem(file, line, agent, f"{key}[{index}]: needs a propertyName")
            continue
        if skip_kind is not None and item.get("kind") == skip_kind:
            continue
        description = item.get("description")
        fields.append(
            IOField(
                name=item["propertyName"],
                description=description if isinstance(description, str) else None,
                file=file,
                line=line,
            )
        )
    return fields


def _history(reader: Reader, node: LMap, file: str, agent: str) -> bool | None:
    value = node.get("historyType")
    if value is None:
        return None
    kind = value.get("kind") if isinstance(value, LMap) else None
    if not isinstance(kind, str) or kind not in _HISTORY_KINDS:
        reader.problem(
            file,
            node.line_of("historyType"),
            agent,
            f"historyType: expected kind ConversationHistory or NoHistory, got {kind!r}",
        )
        return None
    return bool(kind == "ConversationHistory")


def _merge(fields: list[IOField]) -> tuple[IOField, ...]:
    """One field per name: ``inputs[]`` and ``inputType`` often declare the same property."""
    merged: dict[str, IOField] = {}
    for field in fields:
        key = normalize_io_name(field.name)
        known = merged.get(key)
        if known is None:
            merged[key] = field
        elif (not known.description and field.description) or (not known.type and field.type):
            merged[key] = IOField(
                name=known.name,
                description=known.description or field.description,
                file=known.file,
                line=known.line,
                type=known.type or field.type,
                type_line=known.type_line if known.type else field.type_line,
            )
    return tuple(merged.values())


def _first_line(node: LMap, keys: tuple[str, ...]) -> int | None:
    for key in keys:
        if key in node:
            return node.line_of(key)
    return None
