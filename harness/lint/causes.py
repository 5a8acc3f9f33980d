"""Cause hints for detector findings: what in a bot's config can explain a finding.

A finding says what went wrong in a conversation; when the bot is known (``harness simulate`` with
an in-process bot), its config can often say why. The hints use the linter's own readings of
instructions (``harness.lint.phrases``), so a hint and a lint finding never disagree:

- a sub-agent's message repeated by the parent: a sentence of the parent's own instructions orders
  it to repeat or summarise its sub-agents' answers (lint's HC017; named even when the generated
  ``answered`` check is on, which that sentence contradicts); or its own instructions do not check
  ``answered`` and ``generated_instructions`` is off (the generated check is not there either),
  or ``generated_instructions`` is off while its own instructions do check it;
- a silent sub-agent's message reaching the user: its ``generated_instructions`` is off and its
  own instructions do not forbid messaging the user (no silence block);
- a missed request of an agent with ``generated_instructions`` off: its instructions are not
  anchored to the scoped request it was given.

Nothing is guessed: a finding with none of these causes keeps ``cause`` None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from harness.detect.findings import Finding
from harness.detect.results import DetectionResult
from harness.lint.phrases import (
    anchors_scope,
    checks_answered,
    forbids_user_messages,
    repeats_answers,
)

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["cause_of", "with_causes"]


def cause_of(finding: Finding, bot: Parent) -> str | None:
    """The cause hint for ``finding`` in a conversation with ``bot``, or None when none is known."""
    agents = bot.subagents
    if finding.kind == "duplicate" and bot.name in finding.senders:
        if not any(sender in agents for sender in finding.senders):
            return None
        ordered = repeats_answers(bot.instructions)
        if ordered is not None:
            return (
                f"the parent {bot.name}'s instructions order it to repeat its sub-agents' answers "
                f'("{ordered}"), against the `answered` check'
            )
        if bot.generated_instructions:
            return None
        if not checks_answered(bot.instructions):
            return (
                f"the parent {bot.name} does not check `answered`: generated_instructions is "
                "false and no sentence of its instructions checks it"
            )
        return (
            f"generated_instructions is false for the parent {bot.name}: only its own "
            "instructions tell it not to repeat a sub-agent's answer"
        )
    if finding.kind == "silent_leak" and finding.senders:
        agent = agents.get(finding.senders[0])
        if agent is None or agent.generated_instructions:
            return None
        if not forbids_user_messages(agent.instructions):
            return (
                f"{agent.name} is silent but has no silence block: generated_instructions is "
                "false and its instructions do not forbid messaging the user"
            )
        return None
    if finding.kind == "missed_request" and finding.senders:
        agent = agents.get(finding.senders[0])
        if agent is None or agent.generated_instructions:
            return None
        if not anchors_scope(agent.instructions):
            return (
                f"generated_instructions is false for {agent.name} and its instructions do not "
                "anchor it to the scoped request it is given"
            )
    return None


def with_causes(results: Sequence[DetectionResult], bot: Parent) -> list[DetectionResult]:
    """``results`` with each finding's ``cause`` set where ``bot``'s config explains it."""
    out = []
    for result in results:
        findings = tuple(
            f if f.cause is not None else replace(f, cause=cause_of(f, bot))
            for f in result.findings
        )
        out.append(replace(result, findings=findings))
    return out
