"""Render a lint report as text (``file:line:col: ID ...``, as ruff prints), JSON, SARIF 2.1.0 for
code scanning, or GitHub Actions annotations.

All four read the same rule registry, so ids, names, severities and descriptions agree. JSON has
the documented shape (docs/lint.md)::

    {"version": 1,
     "findings": [{"id", "name", "severity", "agent", "file", "line", "message"}],
     "summary": {"files", "agents", "errors", "warnings"}}
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

from harness._github import annotation
from harness._version import __version__
from harness.lint.model import LintReport, Severity
from harness.lint.registry import RULES

__all__ = [
    "INFORMATION_URI",
    "agent_count",
    "render_github",
    "render_json",
    "render_sarif",
    "render_text",
    "report_dict",
    "summary",
]

INFORMATION_URI = "https://pypi.org/project/connected-agent-harness/"
"""Where SARIF viewers send users for the tool's documentation."""

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "blue"}


def report_dict(report: LintReport) -> dict[str, Any]:
    """The report as the documented JSON document (docs/lint.md)."""
    return {
        "version": 1,
        "findings": [
            {
                "id": f.id,
                "name": f.name,
                "severity": f.severity.value,
                "agent": f.agent,
                "file": f.file,
                "line": f.line,
                "message": f.message,
            }
            for f in report.findings
        ],
        "summary": {
            "files": report.files,
            "agents": report.agents,
            "parents": report.parents,
            "subagents": report.subagents,
            "errors": report.errors,
            "warnings": report.warnings,
        },
    }


def render_json(report: LintReport) -> str:
    """The report as JSON text (indented, one trailing newline)."""
    return json.dumps(report_dict(report), indent=2, ensure_ascii=False) + "\n"


def _artifact(file: str) -> dict[str, str]:
    path = Path(file)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(file), "uriBaseId": "%SRCROOT%"}


def sarif_dict(report: LintReport) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log."""
    index = {rule.id: i for i, rule in enumerate(RULES)}
    rules = [
        {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.help},
            "help": {"text": rule.help},
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
            "properties": {"tags": ["agent-config"]},
        }
        for rule in RULES
    ]
    results: list[dict[str, Any]] = []
    for finding in report.findings:
        location: dict[str, Any] = {"artifactLocation": _artifact(finding.file)}
        if finding.line:
            location["region"] = {"startLine": finding.line}
        result: dict[str, Any] = {
            "ruleId": finding.id,
            "ruleIndex": index[finding.id],
            "level": _SARIF_LEVEL[finding.severity],
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": location}],
        }
        if finding.agent is not None:
            result["properties"] = {"agent": finding.agent}
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "harness-lint",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
                "invocations": [{"executionSuccessful": True}],
                "results": results,
            }
        ],
    }


def render_sarif(report: LintReport) -> str:
    """The report as SARIF 2.1.0 JSON text."""
    return json.dumps(sarif_dict(report), indent=2, ensure_ascii=False) + "\n"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def agent_count(parents: int, subagents: int) -> str:
    """``1 parent, 4 sub-agents`` (as ``harness chat`` counts a bot); ``0 agents`` for none."""
    parts = [_plural(parents, "parent")] if parents else []
    if subagents or not parents:
        parts.append(_plural(subagents, "sub-agent") if parents or subagents else "0 agents")
    return ", ".join(parts)


def summary(report: LintReport) -> str:
    """The report's closing line: ``All checks passed (...)`` or ``Found N errors, ... (...)``."""
    return _summary(report)[0]


def _summary(report: LintReport) -> tuple[str, str]:
    """The closing line and its style."""
    scope = f"{_plural(report.files, 'file')}, {agent_count(report.parents, report.subagents)}"
    if not report.findings:
        return f"All checks passed ({scope}).", "bold green"
    others = len(report.findings) - report.errors - report.warnings
    parts = [_plural(report.errors, "error"), _plural(report.warnings, "warning")]
    if others:
        parts.append(_plural(others, "note"))
    return f"Found {', '.join(parts)} ({scope}).", "bold red" if report.errors else "yellow"


def _text_lines(report: LintReport) -> Iterator[list[tuple[str, str]]]:
    """One line per finding, ``file:line:col: ID severity [agent] message`` (as ruff prints),
    then the summary; kept apart from rich so the layout is testable. Columns are not tracked:
    always 1."""
    for f in report.findings:
        yield [
            (f.file, "bold"),
            (f":{f.line or 1}:1:", "dim"),
            (" ", ""),
            (f.id, "bold cyan"),
            (" ", ""),
            (f.severity.value, _STYLE[f.severity]),
            (" ", ""),
            (f"[{f.agent}] " if f.agent else "", "magenta"),
            (f.message, ""),
        ]
    if report.findings:
        yield []
    yield [_summary(report)]


def render_text(
    report: LintReport, *, file: IO[str] | None = None, color: bool | None = None
) -> str:
    """Write the report one finding per line, in colour on a terminal unless ``NO_COLOR`` is set.

    Args:
        report: the report.
        file: where to write; None only returns the text.
        color: force colour on or off; None colours only when ``file`` is a terminal.

    Returns:
        The plain text (without colour codes).
    """
    plain = "\n".join("".join(text for text, _ in parts) for parts in _text_lines(report)) + "\n"
    if file is None:
        return plain
    if color is None and os.environ.get("NO_COLOR"):
        color = False  # https://no-color.org
    from rich.console import Console
    from rich.text import Text

    console = Console(
        file=file,
        force_terminal=color,
        no_color=color is False,
        soft_wrap=True,
        highlight=False,
        emoji=False,
    )
    for parts in _text_lines(report):
        console.print(Text.assemble(*parts))
    return plain


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def render_github(report: LintReport) -> str:
    """The report as GitHub Actions workflow commands: one annotation per finding, then the summary.

    ``::error file=F,line=L,col=1,title=ID name::[agent] message`` (``warning`` and ``notice``
    for the other severities), escaped as the Actions toolkit escapes them, so findings show on
    the pull request's lines without uploading anything.
    """
    lines = []
    for f in report.findings:
        where: dict[str, str | int] = {"file": f.file}
        if f.line:
            where |= {"line": f.line, "col": 1}
        agent = f"[{f.agent}] " if f.agent else ""
        lines.append(
            annotation(
                _GITHUB_LEVEL[f.severity], agent + f.message, **where, title=f"{f.id} {f.name}"
            )
        )
    lines.append(_summary(report)[0])
    return "\n".join(lines) + "\n"
