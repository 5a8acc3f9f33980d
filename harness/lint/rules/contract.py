"""Contract rules: the outputs, inputs and history settings every sub-agent needs."""

from __future__ import annotations

from collections.abc import Iterator

from harness.lint import phrases
from harness.lint.model import (
    AgentSystem,
    IOField,
    LintFinding,
    Severity,
    SubagentSpec,
    normalize_io_name,
)
from harness.lint.rule import Rule
from harness.lint.rules._words import (
    NO_IO,
    built_in_python,
    join,
    mode_words,
    where_inputs,
    where_outputs,
)
from instructions.contract import (
    ANSWERED,
    COPILOT_TYPES,
    INPUT_DESCRIPTIONS,
    OUTPUT_DESCRIPTIONS,
    OUTPUT_JSON_TYPES,
)
from subagents.contract import REQUIRED_OUTPUTS, Kind, Mode

__all__ = [
    "ChildHistoryOff",
    "HistoryWithoutScope",
    "InputDeclarationsDiffer",
    "InputNotListed",
    "IoTypeMismatch",
    "MissingAnswered",
    "MissingModeOutputs",
    "NoOutputs",
    "UndocumentedIO",
]

_CONTRACT_INPUT = {normalize_io_name(n): n for n in INPUT_DESCRIPTIONS}
_CONTRACT_OUTPUT = {normalize_io_name(n): n for n in OUTPUT_DESCRIPTIONS}


def _superseded(agent: SubagentSpec, enabled: frozenset[str]) -> bool:
    """HC002 and HC003 say nothing HC001 has not said already for an agent without outputs."""
    return agent.outputs is None or (
        not agent.outputs and ("HC001" in enabled or agent.layout in NO_IO)
    )


class NoOutputs(Rule):
    """Without outputs the parent cannot know what a sub-agent told the user, so it answers again:
    the classic duplicate message. In this SDK's YAML an omitted `outputs` key means the contract's
    standard set; only an explicit empty list fires. A Copilot Studio `ConnectedAgentTool` (the
    newer layouts) and an external agent cannot declare outputs at all: for them a sentence of the
    parent's instructions naming the agent and saying that it answers the user itself (a direct
    agent) or never talks to the user (a silent one) has the same effect and clears the finding,
    and the message says so. When HC001 fires, HC002 and HC003 are not repeated for the same
    agent."""

    id = "HC001"
    name = "no-outputs"
    severity = Severity.ERROR
    summary = "A sub-agent defines no outputs at all."
    fix = (
        "Declare its mode's outputs (`--fix` adds them to this SDK's YAML); for a "
        "ConnectedAgentTool or an external agent, which cannot declare any, say in the parent's "
        "instructions, in a sentence naming the agent, whether it answers the user itself or "
        "never talks to the user."
    )
    bad = "- name: pto\n  kind: child\n  mode: direct\n  outputs: []"
    good = (
        "- name: pto\n  kind: child\n  mode: direct\n  outputs:\n    - name: answered\n"
        "    - name: interactionSummary"
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if agent.outputs is None or agent.outputs:
            return
        required = REQUIRED_OUTPUTS[agent.mode]
        contradicted = ""
        if agent.layout in NO_IO:
            said = _parent_says(agent, system)
            wanted = "silence" if agent.mode is Mode.SILENT else "address"
            if len(said) == 1 and (wanted in said or agent.instructions is None):
                return  # the parent's instructions say what an output would have told it
            if said == {_OTHER[wanted]}:
                contradicted = (
                    f" The parent's instructions say that '{agent.name}' "
                    f"{_SAID[_OTHER[wanted]]}, but its own instructions "
                    f"{'forbid messaging' if wanted == 'silence' else 'let it message'} the user."
                )
        tail = (
            f", {where_outputs(agent)}."
            if agent.layout in NO_IO
            else f": add them {where_outputs(agent)}."
        )
        yield self.report(
            agent,
            (
                f"'{agent.name}' defines no outputs, so the parent cannot tell what it already told "
                f"the user and will say it again. As {mode_words(agent)} it needs "
                f"{join(required)}{tail}{contradicted}"
            ),
            line=agent.outputs_line,
        )


_OTHER = {"silence": "address", "address": "silence"}
_SAID = {
    "silence": "never talks to the user",
    "address": "answers the user itself",
}


def _parent_says(agent: SubagentSpec, system: AgentSystem) -> frozenset[str]:
    """What the parent's instructions say of ``agent`` talking to the user (HC001, for an agent
    that cannot declare outputs): an address counts only when the parent is not also told to
    repeat its sub-agents' answers."""
    parent = system.parent
    if parent is None or parent.instructions is None:
        return frozenset()
    text = parent.instructions.text
    said = set(phrases.says_of_agent(text, (agent.name, agent.target or "")))
    if phrases.repeats_answers(text):
        said.discard("address")
    return frozenset(said)


class MissingAnswered(Rule):
    """Every sub-agent must return `answered`: true when the user already received the answer to
    its scoped request. It is what the parent checks before it speaks."""

    id = "HC002"
    name = "missing-answered"
    severity = Severity.ERROR
    summary = "A sub-agent has no `answered` output."
    fix = "Add `answered` with the contract's description (`harness instructions` prints it)."
    bad = "outputs:\n  - name: interactionSummary"
    good = "outputs:\n  - name: answered\n  - name: interactionSummary"

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if _superseded(agent, enabled) or normalize_io_name(ANSWERED) in agent.output_keys:
            return
        yield self.report(
            agent,
            (
                f"'{agent.name}' has no {ANSWERED!r} output, so the parent cannot check whether "
                f"the user already has the answer. Add {ANSWERED!r} {where_outputs(agent)}."
            ),
            line=agent.outputs_line,
        )


class MissingModeOutputs(Rule):
    """Each mode has its outputs ([modes](contract.md#modes-and-required-outputs)): silent:
    answered, findings, openQuestions; direct: answered, interactionSummary; conversational:
    answered, scopedRequest, interactionSummary. Copilot Studio has no explicit mode: an agent
    whose instructions forbid messaging the user is silent, otherwise direct. A missing `answered`
    is reported by HC002 only."""

    id = "HC003"
    name = "missing-mode-outputs"
    severity = Severity.ERROR
    summary = "Outputs its mode requires are missing."
    fix = "Add them; `--fix` does for this SDK's configs."
    bad = "mode: silent\noutputs:\n  - name: answered"
    good = "mode: silent\noutputs:\n  - name: answered\n  - name: findings\n  - name: openQuestions"

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if _superseded(agent, enabled):
            return
        keys = agent.output_keys
        missing = [
            n
            for n in REQUIRED_OUTPUTS[agent.mode]
            if n != ANSWERED and normalize_io_name(n) not in keys
        ]
        if not missing:
            return
        yield self.report(
            agent,
            (
                f"'{agent.name}' is {mode_words(agent)} but lacks the output"
                f"{'s' if len(missing) > 1 else ''} {join(missing)} its mode requires. Add "
                f"{'them' if len(missing) > 1 else 'it'} {where_outputs(agent)}."
            ),
            line=agent.outputs_line,
        )


class HistoryWithoutScope(Rule):
    """An agent that sees the whole conversation answers every request in it, including those that
    belong to other agents. The `scopedRequest` input lets the parent hand it only its own part.
    A Copilot Studio `ConnectedAgentTool` cannot declare inputs: there, turning history off gives
    the same effect (Microsoft: the agent then gets "just the explicit task that the main agent
    wants the other agent to complete")."""

    id = "HC004"
    name = "history-without-scope"
    severity = Severity.ERROR
    summary = (
        "A sub-agent receives parent history (child, or connected with history on) and has no "
        "`scopedRequest` input."
    )
    fix = (
        "Add the `scopedRequest` input (`--fix` does), or turn history off for a connected agent "
        "(`pass_history: false`; Copilot Studio `historyType: {kind: NoHistory}`, the only fix "
        "for a ConnectedAgentTool)."
    )
    bad = "- name: payroll\n  kind: connected\n  pass_history: true\n  inputs: []"
    good = "- name: payroll\n  kind: connected\n  pass_history: true\n  inputs:\n    - name: scopedRequest"

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if not agent.history or agent.inputs is None or "scopedrequest" in agent.input_keys:
            return
        if agent.layout == "connected-agent-tool":
            yield self.report(
                agent,
                (
                    f"'{agent.name}' receives the parent's conversation history (historyType is "
                    f"on), and a ConnectedAgentTool cannot declare a 'scopedRequest' input, so it "
                    f"will answer requests that belong to other agents. Set `historyType: {{kind: "
                    f'NoHistory}}` (clear "Pass conversation history to this agent"): it then '
                    f"receives only the task the parent asks of it, the effect of a scoped request."
                ),
                line=agent.history_line,
            )
            return
        if agent.kind is Kind.CHILD:
            why = "is a child agent and always receives the parent's whole conversation"
            off = ""
        elif agent.source == "harness":
            why = "receives the parent's conversation history (pass_history is on)"
            off = ", or set `pass_history: false` if it needs no history"
        else:
            why = "receives the parent's conversation history (historyType is on)"
            off = ", or set `historyType: {kind: NoHistory}` if it needs no history"
        yield self.report(
            agent,
            (
                f"'{agent.name}' {why}, but has no 'scopedRequest' input, so it will answer "
                f"requests that belong to other agents. Add the 'scopedRequest' input "
                f"{where_inputs(agent)}{off}."
            ),
            line=agent.inputs_line or agent.history_line,
        )


class UndocumentedIO(Rule):
    """The parent fills inputs and reads outputs from their descriptions; an undocumented one is
    guessed. Contract names have standard descriptions."""

    id = "HC007"
    name = "undocumented-io"
    severity = Severity.WARNING
    summary = "An input or output has no description."
    fix = (
        "Describe it; for contract names `harness instructions` prints the standard descriptions "
        "and `--fix` writes them into this SDK's configs."
    )
    bad = "outputs:\n  - name: answered"
    good = (
        "outputs:\n  - name: answered\n    description: True when the user has already received "
        "the answer to the scoped request from this agent; false otherwise."
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        groups: tuple[tuple[str, tuple[IOField, ...] | None, dict[str, str]], ...] = (
            ("input", agent.inputs, _CONTRACT_INPUT),
            ("output", agent.outputs, _CONTRACT_OUTPUT),
        )
        for what, fields, contract in groups:
            for field in fields or ():
                if field.description and field.description.strip():
                    continue
                standard = contract.get(field.key)
                if standard is not None:
                    text = (INPUT_DESCRIPTIONS if what == "input" else OUTPUT_DESCRIPTIONS)[
                        standard
                    ]
                    fix = f'Use the contract\'s: "{text}"'
                    if built_in_python(agent):
                        fix += " (`--fix` cannot change Python: edit the constructor call)"
                    elif agent.source == "harness":
                        fix += " (`harness lint --fix` writes it)"
                else:
                    fix = "Say what it holds and when it is filled"
                guess = (
                    "parent guesses what to put in it"
                    if what == "input"
                    else "parent guesses what it means"
                )
                yield self.finding(
                    agent=agent.name,
                    file=field.file,
                    line=field.line,
                    message=(
                        f"The {what} '{field.name}' of '{agent.name}' has no description, so the "
                        f"{guess}. {fix}."
                    ),
                )


class ChildHistoryOff(Rule):
    """A child agent runs inside the parent and always sees its conversation; turning history off
    is a configuration error at run time."""

    id = "HC012"
    name = "child-history-off"
    severity = Severity.ERROR
    summary = "A child agent is configured not to receive history."
    fix = "Remove the setting, or use a connected agent with history off."
    bad = "- name: pto\n  kind: child\n  pass_history: false"
    good = "- name: pto\n  kind: connected\n  pass_history: false"

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if agent.kind is not Kind.CHILD or agent.history:
            return
        setting = (
            "pass_history: false" if agent.source == "harness" else "historyType: {kind: NoHistory}"
        )
        yield self.report(
            agent,
            (
                f"'{agent.name}' is a child agent, which always receives the parent's history, but "
                f"sets {setting}. Remove the setting, or make it a connected agent to keep history "
                f"from it."
            ),
            line=agent.history_line,
        )


_CONTRACT_TYPES = {
    normalize_io_name(name): (name, COPILOT_TYPES[str(schema["type"])])
    for name, schema in OUTPUT_JSON_TYPES.items()
    if schema.get("type") in COPILOT_TYPES
}


class IoTypeMismatch(Rule):
    """A contract input or output whose Copilot Studio `type` is not the contract's: `answered`
    declared as `String` instead of `Boolean` is text, not the true or false value the parent
    checks; `scopedRequest`, `interactionSummary` and `findings` are text. A list
    (`openQuestions`) may travel as text or a table, so its type is not checked."""

    id = "HC019"
    name = "io-type-mismatch"
    severity = Severity.ERROR
    summary = (
        "Copilot Studio: a contract input or output has another `type` than the contract's "
        "(`answered` must be `Boolean`)."
    )
    fix = "Give contract fields the contract's type (`answered`: `Boolean`; the others `String`)."
    bad = "outputType:\n  properties:\n    answered: {type: String}"
    good = "outputType:\n  properties:\n    answered: {type: Boolean}"

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if agent.source != "copilot-studio":
            return
        groups = (("input", agent.inputs or ()), ("output", agent.outputs or ()))
        for what, fields in groups:
            for field in fields:
                contract = _CONTRACT_TYPES.get(field.key)
                if (
                    contract is None
                    or field.type is None
                    or field.type.lower() == contract[1].lower()
                ):
                    continue
                name, wanted = contract
                yield self.finding(
                    agent=agent.name,
                    file=field.file,
                    # The type's own line: an ``inputs`` entry declares the field first, but its
                    # type is written in ``inputType.properties``.
                    line=field.type_line or field.line,
                    message=(
                        f"The {what} '{field.name}' of '{agent.name}' is typed {field.type}, but "
                        f"the contract's '{name}' is {wanted}: the parent "
                        f"{'checks it as true or false' if wanted == 'Boolean' else 'reads text'}"
                        f". Set its `type: {wanted}`."
                    ),
                )


class InputDeclarationsDiffer(Rule):
    """Copilot Studio declares an agent's inputs twice: each `inputs` entry (an
    `AutomaticTaskInput`, which the orchestrator fills, or a `ManualTaskInput`) names a property of
    `inputType.properties`, which gives its type. An entry without its property, or the two
    spelled differently, is not how the generated fragments or Microsoft's examples declare an
    input; the other rules, which compare names loosely, see one input. Whether Copilot Studio
    still fills such an input has not been checked (an `AutomaticTaskInput` may carry its own
    `entity`), so this is a warning, as HC020, the mirror case, is."""

    id = "HC021"
    name = "input-declarations-differ"
    severity = Severity.WARNING
    summary = (
        "Copilot Studio: an `inputs` entry has no property in `inputType.properties`, or one "
        "spelled differently."
    )
    fix = (
        "Declare each input in both, spelled the same (`harness instructions` prints the "
        "fragments)."
    )
    bad = (
        "inputs:\n  - kind: AutomaticTaskInput\n    propertyName: scopedRequest\ninputType:\n"
        "  properties:\n    scopedrequest: {type: String}"
    )
    good = (
        "inputs:\n  - kind: AutomaticTaskInput\n    propertyName: scopedRequest\ninputType:\n"
        "  properties:\n    scopedRequest: {type: String}"
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        if agent.source != "copilot-studio":
            return
        entries, properties = agent.input_entries, agent.input_properties
        if entries is None or properties is None or not (entries or properties):
            return
        if any(key == "inputType" for key, _ in agent.misplaced_io):
            return  # its inputType sits at the TaskDialog's root: HC014 says so
        where = _where_properties(agent)
        exact = {p.name for p in properties}
        loose = {p.key: p for p in properties}
        for entry in entries:
            if entry.name in exact:
                continue
            twin = loose.get(entry.key)
            if twin is not None:
                message = (
                    f"The input '{entry.name}' of '{agent.name}' is spelled '{twin.name}' in "
                    f"{where}. The generated fragments and Microsoft's examples spell the two the "
                    f"same; whether Copilot Studio matches them otherwise is not checked here. "
                    f"Spell both '{_contract_name(entry.name)}'."
                )
            else:
                message = (
                    f"The `inputs` entry '{entry.name}' of '{agent.name}' has no property in "
                    f"{where}, which gives an input its type and description. Add "
                    f"'{entry.name}' there."
                )
            yield self.finding(agent=agent.name, file=entry.file, line=entry.line, message=message)


def _contract_name(name: str) -> str:
    """The contract's spelling of ``name`` when it is a contract name, else ``name``."""
    key = normalize_io_name(name)
    return _CONTRACT_INPUT.get(key) or _CONTRACT_OUTPUT.get(key) or name


class InputNotListed(Rule):
    """The contract's `scopedRequest` declared in `inputType.properties` with no `inputs` entry.
    The generated fragments, HC004's fix and Microsoft's examples of child and connected agents
    declare it in both: the `AutomaticTaskInput` entry tells the orchestrator to fill it, with its
    description. Microsoft's guidance also says the parent fills `inputType` properties on its
    own, and its child-agent template has no `inputs` list, so this is a warning, not an error."""

    id = "HC020"
    name = "input-not-listed"
    severity = Severity.WARNING
    summary = (
        "Copilot Studio: the contract's `scopedRequest` is in `inputType.properties` but has no "
        "`inputs` entry (`AutomaticTaskInput`)."
    )
    fix = "Add `- kind: AutomaticTaskInput` with `propertyName: scopedRequest` and its description."
    bad = "inputType:\n  properties:\n    scopedRequest: {type: String}"
    good = (
        "inputs:\n  - kind: AutomaticTaskInput\n    propertyName: scopedRequest\ninputType:\n"
        "  properties:\n    scopedRequest: {type: String}"
    )

    def check_agent(
        self, agent: SubagentSpec, system: AgentSystem, *, enabled: frozenset[str]
    ) -> Iterator[LintFinding]:
        entries, properties = agent.input_entries, agent.input_properties
        if agent.source != "copilot-studio" or entries is None or properties is None:
            return
        listed = {e.key for e in entries}
        for prop in properties:
            if prop.key not in _CONTRACT_INPUT or prop.key in listed:
                continue
            yield self.finding(
                agent=agent.name,
                file=prop.file,
                line=prop.line,
                message=(
                    f"The input '{prop.name}' of '{agent.name}' is declared in "
                    f"{_where_properties(agent)} but has no entry in `inputs`: the contract "
                    f"declares it in both, the `AutomaticTaskInput` telling the orchestrator to "
                    f"fill it with only that agent's part of the request. Add `- kind: "
                    f"AutomaticTaskInput` with `propertyName: {prop.name}` and its description "
                    f"to `inputs`."
                ),
            )


def _where_properties(agent: SubagentSpec) -> str:
    if agent.kind is Kind.CONNECTED:
        return "`action.inputType.properties`"
    return "`inputType.properties`"
