"""The Python API: ``harness.lint.lint_paths`` and the rule registry."""

from __future__ import annotations

import pytest

import harness.lint
from harness.exceptions import UsageError
from harness.lint import RULES, RULES_BY_ID, Rule, Severity, lint_paths
from tests.lint.conftest import LINT, Writer, ids

BROKEN = LINT / "broken"


def test_public_names_are_exported() -> None:
    assert {"LintReport", "LintFinding", "lint_paths", "fix_paths"} <= set(harness.lint.__all__)
    for name in harness.lint.__all__:
        assert hasattr(harness.lint, name)


def test_registry_has_every_documented_rule_once() -> None:
    expected = [f"HC{n:03d}" for n in range(1, 22)] + ["HC100", "HC101"]
    assert [rule.id for rule in RULES] == expected
    assert len({rule.name for rule in RULES}) == len(RULES)
    assert RULES_BY_ID["HC013"].name == "overlapping-descriptions"
    assert RULES_BY_ID["HC013"].severity is Severity.WARNING


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_each_rule_is_one_documented_object(rule: Rule) -> None:
    assert type(rule).__doc__ and len(rule.rationale) > 60, "a docstring with the rationale"
    assert rule.summary and rule.fix and rule.bad and rule.good
    assert rule.bad != rule.good
    assert rule.help.startswith(rule.rationale.split()[0])
    assert rule.name == rule.name.lower() and " " not in rule.name


def test_severities_override_and_counts_follow() -> None:
    default = lint_paths([BROKEN])
    raised = lint_paths([BROKEN], severities={"HC009": "error"})
    assert raised.errors == default.errors + 1
    assert raised.warnings == default.warnings - 1
    assert {f.severity for f in raised.findings if f.id == "HC009"} == {Severity.ERROR}


def test_select_all_and_names(write: Writer) -> None:
    path = write(
        "bot.yaml", "parent: {name: x}\nsubagents:\n  - {name: a, kind: child, mode: direct}\n"
    )
    assert ids(lint_paths([path], select=["ALL"]).findings) == ["HC008"]
    assert ids(lint_paths([path], ignore=["missing-description"]).findings) == []


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"select": ["HC0999"]}, "unknown rule"),
        ({"ignore": ["nonsense"]}, "unknown rule"),
        ({"severities": {"HC001": "fatal"}}, "severity of HC001"),
        ({"severities": {"HC999": "error"}}, "unknown rule id"),
    ],
)
def test_bad_options_are_usage_errors(options: dict[str, object], words: str) -> None:
    with pytest.raises(UsageError, match=words):
        lint_paths([BROKEN], **options)  # type: ignore[arg-type]


def test_findings_are_sorted_by_file_and_line() -> None:
    findings = lint_paths([BROKEN]).findings
    keys = [(f.file, f.line or 0) for f in findings]
    assert keys == sorted(keys)


def test_the_docs_rule_table_is_the_registry() -> None:
    from harness.lint.registry import rules_table
    from tests.lint.conftest import ROOT

    assert rules_table() in (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
