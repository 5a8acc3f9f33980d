"""What a lint rule is: one object with its id, name, severity, rationale, examples, fix and check.

Every rule is a small subclass of :class:`Rule`, as ruff's rules are: the class docstring is the
rationale (why the fault causes duplicate or missed answers), ``bad`` and ``good`` are short config
examples, ``fix`` says what to change, and ``check`` finds it. The one registry
(:mod:`harness.lint.registry`) lists them; the reporters, ``--select`` / ``--ignore``, the severity
settings and the rule table in ``docs/lint.md`` all read it.

A rule overrides whichever hook fits what it judges: ``check_agent`` (each sub-agent),
``check_parent`` (the parent) or ``check`` (the whole system). Findings carry the rule's default
severity; the engine drops unselected rules and applies configured severities.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import ClassVar

from harness.lint.model import (
    AgentSystem,
    LintFinding,
    ParentSpec,
    Severity,
    SubagentSpec,
    TextField,
)

__all__ = ["Rule"]


class Rule:
    """A lint rule (subclasses give the docstring: the rationale)."""

    id: ClassVar[str]
    """Stable id, ``HC001`` ... ``HC101``; never changes once released."""
    name: ClassVar[str]
    """Stable kebab-case name; never changes once released."""
    severity: ClassVar[Severity]
    """Default severity (configurable)."""
    summary: ClassVar[str]
    """One line: when it fires."""
    fix: ClassVar[str]
    """How to fix what it finds, in each format it applies to."""
    bad: ClassVar[str]
    """A short config that it reports."""
    good: ClassVar[str]
    """The same config, fixed."""

    @property
    def rationale(self) -> str:
        """Why the fault matters: the class docstring, dedented."""
        return inspect.cleandoc(type(self).__doc__ or "")

    @property
    def help(self) -> str:
        """The rationale and the fix, as SARIF and ``--format json`` consumers show them."""
        return f"{' '.join(self.rationale.split())} {self.fix}"

    def check(self, system: AgentSystem, *, enabled: frozenset[str]) -> Iterator[LintFinding]:
        """Findings in one system (by default: the parent, then each sub-agent).

        Args:
            system: the parent and sub-agents to check.
            enabled: the selected rule ids (a rule that supersedes others needs to know).
        """
        if system.parent is not None:
            yield from self.check_parent(system.parent, system)
        for agent in system.subagents:
            yield from self.check_agent(agent, system, enabled=enabled)

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        """Findings for one sub-agent (none unless overridden)."""
        return iter(())

    def check_parent(self, parent: ParentSpec, system: AgentSystem) -> Iterator[LintFinding]:
        """Findings for the parent (none unless overridden)."""
        return iter(())

    def finding(
        self, *, agent: str | None, file: str, line: int | None, message: str
    ) -> LintFinding:
        """A finding of this rule, with its default severity."""
        return LintFinding(
            id=self.id,
            name=self.name,
            severity=self.severity,
            agent=agent,
            file=file,
            line=line,
            message=message,
        )

    def report(
        self,
        spec: SubagentSpec | ParentSpec,
        message: str,
        *,
        at: TextField | None = None,
        line: int | None = None,
    ) -> LintFinding:
        """A finding on a sub-agent or the parent, where the fault is written.

        Args:
            spec: the agent it is about (its name; its file and line unless told otherwise).
            message: what is wrong and how to fix it.
            at: a text of the agent (instructions, a description): the finding points at its file
                and line.
            line: without ``at``, a line of the agent's own file (``outputs:``, ``historyType``).

        When neither names a line, the finding points at the line where the agent is defined.
        """
        return self.finding(
            agent=spec.name,
            file=at.file if at is not None else spec.file,
            line=(at.line if at is not None else line) or spec.line,
            message=message,
        )

    def __repr__(self) -> str:
        return f"<Rule {self.id} {self.name}>"
