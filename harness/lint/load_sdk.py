"""Load this SDK's YAML configs (docs/agents.md) into the neutral model, with lines.

The schema is the runtime's own (``subagents.config``'s pydantic models), so the linter reports as
invalid exactly what the runtime would refuse, but every problem becomes one HC100 finding with its
line and the rest of the file is still linted. Tool references are resolved on disk (the module's
source is parsed, never imported or executed; see ``_tools``). Unknown keys are worded as the
runtime's loader words them: ``unknown key 'timeout_s' (did you mean 'timeout'?)``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from harness._yaml import LMap, LSeq
from harness.lint._tools import tool_problem
from harness.lint.model import (
    AgentSystem,
    IOField,
    LoadResult,
    ParentSpec,
    SubagentSpec,
    TextField,
)
from subagents.config import (
    BotConfig,
    ParentConfig,
    SubagentConfig,
    error_message,
    plain,
    unknown_key_message,
)
from subagents.contract import Kind, Mode

__all__ = ["looks_like_sdk_config", "system_from_sdk"]

# The runtime's rule (``ChildAgent``, ``ConnectedAgent``): letters and digits of any
# script, '-', '_'.
_NAME = re.compile(r"[\w-]+\Z")
_TOP_KEYS = frozenset(name for name in BotConfig.model_fields if name != "source")


def looks_like_sdk_config(data: Any) -> bool:
    """True when a parsed YAML document is meant as this SDK's config."""
    return isinstance(data, LMap) and ("parent" in data or "subagents" in data)


def system_from_sdk(data: Any, *, file: str, result: LoadResult) -> None:
    """Translate one parsed config into an ``AgentSystem``, recording problems as HC100.

    Args:
        data: the parsed document (``LMap`` / ``LSeq`` tree).
        file: the file's display path.
        result: where the system and the problems go.
    """
    problems = result.problems
    if not isinstance(data, LMap):
        line = data.line if isinstance(data, LSeq) else 1
        problems.append(
            (file, line, None, "a harness config is a mapping with 'parent' and 'subagents' keys")
        )
        return
    for key in data:
        if key not in _TOP_KEYS:
            message = unknown_key_message(str(key), sorted(_TOP_KEYS))
            problems.append((file, data.line_of(key), None, f"{key}: {message}"))
    parent = _parent(data, file, problems)
    subagents: list[SubagentSpec] = []
    raw = data.get("subagents")
    if raw is not None and not isinstance(raw, LSeq):
        problems.append((file, data.line_of("subagents"), None, "'subagents' must be a list"))
    elif raw is not None:
        seen: dict[str, int] = {}
        for index, entry in enumerate(raw):
            spec = _subagent(entry, index, raw.line_of(index), file, problems)
            if spec is None:
                continue
            if spec.name in seen:
                problems.append(
                    (
                        file,
                        spec.line,
                        spec.name,
                        f"duplicate sub-agent name {spec.name!r} (first on line {seen[spec.name]})",
                    )
                )
                continue
            seen[spec.name] = spec.line or 0
            subagents.append(spec)
    name = parent.name if parent else file
    result.systems.append(
        AgentSystem(
            name=name, source="harness", parent=parent, subagents=tuple(subagents), files=(file,)
        )
    )


def _validate(
    model: type[BaseModel],
    node: LMap,
    *,
    file: str,
    where: str,
    agent: str | None,
    problems: list[tuple[str, int | None, str | None, str]],
) -> bool:
    try:
        model.model_validate(plain(node))
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            field = where + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
            message = error_message(model, error)
            if error["type"] not in ("extra_forbidden", "missing") and (
                "input" in error and not isinstance(error["input"], dict | list)
            ):
                got = repr(error["input"])
                message += f" (got {got if len(got) <= 60 else got[:57] + '...'})"
            problems.append((file, _locate(node, loc), agent, f"{field}: {message}"))
        return False
    name = node.get("model")
    if isinstance(name, str):
        # Which model prefixes exist is the registry's business, not the schema's.
        from harness.exceptions import ConfigError
        from harness.models.registry import check_model_name

        try:
            check_model_name(name)
        except ConfigError as exc:
            problems.append((file, node.line_of("model"), agent, f"{where}.model: {exc.message}"))
            return False
    return True


def _parent(data: LMap, file: str, problems: list[Any]) -> ParentSpec | None:
    node = data.get("parent")
    if node is None:
        problems.append((file, data.line, None, "the 'parent' section is missing"))
        return None
    if not isinstance(node, LMap):
        problems.append((file, data.line_of("parent"), None, "'parent' must be a mapping"))
        return None
    name = node.get("name")
    agent = name if isinstance(name, str) and name else None
    valid = _validate(ParentConfig, node, file=file, where="parent", agent=agent, problems=problems)
    if not valid and agent is None:
        return None
    instructions = node.get("instructions")
    return ParentSpec(
        name=agent or "parent",
        instructions=TextField(text=instructions, file=file, line=node.line_of("instructions"))
        if isinstance(instructions, str)
        else None,
        generated_instructions=node.get("generated_instructions", True) is not False,
        file=file,
        line=data.line_of("parent"),
    )


def _subagent(
    entry: Any, index: int, line: int, file: str, problems: list[Any]
) -> SubagentSpec | None:
    where = f"subagents[{index}]"
    if not isinstance(entry, LMap):
        problems.append((file, line, None, f"{where}: a sub-agent must be a mapping"))
        return None
    raw_name = entry.get("name")
    name = raw_name if isinstance(raw_name, str) and raw_name else None
    valid = _validate(SubagentConfig, entry, file=file, where=where, agent=name, problems=problems)
    if name is not None and not _NAME.match(name):
        problems.append(
            (
                file,
                entry.line_of("name"),
                name,
                f"{where}.name: a sub-agent name must be letters, digits, '-' or '_'",
            )
        )
        valid = False
    kind, mode = entry.get("kind"), entry.get("mode")
    if kind == "child" and entry.get("url") is not None:
        problems.append(
            (file, entry.line_of("url"), name, f"{where}.url: a child agent has no url")
        )
    url = entry.get("url")
    if isinstance(url, str) and not url.startswith(("http://", "https://")):
        problems.append((file, entry.line_of("url"), name, f"{where}.url: must be an http(s) URL"))
    tools = entry.get("tools")
    if isinstance(tools, LSeq):
        for i, ref in enumerate(tools):
            problem = tool_problem(ref, config=Path(file)) if isinstance(ref, str) else None
            if problem is not None:
                problems.append((file, tools.line_of(i), name, f"{where}.tools[{i}]: {problem}"))
    if not valid and (
        name is None
        or kind not in ("child", "connected")
        or not isinstance(mode, str)
        or mode not in _MODES
    ):
        return None
    agent_kind = Kind(str(kind))
    history_raw = entry.get("pass_history")
    history = history_raw is not False
    description = entry.get("description")
    instructions = entry.get("instructions")
    return SubagentSpec(
        name=name or where,
        kind=agent_kind,
        mode=Mode(str(mode)),
        mode_source="config",
        history=history,
        history_line=entry.line_of("pass_history") if "pass_history" in entry else None,
        description=TextField(text=description, file=file, line=entry.line_of("description"))
        if isinstance(description, str)
        else None,
        instructions=TextField(
            text=instructions if isinstance(instructions, str) else "",
            file=file,
            line=entry.line_of("instructions") if "instructions" in entry else line,
        ),
        inputs=_io(entry, "inputs", file),
        outputs=_io(entry, "outputs", file),
        inputs_line=entry.line_of("inputs") if "inputs" in entry else None,
        outputs_line=entry.line_of("outputs") if "outputs" in entry else None,
        generated_instructions=entry.get("generated_instructions", True) is not False,
        file=file,
        line=line,
        source="harness",
    )


_MODES = frozenset(m.value for m in Mode)


def _io(entry: LMap, key: str, file: str) -> tuple[IOField, ...] | None:
    node = entry.get(key)
    if not isinstance(node, LSeq):
        return None
    fields: list[IOField] = []
    for index, item in enumerate(node):
        if not isinstance(item, LMap) or not isinstance(item.get("name"), str):
            continue
        description = item.get("description")
        fields.append(
            IOField(
                name=item["name"],
                description=description if isinstance(description, str) else None,
                file=file,
                line=node.line_of(index),
            )
        )
    return tuple(fields)


def _locate(node: Any, loc: tuple[Any, ...]) -> int | None:
    line: int | None = node.line if isinstance(node, LMap | LSeq) else None
    for part in loc:
        if (isinstance(node, LMap) and part in node) or (
            isinstance(node, LSeq) and isinstance(part, int) and 0 <= part < len(node)
        ):
            line = node.line_of(part)
            node = node[part]
        else:
            break
    return line
