"""Copilot Studio's newer agent shapes, turned into the neutral model.

- ``kind: ConnectedAgentTool`` (newer workspaces' ``capabilities/tools/*.mcs.yml``, newer solution
  exports' ``<bot>.tool.connected-agent.<child>`` components, ``botdefinition.json`` caches): only
  ``botSchemaName`` and ``historyType``. It declares no inputs and no outputs, so the contract rules
  judge it as such, with fixes that say what can be done in that layout. Its routing description is
  outside the YAML (``mcs.metadata.description``, ``botcomponent.xml``, the component record).
- ``InvokeExternalAgentTaskAction`` with ``ActivityProtocolMetadata`` or
  ``AgentToAgentProtocolMetadata``: an external agent (Microsoft's schema gives it ``inputs`` and
  ``historyType``, no outputs). With ``ModelContextProtocolMetadata`` it is an MCP server, not an
  agent.
- ``agentSettings.instructions``: a string, or ``segments`` of ``StaticSegment`` values (``kind``
  in YAML, ``$kind`` in JSON), joined.
"""

from __future__ import annotations

from typing import Any

from harness._yaml import LMap, LSeq
from harness.lint.model import IOField, SubagentSpec, TextField
from subagents.contract import Kind, Mode

__all__ = [
    "AGENT_PROTOCOLS",
    "agent_settings_instructions",
    "connected_tool_spec",
    "external_agent_spec",
    "history_of",
    "kind_of",
]

AGENT_PROTOCOLS = frozenset({"ActivityProtocolMetadata", "AgentToAgentProtocolMetadata"})
"""``operationDetails`` kinds of an external *agent* (not an MCP server)."""


def kind_of(node: Any) -> str | None:
    """A component's ``kind`` (``$kind`` in JSON records)."""
    if not isinstance(node, dict):
        return None
    kind = node.get("kind", node.get("$kind"))
    return kind if isinstance(kind, str) else None


def history_of(node: LMap) -> tuple[bool | None, int | None]:
    """(history on, line) from ``historyType``; (None, None) when it is not written."""
    value = node.get("historyType")
    if value is None:
        return None, None
    return kind_of(value) == "ConversationHistory", node.line_of("historyType")


def agent_settings_instructions(settings: Any, *, file: str) -> TextField | None:
    """The instructions in an ``agentSettings`` mapping, or None when it has none."""
    if not isinstance(settings, LMap) or "instructions" not in settings:
        return None
    value = settings["instructions"]
    line = settings.line_of("instructions")
    if isinstance(value, str):
        return TextField(text=value, file=file, line=line)
    parts: list[str] = []
    segments = value.get("segments") if isinstance(value, LMap) else None
    if isinstance(segments, LSeq):
        for index, segment in enumerate(segments):
            text = segment.get("value") if isinstance(segment, LMap) else None
            if isinstance(text, str):
                parts.append(text)
                if len(parts) == 1:
                    line = segments.line_of(index)
    return TextField(text="\n".join(parts), file=file, line=line)


def connected_tool_spec(
    data: LMap, *, file: str, name: str, description: TextField | None
) -> SubagentSpec:
    """A ``kind: ConnectedAgentTool`` component: a connected agent with no inputs or outputs."""
    history, history_line = history_of(data)
    target = data.get("botSchemaName")
    return SubagentSpec(
        name=name,
        kind=Kind.CONNECTED,
        mode=Mode.DIRECT,  # worked out once connected agents are linked (harness.lint._engine)
        mode_source="default",
        # The UI's "Pass conversation history to this agent" is on by default.
        history=history is not False,
        history_line=history_line,
        description=description,
        instructions=None,
        inputs=(),
        outputs=(),
        file=file,
        line=data.line,
        source="copilot-studio",
        target=target if isinstance(target, str) and target else None,
        layout="connected-agent-tool",
    )


def external_agent_spec(
    data: LMap, action: LMap, *, file: str, name: str, inputs: list[IOField]
) -> SubagentSpec:
    """A ``TaskDialog`` calling an external agent over the Activity or Agent-to-Agent protocol."""
    display = data.get("modelDisplayName")
    if isinstance(display, str) and display.strip():
        name = display.strip()
    description = data.get("modelDescription")
    history, history_line = history_of(action)
    return SubagentSpec(
        name=name,
        kind=Kind.CONNECTED,
        mode=Mode.DIRECT,  # worked out once connected agents are linked (harness.lint._engine)
        mode_source="default",
        # Unlike a connected agent's, an external agent's history default is not documented:
        # only an explicit ConversationHistory counts as on.
        history=history is True,
        history_line=history_line,
        description=TextField(text=description, file=file, line=data.line_of("modelDescription"))
        if isinstance(description, str)
        else None,
        instructions=None,
        inputs=tuple(inputs),
        outputs=(),
        inputs_line=data.line_of("inputs") if "inputs" in data else None,
        file=file,
        line=data.line,
        source="copilot-studio",
        layout="external-agent",
    )
