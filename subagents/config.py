"""The YAML config format (docs/agents.md, The YAML config), validated with file, line and field in every error.

```yaml
parent:
  name: helpdesk
  instructions: "You are the HR and IT helpdesk."
  model: rules            # offline default; or openai:gpt-4o-mini
subagents:
  - name: pto
    kind: child            # child | connected
    mode: direct           # silent | direct | conversational
    description: Answers questions about paid time off.
    tools: ["tools.py:pto_balance"]
```

This module is the bot's schema and nothing else: pure data and validation, no file reading and no
importing (the ``subagents`` package does no I/O). The Python API validates through the same
models (``Parent(...)`` checks its options with ``ParentConfig``; ``ChildAgent`` and
``ConnectedAgent`` share their checks with ``SubagentConfig``), so a bad value gets the same message
from Python and from YAML. Reading a file is ``harness``'s job: ``harness.load_config(path)``
reads and validates, ``harness.load_bot(path)`` also imports the tools and builds the bot.
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from subagents._base import IOSpec, Subagent, ToolFunction
from subagents._checks import retries_problem, timeout_problem, token_env_problem, url_problem
from subagents._errors import ConfigError
from subagents.child import ChildAgent
from subagents.connected import ConnectedAgent
from subagents.contract import Kind, Mode

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "BotConfig",
    "ConfigWarning",
    "LinedDict",
    "LinedList",
    "ParentConfig",
    "SubagentConfig",
    "error_message",
    "locate",
    "plain",
    "unknown_key_message",
    "validate_options",
    "validate_yaml",
]


class ConfigWarning(UserWarning):
    """A config that loads and runs, but that ``harness lint`` reports as an error.

    Shown with the config file and line, for example for ``outputs: []``: the runtime still
    enforces the mode's outputs, but the parent is told the agent returns none.
    """


class LinedDict(dict[Any, Any]):
    """A YAML mapping with the 1-based line of each key in ``lines``."""

    lines: dict[Any, int]


class LinedList(list[Any]):
    """A YAML sequence with the 1-based line of each item in ``lines``."""

    lines: list[int]


def _check_model(value: str | None) -> str | None:
    # Only the form is checked here; which prefixes exist is the model registry's business
    # (``harness.models.register_model``), checked when the bot is built.
    if value is not None and (not value.strip() or value.startswith(":")):
        raise ValueError(f"{value!r} is not a model name; use e.g. 'rules' or 'openai:<model>'")
    return value


HANDOFF_LIMIT = 300
"""The longest ``handoff`` line a parent takes (characters)."""


class ParentConfig(BaseModel):
    """The ``parent:`` section, and the plain-data options of ``harness.Parent(...)``.

    ``Parent`` validates its keyword options with this model, so defaults, ranges and error
    messages are the same in Python and in YAML. What is not plain data (a ``Model`` object,
    ``transports``) is Python-only and not here.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    """The parent's name."""
    instructions: str = ""
    """Its own instructions."""
    model: str | None = None
    """A model name: ``rules`` (default), ``openai:<model>``, ``replay:<cassette>`` or a prefix
    registered with ``harness.models.register_model``. None when ``Parent`` got a ``Model``."""
    model_settings: dict[str, Any] = Field(default_factory=dict)
    """Settings of the parent's model (``temperature``, ``output_mode``, ``max_concurrency``, ...),
    checked when the bot is built; sub-agents without a model of their own share that model."""
    generated_instructions: bool = True
    """Prepend the generated top-level instruction (the ``answered`` check)."""
    strict: bool = False
    """Raise on contract violations instead of recovering."""
    duplicate_guard: Literal["off", "warn", "drop"] = "off"
    """Check the parent's own draft against messages already sent."""
    max_compose_steps: int = Field(default=2, ge=0, le=10)
    """Rounds of routing open questions per turn."""
    history_turns: int = Field(default=20, ge=0)
    """How many turns of history are passed to sub-agents that receive it, the current turn (its
    user message) included: 1 passes the current message only, 0 none."""
    handoff: str = Field(default="", max_length=HANDOFF_LIMIT)
    """What the parent adds when it cannot help with a request and no sub-agent takes it ("For
    anything else, call us on 0800 123 456."): one line of at most ``HANDOFF_LIMIT`` characters,
    said once per reply; empty: it only says it cannot help with it."""

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str | None) -> str | None:
        return _check_model(value)

    @field_validator("handoff")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value or "\r" in value:
            raise ValueError(
                "the handoff line must be one line (it follows a sentence of the reply)"
            )
        return value.strip()

    @field_validator("duplicate_guard", mode="before")
    @classmethod
    def _yaml_off(cls, value: Any) -> Any:
        # YAML 1.1 readers turn a bare `off` into False.
        return "off" if value is False else value


class SubagentConfig(BaseModel):
    """One entry of ``subagents:``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    kind: Kind
    mode: Mode
    description: str = ""
    instructions: str = ""
    pass_history: bool | None = None
    """Child: must be true or absent. Connected: default true."""
    generated_instructions: bool = True
    examples: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    """``file.py:function`` (relative to the config) or ``package.module:function``."""
    model: str | None = None
    """Its own model name; absent: the parent's."""
    timeout: float = 30.0
    """Seconds one call may take."""
    tool_timeout: float | None = None
    """Seconds one tool call may take; a slower one fails the call. Absent: only ``timeout``."""
    url: str | None = None
    """Connected agents only: a remote harness host exposing this agent."""
    token_env: str | None = None
    """Connected agents with a url only: the environment variable holding its host's token."""
    retries: int | None = None
    """Connected agents only: retries of a remote call (default 2)."""
    inputs: list[IOSpec] | None = None
    """Declared inputs; absent means the contract's standard inputs."""
    outputs: list[IOSpec] | None = None
    """Declared outputs; absent means the contract's standard outputs for the mode."""

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str | None) -> str | None:
        return _check_model(value)

    @field_validator("timeout", "tool_timeout")
    @classmethod
    def _positive_timeout(cls, value: float | None, info: ValidationInfo) -> float | None:
        if value is None:
            return value
        problem = timeout_problem(value, name=info.field_name or "timeout")
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("url", "token_env", "retries")
    @classmethod
    def _connected_only(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None:
            return value
        if info.data.get("kind") is Kind.CHILD:
            raise ValueError(f"a child agent cannot have a {info.field_name}")
        if info.field_name == "url":
            return _ok(value, url_problem(value))
        if info.field_name == "retries":
            return _ok(value, retries_problem(value))
        return _ok(value, token_env_problem(value, url=info.data.get("url")))

    def build(self, *, tools: Sequence[ToolFunction] = ()) -> Subagent:
        """The ``ChildAgent`` or ``ConnectedAgent`` this entry declares, with ``tools``.

        Raises:
            ConfigError: for a value the agent refuses (with its field).
        """
        common: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "mode": self.mode,
            "instructions": self.instructions,
            "tools": list(tools),
            "examples": self.examples,
            "inputs": self.inputs,
            "outputs": self.outputs,
            "model": self.model,
            "timeout": self.timeout,
            "tool_timeout": self.tool_timeout,
            "generated_instructions": self.generated_instructions,
        }
        history = True if self.pass_history is None else self.pass_history
        if self.kind is Kind.CHILD:
            return ChildAgent(pass_history=history, **common)
        extra: dict[str, Any] = {} if self.retries is None else {"retries": self.retries}
        return ConnectedAgent(
            pass_history=history, url=self.url, token_env=self.token_env, **extra, **common
        )


def _ok(value: Any, problem: str | None) -> Any:
    if problem is not None:
        raise ValueError(problem)
    return value


class BotConfig(BaseModel):
    """A whole config file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    parent: ParentConfig
    subagents: list[SubagentConfig] = Field(default_factory=list)
    source: str | None = Field(default=None, exclude=True)
    """The file it was loaded from."""

    def build_subagents(
        self,
        *,
        import_tool: Callable[[str], ToolFunction] | None = None,
        tree: Any = None,
    ) -> list[Subagent]:
        """Build the agent objects. No I/O here: the tools come from ``import_tool``.

        ``harness.runtime.config_files.build_subagents`` calls this with an importer of the
        ``tools:`` references (``file.py:function`` next to the config, ``package.module:function``).

        Args:
            import_tool: turns a ``tools:`` entry into a function; None builds the agents without
                their tools (nothing is imported or executed), which is enough to render
                instructions.
            tree: the YAML tree the config came from (``LinedDict``), for the lines in errors.

        Raises:
            ConfigError: with the file and line of the offending entry.
        """
        agents: list[Subagent] = []
        for index, entry in enumerate(self.subagents):
            line = locate(tree, ("subagents", index)) if tree is not None else None
            try:
                tools = [import_tool(ref) for ref in entry.tools] if import_tool else []
                agents.append(entry.build(tools=tools))
            except ConfigError as exc:
                field = f"subagents[{index}]" + (f".{exc.field}" if exc.field else "")
                if tree is not None and exc.field:
                    line = locate(tree, ("subagents", index, exc.field)) or line
                raise ConfigError(exc.message, file=self.source, line=line, field=field) from exc
        return agents


def locate(tree: Any, path: tuple[str | int, ...]) -> int | None:
    """The 1-based line of the node at ``path`` in a round-trip tree (the closest parent known)."""
    node = tree
    line: int | None = None
    for key in path:
        if isinstance(node, LinedDict) and isinstance(key, str) and key in node:
            line = node.lines.get(key, line)
            node = node[key]
        elif isinstance(node, LinedList) and isinstance(key, int) and 0 <= key < len(node):
            line = node.lines[key]
            node = node[key]
        else:
            break
    return line


M = TypeVar("M", bound=BaseModel)


def validate_yaml(
    model: type[M], tree: Any, file: Path, *, what: str, at: tuple[str | int, ...] = ()
) -> M:
    """Validate a round-trip YAML tree against a pydantic model; errors carry file, line, field.

    A misspelt key is reported as ``unknown key 'turn' (did you mean 'turns'?)`` rather than as the
    required key it replaces.

    Args:
        model: the pydantic model of the whole file (or of the node at ``at``).
        tree: the tree ``load_yaml`` returned.
        file: the file, for the error.
        what: how to describe the expected top level in an error ("a config ...").
        at: validate only the node at this path of ``tree`` (``("scenarios", 2)``); errors still
            name the whole path and the line in the file.
    """
    node = tree
    for key in at:
        node = node[key]
    if node is None and not at:  # nothing but comments and blank lines
        raise ConfigError(f"the file is empty: expected {what}", file=str(file), line=1)
    if not isinstance(node, dict):
        line = (locate(tree, at) if at else None) or 1
        raise ConfigError(
            f"{what} must be a mapping", file=str(file), line=line, field=_dotted(at) or None
        )
    try:
        return model.model_validate(plain(node))
    except ValidationError as exc:
        errors = exc.errors()
        # A typo shows up twice (the unknown key and the missing one); the unknown key says more.
        error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = (*at, *error["loc"])
        raise ConfigError(
            error_message(model, error),
            file=str(file),
            line=locate(tree, loc) or locate(tree, at) or 1,
            field=_dotted(loc) or None,
        ) from exc


def validate_options(model: type[M], values: Mapping[str, Any], *, at: str = "") -> M:
    """Validate options given in Python (``Parent(strict=...)``) against a schema model.

    The message is the one ``validate_yaml`` gives for the same value in a file; the field is the
    option's name (after ``at.``, when given).

    Raises:
        ConfigError: for the first bad option.
    """
    try:
        return model.model_validate(dict(values))
    except ValidationError as exc:
        errors = exc.errors()
        error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        field = _dotted(error["loc"])
        raise ConfigError(
            error_message(model, error), field=".".join(p for p in (at, field) if p) or None
        ) from exc


def _dotted(loc: Sequence[str | int]) -> str:
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in loc).replace(".[", "[")


def error_message(model: type[BaseModel], error: Mapping[str, Any]) -> str:
    """The words for one pydantic ``error`` of ``model``, as the loader and the linter say them."""
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden" and loc:
        return unknown_key_message(str(loc[-1]), _keys(model, loc[:-1]))
    if error["type"] == "missing" and loc:
        return f"the required key {str(loc[-1])!r} is missing"
    if error["type"] == "value_error":
        return str(error["ctx"]["error"])  # our own check's words, without "Value error, "
    return str(error["msg"])


def unknown_key_message(key: str, known: Sequence[str]) -> str:
    """A key the schema does not have, with the closest known one ("did you mean")."""
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    if close:
        return f"unknown key {key!r} (did you mean {close[0]!r}?)"
    if known:
        return f"unknown key {key!r} (expected one of {', '.join(known)})"
    return f"unknown key {key!r}"


def _keys(model: type[BaseModel], loc: Sequence[str | int]) -> list[str]:
    """The keys the model nested at ``loc`` accepts (for "did you mean")."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return []
        if isinstance(part, int):
            continue
        info = current.model_fields.get(part)
        current = _model_in(info.annotation) if info is not None else None
    if current is None:
        return []
    return [name for name, info in current.model_fields.items() if not info.exclude]


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def plain(node: Any) -> Any:
    """A YAML tree (with line numbers) as plain dicts and lists, for pydantic."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


_MOVED = {
    "load_config": "harness.load_config",
    "load_yaml": "harness.runtime.config_files.load_yaml",
}


def __getattr__(name: str) -> Any:
    """Names that moved to ``harness`` (this package reads no files) say where they went."""
    if name in _MOVED:
        raise AttributeError(
            f"subagents.config.{name} moved to {_MOVED[name]} (subagents reads no files)",
            name=name,
            obj=None,
        )
    raise AttributeError(f"module 'subagents.config' has no attribute {name!r}")
