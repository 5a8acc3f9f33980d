"""The checks behind HC001-HC015, run on the neutral model.

Each check reads one ``AgentSystem`` and yields findings with the rule's default severity; the
engine then drops unselected rules and applies configured severities. Messages say what is wrong and
how to fix it, naming the generated instruction or output to add where one applies.

This SDK's YAML leaves gaps for the runtime to fill: an omitted ``inputs`` / ``outputs`` key means
the contract's standard set, and with ``generated_instructions`` on (the default) the runtime
prepends the generated instructions and renders the description with the ``answered`` hint. So
HC001-HC004 and HC007 judge only explicitly written lists, and HC005, HC006, HC009 and HC010 judge
the agent's own text only when ``generated_instructions: false``. Copilot Studio generates nothing:
its text is judged as written.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterator

from harness.lint import phrases
from harness.lint.model import (
    AgentSystem,
    Finding,
    IOField,
    ParentSpec,
    SubagentSpec,
    TextField,
    normalize_io_name,
)
from harness.lint.registry import RULES_BY_ID
from instructions import INPUT_DESCRIPTIONS, OUTPUT_DESCRIPTIONS
from subagents.contract import REQUIRED_OUTPUTS, Kind, Mode

__all__ = ["check_system"]

_WORD = re.compile(r"[a-z0-9]+")
_CONTRACT_INPUT = {normalize_io_name(n): n for n in INPUT_DESCRIPTIONS}
_CONTRACT_OUTPUT = {normalize_io_name(n): n for n in OUTPUT_DESCRIPTIONS}
_SCOPE_ANCHOR = (
    '"Fulfil the request in the scopedRequest input. Treat it as your initial request and ignore '
    'any other requests in the conversation"'
)
_SILENCE_BLOCK = (
    '"Do not respond to the user. Do not send messages, and do not call any send-message tool '
    '(such as SendMessageTool). Only fill the output variables; the parent delivers your answer"'
)
_ANSWERED_HINT = (
    '"If its answered output is true, the user has already received their response and it should '
    'not be answered again"'
)
_SILENT_HINT = (
    '"It never talks to the user, so its answered output is always false: relay its findings to '
    'the user yourself"'
)


def _finding(
    rule_id: str, *, agent: str | None, file: str, line: int | None, message: str
) -> Finding:
    rule = RULES_BY_ID[rule_id]
    return Finding(
        id=rule.id,
        name=rule.name,
        severity=rule.severity,
        agent=agent,
        file=file,
        line=line,
        message=message,
    )


def _join(names: list[str] | tuple[str, ...]) -> str:
    quoted = [f"'{n}'" for n in names]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _mode_words(agent: SubagentSpec) -> str:
    default = (
        " (Copilot Studio has no mode; its instructions let it message the user)"
        if agent.instructions is not None
        else " (Copilot Studio has no mode; assumed, as its instructions are not linted here)"
    )
    why = {
        "config": "",
        "instructions": " (its instructions forbid messaging the user)",
        "outputs": " (its outputs return findings, not an interactionSummary)",
        "default": default,
    }[agent.mode_source]
    return f"a {agent.mode.value} agent{why}"


_NO_IO = {
    "connected-agent-tool": "a ConnectedAgentTool (it has only botSchemaName and historyType)",
    "external-agent": "an external agent (InvokeExternalAgentTaskAction)",
}


def _where_outputs(agent: SubagentSpec) -> str:
    if agent.source == "harness":
        return "to its outputs (`harness lint --fix` adds them with the contract's descriptions)"
    if agent.layout in _NO_IO:
        return (
            f"but {_NO_IO[agent.layout]} cannot declare outputs. To the same effect, say in the "
            f"parent's instructions that '{agent.name}' answers the user itself and that its "
            f"reply is never repeated (as if its 'answered' output were always true)"
            + (
                ", or call it through a classic connected-agent TaskDialog "
                "(InvokeConnectedAgentTaskAction), whose `action.outputType` declares outputs"
                if agent.layout == "connected-agent-tool"
                else ""
            )
        )
    if agent.kind is Kind.CONNECTED:
        return (
            "to `action.outputType.properties` (descriptions: `harness instructions` prints them)"
        )
    return "to `outputType.properties` (descriptions: `harness instructions` prints them)"


def _where_inputs(agent: SubagentSpec) -> str:
    if agent.source == "harness":
        return "to its inputs (`harness lint --fix` adds it)"
    if agent.layout == "external-agent":
        return "to `inputs` (an AutomaticTaskInput)"
    if agent.kind is Kind.CONNECTED:
        return "to `action.inputType.properties` and `inputs`"
    return "to `inputType.properties` and `inputs`"


# -- sub-agent checks -------------------------------------------------------------------------


def _outputs(agent: SubagentSpec, enabled: frozenset[str]) -> Iterator[Finding]:
    if agent.outputs is None:
        return
    required = REQUIRED_OUTPUTS[agent.mode]
    line = agent.outputs_line or agent.line
    if not agent.outputs:
        yield _finding(
            "HC001",
            agent=agent.name,
            file=agent.file,
            line=line,
            message=(
                f"'{agent.name}' defines no outputs, so the parent cannot tell what it already told "
                f"the user and will say it again. As {_mode_words(agent)} it needs "
                f"{_join(required)}"
                + (
                    f", {_where_outputs(agent)}."
                    if agent.layout in _NO_IO
                    else f": add them {_where_outputs(agent)}."
                )
            ),
        )
        if "HC001" in enabled or agent.layout in _NO_IO:
            return
    keys = agent.output_keys
    if "answered" not in keys:
        yield _finding(
            "HC002",
            agent=agent.name,
            file=agent.file,
            line=line,
            message=(
                f"'{agent.name}' has no 'answered' output, so the parent cannot check whether the "
                f"user already has the answer. Add 'answered' {_where_outputs(agent)}."
            ),
        )
    missing = [n for n in required if n != "answered" and normalize_io_name(n) not in keys]
    if missing:
        yield _finding(
            "HC003",
            agent=agent.name,
            file=agent.file,
            line=line,
            message=(
                f"'{agent.name}' is {_mode_words(agent)} but lacks the output"
                f"{'s' if len(missing) > 1 else ''} {_join(missing)} its mode requires. Add "
                f"{'them' if len(missing) > 1 else 'it'} {_where_outputs(agent)}."
            ),
        )


def _history_scope(agent: SubagentSpec) -> Iterator[Finding]:
    if not agent.history or agent.inputs is None or "scopedrequest" in agent.input_keys:
        return
    line = agent.inputs_line or agent.history_line or agent.line
    if agent.layout == "connected-agent-tool":
        yield _finding(
            "HC004",
            agent=agent.name,
            file=agent.file,
            line=agent.history_line or agent.line,
            message=(
                f"'{agent.name}' receives the parent's conversation history (historyType is on), "
                f"and a ConnectedAgentTool cannot declare a 'scopedRequest' input, so it will "
                f"answer requests that belong to other agents. Set `historyType: {{kind: "
                f'NoHistory}}` (clear "Pass conversation history to this agent"): it then '
                f"receives only the task the parent asks of it, the effect of a scoped request."
            ),
        )
        return
    if agent.kind is Kind.CHILD:
        why = "is a child agent and always receives the parent's whole conversation"
        off = ""
    else:
        setting = "pass_history" if agent.source == "harness" else "historyType"
        why = f"receives the parent's conversation history ({setting} is on)"
        off = (
            ", or set `pass_history: false` if it needs no history"
            if agent.source == "harness"
            else ", or set `historyType: {kind: NoHistory}` if it needs no history"
        )
    yield _finding(
        "HC004",
        agent=agent.name,
        file=agent.file,
        line=line,
        message=(
            f"'{agent.name}' {why}, but has no 'scopedRequest' input, so it will answer requests "
            f"that belong to other agents. Add the 'scopedRequest' input {_where_inputs(agent)}"
            f"{off}."
        ),
    )


def _own_text(agent: SubagentSpec) -> TextField | None:
    """The instructions a text rule judges, or None when the rule does not apply."""
    if agent.generated_instructions or agent.instructions is None:
        return None
    return agent.instructions


def _generated_hint(agent: SubagentSpec) -> str:
    if agent.source == "harness":
        return " (or drop `generated_instructions: false`)"
    return ""


def _scope(agent: SubagentSpec) -> Iterator[Finding]:
    text = _own_text(agent)
    if text is None or phrases.anchors_scope(text.text):
        return
    yield _finding(
        "HC005",
        agent=agent.name,
        file=text.file,
        line=text.line or agent.line,
        message=(
            f"The instructions of '{agent.name}' never mention its scoped request, so it may take "
            f"up other requests it sees in the conversation. Add the scope anchor of the generated "
            f"sub-agent instructions{_generated_hint(agent)}: {_SCOPE_ANCHOR}."
        ),
    )


def _silence(agent: SubagentSpec) -> Iterator[Finding]:
    if agent.mode is not Mode.SILENT:
        return
    text = _own_text(agent)
    if text is None or phrases.forbids_user_messages(text.text):
        return
    what = (
        "returns findings like a silent agent"
        if agent.mode_source == "outputs"
        else "is a silent agent"
    )
    yield _finding(
        "HC006",
        agent=agent.name,
        file=text.file,
        line=text.line or agent.line,
        message=(
            f"'{agent.name}' {what}, but its instructions do not forbid messaging the user, so it "
            f"will talk anyway (a completion setting does not stop it). Add the silence block of "
            f"the generated instructions{_generated_hint(agent)}: {_SILENCE_BLOCK}."
        ),
    )


def _undocumented(agent: SubagentSpec) -> Iterator[Finding]:
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
                text = (INPUT_DESCRIPTIONS if what == "input" else OUTPUT_DESCRIPTIONS)[standard]
                fix = f'Use the contract\'s: "{text}"'
                if agent.source == "harness":
                    fix += " (`harness lint --fix` writes it)"
            else:
                fix = "Say what it holds and when it is filled"
            yield _finding(
                "HC007",
                agent=agent.name,
                file=field.file,
                line=field.line,
                message=(
                    f"The {what} '{field.name}' of '{agent.name}' has no description, so the "
                    f"{'parent guesses what to put in it' if what == 'input' else 'parent guesses what it means'}. "
                    f"{fix}."
                ),
            )


def _description(agent: SubagentSpec) -> Iterator[Finding]:
    text = agent.description
    if text is None or not text.text.strip():
        where = {
            ("harness", Kind.CHILD): "`description`",
            ("harness", Kind.CONNECTED): "`description`",
            ("copilot-studio", Kind.CHILD): "`beginDialog.description`",
            ("copilot-studio", Kind.CONNECTED): "`modelDescription`",
        }[(agent.source, agent.kind)]
        if agent.layout == "connected-agent-tool":
            where = (
                "a description (`mcs.metadata.description` in a workspace, `<description>` in "
                "the component's botcomponent.xml in a solution)"
            )
        yield _finding(
            "HC008",
            agent=agent.name,
            file=agent.file,
            line=text.line if text is not None else agent.line,
            message=(
                f"'{agent.name}' has no routing description, so the parent cannot tell when to "
                f"call it. Add {where} saying which requests it handles."
            ),
        )
        return
    if agent.generated_instructions or phrases.hints_answered(text.text):
        return
    yield _finding(
        "HC009",
        agent=agent.name,
        file=text.file,
        line=text.line or agent.line,
        message=(
            f"The description of '{agent.name}' does not tell the parent how to read 'answered'. "
            f"Append the hint of the generated description{_generated_hint(agent)}: "
            f"{_SILENT_HINT if agent.mode is Mode.SILENT else _ANSWERED_HINT}."
        ),
    )


def _child_history(agent: SubagentSpec) -> Iterator[Finding]:
    if agent.kind is not Kind.CHILD or agent.history:
        return
    setting = (
        "pass_history: false" if agent.source == "harness" else "historyType: {kind: NoHistory}"
    )
    yield _finding(
        "HC012",
        agent=agent.name,
        file=agent.file,
        line=agent.history_line or agent.line,
        message=(
            f"'{agent.name}' is a child agent, which always receives the parent's history, but "
            f"sets {setting}. Remove the setting, or make it a connected agent to keep history "
            f"from it."
        ),
    )


def _copilot_layout(agent: SubagentSpec) -> Iterator[Finding]:
    for key, line in agent.misplaced_io:
        yield _finding(
            "HC014",
            agent=agent.name,
            file=agent.file,
            line=line,
            message=(
                f"'{agent.name}' is a connected agent with `{key}` at the root of its TaskDialog, "
                f"where Copilot Studio does not read it. Move `{key}` inside `action`."
            ),
        )
    if agent.actions_line is not None:
        yield _finding(
            "HC015",
            agent=agent.name,
            file=agent.file,
            line=agent.actions_line,
            message=(
                f"'{agent.name}' is a child agent (AgentDialog) with `beginDialog.actions`, which "
                f"bypass its instructions and can message the user behind the contract. Remove "
                f"the actions; put fixed flows in a topic of the parent."
            ),
        )


# -- parent and system checks -----------------------------------------------------------------


def _parent(parent: ParentSpec, system: AgentSystem) -> Iterator[Finding]:
    if not system.subagents:
        return
    text = parent.instructions
    line = text.line if text is not None and text.line else parent.line
    if not parent.generated_instructions and (
        text is None or not phrases.checks_answered(text.text)
    ):
        hint = " (or drop `generated_instructions: false`)" if system.source == "harness" else ""
        yield _finding(
            "HC010",
            agent=parent.name,
            file=text.file if text is not None else parent.file,
            line=line,
            message=(
                f"The instructions of parent '{parent.name}' do not check its sub-agents' "
                f"'answered' output, so it will repeat what they already told the user. Add the "
                f"generated top-level instruction, which `harness instructions` prints{hint}."
            ),
        )
    if text is not None and phrases.claims_only_speaker(text.text):
        yield _finding(
            "HC011",
            agent=parent.name,
            file=text.file,
            line=line,
            message=(
                f"The instructions of parent '{parent.name}' say it is the only one who talks to "
                f"the user, but its direct sub-agents talk too, so it repeats their answers. Remove "
                f"that claim and check 'answered' instead."
            ),
        )


def _overlaps(system: AgentSystem) -> Iterator[Finding]:
    """HC013: each description against the earlier ones, with a prefix-filtered index.

    A pair reaching cosine ``t`` shares at least ``t² * |A|`` words of either set, so indexing
    only each set's rarest ``|A| - ceil(t² * |A|) + 1`` words finds every such pair without
    scoring the pairs that share only common words (all-pairs similarity search).
    """
    threshold = phrases.OVERLAP_THRESHOLD
    agents = [
        a for a in system.subagents if a.description is not None and a.description.text.strip()
    ]
    words = [phrases.content_words(a.description.text) for a in agents if a.description]
    frequency: dict[str, int] = defaultdict(int)
    for group in words:
        for word in group:
            frequency[word] += 1
    index: dict[str, list[int]] = defaultdict(list)
    exact: dict[str, int] = {}
    for i, agent in enumerate(agents):
        assert agent.description is not None
        raw = " ".join(_WORD.findall(agent.description.text.lower()))
        match: tuple[float, int] | None = None
        if raw in exact:
            match = (1.0, exact[raw])
        exact.setdefault(raw, i)
        mine = words[i]
        size = len(mine)
        ordered = sorted(mine, key=lambda w: (frequency[w], w))
        prefix = ordered[: max(1, size - math.ceil(threshold * threshold * size - 1e-9) + 1)]
        seen: set[int] = set()
        for word in prefix if match is None else ():
            for j in index[word]:
                if j in seen:
                    continue
                seen.add(j)
                score = len(mine & words[j]) / math.sqrt(size * len(words[j]))
                if score >= threshold:
                    match = (score, j)
                    break
            if match is not None:
                break
        for word in prefix:
            index[word].append(i)
        if match is None:
            continue
        other = agents[match[1]]
        yield _finding(
            "HC013",
            agent=agent.name,
            file=agent.description.file,
            line=agent.description.line or agent.line,
            message=(
                f"The description of '{agent.name}' nearly duplicates that of '{other.name}' "
                f"(similarity {match[0]:.2f}), so the parent cannot tell which to call and may call "
                f"both. Say what each handles that the other does not."
            ),
        )


def check_system(system: AgentSystem, enabled: frozenset[str]) -> Iterator[Finding]:
    """Run every check on one system.

    Args:
        system: the parent and sub-agents to check.
        enabled: the selected rule ids (checks that supersede others need to know).

    Yields:
        Findings with their rules' default severities, unselected rules included.
    """
    if system.parent is not None:
        yield from _parent(system.parent, system)
    for agent in system.subagents:
        yield from _outputs(agent, enabled)
        yield from _history_scope(agent)
        yield from _scope(agent)
        yield from _silence(agent)
        yield from _undocumented(agent)
        yield from _description(agent)
        yield from _child_history(agent)
        yield from _copilot_layout(agent)
    if len(system.subagents) > 1:
        yield from _overlaps(system)
