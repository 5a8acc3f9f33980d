"""The contract table: every fact of the sub-agent contract, in one place (docs/contract.md).

Modes and kinds, the wire names of the inputs and outputs, their descriptions and JSON types, the
outputs each mode requires and the JSON schema of the outputs a sub-agent must return. Everything
else reads these names: the generated instructions (``instructions.render``), the contract models
and validation (``subagents.contract``, which re-exports this table with ``Mode`` keys), the linter,
the transports and the runtime.

The table sits in ``instructions``, the bottom layer, because the renderer must read it and may
import nothing of ours; the layers above import it from here (or through ``subagents``). Passing the
table into every render call instead would have left the renderer's defaults as a second copy.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = [
    "ANSWERED",
    "ANSWERED_REQUESTS",
    "CHILD",
    "CONNECTED",
    "CONVERSATIONAL",
    "COPILOT_TYPES",
    "DIRECT",
    "FINDINGS",
    "HISTORY",
    "INPUTS",
    "INPUT_DESCRIPTIONS",
    "INTERACTION_SUMMARY",
    "KINDS",
    "MODES",
    "OPEN_QUESTIONS",
    "OUTPUTS",
    "OUTPUT_DESCRIPTIONS",
    "OUTPUT_JSON_TYPES",
    "REQUEST_ANSWER_FIELDS",
    "REQUIRED_BY_MODE",
    "SCOPED_REQUEST",
    "SILENT",
    "SNAKE_NAMES",
    "default_inputs",
    "default_outputs",
    "join_requests",
    "output_schema",
    "schema_outputs",
    "with_request_answers",
]

# -- modes and kinds -------------------------------------------------------------------------------

SILENT: Final = "silent"
"""Never talks to the user; returns ``findings`` for the parent to relay."""
DIRECT: Final = "direct"
"""Talks to the user once, with a full answer, and reports what it said."""
CONVERSATIONAL: Final = "conversational"
"""Talks to the user over several turns, holding the floor until it reports ``answered``."""

MODES: tuple[str, ...] = (SILENT, DIRECT, CONVERSATIONAL)
"""The communication modes, as written in configs."""

CHILD: Final = "child"
"""Runs inside the parent's runtime; always receives the parent's history."""
CONNECTED: Final = "connected"
"""An independent agent; receives the parent's history only when it is passed."""

KINDS: tuple[str, ...] = (CHILD, CONNECTED)
"""The kinds of sub-agent, as written in configs."""

# -- wire names ------------------------------------------------------------------------------------

SCOPED_REQUEST: Final = "scopedRequest"
"""Input: the request this agent should fulfil. Output: that request, echoed back."""
HISTORY: Final = "history"
"""Input: the parent's conversation, when the agent receives it."""
ANSWERED: Final = "answered"
"""Output: true when the user already has the answer from this agent."""
INTERACTION_SUMMARY: Final = "interactionSummary"
"""Output: what the agent told the user."""
FINDINGS: Final = "findings"
"""Output: the answer, for the parent to relay (silent agents)."""
OPEN_QUESTIONS: Final = "openQuestions"
"""Output: what the agent could not handle, and new requests that came up."""
ANSWERED_REQUESTS: Final = "answeredRequests"
"""Output: one item per request a call carried (``request``, ``answered``, ``findings``), in order;
required when a call carries two or more requests (docs/contract.md, "Several requests in one
call")."""

INPUTS: tuple[str, ...] = (SCOPED_REQUEST, HISTORY)
"""Input names on the wire."""

OUTPUTS: tuple[str, ...] = (
    ANSWERED,
    SCOPED_REQUEST,
    INTERACTION_SUMMARY,
    FINDINGS,
    OPEN_QUESTIONS,
    ANSWERED_REQUESTS,
)
"""Output names on the wire, in the order the contract lists them."""

SNAKE_NAMES: Mapping[str, str] = {
    SCOPED_REQUEST: "scoped_request",
    INTERACTION_SUMMARY: "interaction_summary",
    OPEN_QUESTIONS: "open_questions",
    ANSWERED_REQUESTS: "answered_requests",
}
"""The snake_case spelling of each camelCase name (Python attributes; accepted in raw outputs)."""

# -- descriptions and types ------------------------------------------------------------------------

INPUT_DESCRIPTIONS: Mapping[str, str] = {
    SCOPED_REQUEST: (
        "The specific request this agent should fulfil. The parent fills it with only the part of "
        "the user's message that belongs to this agent."
    ),
    HISTORY: "The parent's conversation so far, for context only.",
}
"""The contract's words for its inputs: what ``harness lint --fix`` writes into configs, what the
generated instructions say and what Copilot Studio fragments carry."""

OUTPUT_DESCRIPTIONS: Mapping[str, str] = {
    ANSWERED: (
        "True when the user has already received the answer to the scoped request from this agent; "
        "false otherwise."
    ),
    SCOPED_REQUEST: "The request this agent worked on, echoed back exactly.",
    INTERACTION_SUMMARY: "A short summary of what this agent told the user.",
    FINDINGS: "The answer to the scoped request, for the parent to relay to the user.",
    OPEN_QUESTIONS: (
        "Parts of the request this agent could not handle, and new requests that came up; "
        "an empty list when there are none."
    ),
    ANSWERED_REQUESTS: (
        "One item per request in the scoped request, in order, when it holds several numbered "
        "requests: the request, whether the user already received its answer from this agent, "
        "and the answer for the parent to relay when they did not."
    ),
}
"""The contract's words for its outputs, in contract order."""

COPILOT_TYPES: Mapping[str, str] = {"boolean": "Boolean", "string": "String"}
"""Copilot Studio's `type` for a contract field's JSON type (:data:`OUTPUT_JSON_TYPES`). A list
has none here: the generated fragments declare it as `String`, and lint does not check it, since
it may travel as text or a table."""

OUTPUT_JSON_TYPES: Mapping[str, Mapping[str, Any]] = {
    ANSWERED: {"type": "boolean"},
    SCOPED_REQUEST: {"type": "string"},
    INTERACTION_SUMMARY: {"type": "string"},
    FINDINGS: {"type": "string"},
    OPEN_QUESTIONS: {"type": "array", "items": {"type": "string"}},
    ANSWERED_REQUESTS: {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "request": {"type": "string"},
                ANSWERED: {"type": "boolean"},
                FINDINGS: {"type": "string"},
            },
            "required": ["request", ANSWERED, FINDINGS],
            "additionalProperties": False,
        },
    },
}
"""The JSON schema type of each output."""

REQUEST_ANSWER_FIELDS: tuple[str, ...] = ("request", ANSWERED, FINDINGS)
"""The fields of one ``answeredRequests`` item: the request (as numbered in ``scopedRequest``,
without its number), whether the user already has its answer from this agent, and the answer for
the parent to relay (empty when the agent answered the user itself or could not answer)."""

# -- what each mode must return --------------------------------------------------------------------

REQUIRED_BY_MODE: Mapping[str, tuple[str, ...]] = {
    SILENT: (ANSWERED, FINDINGS, OPEN_QUESTIONS),
    DIRECT: (ANSWERED, INTERACTION_SUMMARY),
    CONVERSATIONAL: (ANSWERED, SCOPED_REQUEST, INTERACTION_SUMMARY),
}
"""The outputs each mode must return, by mode name."""


def schema_outputs(mode: str, declared: Sequence[str] = ()) -> list[str]:
    """The contract outputs a sub-agent's answer schema asks for, in order.

    The mode's required outputs, then the contract outputs the agent declares beyond them, then
    ``openQuestions``, which every schema carries so any agent can hand back what it could not do.
    ``answeredRequests`` belongs to a call, not to an agent: ``with_request_answers`` adds it to
    the schema of a call that carries two or more requests.

    Args:
        mode: the agent's mode, by name.
        declared: the names of the outputs the agent declares (its own outputs are ignored here).
    """
    names = list(REQUIRED_BY_MODE[mode])
    for name in declared:
        if name in OUTPUTS and name not in names and name not in (ANSWERED, ANSWERED_REQUESTS):
            names.append(name)
    if OPEN_QUESTIONS not in names:
        names.append(OPEN_QUESTIONS)
    return names


def default_inputs() -> tuple[tuple[str, str], ...]:
    """The inputs of a sub-agent that declares none, as ``(name, description)`` pairs.

    The runtime fills them in (``subagents``) and ``harness lint`` measures with them, so both
    see the same contract.
    """
    return ((SCOPED_REQUEST, INPUT_DESCRIPTIONS[SCOPED_REQUEST]),)


def default_outputs(mode: str) -> tuple[tuple[str, str], ...]:
    """The outputs of a sub-agent that declares none, as ``(name, description)`` pairs: the
    mode's required outputs and ``openQuestions``, what its answer schema asks for."""
    return tuple((name, OUTPUT_DESCRIPTIONS[name]) for name in schema_outputs(mode))


def output_schema(
    mode: str,
    *,
    declared: Sequence[str] = (),
    descriptions: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The JSON schema of the outputs a sub-agent must return (its mode's, plus any declared).

    Args:
        mode: the agent's mode, by name.
        declared: the names of the outputs the agent declares.
        descriptions: a description per output name, as the agent declares them; an output
            without one goes without a description.
    """
    names = schema_outputs(mode, declared)
    words = descriptions or {}
    properties: dict[str, Any] = {}
    for name in names:
        schema = copy.deepcopy(dict(OUTPUT_JSON_TYPES[name]))
        if words.get(name):
            schema["description"] = words[name]
        properties[name] = schema
    return {
        "type": "object",
        "properties": properties,
        "required": names,
        "additionalProperties": False,
    }


def with_request_answers(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` (an ``output_schema``) for a call that carries two or more requests: it also
    requires ``answeredRequests``, one item per request."""
    extended = copy.deepcopy(dict(schema))
    extended["properties"][ANSWERED_REQUESTS] = copy.deepcopy(
        dict(OUTPUT_JSON_TYPES[ANSWERED_REQUESTS])
    )
    if OUTPUT_DESCRIPTIONS.get(ANSWERED_REQUESTS):
        extended["properties"][ANSWERED_REQUESTS]["description"] = OUTPUT_DESCRIPTIONS[
            ANSWERED_REQUESTS
        ]
    extended["required"] = [*schema.get("required", ()), ANSWERED_REQUESTS]
    return extended


def join_requests(requests: tuple[str, ...] | list[str]) -> str:
    """The ``scopedRequest`` of a call that carries several requests: numbered, one clause each.

    One request is sent as it is (the wire is unchanged for a single request); two or more become
    ``"(1) when is payday; (2) where is my W-2"``, so any agent, local or remote, sees each request
    and where it ends (docs/contract.md, "Several requests in one call"). Here, with the
    contract's other facts, so the offline model can number its working text as the runtime does
    (``harness.transport.base`` re-exports it).
    """
    items = [r.strip() for r in requests if r.strip()]
    if len(items) == 1:
        return items[0]
    return "; ".join(f"({n}) {r.rstrip(' ;')}" for n, r in enumerate(items, start=1))
