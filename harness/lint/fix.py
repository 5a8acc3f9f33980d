"""``harness lint --fix``: add the missing contract inputs and outputs to this SDK's YAML configs.

A fix adds, to an explicitly written ``outputs`` list, the outputs the agent's mode requires
(HC001-HC003); to an explicitly written ``inputs`` list of an agent that receives history, the
``scopedRequest`` input (HC004); and to contract-named inputs and outputs without a description,
the contract's description (HC007). Descriptions are the contract's standard words
(``instructions.OUTPUT_DESCRIPTIONS``). The file is rewritten with ruamel.yaml's round-trip mode,
so comments, key order, quoting and the file's indentation stay as they were; only the added lines
differ. Copilot Studio files are reported, never rewritten; files that do not parse are left alone.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.lint.model import normalize_io_name
from instructions.contract import (
    CHILD,
    INPUT_DESCRIPTIONS,
    KINDS,
    OUTPUT_DESCRIPTIONS,
    SCOPED_REQUEST,
)
from subagents.contract import REQUIRED_OUTPUTS, Mode

__all__ = ["FixResult", "copilot_fix_note", "fix_file", "fix_paths", "python_fix_notes"]

_DASH_UNDER_KEY = re.compile(
    r"^( *)[^\s#-][^:\n]*:[ \t]*(?:#.*)?\n(?:[ \t]*(?:#.*)?\n)*( *)- ", re.M
)
_KEY_LINE = re.compile(r"^( *)[^\s#-][^:\n]*:", re.M)


@dataclass(frozen=True, slots=True, kw_only=True)
class FixResult:
    """What ``--fix`` changed."""

    files: tuple[str, ...]
    """The files rewritten."""
    fixes: int
    """How many inputs, outputs and descriptions were added."""
    notes: tuple[str, ...] = ()
    """What ``--fix`` left alone and why, one line each (Copilot Studio files)."""


def _indentation(text: str) -> tuple[int, int, int]:
    """(mapping, sequence, offset) as ruamel.yaml's ``indent()`` takes them, read from the file."""
    mapping = 2
    indents = sorted({len(m.group(1)) for m in _KEY_LINE.finditer(text) if m.group(1)})
    if indents:
        mapping = indents[0]
    offset = 2
    match = _DASH_UNDER_KEY.search(text)
    if match:
        offset = max(0, len(match.group(2)) - len(match.group(1)))
    return mapping, offset + 2, offset


def _styled_like(seq: Any, values: dict[str, str]) -> Any:
    from ruamel.yaml.comments import CommentedMap

    item = CommentedMap(values)
    previous = seq[-1] if len(seq) else None
    if seq.fa.flow_style() or (isinstance(previous, CommentedMap) and previous.fa.flow_style()):
        item.fa.set_flow_style()
    return item


def _prepare(seq: Any) -> None:
    # An empty flow list (`outputs: []`) becomes a block list, which reads better once filled.
    if len(seq) == 0:
        seq.fa.set_block_style()


def _describe(seq: Any, standard: dict[str, str]) -> int:
    fixes = 0
    for item in seq:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        key = normalize_io_name(item["name"])
        description = item.get("description")
        if key in standard and not (isinstance(description, str) and description.strip()):
            item["description"] = standard[key]
            fixes += 1
    return fixes


def _names(seq: Any) -> set[str]:
    return {
        normalize_io_name(item["name"])
        for item in seq
        if isinstance(item, dict) and isinstance(item.get("name"), str)
    }


def _fix_agent(entry: Any) -> int:
    from ruamel.yaml.comments import CommentedSeq

    try:
        mode = Mode(entry.get("mode"))
    except ValueError:
        return 0
    kind = entry.get("kind")
    if kind not in KINDS:
        return 0
    fixes = 0
    outputs = entry.get("outputs")
    if isinstance(outputs, CommentedSeq):
        standard = {normalize_io_name(n): d for n, d in OUTPUT_DESCRIPTIONS.items()}
        fixes += _describe(outputs, standard)
        present = _names(outputs)
        missing = [n for n in REQUIRED_OUTPUTS[mode] if normalize_io_name(n) not in present]
        if missing:
            _prepare(outputs)
        for name in missing:
            outputs.append(
                _styled_like(outputs, {"name": name, "description": OUTPUT_DESCRIPTIONS[name]})
            )
            fixes += 1
    inputs = entry.get("inputs")
    if isinstance(inputs, CommentedSeq):
        standard = {normalize_io_name(n): d for n, d in INPUT_DESCRIPTIONS.items()}
        fixes += _describe(inputs, standard)
        history = kind == CHILD or entry.get("pass_history") is not False
        if history and normalize_io_name(SCOPED_REQUEST) not in _names(inputs):
            _prepare(inputs)
            item = _styled_like(
                inputs,
                {"name": SCOPED_REQUEST, "description": INPUT_DESCRIPTIONS[SCOPED_REQUEST]},
            )
            inputs.insert(0, item)
            fixes += 1
    return fixes


def fix_file(path: str | os.PathLike[str]) -> int:
    """Fix one of this SDK's config files in place.

    Args:
        path: the config file.

    Returns:
        How many inputs, outputs and descriptions were added (0: the file is left untouched).
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.error import YAMLError

    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    mapping, sequence, offset = _indentation(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    try:
        data = yaml.load(text)
    except YAMLError:
        return 0
    if not isinstance(data, CommentedMap):
        return 0
    agents = data.get("subagents")
    if not isinstance(agents, CommentedSeq):
        return 0
    fixes = sum(_fix_agent(entry) for entry in agents if isinstance(entry, CommentedMap))
    if fixes:
        out = io.StringIO()
        yaml.dump(data, out)
        file.write_text(out.getvalue(), encoding="utf-8")
    return fixes


def fix_paths(paths: Iterable[str | os.PathLike[str]]) -> FixResult:
    """Fix every one of this SDK's configs found under ``paths``; Copilot Studio files are skipped.

    Raises:
        UsageError: for a path that does not exist.
    """
    from harness.lint._engine import load_paths

    result = load_paths(paths)
    files = sorted({s.files[0] for s in result.systems if s.source == "harness" and s.files})
    changed: list[str] = []
    total = 0
    for file in files:
        count = fix_file(file)
        if count:
            changed.append(file)
            total += count
    copilot = {f for s in result.systems if s.source == "copilot-studio" for f in s.files}
    notes = (copilot_fix_note(len(copilot)),) if copilot else ()
    return FixResult(files=tuple(changed), fixes=total, notes=notes)


def copilot_fix_note(files: int) -> str:
    """What ``--fix`` says when it met Copilot Studio files: it never rewrites them."""
    some = "1 Copilot Studio file" if files == 1 else f"{files} Copilot Studio files"
    return (
        f"--fix left {some} unchanged: it rewrites this SDK's YAML configs only, and Copilot "
        "Studio files are reported, never rewritten. Describe the agents in a YAML file, paste "
        "the fragments of `harness instructions FILE --format copilot-studio` where their "
        'comments say (docs/instructions.md, "For Copilot Studio makers"), or make the changes '
        "the findings name in Copilot Studio, then lint again."
    )


def python_fix_notes(targets: Iterable[str]) -> list[str]:
    """What ``--fix`` says for each bot built in Python (``module:attr``): it cannot change code.

    It can add contract inputs, outputs and descriptions to this SDK's YAML only; for a Python bot
    the findings point at the ``ChildAgent(...)`` / ``ConnectedAgent(...)`` call or argument to
    edit by hand.
    """
    from harness.lint.load_python import is_python_target

    return [
        f"--fix cannot change {target} (a bot built in Python): it rewrites YAML configs only. "
        "Add the missing contract inputs, outputs and descriptions to the ChildAgent(...) / "
        "ConnectedAgent(...) calls the findings point at."
        for target in targets
        if is_python_target(target)
    ]
