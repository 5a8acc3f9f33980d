"""The config linter (``harness lint``; docs/lint.md).

It reads this SDK's YAML configs and Copilot Studio agents (classic and newer VS Code extension
workspaces, classic and newer exported solutions, ``botdefinition.json`` caches) into one neutral
model and finds the design faults that cause duplicate messages and missed requests: missing
outputs, history without a scoped input, a parent that does not check ``answered``, and the rest
of rules HC001-HC018, plus HC100 for invalid files and HC101 for paths where nothing is recognised.
Each rule is one object (``Rule``) in one registry (``RULES``). Nothing in the configs is imported
or executed.

    >>> from harness.lint import lint_paths
    >>> report = lint_paths(["samples/helpdesk/helpdesk.yaml"])  # doctest: +SKIP
    >>> [f.id for f in report.findings]  # doctest: +SKIP
    []
"""

from harness.lint._engine import lint_paths
from harness.lint.fix import fix_paths
from harness.lint.model import LintFinding, LintReport, Severity
from harness.lint.registry import RULES, RULES_BY_ID, Rule
from harness.lint.reporters import render_github, render_json, render_sarif, render_text

__all__ = [
    "RULES",
    "RULES_BY_ID",
    "LintFinding",
    "LintReport",
    "Rule",
    "Severity",
    "fix_paths",
    "lint_paths",
    "render_github",
    "render_json",
    "render_sarif",
    "render_text",
]
