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

``load_config`` only reads and validates (it never imports tools), so the linter and ``harness
instructions`` can use it safely; ``BotConfig.build_subagents`` imports the tools and builds agents.
"""

from __future__ import annotations

import difflib
import typing
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from subagents._base import IOSpec, Subagent
from subagents._errors import ConfigError
from subagents._tool_import import import_tool
from subagents._yaml import LinedDict, LinedList, read_yaml
from subagents.child import ChildAgent
from subagents.connected import ConnectedAgent
from subagents.contract import REQUIRED_OUTPUTS, Kind, Mode

__all__ = [
    "BotConfig",
    "ConfigWarning",
    "ParentConfig",
    "SubagentConfig",
    "load_config",
    "load_yaml",
    "locate",
    "validate_yaml",
]


class ConfigWarning(UserWarning):
    """A config that loads and runs, but that ``harness lint`` reports as an error.

    Shown with the config file and line, for example for ``outputs: []``: the runtime still
    enforces the mode's outputs, but the parent is told the agent returns none.
    """


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
    token_env: str | None = None
    """Connected agents with a url only: the environment variable holding its host's token."""
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
                tools = [import_tool(ref, base) for ref in entry.tools] if import_tools else []
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
                    if entry.url or entry.token_env:
                        field = "url" if entry.url else "token_env"
                        raise ConfigError(f"a child agent cannot have a {field}", field=field)
                    history = True if entry.pass_history is None else entry.pass_history
                    agents.append(ChildAgent(pass_history=history, **common))
                else:
                    history = True if entry.pass_history is None else entry.pass_history
                    agents.append(
                        ConnectedAgent(
                            pass_history=history,
                            url=entry.url,
                            token_env=entry.token_env,
                            **common,
                        )
                    )
            except ConfigError as exc:
                field = f"subagents[{index}]" + (f".{exc.field}" if exc.field else "")
                if tree is not None and exc.field:
                    line = locate(tree, ("subagents", index, exc.field)) or line
                raise ConfigError(exc.message, file=self.source, line=line, field=field) from exc
        return agents


def load_yaml(path: Path) -> Any:
    """Read a YAML file safely, with line information kept (see ``subagents._yaml``).

    Raises:
        ConfigError: when the file is missing, too large, not UTF-8 or not valid YAML, nests too
            deeply or expands too far; with its line.
    """
    return read_yaml(path)


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
    if not isinstance(node, dict):
        line = (locate(tree, at) if at else None) or 1
        raise ConfigError(
            f"{what} must be a mapping", file=str(file), line=line, field=_dotted(at) or None
        )
    try:
        return model.model_validate(_plain(node))
    except ValidationError as exc:
        errors = exc.errors()
        # A typo shows up twice (the unknown key and the missing one); the unknown key says more.
        error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = (*at, *error["loc"])
        raise ConfigError(
            _message(model, error),
            file=str(file),
            line=locate(tree, loc) or locate(tree, at) or 1,
            field=_dotted(loc) or None,
        ) from exc


def _dotted(loc: Sequence[str | int]) -> str:
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in loc).replace(".[", "[")


def _message(model: type[BaseModel], error: Mapping[str, Any]) -> str:
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden" and loc:
        key = str(loc[-1])
        known = _keys(model, loc[:-1])
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
        if close:
            return f"unknown key {key!r} (did you mean {close[0]!r}?)"
        if known:
            return f"unknown key {key!r} (expected one of {', '.join(known)})"
        return f"unknown key {key!r}"
    if error["type"] == "missing" and loc:
        return f"the required key {str(loc[-1])!r} is missing"
    return str(error["msg"])


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
    for index, entry in enumerate(config.subagents):
        if entry.outputs is not None and not entry.outputs:
            required = " and ".join(repr(n) for n in REQUIRED_OUTPUTS[entry.mode])
            warnings.warn_explicit(
                f"subagents[{index}].outputs: {entry.name!r} defines no outputs, so the parent "
                f"cannot tell what it already told the user and will say it again; as a "
                f"{entry.mode.value} agent it needs {required} (harness lint: HC001; "
                f"`harness lint --fix` adds them)",
                ConfigWarning,
                filename=str(file),
                lineno=locate(tree, ("subagents", index, "outputs")) or 1,
            )
    return config.model_copy(update={"source": str(file)})


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node
