"""Text, JSON and SARIF output."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from harness.lint import (
    RULES,
    LintFinding,
    LintReport,
    Severity,
    lint_paths,
    render_github,
    render_json,
    render_sarif,
    render_text,
)
from tests.lint.conftest import LINT

# The parts of the SARIF 2.1.0 schema (sarif-schema-2.1.0.json) that a code-scanning upload needs:
# every required property of the objects we emit, and the value sets of `level` and `version`.
SARIF_REQUIRED = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "informationUri": {"type": "string", "format": "uri"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "name": {"type": "string"},
                                                "shortDescription": {"$ref": "#/$defs/message"},
                                                "fullDescription": {"$ref": "#/$defs/message"},
                                                "help": {"$ref": "#/$defs/message"},
                                                "defaultConfiguration": {
                                                    "type": "object",
                                                    "properties": {
                                                        "level": {"$ref": "#/$defs/level"}
                                                    },
                                                },
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": -1},
                                "level": {"$ref": "#/$defs/level"},
                                "message": {"$ref": "#/$defs/message"},
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "properties": {
                                                    "artifactLocation": {
                                                        "type": "object",
                                                        "properties": {
                                                            "uri": {
                                                                "type": "string",
                                                                "format": "uri-reference",
                                                            },
                                                            "uriBaseId": {"type": "string"},
                                                        },
                                                    },
                                                    "region": {
                                                        "type": "object",
                                                        "properties": {
                                                            "startLine": {
                                                                "type": "integer",
                                                                "minimum": 1,
                                                            }
                                                        },
                                                    },
                                                },
                                                "anyOf": [
                                                    {"required": ["address"]},
                                                    {"required": ["artifactLocation"]},
                                                ],
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
    "$defs": {
        "level": {"enum": ["none", "note", "warning", "error"]},
        "message": {
            "type": "object",
            "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
            "properties": {"text": {"type": "string"}},
        },
    },
}


def _report() -> LintReport:
    return lint_paths([LINT / "broken", LINT / "workspace"])


def test_json_has_the_documented_shape() -> None:
    report = _report()
    data = json.loads(render_json(report))
    assert set(data) == {"version", "findings", "summary"}
    assert data["version"] == 1
    assert data["summary"] == {
        "files": report.files,
        "agents": report.agents,
        "parents": report.parents,
        "subagents": report.subagents,
        "errors": report.errors,
        "warnings": report.warnings,
    }
    assert report.parents + report.subagents == report.agents
    assert data["summary"]["errors"] > 0 and data["summary"]["warnings"] > 0
    for item in data["findings"]:
        assert list(item) == ["id", "name", "severity", "agent", "file", "line", "message"]
    first = next(f for f in data["findings"] if f["id"] == "HC004")
    assert first == {
        "id": "HC004",
        "name": "history-without-scope",
        "severity": "error",
        "agent": "pto",
        "file": "tests/fixtures/lint/broken/good.yaml",
        "line": 10,
        "message": first["message"],
    }
    hc100 = next(f for f in data["findings"] if f["id"] == "HC100")
    assert hc100["agent"] is None


def _sarif() -> dict[str, Any]:
    return json.loads(render_sarif(_report()))  # type: ignore[no-any-return]


def test_sarif_satisfies_the_required_parts_of_the_2_1_0_schema() -> None:
    log = _sarif()
    jsonschema.validate(log, SARIF_REQUIRED, format_checker=jsonschema.FormatChecker())


def test_sarif_schema_check_can_fail() -> None:
    log = _sarif()
    del log["runs"][0]["results"][0]["message"]
    errors = list(jsonschema.Draft202012Validator(SARIF_REQUIRED).iter_errors(log))
    assert errors


def test_sarif_carries_rule_metadata_and_physical_locations() -> None:
    log = _sarif()
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "harness-lint"
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [rule.id for rule in RULES]
    assert rules[0]["name"] == "no-outputs"
    assert rules[0]["defaultConfiguration"]["level"] == "error"
    assert rules[4]["defaultConfiguration"]["level"] == "warning"
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    good = next(r for r in run["results"] if r["ruleId"] == "HC004")
    location = good["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": "tests/fixtures/lint/broken/good.yaml",
        "uriBaseId": "%SRCROOT%",
    }
    assert location["region"] == {"startLine": 10}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")


def test_text_is_one_line_per_finding_as_ruff_prints_and_a_summary() -> None:
    report = _report()
    text = render_text(report)
    lines = text.splitlines()
    hc004 = next(line for line in lines if line.startswith("tests/fixtures/lint/broken/good.yaml"))
    assert hc004.startswith("tests/fixtures/lint/broken/good.yaml:10:1: HC004 error [pto] 'pto' ")
    pattern = re.compile(r"^(.+?):(\d+):1: (HC\d{3}) (error|warning|info) (?:\[(.+?)\] )?\S")
    assert all(pattern.match(line) for line in lines[: len(report.findings)])
    assert lines[len(report.findings)] == ""
    assert lines[-1].startswith(f"Found {report.errors} errors, {report.warnings} warnings")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_text_is_plain_off_a_terminal_and_coloured_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    report = _report()
    plain = io.StringIO()
    render_text(report, file=plain)
    assert "\x1b[" not in plain.getvalue()
    assert "HC004 error [pto]" in plain.getvalue()
    terminal = _Terminal()
    render_text(report, file=terminal)
    assert "\x1b[" in terminal.getvalue()
    coloured = io.StringIO()
    render_text(report, file=coloured, color=True)
    assert "\x1b[" in coloured.getvalue()


def test_no_color_turns_colour_off_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    terminal = _Terminal()
    text = render_text(_report(), file=terminal)
    assert "\x1b[" not in terminal.getvalue()
    assert terminal.getvalue() == text


def test_github_format_is_one_escaped_annotation_per_finding() -> None:
    report = _report()
    text = render_github(report)
    lines = text.splitlines()
    assert len(lines) == len(report.findings) + 1
    hc004 = next(line for line in lines if "title=HC004" in line)
    assert hc004.startswith(
        "::error file=tests/fixtures/lint/broken/good.yaml,line=10,col=1,"
        "title=HC004 history-without-scope::[pto] 'pto' "
    )
    assert any(line.startswith("::warning ") for line in lines)
    assert lines[-1].startswith("Found ")


def test_github_format_escapes_what_workflow_commands_reserve() -> None:
    finding = LintFinding(
        id="HC100",
        name="invalid-config",
        severity=Severity.ERROR,
        agent=None,
        file="a,b:c.yaml",
        line=3,
        message="50% broken\nsecond line",
    )
    text = render_github(LintReport(findings=(finding,), files=1, agents=0))
    assert text.splitlines()[0] == (
        "::error file=a%2Cb%3Ac.yaml,line=3,col=1,title=HC100 invalid-config::"
        "50%25 broken%0Asecond line"
    )


def test_text_says_when_all_checks_pass() -> None:
    report = lint_paths([LINT / "workspace" / "Helpdesk" / "agents" / "Payroll"])
    assert render_text(report).strip() == "All checks passed (1 file, 1 sub-agent)."
