"""HC017: a parent told to repeat its sub-agents' answers, against the ``answered`` check."""

from __future__ import annotations

from collections.abc import Iterator

from harness.lint import phrases
from harness.lint.model import AgentSystem, LintFinding, ParentSpec, Severity
from harness.lint.rule import Rule
from subagents.contract import Mode

__all__ = ["ParentRepeatsAnswers"]


class ParentRepeatsAnswers(Rule):
    """A parent whose own instructions tell it to repeat, restate, recap or summarise its
    sub-agents' answers, or to ignore `answered`, contradicts the `answered` check: the model
    follows the concrete sentence over the general check, and the user gets each answer twice.
    This holds with the generated instructions on too (the runtime prepends the check; it does not
    remove the sentence). Only parents with a direct or conversational sub-agent are checked: the
    findings of silent agents are the parent's to relay."""

    id = "HC017"
    name = "parent-repeats-answers"
    severity = Severity.ERROR
    summary = (
        "The parent's instructions tell it to repeat or summarise its sub-agents' answers, or to "
        "ignore `answered`."
    )
    fix = "Remove the sentence; a closing summary may add only what no sub-agent has told the user."
    bad = (
        "instructions: After the sub-agents reply, always repeat each of their answers to the "
        "customer in one final summary."
    )
    good = "instructions: Add only what no sub-agent has already told the customer."

    def check_parent(self, parent: ParentSpec, system: AgentSystem) -> Iterator[LintFinding]:
        text = parent.instructions
        if text is None or not any(a.mode is not Mode.SILENT for a in system.subagents):
            return
        sentence = phrases.repeats_answers(text.text)
        if sentence is None:
            return
        generated = (
            " (the generated check the runtime prepends does not override it)"
            if parent.generated_instructions
            else ""
        )
        yield self.report(
            parent,
            (
                f"The instructions of parent '{parent.name}' tell it to repeat its sub-agents' "
                f"answers (\"{sentence}\"), which contradicts the 'answered' check{generated}: "
                f"the user gets each answer twice. Remove the sentence; a closing summary may add "
                f"only what no sub-agent has told the user."
            ),
            at=text,
        )
