"""Wording the rules share: the generated fragments they quote and where each format keeps things.

This SDK's YAML leaves gaps for the runtime to fill: an omitted ``inputs`` / ``outputs`` key means
the contract's standard set, and with ``generated_instructions`` on (the default) the runtime
prepends the generated instructions and renders the description with the ``answered`` hint. So the
contract rules judge only explicitly written lists, and the text rules judge the agent's own text
only when ``generated_instructions: false``. Copilot Studio generates nothing: its text is judged
as written.
"""

from __future__ import annotations

from harness.lint.model import SubagentSpec, TextField
from subagents.contract import Kind

SCOPE_ANCHOR = (
    '"Fulfil the request in the scopedRequest input. Treat it as your initial request and ignore '
    'any other requests in the conversation"'
)
TASK_ANCHOR = (
    '"Treat the task the parent gives you as your initial request and ignore any other requests '
    'in the conversation"'
)
"""The scope anchor for an agent that cannot have a ``scopedRequest`` input (``NO_IO``)."""
SILENCE_BLOCK = (
    '"Do not respond to the user. Do not send messages, and do not call any send-message tool '
    '(such as SendMessageTool). Only fill the output variables; the parent delivers your answer"'
)
ANSWERED_HINT = (
    '"If its answered output is true, the user has already received their response and it should '
    'not be answered again"'
)
SILENT_HINT = (
    '"It never talks to the user, so its answered output is always false: relay its findings to '
    'the user yourself"'
)

NO_IO = {
    "connected-agent-tool": "a ConnectedAgentTool (it has only botSchemaName and historyType)",
    "external-agent": "an external agent (InvokeExternalAgentTaskAction)",
}
"""Layouts that cannot declare outputs, as messages name them."""


def join(names: list[str] | tuple[str, ...]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted = [f"'{n}'" for n in names]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def mode_words(agent: SubagentSpec) -> str:
    """``a silent agent (its instructions forbid messaging the user)`` and the like."""
    where = f", in {agent.own_file}," if agent.own_file else ""
    default = (
        f" (Copilot Studio has no mode; its instructions{where} let it message the user)"
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


def built_in_python(agent: SubagentSpec) -> bool:
    """True for an agent of a bot built in Python (``harness lint module:attr``)."""
    return agent.source == "harness" and agent.file.endswith(".py")


def where_outputs(agent: SubagentSpec) -> str:
    """Where to add outputs, or, for a layout that cannot declare them, what to do instead."""
    if built_in_python(agent):
        return (
            "to the `outputs=` of its constructor call (`--fix` cannot change Python; "
            "`harness instructions` prints the contract's descriptions)"
        )
    if agent.source == "harness":
        return "to its outputs (`harness lint --fix` adds them with the contract's descriptions)"
    if agent.layout in NO_IO:
        silent = agent.mode_source == "instructions"
        effect = (
            f"that '{agent.name}' never talks to the user and that its replies are for the parent "
            f"to deliver (as if its 'answered' output were always false), in a sentence that "
            f'names it: "{agent.name} never talks to the user: its replies are for you to '
            f'deliver"'
            if silent
            else f"that '{agent.name}' answers the user itself and that its reply is never "
            f"repeated (as if its 'answered' output were always true), in a sentence that names "
            f'it: "{agent.name} answers the user itself: never repeat, summarise or '
            f'acknowledge its reply"'
        )
        return (
            f"but {NO_IO[agent.layout]} cannot declare outputs. To the same effect, say in the "
            f"parent's instructions {effect}"
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


def where_inputs(agent: SubagentSpec) -> str:
    """Where to add an input."""
    if built_in_python(agent):
        return "to the `inputs=` of its constructor call (`--fix` cannot change Python)"
    if agent.source == "harness":
        return "to its inputs (`harness lint --fix` adds it)"
    if agent.layout == "external-agent":
        return "to `inputs` (an AutomaticTaskInput)"
    if agent.kind is Kind.CONNECTED:
        return "to `action.inputType.properties` and `inputs`"
    return "to `inputType.properties` and `inputs`"


def own_text(agent: SubagentSpec) -> TextField | None:
    """The instructions a text rule judges, or None when the runtime generates them."""
    if agent.generated_instructions or agent.instructions is None:
        return None
    return agent.instructions


def generated_hint(source: str) -> str:
    """How to get the generated text instead, in this SDK's YAML."""
    return " (or drop `generated_instructions: false`)" if source == "harness" else ""
