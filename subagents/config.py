"""The YAML config format (DESIGN.md section 4), validated with file, line and field in every error.

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

``load_config`` only reads and validates (it never imports tools), so the linter and ``harness
instructions`` can use it safely; ``BotConfig.build_subagents`` imports the tools and builds agents.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from subagents._base import IOSpec, Subagent
from subagents._errors import ConfigError
from subagents.child import ChildAgent
from subagents.connected import ConnectedAgent
from subagents.contract import Kind, Mode

__all__ = [
    "BotConfig",
    "ParentConfig",
    "SubagentConfig",
    "load_config",
    "load_yaml",
    "locate",
    "validate_yaml",
]


def _check_model(value: str | None) -> str | None:
    if value is None or value == "rules" or value.startswith(("openai:", "replay:")):
        if value in ("openai:", "replay:"):
            raise ValueError(f"{value!r} needs a name after the colon")
        return value
    raise ValueError(
        f"unknown model {value!r}; use 'rules', 'openai:<model>' or 'replay:<cassette>'"
    )


class ParentConfig(BaseModel):
    """The ``parent:`` section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    """The parent's name."""
    instructions: str = ""
    """Its own instructions."""
    model: str | None = None
    """``rules`` (default), ``openai:<model>`` or ``replay:<cassette>``."""
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

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str | None) -> str | None:
        return _check_model(value)

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
    timeout: float = Field(default=30.0, gt=0)
    url: str | None = None
    """Connected agents only: a remote harness host exposing this agent."""
    inputs: list[IOSpec] | None = None
    """Declared inputs; absent means the contract's standard inputs."""

    @field_validator("model")
    @classmethod
    def _known_model(cls, value: str | None) -> str | None:
        return _check_model(value)

    outputs: list[IOSpec] | None = None
    """Declared outputs; absent means the contract's standard outputs for the mode."""


class BotConfig(BaseModel):
    """A whole config file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    parent: ParentConfig
    subagents: list[SubagentConfig] = Field(default_factory=list)
    source: str | None = Field(default=None, exclude=True)
    """The file it was loaded from."""

    def build_subagents(self, *, import_tools: bool = True) -> list[Subagent]:
        """Import the tools and build the agent objects.

        Args:
            import_tools: False builds the agents without their tools (nothing is imported or
                executed), which is enough to render instructions.

        Raises:
            ConfigError: with the file and line of the offending entry.
        """
        base = Path(self.source).parent if self.source else Path.cwd()
        tree = load_yaml(Path(self.source)) if self.source else None
        agents: list[Subagent] = []
        for index, entry in enumerate(self.subagents):
            line = locate(tree, ("subagents", index)) if tree is not None else None
            try:
                tools = [_import_tool(ref, base) for ref in entry.tools] if import_tools else []
                common: dict[str, Any] = {
                    "name": entry.name,
                    "description": entry.description,
                    "mode": entry.mode,
                    "instructions": entry.instructions,
                    "tools": tools,
                    "examples": entry.examples,
                    "inputs": entry.inputs,
                    "outputs": entry.outputs,
                    "model": entry.model,
                    "timeout": entry.timeout,
                    "generated_instructions": entry.generated_instructions,
                }
                if entry.kind is Kind.CHILD:
                    if entry.url:
                        raise ConfigError("a child agent cannot have a url", field="url")
                    history = True if entry.pass_history is None else entry.pass_history
                    agents.append(ChildAgent(pass_history=history, **common))
                else:
                    history = True if entry.pass_history is None else entry.pass_history
                    agents.append(ConnectedAgent(pass_history=history, url=entry.url, **common))
            except ConfigError as exc:
                field = f"subagents[{index}]" + (f".{exc.field}" if exc.field else "")
                if tree is not None and exc.field:
                    line = locate(tree, ("subagents", index, exc.field)) or line
                raise ConfigError(exc.message, file=self.source, line=line, field=field) from exc
        return agents


def load_yaml(path: Path) -> Any:
    """Read a YAML file with line information kept (round-trip mode).

    Raises:
        ConfigError: when the file is missing or is not valid YAML, with its line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc
    try:
        return YAML(typ="rt").load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise ConfigError(f"invalid YAML: {exc.problem or exc}", file=str(path), line=line) from exc


def locate(tree: Any, path: tuple[str | int, ...]) -> int | None:
    """The 1-based line of the node at ``path`` in a round-trip tree (the closest parent known)."""
    node = tree
    line: int | None = None
    for key in path:
        if isinstance(node, CommentedMap) and isinstance(key, str) and key in node:
            position = node.lc.key(key)
            line = position[0] + 1
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            position = node.lc.item(key)
            line = position[0] + 1
            node = node[key]
        else:
            break
    return line


M = TypeVar("M", bound=BaseModel)


def validate_yaml(model: type[M], tree: Any, file: Path, *, what: str) -> M:
    """Validate a round-trip YAML tree against a pydantic model; errors carry file, line, field.

    Args:
        model: the pydantic model of the whole file.
        tree: the tree ``load_yaml`` returned.
        file: the file, for the error.
        what: how to describe the expected top level in an error ("a config ...").
    """
    if not isinstance(tree, dict):
        raise ConfigError(f"{what} must be a mapping", file=str(file), line=1)
    try:
        return model.model_validate(_plain(tree))
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(error["loc"])
        field = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in loc).replace(".[", "[")
        raise ConfigError(
            error["msg"], file=str(file), line=locate(tree, loc) or 1, field=field or None
        ) from exc


def load_config(path: str | Path) -> BotConfig:
    """Read and validate a config file. Never imports tools.

    Raises:
        ConfigError: naming the file, the line and the field of the first problem.
    """
    file = Path(path)
    tree = load_yaml(file)
    config = validate_yaml(BotConfig, tree, file, what="a config (with 'parent' and 'subagents')")
    names = [s.name for s in config.subagents]
    if config.parent.name in names:
        raise ConfigError(
            f"the parent and a sub-agent are both named {config.parent.name!r}",
            file=str(file),
            line=locate(tree, ("parent", "name")),
            field="parent.name",
        )
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise ConfigError(
                f"duplicate sub-agent name {name!r}",
                file=str(file),
                line=locate(tree, ("subagents", index, "name")),
                field=f"subagents[{index}].name",
            )
    return config.model_copy(update={"source": str(file)})


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _import_tool(reference: str, base: Path) -> Callable[..., Any]:
    if ":" not in reference:
        raise ConfigError(
            f"tool {reference!r} must look like 'file.py:function' or 'module:function'",
            field="tools",
        )
    module_ref, attr = reference.rsplit(":", 1)
    if module_ref.endswith(".py"):
        file = (base / module_ref).resolve()
        if not file.is_file():
            raise ConfigError(
                f"tool module {module_ref!r} not found next to the config", field="tools"
            )
        module_name = f"_harness_tools_{abs(hash(str(file)))}"
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, file)
            if spec is None or spec.loader is None:
                raise ConfigError(f"cannot import {module_ref!r}", field="tools")
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(module_ref)
        except ImportError as exc:
            raise ConfigError(
                f"cannot import tool module {module_ref!r}: {exc}", field="tools"
            ) from exc
    function = getattr(module, attr, None)
    if not callable(function):
        raise ConfigError(f"{module_ref!r} has no function {attr!r}", field="tools")
    return function  # type: ignore[no-any-return]
