"""Text rules: what instructions and descriptions say (read by :mod:`harness.lint.phrases`)."""

from __future__ import annotations

from collections.abc import Iterator

from harness.lint import phrases
from harness.lint.model import AgentSystem, LintFinding, ParentSpec, Severity, SubagentSpec
from harness.lint.rule import Rule
from harness.lint.rules._words import (
    ANSWERED_HINT,
    NO_IO,
    SCOPE_ANCHOR,
    SILENCE_BLOCK,
    SILENT_HINT,
    TASK_ANCHOR,
    generated_hint,
    own_text,
)
from subagents.contract import Mode

__all__ = [
    "DescriptionMissingAnsweredHint",
    "OnlySpeakerAntipattern",
    "ParentMissingAnsweredCheck",
    "ScopeNotAnchored",
    "SilenceNotInstructed",
    "SilentAgentAddressesUser",
]


class ScopeNotAnchored(Rule):
    """Instructions should anchor the agent to its scoped request: treat it as the initial request
    and ignore any other requests in the conversation. In this SDK's YAML the generated sub-agent
    instructions contain the anchor, so the rule judges the agent's own instructions only with
    `generated_instructions: false`. For a Copilot Studio connected agent it judges the called
    agent's instructions when its files are linted too."""

    id = "HC005"
    name = "scope-not-anchored"
    severity = Severity.WARNING
    summary = "Its instructions never mention `scopedRequest` / the scoped request."
    fix = (
        'Add the scope anchor of the generated instructions ("treat it as your initial request '
        'and ignore any other requests").'
    )
    bad = "instructions: You look up leave balances."
    good = (
        "instructions: You look up leave balances. Fulfil the request in the scopedRequest "
        "input; treat it as your initial request and ignore any other requests."
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        text = own_text(agent)
        if text is None or phrases.anchors_scope(text.text):
            return
        if agent.layout == "connected-agent-tool":
            advice = (
                f"{NO_IO[agent.layout]} cannot pass a 'scopedRequest' input, so anchor it to the "
                f"task it is given: {TASK_ANCHOR}."
            )
        else:
            advice = (
                f"Add the scope anchor of the generated sub-agent instructions"
                f"{generated_hint(agent.source)}: {SCOPE_ANCHOR}."
            )
        yield self.report(
            agent,
            (
                f"The instructions of '{agent.name}' never mention its scoped request, so it may "
                f"take up other requests it sees in the conversation. {advice[0].upper()}"
                f"{advice[1:]}"
            ),
            at=text,
        )


class SilenceNotInstructed(Rule):
    """Copilot Studio's completion setting does not stop a child agent from messaging the user;
    only an explicit instruction does (do not respond to the user, do not call SendMessageTool,
    only fill the output variables). In this SDK's YAML the generated silence block does it unless
    `generated_instructions: false`. In Copilot Studio an agent counts as silent here when its
    outputs say so (`findings` without `interactionSummary`) but its instructions let it talk."""

    id = "HC006"
    name = "silence-not-instructed"
    severity = Severity.ERROR
    summary = "A silent agent whose instructions do not explicitly forbid messaging the user."
    fix = (
        "Add the silence block of the generated instructions (do not respond to the user, do not "
        "call SendMessageTool, only fill the output variables)."
    )
    bad = "mode: silent\ngenerated_instructions: false\ninstructions: Compute the payslip."
    good = (
        "mode: silent\ngenerated_instructions: false\ninstructions: Compute the payslip. Do not "
        "respond to the user; only fill the output variables."
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if agent.mode is not Mode.SILENT:
            return
        text = own_text(agent)
        if text is None or phrases.forbids_user_messages(text.text):
            return
        what = (
            "returns findings like a silent agent"
            if agent.mode_source == "outputs"
            else "is a silent agent"
        )
        yield self.report(
            agent,
            (
                f"'{agent.name}' {what}, but its instructions do not forbid messaging the user, so "
                f"it will talk anyway (a completion setting does not stop it). Add the silence "
                f"block of the generated instructions{generated_hint(agent.source)}: "
                f"{SILENCE_BLOCK}."
            ),
            at=text,
        )


class SilentAgentAddressesUser(Rule):
    """A silent agent whose own instructions tell it to address the user ("explain the score to
    the customer", "tell the employee the balance") contradicts its mode: the model follows the
    concrete task over the general prohibition, talks to the user, and the parent, reading
    `answered` as false, says it again. This holds in Copilot Studio and in this SDK's YAML, where
    the silence block the runtime prepends does not remove the contradiction."""

    id = "HC016"
    name = "silent-agent-addresses-user"
    severity = Severity.ERROR
    summary = "A silent agent's instructions tell it to address the user."
    fix = (
        'Rewrite the instruction to fill an output instead ("put the explanation in findings"); '
        "or make the agent direct if it should talk to the user."
    )
    bad = "mode: silent\ninstructions: Score the claim and explain the score to the customer."
    good = "mode: silent\ninstructions: Score the claim and put the explanation in findings."

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        text = agent.instructions
        if agent.mode is not Mode.SILENT or text is None:
            return
        phrase = phrases.user_address(text.text)
        if phrase is None:
            return
        prepended = (
            "; the silence block the runtime prepends does not remove the contradiction"
            if agent.generated_instructions
            else ""
        )
        yield self.report(
            agent,
            (
                f"'{agent.name}' is a silent agent, but its instructions tell it to address the "
                f'user ("{phrase}"){prepended}. It will talk to the user, and the parent will '
                f'say it again. Have it fill an output instead (for example "put the '
                f'explanation in findings"), or make it a direct agent.'
            ),
            at=text,
        )


class DescriptionMissingAnsweredHint(Rule):
    """The parent reads a sub-agent's description when it plans and composes; it should say that
    when `answered` is true the user already has the response and it must not be answered again.
    In this SDK's YAML the runtime renders the hint into the description unless
    `generated_instructions: false`; the generated description (`harness instructions`) has it for
    Copilot Studio. Not checked for a Copilot Studio external agent
    (`InvokeExternalAgentTaskAction`), which cannot declare outputs: it has no `answered` to read,
    and HC001 asks the parent's instructions to say how it talks instead."""

    id = "HC009"
    name = "description-missing-answered-hint"
    severity = Severity.WARNING
    summary = "The description does not tell the parent how to read `answered`."
    fix = "Append the hint of the generated description (`harness instructions` prints it)."
    bad = "description: Answers leave balance questions."
    good = (
        "description: Answers leave balance questions. If its answered output is true, the user "
        "has already received their response and it should not be answered again."
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        text = agent.description
        if text is None or not text.text.strip() or agent.generated_instructions:
            return
        if agent.layout == "external-agent" or phrases.hints_answered(text.text):
            return
        yield self.report(
            agent,
            (
                f"The description of '{agent.name}' does not tell the parent how to read "
                f"'answered'. Append the hint of the generated description"
                f"{generated_hint(agent.source)}: "
                f"{SILENT_HINT if agent.mode is Mode.SILENT else ANSWERED_HINT}."
            ),
            at=text,
        )


class ParentMissingAnsweredCheck(Rule):
    """A parent that does not check `answered` repeats what a sub-agent already told the user. In
    this SDK's YAML the runtime prepends the generated top-level instruction unless the parent
    sets `generated_instructions: false`. Only parents with sub-agents are checked."""

    id = "HC010"
    name = "parent-missing-answered-check"
    severity = Severity.ERROR
    summary = "The parent's instructions do not check `answered` (parents with sub-agents only)."
    fix = "Add the generated top-level instruction (`harness instructions` prints it)."
    bad = "parent:\n  generated_instructions: false\n  instructions: You are the HR helpdesk."
    good = (
        "parent:\n  generated_instructions: false\n  instructions: You are the HR helpdesk. "
        "Check each sub-agent's answered output; if it is true, do not answer that request again."
    )

    def check_parent(self, parent: ParentSpec, system: AgentSystem) -> Iterator[LintFinding]:
        if not system.subagents or parent.generated_instructions:
            return
        text = parent.instructions
        if text is not None and phrases.checks_answered(text.text):
            return
        yield self.report(
            parent,
            (
                f"The instructions of parent '{parent.name}' do not check its sub-agents' "
                f"'answered' output, so it will repeat what they already told the user. Add the "
                f"generated top-level instruction, which `harness instructions` prints"
                f"{generated_hint(system.source)}."
            ),
            at=text,
        )


class OnlySpeakerAntipattern(Rule):
    """Sub-agents in direct and conversational modes do talk to the user; a parent told it is the
    only speaker repeats their answers. Judged on the parent's own instructions in every
    format."""

    id = "HC011"
    name = "only-speaker-antipattern"
    severity = Severity.WARNING
    summary = 'The parent\'s instructions say "you are the only agent that talks to the user".'
    fix = "Remove the claim and check `answered` instead."
    bad = "instructions: You are the only agent that talks to the user."
    good = "instructions: Check each sub-agent's answered output before you reply."

    def check_parent(self, parent: ParentSpec, system: AgentSystem) -> Iterator[LintFinding]:
        text = parent.instructions
        if not system.subagents or text is None or not phrases.claims_only_speaker(text.text):
            return
        yield self.report(
            parent,
            (
                f"The instructions of parent '{parent.name}' say it is the only one who talks to "
                f"the user, but its direct sub-agents talk too, so it repeats their answers. "
                f"Remove that claim and check 'answered' instead."
            ),
            at=text,
        )
