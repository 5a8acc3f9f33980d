"""Find the configs under the given paths, load them, link them, check them, report.

A path may be a file (this SDK's YAML, a ``.mcs.yml`` file, a solution component's ``data``, a
``botdefinition.json``), a Copilot Studio workspace folder (it holds ``agent.mcs.yml``, or the newer
layout's ``settings.mcs.yml``), a solution folder (it holds ``botcomponents`` or ``bots``), or any
folder holding several of them, searched recursively (hidden folders, virtualenvs and
``node_modules`` skipped; each real folder once, so symlink loops end). A path under which nothing
is recognised becomes one HC101 finding. In a folder search, a ``.yaml`` / ``.yml`` file counts
as a config only when it has a top-level ``parent:`` or ``subagents:`` key, so scenario files and CI
workflows are left alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from harness._yaml import YamlSyntaxError, parse_yaml
from harness.exceptions import UsageError
from harness.lint._files import UnreadableFileError, read_config
from harness.lint._tools import forget_tools
from harness.lint.load_copilot import infer_mode
from harness.lint.load_layouts import (
    AGENT_MARKERS,
    is_cli_workspace,
    load_bot_definition,
    load_component_file,
    load_solution,
    load_workspace,
)
from harness.lint.load_python import is_python_target, system_from_python
from harness.lint.load_sdk import looks_like_sdk_config, system_from_sdk
from harness.lint.model import (
    AgentSystem,
    LintFinding,
    LintReport,
    LoadResult,
    Severity,
    SubagentSpec,
)
from harness.lint.registry import RULES_BY_ID, check_system
from harness.lint.settings import select_rules
from subagents.contract import Kind

__all__ = ["LAYOUTS_LOOKED_FOR", "lint_paths", "load_paths"]

LAYOUTS_LOOKED_FOR = (
    "looked for this SDK's YAML (top-level 'parent' and 'subagents'), Copilot Studio VS Code "
    "workspaces (agent.mcs.yml, or settings.mcs.yml of a cliagent template), exported solutions "
    "(botcomponents/*/data, bots/*/configuration.json), .mcs.yml components and botdefinition.json "
    "caches"
)
"""What HC101 says was looked for."""

_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages", "variables"})
_CONFIG_KEY = re.compile(r"^(?:parent|subagents)\s*:", re.MULTILINE)
_CHILD_KIND = re.compile(r"^kind:\s*AgentDialog\b", re.MULTILINE)
_YAML_SUFFIXES = (".yaml", ".yml")
_MCS_SUFFIXES = (".mcs.yml", ".mcs.yaml")


class _Display:
    """Paths as findings show them: relative to the working directory when under it."""

    def __init__(self) -> None:
        self.cwd = Path.cwd()
        self.prefix = os.path.join(str(self.cwd), "")

    def __call__(self, path: Path) -> str:
        text = os.path.normpath(os.path.join(self.prefix, path))
        if text.startswith(self.prefix):
            text = text[len(self.prefix) :]
        return text.replace(os.sep, "/") if os.sep != "/" else text


def _read(path: Path) -> str:
    try:
        return read_config(path)
    except UnreadableFileError:
        return ""


def _is_solution_component(path: Path) -> bool:
    return path.name == "data" and path.parent.parent.name == "botcomponents"


def _load_sdk_file(path: Path, result: LoadResult, display: _Display, *, explicit: bool) -> None:
    try:
        text = read_config(path)
    except UnreadableFileError as exc:
        if explicit or exc.line is not None:
            file = display(path)
            result.files.add(file)
            result.problems.append((file, exc.line, None, exc.problem))
        return
    if not explicit and not _CONFIG_KEY.search(text):
        return
    file = display(path)
    result.files.add(file)
    try:
        data = parse_yaml(text)
    except YamlSyntaxError as exc:
        result.problems.append((file, exc.line, None, f"invalid YAML: {exc.problem}"))
        return
    if looks_like_sdk_config(data):
        system_from_sdk(data, file=file, result=result)
    elif isinstance(data, dict) and "kind" in data:
        result.files.discard(file)
        load_component_file(path, result, display)
    else:
        result.problems.append(
            (
                file,
                1,
                None,
                "not an agent config: expected this SDK's YAML (top-level 'parent' and "
                "'subagents') or a Copilot Studio component (a 'kind' key)",
            )
        )


def _load_file(path: Path, result: LoadResult, display: _Display) -> None:
    name = path.name
    if _is_solution_component(path) or name.endswith(_MCS_SUFFIXES):
        load_component_file(path, result, display)
    elif name == "botdefinition.json":
        load_bot_definition(path, result, display)
    elif name.endswith(_YAML_SUFFIXES):
        _load_sdk_file(path, result, display, explicit=True)
    else:
        file = display(path)
        result.files.add(file)
        result.problems.append(
            (
                file,
                None,
                None,
                "not a file the linter reads: give a .yaml / .yml config, a .mcs.yml file, a "
                "solution component's data file, a botdefinition.json, or a folder",
            )
        )


def _load_dir(root: Path, result: LoadResult, display: _Display, seen: set[str]) -> None:
    try:
        real = os.path.realpath(root)
    except OSError:
        return
    if real in seen:  # a symlink loop, or a folder reached twice
        return
    seen.add(real)
    if (root / "botcomponents").is_dir() or (root / "bots").is_dir():
        load_solution(root, result, display)
        return
    if root.name == "botcomponents":
        load_solution(root.parent, result, display)
        return
    if (root / "agent.mcs.yml").is_file():
        if root.parent.name == "agents" and _CHILD_KIND.search(_read(root / "agent.mcs.yml")):
            # One child agent's folder (agents/<Child>/) of a workspace, on its own.
            load_component_file(root / "agent.mcs.yml", result, display)
        else:
            load_workspace(root, result, display)
        return
    if (root / "settings.mcs.yml").is_file() and is_cli_workspace(root):
        load_workspace(root, result, display)
        return
    if (root / "botdefinition.json").is_file():
        load_bot_definition(root / "botdefinition.json", result, display)
        return
    stray: list[Path] = []
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError as exc:
        result.problems.append((display(root), None, None, f"cannot read the folder: {exc}"))
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            if entry.name not in _SKIP_DIRS:
                _load_dir(path, result, display, seen)
        elif entry.name.endswith(_MCS_SUFFIXES):
            stray.append(path)
        elif entry.name.endswith(_YAML_SUFFIXES):
            _load_sdk_file(path, result, display, explicit=False)
    for path in stray:
        text = _read(path)
        if any(marker in text for marker in AGENT_MARKERS):
            load_component_file(path, result, display)


def _link_connected(systems: list[AgentSystem]) -> list[AgentSystem]:
    """Work out the mode of every Copilot Studio connected agent, the one place it is done.

    A connected agent's mode can only be known here: it is inferred (``infer_mode``) from the
    instructions of the agent it calls, when that agent is linted too (they are then given to it),
    and from its outputs."""
    parents = {
        s.schema_name.lower(): s.parent
        for s in systems
        if s.schema_name and s.parent is not None and s.parent.instructions is not None
    }
    linked: list[AgentSystem] = []
    for system in systems:
        if system.source != "copilot-studio":
            linked.append(system)
            continue
        agents: list[SubagentSpec] = []
        for agent in system.subagents:
            if agent.kind is Kind.CONNECTED:
                target = parents.get((agent.target or "").lower())
                borrowed = None if target is None or agent.instructions else target.instructions
                mode, source = infer_mode(borrowed, agent.outputs)
                instructions = agent.instructions or borrowed
                agent = replace(
                    agent,
                    instructions=instructions,
                    mode=mode,
                    mode_source=source,
                    own_file=None if target is None else target.file,
                )
            agents.append(agent)
        linked.append(replace(system, subagents=tuple(agents)))
    return linked


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name too long for the file system
        return False


def load_paths(paths: Iterable[str | os.PathLike[str]]) -> LoadResult:
    """Find and load every config under ``paths``, with connected agents linked.

    Raises:
        UsageError: for a path that does not exist.
    """
    targets = [Path(p) for p in paths]
    missing = [str(p) for p in targets if not _exists(p) and not is_python_target(str(p))]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    display = _Display()
    result = LoadResult()
    seen: set[str] = set()
    forget_tools()
    for path in targets:
        if path.is_dir() and os.path.realpath(path) in seen:
            continue
        before = (len(result.systems), len(result.problems))
        if not path.exists():  # a bot built in Python: module:attr
            system_from_python(str(path), result=result, display=display)
        elif path.is_dir():
            _load_dir(path, result, display, seen)
        else:
            _load_file(path, result, display)
        if (len(result.systems), len(result.problems)) == before:
            result.unrecognised.append(display(path))
    result.systems[:] = _link_connected(result.systems)
    return result


def lint_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    severities: Mapping[str, Severity | str] | None = None,
) -> LintReport:
    """Lint agent configs: this SDK's YAML and Copilot Studio workspaces, solutions and files.

    Nothing in the configs is imported or executed.

    Args:
        paths: files and folders to lint.
        select: rule codes to run (ids, prefixes such as ``HC00``, names, ``ALL``); None runs all.
        ignore: rule codes to skip. HC100 runs unless ignored explicitly.
        severities: severity per rule id (``{"HC013": "error"}``).

    Returns:
        The findings, sorted by file, line and rule id, with the counts of files and agents.

    Raises:
        UsageError: for a path that does not exist or an unknown rule code or severity.
    """
    enabled = select_rules(select, ignore)
    levels: dict[str, Severity] = {}
    for code, level in (severities or {}).items():
        if code not in RULES_BY_ID:
            raise UsageError(f"unknown rule id {code!r} in severities")
        try:
            levels[code] = Severity(level)
        except ValueError:
            raise UsageError(f"severity of {code} must be error, warning or info") from None
    result = load_paths(paths)
    systems = result.systems
    findings: list[LintFinding] = []
    seen: set[LintFinding] = set()

    def keep(finding: LintFinding) -> None:
        if finding.id not in enabled or finding in seen:
            return
        level = levels.get(finding.id)
        if level is not None and level is not finding.severity:
            finding = replace(finding, severity=level)
        seen.add(finding)
        findings.append(finding)

    for file, line, agent, message in result.problems:
        keep(RULES_BY_ID["HC100"].finding(agent=agent, file=file, line=line, message=message))
    unrecognised = f"no agent config recognised here: {LAYOUTS_LOOKED_FOR}"
    for path in result.unrecognised:
        keep(RULES_BY_ID["HC101"].finding(agent=None, file=path, line=None, message=unrecognised))
    agents = parents = 0
    for system in systems:
        parents += 1 if system.parent is not None else 0
        agents += len(system.subagents) + (1 if system.parent is not None else 0)
        for finding in check_system(system, enabled):
            keep(finding)
    findings.sort(key=lambda f: (f.file, f.line or 0, f.id, f.agent or ""))
    return LintReport(
        findings=tuple(findings), files=len(result.files), agents=agents, parents=parents
    )
