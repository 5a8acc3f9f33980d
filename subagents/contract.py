"""The input/output contract every sub-agent honours (docs/contract.md).

The parent cannot see what a sub-agent told the user unless the sub-agent says so. The contract makes
every sub-agent say so: it returns ``answered`` always, plus the outputs its communication mode
requires. The facts (wire names, descriptions, types, the per-mode requirements, the output schema)
live in one table, ``instructions.contract``, at the bottom layer so the generated instructions can
read it; this module re-exports them typed (``Mode``, ``Kind``) and adds the validated models and
``validate_outputs``, which turns a raw result into validated outputs and a list of violations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from instructions import contract as table
from instructions.contract import (
    ANSWERED,
    ANSWERED_REQUESTS,
    FINDINGS,
    INTERACTION_SUMMARY,
    OPEN_QUESTIONS,
    SCOPED_REQUEST,
    SNAKE_NAMES,
)

__all__ = [
    "ADVISORY_KINDS",
    "CONTRACT_INPUTS",
    "CONTRACT_OUTPUTS",
    "REQUIRED_OUTPUTS",
    "ContractViolation",
    "HistoryEntry",
    "Kind",
    "Mode",
    "ModeName",
    "RequestAnswer",
    "SubagentInput",
    "SubagentOutputs",
    "SubagentResult",
    "Usage",
    "ViolationKind",
    "read_answered",
    "validate_outputs",
]


class Mode(StrEnum):
    """How a sub-agent communicates."""

    SILENT = table.SILENT
    """Never talks to the user; returns ``findings`` for the parent to relay."""
    DIRECT = table.DIRECT
    """Talks to the user once, with a full answer, and reports what it said."""
    CONVERSATIONAL = table.CONVERSATIONAL
    """Talks to the user over several turns, holding the floor until it reports ``answered``."""


ModeName = Literal["silent", "direct", "conversational"]
"""A mode by name: wherever the SDK takes a ``Mode`` it takes its name too (``mode="direct"``)."""


class Kind(StrEnum):
    """Where a sub-agent runs."""

    CHILD = table.CHILD
    """Inside the parent's runtime; always receives the parent's history."""
    CONNECTED = table.CONNECTED
    """An independent agent; receives the parent's history only when ``pass_history`` is on."""


CONTRACT_INPUTS: tuple[str, ...] = table.INPUTS
"""Input names on the wire (``instructions.contract.INPUTS``)."""

CONTRACT_OUTPUTS: tuple[str, ...] = table.OUTPUTS
"""Output names on the wire, in the order the contract lists them (``instructions.contract.OUTPUTS``)."""

REQUIRED_OUTPUTS: Mapping[Mode, tuple[str, ...]] = {
    Mode(mode): outputs for mode, outputs in table.REQUIRED_BY_MODE.items()
}
"""The outputs each mode must return (``instructions.contract.REQUIRED_BY_MODE``, by ``Mode``)."""


_TEXT_BOOLEANS = {"true": True, "false": False}


def read_answered(value: object) -> bool | None:
    """``answered`` as the contract reads it: a boolean, or the text ``"true"`` or ``"false"`` (in
    any case, spaces around it ignored), which platforms whose variables are text send; None for
    anything else (``"yes"``, ``1``, ``""``, None), which the contract does not read as a boolean.

    >>> read_answered(True), read_answered(" False "), read_answered("yes"), read_answered(1)
    (True, False, None, None)
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _TEXT_BOOLEANS.get(value.strip().lower())
    return None


def _answered(value: object) -> bool:
    read = read_answered(value)
    if read is None:
        raise PydanticCustomError(
            ANSWERED,
            'must be true or false (a boolean, or the text "true" or "false"), not {value}',
            {"value": repr(value)},
        )
    return read


Answered = Annotated[bool, BeforeValidator(_answered)]
"""A boolean output read by ``read_answered``: nothing else is coerced (pydantic alone would take
``"yes"``, ``"no"``, ``1`` and ``0``)."""


class HistoryEntry(BaseModel):
    """One message of the parent's conversation, as passed to a sub-agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["user", "bot"]
    """Who spoke: the user or the bot (any of its components)."""
    sender: str
    """``user``, the parent's name, or the sub-agent's name."""
    text: str
    """What was said."""
    turn: int
    """The 1-based turn number."""


class SubagentInput(BaseModel):
    """What a sub-agent receives."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    scoped_request: str = Field(alias=SCOPED_REQUEST, min_length=1)
    """The specific request this agent should fulfil, and nothing else."""
    history: tuple[HistoryEntry, ...] | None = None
    """The parent's conversation; present only when passthrough is on."""


class RequestAnswer(BaseModel):
    """One request of a call that carried several, and whether it was answered
    (an item of the ``answeredRequests`` output)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    request: str
    """The request, as the agent was given it."""
    answered: Answered
    """True when the user already received its answer from this agent."""
    findings: str | None = None
    """Its answer, for the parent to relay (empty when the agent answered the user itself or could
    not answer)."""


class SubagentOutputs(BaseModel):
    """What a sub-agent returns. Which fields are required depends on its mode."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    answered: Answered
    """True when the user has already received the answer to the scoped request (a boolean, or
    the text ``"true"`` / ``"false"``: ``read_answered``)."""
    scoped_request: str | None = Field(default=None, alias=SCOPED_REQUEST)
    """The request this agent worked on, echoed back (conversational agents)."""
    interaction_summary: str | None = Field(default=None, alias=INTERACTION_SUMMARY)
    """A short summary of what the agent told the user (direct and conversational agents)."""
    findings: str | None = None
    """The answer, for the parent to relay (silent agents)."""
    open_questions: tuple[str, ...] | None = Field(default=None, alias=OPEN_QUESTIONS)
    """Parts of the request the agent could not handle, or new requests that came up."""
    answered_requests: tuple[RequestAnswer, ...] | None = Field(
        default=None, alias=ANSWERED_REQUESTS
    )
    """One item per request of a call that carried several, in order (None when not returned)."""
    custom: dict[str, Any] = Field(default_factory=dict)
    """Outputs the agent declares beyond the contract's (e.g. ``payDate``), as returned."""

    def to_wire(self) -> dict[str, Any]:
        """The outputs with their camelCase wire names, unset ones left out, custom ones merged."""
        wire = self.model_dump(by_alias=True, exclude_none=True, mode="json", exclude={"custom"})
        return {**wire, **self.custom}


class ViolationKind(StrEnum):
    """The ways a result can break its contract."""

    MISSING_OUTPUT = "missing_output"
    INVALID_OUTPUT = "invalid_output"
    SILENT_ANSWERED = "silent_answered"
    SILENT_MESSAGE = "silent_message"
    ANSWERED_WITHOUT_MESSAGE = "answered_without_message"
    MISSING_REQUEST_ANSWERS = "missing_request_answers"


ADVISORY_KINDS: frozenset[ViolationKind] = frozenset({ViolationKind.MISSING_REQUEST_ANSWERS})
"""Violations that are recorded but do not make a result unusable: an agent (an older remote one,
say) that returns one ``answered`` for a call carrying several requests is read as before, with
``answered`` and ``openQuestions`` covering all of them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractViolation:
    """One way a sub-agent's result broke its mode's contract."""

    agent: str
    """The sub-agent's name."""
    kind: ViolationKind
    """What went wrong."""
    message: str
    """A sentence a developer can act on."""
    output: str | None = None
    """The output concerned, by wire name, when there is one."""

    @property
    def advisory(self) -> bool:
        """True when the violation is recorded but leaves the result usable (``ADVISORY_KINDS``)."""
        return self.kind in ADVISORY_KINDS

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.message}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """Model usage of one call, or a sum of calls."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    """Estimated cost, when the model's price is known."""

    def __add__(self, other: Usage) -> Usage:
        cost: float | None
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(
            requests=self.requests + other.requests,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=cost,
        )

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


Status = Literal["complete", "partial", "failed", "timed_out"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SubagentResult:
    """The outcome of one sub-agent call, whatever happened."""

    agent: str
    """The sub-agent's name."""
    mode: Mode
    """Its communication mode."""
    request: str
    """The scoped request it was given."""
    status: Status
    """``complete``, ``partial`` (open questions remain), ``failed`` or ``timed_out``."""
    outputs: SubagentOutputs | None = None
    """The validated outputs; None when the call failed or the outputs were unusable."""
    messages: tuple[str, ...] = ()
    """The messages it sent to the user, in order."""
    violations: tuple[ContractViolation, ...] = ()
    """Contract violations found when validating the result."""
    error: str | None = None
    """Why the call failed, for failed and timed-out results."""
    duration_s: float = 0.0
    """Wall-clock time of the call."""
    usage: Usage = field(default_factory=Usage)
    """Model usage of the call."""
    tool_calls: tuple[str, ...] | None = None
    """The tools the agent called, in order (its message tool left out); None when they are not
    known (a handler function, or a remote host that does not report them)."""
    requests: tuple[str, ...] = ()
    """Each request the call carried, as planned (empty or one item: just ``request``)."""

    @property
    def broken(self) -> tuple[ContractViolation, ...]:
        """The violations that make the result unusable (every one but the advisory ones)."""
        return tuple(v for v in self.violations if not v.advisory)

    @property
    def answered(self) -> bool:
        """True only when the outputs validated and say the user already has the answer."""
        if self.broken or self.outputs is None:
            return False
        return self.outputs.answered

    @property
    def ok(self) -> bool:
        """True when the call completed (fully or partly) without violations (advisory ones
        aside)."""
        return self.status in ("complete", "partial") and not self.broken

    @property
    def request_answers(self) -> tuple[RequestAnswer, ...] | None:
        """One item per request of a call that carried two or more, when the agent answered each
        (``answeredRequests``) and the result is usable; None otherwise (then ``answered`` and
        ``openQuestions`` cover all of its requests, as for one request)."""
        if self.broken or self.outputs is None or len(self.requests) < 2:
            return None
        items = self.outputs.answered_requests
        if items is None or len(items) != len(self.requests):
            return None
        return tuple(
            item if item.request.strip() else item.model_copy(update={"request": planned})
            for item, planned in zip(items, self.requests, strict=True)
        )


_KNOWN_OUTPUTS = frozenset(CONTRACT_OUTPUTS) | frozenset(SNAKE_NAMES.values())
_PER_CALL = (OPEN_QUESTIONS, ANSWERED_REQUESTS)


def validate_outputs(
    *,
    agent: str,
    mode: Mode,
    raw: Mapping[str, Any] | None,
    messages_sent: Sequence[str] = (),
    declared_outputs: Sequence[str] | None = None,
    requests: Sequence[str] = (),
) -> tuple[SubagentOutputs | None, tuple[ContractViolation, ...]]:
    """Validate a sub-agent's raw outputs against its mode's contract.

    Args:
        agent: the sub-agent's name, for the violation records.
        mode: its communication mode.
        raw: the outputs as returned, keyed by wire name (snake_case names are accepted too).
        messages_sent: the messages it sent to the user during the call.
        declared_outputs: outputs the agent declares beyond its mode's, which become required too.
        requests: each request the call carried; with two or more, ``answeredRequests`` must
            answer each, in order (without it the result is read as one ``answered`` for all, and
            a ``missing_request_answers`` violation, advisory, says so).

    Returns:
        The validated outputs (None when they cannot be parsed) and every violation found.
    """
    violations: list[ContractViolation] = []
    if raw is not None and not isinstance(raw, Mapping):  # garbage, not outputs
        violation = ContractViolation(
            agent=agent,
            kind=ViolationKind.INVALID_OUTPUT,
            message=f"the outputs must be an object, not {type(raw).__name__}",
        )
        return None, (violation,)
    data = {str(key): value for key, value in (raw or {}).items()}
    by_mode = REQUIRED_OUTPUTS[mode]
    required = list(by_mode)
    for name in declared_outputs or ():
        # openQuestions is "any agent that handled only part": required of silent agents only;
        # answeredRequests belongs to a call with several requests, not to the agent.
        if name in CONTRACT_OUTPUTS and name not in required and name not in _PER_CALL:
            required.append(name)
    snake = SNAKE_NAMES
    has_open = bool(data.get(OPEN_QUESTIONS, data.get(snake[OPEN_QUESTIONS])))
    for name in required:
        value = data.get(name, data.get(snake.get(name, name)))
        # Empty findings are honest when the agent hands the whole request back as open questions.
        empty_ok = name in (OPEN_QUESTIONS, ANSWERED) or (name == FINDINGS and has_open)
        if value is None or (not empty_ok and isinstance(value, str) and not value.strip()):
            violations.append(
                ContractViolation(
                    agent=agent,
                    kind=ViolationKind.MISSING_OUTPUT,
                    output=name,
                    message=f"{mode.value} agents must return {name!r}"
                    if name in by_mode
                    # Required only because the agent declares it: say so, not a mode rule.
                    else f"it declares the output {name!r}, so it must return it",
                )
            )
    known = _KNOWN_OUTPUTS
    declared = set(declared_outputs or ())
    custom = {k: v for k, v in data.items() if k not in known and k in declared}
    for key in sorted(k for k in data if k not in known and k not in declared):
        violations.append(
            ContractViolation(
                agent=agent,
                kind=ViolationKind.INVALID_OUTPUT,
                output=key,
                message=f"output {key!r} is neither a contract output nor declared by the agent",
            )
        )
    # A null is an output not returned: reported once, as missing when it is required.
    data = {k: v for k, v in data.items() if k in known and v is not None}
    outputs: SubagentOutputs | None = None
    if ANSWERED in data or ANSWERED not in required:
        try:
            outputs = SubagentOutputs.model_validate({**data, "custom": custom})
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            violations.append(
                ContractViolation(
                    agent=agent,
                    kind=ViolationKind.INVALID_OUTPUT,
                    output=loc or None,
                    message=f"output {loc!r} is invalid: {first['msg']}",
                )
            )
    if outputs is not None:
        violations.extend(
            _request_violations(agent, mode, outputs, tuple(requests), bool(messages_sent))
        )
    if mode is Mode.SILENT:
        if outputs is not None and outputs.answered:
            violations.append(
                ContractViolation(
                    agent=agent,
                    kind=ViolationKind.SILENT_ANSWERED,
                    output=ANSWERED,
                    message="a silent agent never talks to the user, so 'answered' must be false",
                )
            )
        if messages_sent:
            violations.append(
                ContractViolation(
                    agent=agent,
                    kind=ViolationKind.SILENT_MESSAGE,
                    message=f"a silent agent tried to send {len(messages_sent)} message(s)",
                )
            )
    elif outputs is not None and outputs.answered and not messages_sent:
        violations.append(
            ContractViolation(
                agent=agent,
                kind=ViolationKind.ANSWERED_WITHOUT_MESSAGE,
                output=ANSWERED,
                message="it claims 'answered' but sent the user no message",
            )
        )
    return outputs, tuple(violations)


def _request_violations(
    agent: str, mode: Mode, outputs: SubagentOutputs, requests: tuple[str, ...], spoke: bool
) -> list[ContractViolation]:
    """What is wrong with the per-request answers (``answeredRequests``) of a call."""
    items = outputs.answered_requests
    if items is None:
        if len(requests) < 2:
            return []
        return [
            ContractViolation(
                agent=agent,
                kind=ViolationKind.MISSING_REQUEST_ANSWERS,
                output=ANSWERED_REQUESTS,
                message=(
                    f"the call carried {len(requests)} requests but {ANSWERED_REQUESTS!r} is "
                    "missing, so one 'answered' is read for all of them"
                ),
            )
        ]
    found: list[ContractViolation] = []
    if requests and len(items) != len(requests):
        found.append(
            ContractViolation(
                agent=agent,
                kind=ViolationKind.INVALID_OUTPUT,
                output=ANSWERED_REQUESTS,
                message=(
                    f"{ANSWERED_REQUESTS!r} has {len(items)} item(s) for {len(requests)} "
                    "request(s); it needs one per request, in order"
                ),
            )
        )
    # A top-level 'answered' that breaks the same rule is reported once, by validate_outputs.
    claimed = any(item.answered for item in items) and not outputs.answered
    if mode is Mode.SILENT:
        if claimed:
            found.append(
                ContractViolation(
                    agent=agent,
                    kind=ViolationKind.SILENT_ANSWERED,
                    output=ANSWERED_REQUESTS,
                    message="a silent agent never talks to the user, so no request is 'answered'",
                )
            )
    elif not spoke and claimed:
        found.append(
            ContractViolation(
                agent=agent,
                kind=ViolationKind.ANSWERED_WITHOUT_MESSAGE,
                output=ANSWERED_REQUESTS,
                message="it claims a request 'answered' but sent the user no message",
            )
        )
    return found
