"""The neutral model every loader fills and every rule reads.

This SDK's YAML configs and Copilot Studio's files describe the same things in different shapes: a
parent, its sub-agents (kind, mode, history, description, instructions, inputs, outputs) and where each
of them is written. Loaders translate both into the records below, so a rule is written once. Each
element keeps its source file and line, for findings that point at the right place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from harness.detect.findings import Severity
from subagents.contract import Kind, Mode

__all__ = [
    "AgentSystem",
    "IOField",
    "Layout",
    "LintFinding",
    "LintReport",
    "ModeSource",
    "ParentSpec",
    "Severity",
    "SourceFormat",
    "SubagentSpec",
    "TextField",
    "normalize_io_name",
]

ModeSource = Literal["config", "instructions", "outputs", "default"]
"""Where a sub-agent's mode comes from (see ``SubagentSpec.mode_source``)."""

SourceFormat = Literal["harness", "copilot-studio"]
"""Where an agent system was written: this SDK's YAML, or Copilot Studio files."""

Layout = Literal["standard", "connected-agent-tool", "external-agent"]
"""How a sub-agent is declared, which decides what its fixes can say: ``standard`` (this SDK's YAML,
a Copilot Studio ``AgentDialog`` or ``TaskDialog`` with ``InvokeConnectedAgentTaskAction``, which can
declare inputs and outputs), ``connected-agent-tool`` (the newer layout's ``kind: ConnectedAgentTool``,
which can declare neither) or ``external-agent`` (``InvokeExternalAgentTaskAction``: inputs only)."""


def normalize_io_name(name: str) -> str:
    """Compare input/output names loosely: ``scopedRequest``, ``ScopedRequest``, ``scoped_request``."""
    return name.replace("_", "").replace("-", "").replace(" ", "").lower()


@dataclass(frozen=True, slots=True, kw_only=True)
class TextField:
    """A piece of text (instructions, a description) and where it is written."""

    text: str
    """The text as written (may be empty)."""
    file: str
    """The file it is written in."""
    line: int | None
    """The 1-based line where it starts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class IOField:
    """One declared input or output."""

    name: str
    """The name as written (``answered``, ``scopedRequest``, ``Result``...)."""
    description: str | None
    """Its description; None or empty when it has none."""
    file: str
    """The file it is declared in."""
    line: int | None
    """The 1-based line of its declaration."""
    type: str | None = None
    """Copilot Studio: its declared ``type`` (``Boolean``, ``String``...), when written."""
    type_line: int | None = None
    """Copilot Studio: the 1-based line of that ``type`` (in ``file``), when written."""

    @property
    def key(self) -> str:
        """The name normalised for comparison with the contract's names."""
        return normalize_io_name(self.name)


@dataclass(frozen=True, slots=True, kw_only=True)
class SubagentSpec:
    """A child or connected agent, whatever format it came from."""

    name: str
    """Its name as written in the config (Copilot Studio: ``mcs.metadata.componentName``, else the
    component folder; a connected agent's ``modelDisplayName``)."""
    kind: Kind
    """Child or connected."""
    mode: Mode
    """Its communication mode (Copilot Studio: inferred, see ``mode_source``)."""
    mode_source: ModeSource
    """Where the mode comes from: written in the config, inferred from the instructions (silent when
    they forbid messaging the user), from the outputs (``findings`` without ``interactionSummary``),
    or the default (direct)."""
    history: bool
    """Whether it receives the parent's conversation history."""
    history_line: int | None
    """The line that sets history (``pass_history``, ``historyType``), when written."""
    description: TextField | None
    """Its routing description; None when it has none."""
    instructions: TextField | None
    """Its own instructions; None when they are not known (a connected agent whose own files are
    not among the linted paths)."""
    inputs: tuple[IOField, ...] | None
    """Declared inputs; None means "the contract's standard inputs" (this SDK fills them)."""
    outputs: tuple[IOField, ...] | None
    """Declared outputs; None means "the contract's standard outputs for the mode"."""
    inputs_line: int | None = None
    """The line of the inputs declaration (``inputs:``, ``inputType:``), when written."""
    outputs_line: int | None = None
    """The line of the outputs declaration (``outputs:``, ``outputType:``), when written."""
    generated_instructions: bool = False
    """True when the runtime prepends the generated sub-agent instructions and renders the
    description with the answered hint (this SDK's default); never for Copilot Studio."""
    file: str
    """The file it is defined in."""
    line: int | None
    """The line where its definition starts."""
    source: SourceFormat
    """This SDK's YAML or Copilot Studio."""
    target: str | None = None
    """Copilot Studio connected agents: the ``botSchemaName`` of the agent they call."""
    own_file: str | None = None
    """Copilot Studio connected agents: the file of the agent they call (its parent component,
    where its own instructions are), when that agent is among the linted paths; the one reading
    ``harness lint`` and ``harness instructions`` share."""
    misplaced_io: tuple[tuple[str, int | None], ...] = ()
    """Copilot Studio: ``inputType`` / ``outputType`` keys found at the root of a connected-agent
    ``TaskDialog`` instead of inside ``action`` (key, line)."""
    actions_line: int | None = None
    """Copilot Studio: the line of a child agent's non-empty ``beginDialog.actions``."""
    layout: Layout = "standard"
    """How it is declared (see ``Layout``): what its inputs and outputs can hold."""
    input_entries: tuple[IOField, ...] | None = None
    """Copilot Studio: every entry of its ``inputs`` list as written (automatic and manual),
    before they are merged with ``inputType``; None when the format has no such list."""
    input_properties: tuple[IOField, ...] | None = None
    """Copilot Studio: its ``inputType.properties`` as written; None when the format has none."""

    @property
    def output_keys(self) -> frozenset[str]:
        """The normalised names of its declared outputs (empty when none are declared)."""
        return frozenset(o.key for o in self.outputs or ())

    @property
    def input_keys(self) -> frozenset[str]:
        """The normalised names of its declared inputs (empty when none are declared)."""
        return frozenset(i.key for i in self.inputs or ())


@dataclass(frozen=True, slots=True, kw_only=True)
class ParentSpec:
    """The parent agent (Copilot Studio: the ``GptComponentMetadata`` component)."""

    name: str
    """Its name as written in the config."""
    instructions: TextField | None
    """Its instructions; None when it has none."""
    generated_instructions: bool = False
    """True when the runtime prepends the generated top-level instruction (this SDK's default)."""
    file: str
    """The file it is defined in."""
    line: int | None
    """The line where its definition starts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentSystem:
    """A parent and its sub-agents, as one loader read them."""

    name: str
    """A name for the system (the config file, the workspace folder, the bot's schema name)."""
    source: SourceFormat
    """This SDK's YAML or Copilot Studio."""
    parent: ParentSpec | None
    """The parent, when its definition is among the linted files."""
    subagents: tuple[SubagentSpec, ...] = ()
    """Its sub-agents, in the order they are written."""
    files: tuple[str, ...] = ()
    """Every file read for this system."""
    schema_name: str | None = None
    """Copilot Studio: the bot's schema name, which connected agents call it by."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LintFinding:
    """One problem the linter found."""

    id: str
    """The stable rule id (``HC001``)."""
    name: str
    """The stable rule name (``no-outputs``)."""
    severity: Severity
    """Its severity after configuration."""
    agent: str | None
    """The sub-agent's or parent's name as written; None for a file-level problem."""
    file: str
    """The file, relative to the working directory when it is under it."""
    line: int | None
    """The 1-based line, when there is one."""
    message: str
    """What is wrong and how to fix it, in one or two sentences."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadResult:
    """What a loader returns: the systems it read and the HC100 problems it met."""

    systems: list[AgentSystem] = field(default_factory=list)
    problems: list[tuple[str, int | None, str | None, str]] = field(default_factory=list)
    """(file, line, agent, message) of each invalid-config problem."""
    files: set[str] = field(default_factory=set)
    """Every file read."""
    unrecognised: list[str] = field(default_factory=list)
    """The paths given under which no agent file was recognised."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LintReport:
    """The outcome of a lint run."""

    findings: tuple[LintFinding, ...]
    """Every finding, sorted by file, line and rule id."""
    files: int
    """How many files were read."""
    agents: int
    """How many agents (parents and sub-agents) were checked."""
    parents: int = 0
    """How many of them are parents (top-level agents); the rest are sub-agents."""

    @property
    def subagents(self) -> int:
        """How many sub-agents were checked (``agents`` less ``parents``)."""
        return self.agents - self.parents

    @property
    def errors(self) -> int:
        """How many findings are errors (any makes ``harness lint`` exit 1)."""
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        """How many findings are warnings."""
        return sum(1 for f in self.findings if f.severity is Severity.WARNING)
