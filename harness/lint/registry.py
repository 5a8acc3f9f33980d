"""The rules' metadata, in one place: ids, names, default severities, descriptions and help.

The text, JSON and SARIF reporters, the ``--select`` / ``--ignore`` options and the severity
configuration all read this table. Ids and names never change once released.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from harness.lint.model import Severity

__all__ = ["RULES", "RULES_BY_ID", "Rule"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """A lint rule's metadata."""

    id: str
    """Stable id, ``HC001`` ... ``HC100``."""
    name: str
    """Stable kebab-case name."""
    severity: Severity
    """Default severity."""
    summary: str
    """One line: when it fires."""
    help: str
    """Why it matters and how to fix it; also what it means for each config format."""


_E = Severity.ERROR
_W = Severity.WARNING

RULES: tuple[Rule, ...] = (
    Rule(
        id="HC001",
        name="no-outputs",
        severity=_E,
        summary="A sub-agent defines no outputs at all.",
        help=(
            "Without outputs the parent cannot know what a sub-agent told the user, so it answers "
            "again: the classic duplicate message. Declare the outputs of its mode (answered plus "
            "interactionSummary for direct agents, findings and openQuestions for silent ones). In "
            "this SDK's YAML an omitted `outputs` key means the contract's standard set; only an "
            "explicit empty list fires. `harness lint --fix` adds them to this SDK's configs. When "
            "HC001 fires, HC002 and HC003 are not repeated for the same agent."
        ),
    ),
    Rule(
        id="HC002",
        name="missing-answered",
        severity=_E,
        summary="A sub-agent has no `answered` output.",
        help=(
            "Every sub-agent must return `answered`: true when the user already received the "
            "answer to its scoped request. It is what the parent checks before it speaks. Add the "
            "output with the contract's description (`harness instructions` prints it)."
        ),
    ),
    Rule(
        id="HC003",
        name="missing-mode-outputs",
        severity=_E,
        summary="Outputs required by the sub-agent's mode are missing.",
        help=(
            "silent: answered, findings, openQuestions; direct: answered, interactionSummary; "
            "conversational: answered, scopedRequest, interactionSummary. Copilot Studio has no "
            "explicit mode: an agent whose instructions forbid messaging the user is silent, "
            "otherwise direct. A missing `answered` is reported by HC002 only."
        ),
    ),
    Rule(
        id="HC004",
        name="history-without-scope",
        severity=_E,
        summary=(
            "A sub-agent receives parent history (child, or connected with history on) and has no "
            "`scopedRequest` input."
        ),
        help=(
            "An agent that sees the whole conversation answers every request in it, including "
            "those that belong to other agents. Give it the `scopedRequest` input so the parent "
            "hands it only its own part, or turn history off for a connected agent "
            "(`pass_history: false`; Copilot Studio: `historyType: {kind: NoHistory}`)."
        ),
    ),
    Rule(
        id="HC005",
        name="scope-not-anchored",
        severity=_W,
        summary="The sub-agent's instructions never mention `scopedRequest` / the scoped request.",
        help=(
            "Instructions should anchor the agent to its scoped request: treat it as the initial "
            "request and ignore any other requests in the conversation. In this SDK's YAML the "
            "generated sub-agent instructions contain the anchor, so the rule judges the agent's "
            "own instructions only with `generated_instructions: false`. For a Copilot Studio "
            "connected agent it judges the called agent's instructions when its files are linted too."
        ),
    ),
    Rule(
        id="HC006",
        name="silence-not-instructed",
        severity=_E,
        summary="A silent agent whose instructions do not explicitly forbid messaging the user.",
        help=(
            "Copilot Studio's completion setting does not stop a child agent from messaging the "
            "user; only an explicit instruction does (do not respond to the user, do not call "
            "SendMessageTool, only fill the output variables). In this SDK's YAML the generated "
            "silence block does it unless `generated_instructions: false`. In Copilot Studio an "
            "agent counts as silent here when its outputs say so (`findings` without "
            "`interactionSummary`) but its instructions let it talk."
        ),
    ),
    Rule(
        id="HC007",
        name="undocumented-io",
        severity=_W,
        summary="An input or output has no description.",
        help=(
            "The parent fills inputs and reads outputs from their descriptions; an undocumented "
            "one is guessed. Contract names have standard descriptions (`harness instructions` "
            "prints them; `harness lint --fix` writes them into this SDK's configs)."
        ),
    ),
    Rule(
        id="HC008",
        name="missing-description",
        severity=_E,
        summary="A sub-agent has no routing description.",
        help=(
            "The parent routes by descriptions; an agent without one is never picked, or picked "
            "at random. Describe what it handles (Copilot Studio: `beginDialog.description` for a "
            "child agent, `modelDescription` for a connected agent)."
        ),
    ),
    Rule(
        id="HC009",
        name="description-missing-answered-hint",
        severity=_W,
        summary="The description does not tell the parent how to read `answered`.",
        help=(
            "The parent reads a sub-agent's description when it plans and composes; it should say "
            "that when `answered` is true the user already has the response and it must not be "
            "answered again. In this SDK's YAML the runtime renders the hint into the description "
            "unless `generated_instructions: false`; the generated description "
            "(`harness instructions`) has it for Copilot Studio."
        ),
    ),
    Rule(
        id="HC010",
        name="parent-missing-answered-check",
        severity=_E,
        summary="The parent's instructions do not check `answered`.",
        help=(
            "A parent that does not check `answered` repeats what a sub-agent already told the "
            "user. Add the generated top-level instruction (`harness instructions` prints it). In "
            "this SDK's YAML the runtime prepends it unless the parent sets "
            "`generated_instructions: false`. Only parents with sub-agents are checked."
        ),
    ),
    Rule(
        id="HC011",
        name="only-speaker-antipattern",
        severity=_W,
        summary=(
            'The parent\'s instructions rely on "you are the only agent that talks to the user".'
        ),
        help=(
            "Sub-agents in direct and conversational modes do talk to the user; a parent told it "
            "is the only speaker repeats their answers. Remove the claim and check `answered` "
            "instead. Judged on the parent's own instructions in every format."
        ),
    ),
    Rule(
        id="HC012",
        name="child-history-off",
        severity=_E,
        summary="A child agent is configured not to receive history.",
        help=(
            "A child agent runs inside the parent and always sees its conversation; turning "
            "history off is a configuration error at run time. Use a connected agent with history "
            "off instead, or remove the setting."
        ),
    ),
    Rule(
        id="HC013",
        name="overlapping-descriptions",
        severity=_W,
        summary="Two sub-agents' descriptions are near-duplicates (routing ambiguity).",
        help=(
            "When two descriptions say nearly the same thing the parent picks either agent, or "
            "both, and the user gets the answer twice. Descriptions are compared as sets of "
            "stemmed content words (cosine similarity of the sets, generic words such as 'agent' "
            "and 'questions' left out); 0.7 or more is a near-duplicate. Say what each agent "
            "handles that the other does not."
        ),
    ),
    Rule(
        id="HC014",
        name="connected-io-misplaced",
        severity=_E,
        summary=(
            "Copilot Studio: `inputType` / `outputType` at the root of a connected-agent "
            "`TaskDialog` instead of inside `action`."
        ),
        help=(
            "For connected agents (`InvokeConnectedAgentTaskAction`) the input and output types "
            "belong inside `action`; at the root of the `TaskDialog` they are not part of the "
            "schema and Copilot Studio does not pass them. Move them under `action`. The linter "
            "still counts them for the other rules, so this is the one finding to act on."
        ),
    ),
    Rule(
        id="HC015",
        name="child-has-actions",
        severity=_W,
        summary="Copilot Studio: an `AgentDialog` with `beginDialog.actions`.",
        help=(
            "Child agents use generative orchestration driven by their instructions; action nodes "
            "(SendActivity, Question...) in `beginDialog.actions` bypass it and can message the "
            "user behind the contract. Move fixed flows into a topic of the parent."
        ),
    ),
    Rule(
        id="HC100",
        name="invalid-config",
        severity=_E,
        summary="The file cannot be parsed or does not match the schema.",
        help=(
            "A broken YAML file, an unknown `kind` or `mode`, a value of the wrong type or a "
            "missing required field. The finding gives the file and line; the other files are "
            "still linted. HC100 is reported even under `--select`, unless ignored explicitly."
        ),
    ),
    Rule(
        id="HC101",
        name="nothing-recognised",
        severity=_E,
        summary="No agent config was recognised under a path given to the linter.",
        help=(
            "Linting nothing must not pass in silence: a path where no agent file is recognised "
            "(a typo, an unknown layout, a folder of unrelated YAML) is an error that names the "
            "layouts looked for. Point the linter at this SDK's YAML, a Copilot Studio workspace, "
            "an exported solution, a .mcs.yml component or a botdefinition.json. Reported even "
            "under `--select`, unless ignored explicitly."
        ),
    ),
)
"""Every rule, in id order."""

RULES_BY_ID: Mapping[str, Rule] = {rule.id: rule for rule in RULES}
"""The rules keyed by id."""
