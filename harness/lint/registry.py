"""Every lint rule, registered in one place, as ruff does.

The text, JSON and SARIF reporters, ``--select`` / ``--ignore``, the severity configuration and the
rule table of ``docs/lint.md`` (checked against :func:`rules_table` by a test) all read
:data:`RULES`. Ids and names never change once released.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from harness.lint.model import AgentSystem, LintFinding
from harness.lint.rule import Rule
from harness.lint.rules.contract import (
    ChildHistoryOff,
    HistoryWithoutScope,
    InputDeclarationsDiffer,
    InputNotListed,
    IoTypeMismatch,
    MissingAnswered,
    MissingModeOutputs,
    NoOutputs,
    UndocumentedIO,
)
from harness.lint.rules.length import InstructionsTooLong
from harness.lint.rules.repeat import ParentRepeatsAnswers
from harness.lint.rules.structure import (
    ChildHasActions,
    ConnectedIoMisplaced,
    InvalidConfig,
    MissingDescription,
    NothingRecognised,
    OverlappingDescriptions,
)
from harness.lint.rules.text import (
    DescriptionMissingAnsweredHint,
    OnlySpeakerAntipattern,
    ParentMissingAnsweredCheck,
    ScopeNotAnchored,
    SilenceNotInstructed,
    SilentAgentAddressesUser,
)

__all__ = ["RULES", "RULES_BY_ID", "Rule", "check_system", "rules_table"]

RULES: tuple[Rule, ...] = (
    NoOutputs(),
    MissingAnswered(),
    MissingModeOutputs(),
    HistoryWithoutScope(),
    ScopeNotAnchored(),
    SilenceNotInstructed(),
    UndocumentedIO(),
    MissingDescription(),
    DescriptionMissingAnsweredHint(),
    ParentMissingAnsweredCheck(),
    OnlySpeakerAntipattern(),
    ChildHistoryOff(),
    OverlappingDescriptions(),
    ConnectedIoMisplaced(),
    ChildHasActions(),
    SilentAgentAddressesUser(),
    ParentRepeatsAnswers(),
    InstructionsTooLong(),
    IoTypeMismatch(),
    InputNotListed(),
    InputDeclarationsDiffer(),
    InvalidConfig(),
    NothingRecognised(),
)
"""Every rule, in id order."""

RULES_BY_ID: Mapping[str, Rule] = {rule.id: rule for rule in RULES}
"""The rules keyed by id."""


def check_system(system: AgentSystem, enabled: frozenset[str]) -> Iterator[LintFinding]:
    """Run every enabled rule on one system.

    Args:
        system: the parent and sub-agents to check.
        enabled: the selected rule ids.

    Yields:
        Findings with their rules' default severities.
    """
    for rule in RULES:
        if rule.id in enabled:
            yield from rule.check(system, enabled=enabled)


def rules_table() -> str:
    """The Markdown rule table of ``docs/lint.md``: id, name, default severity, when, fix."""
    lines = [
        "| id | name | default | fires when | how to fix |",
        "|---|---|---|---|---|",
    ]
    for rule in RULES:
        cells = (rule.id, rule.name, rule.severity.value, rule.summary, rule.fix)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
