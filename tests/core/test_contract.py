"""The contract: each mode's required outputs and every kind of violation, in isolation and at run time."""

from __future__ import annotations

from typing import Any

import pytest

from harness import (
    ChildAgent,
    ConnectedAgent,
    ContractViolationError,
    Mode,
    Parent,
    ToolContext,
)
from harness.composing import RulesComposer
from harness.models import ActContext
from subagents import REQUIRED_OUTPUTS, SubagentOutputs, ViolationKind, validate_outputs
from tests.core._support import SEND, act_model, planned_rules

# A complete, valid result for each mode, and the messages a valid call of that mode sends.
VALID: dict[Mode, tuple[dict[str, Any], tuple[str, ...]]] = {
    Mode.SILENT: (
        {"answered": False, "findings": "Payday is Friday.", "openQuestions": []},
        (),
    ),
    Mode.DIRECT: (
        {"answered": True, "interactionSummary": "Told them: 12 days left."},
        ("You have 12 days left.",),
    ),
    Mode.CONVERSATIONAL: (
        {
            "answered": False,
            "scopedRequest": "change my direct deposit",
            "interactionSummary": "Asked for the account number.",
        },
        ("What is the new account number?",),
    ),
}

MISSING_CASES = [(mode, name) for mode in Mode for name in REQUIRED_OUTPUTS[mode]]


@pytest.mark.parametrize("mode", list(Mode))
def test_a_complete_result_of_each_mode_has_no_violation(mode: Mode) -> None:
    raw, sent = VALID[mode]
    outputs, violations = validate_outputs(agent="a", mode=mode, raw=raw, messages_sent=sent)
    assert violations == ()
    assert outputs is not None
    assert outputs.to_wire() == {k: v for k, v in raw.items()}


@pytest.mark.parametrize(
    ("mode", "name"), MISSING_CASES, ids=[f"{m}-{n}" for m, n in MISSING_CASES]
)
def test_each_missing_required_output_is_a_violation(mode: Mode, name: str) -> None:
    raw, sent = VALID[mode]
    raw = {k: v for k, v in raw.items() if k != name}
    _, violations = validate_outputs(agent="a", mode=mode, raw=raw, messages_sent=sent)
    missing = [v for v in violations if v.kind is ViolationKind.MISSING_OUTPUT]
    assert [v.output for v in missing] == [name]
    assert missing[0].agent == "a"
    assert name in missing[0].message


@pytest.mark.parametrize(
    ("mode", "name"),
    [(Mode.DIRECT, "interactionSummary"), (Mode.CONVERSATIONAL, "scopedRequest")],
)
def test_a_blank_required_text_output_counts_as_missing(mode: Mode, name: str) -> None:
    raw, sent = VALID[mode]
    _, violations = validate_outputs(
        agent="a", mode=mode, raw={**raw, name: "   "}, messages_sent=sent
    )
    assert [(v.kind, v.output) for v in violations] == [(ViolationKind.MISSING_OUTPUT, name)]


def test_empty_findings_are_honest_only_when_the_request_is_handed_back() -> None:
    handed_back = {"answered": False, "findings": "", "openQuestions": ["when is payday"]}
    assert validate_outputs(agent="a", mode=Mode.SILENT, raw=handed_back)[1] == ()
    nothing = {"answered": False, "findings": "", "openQuestions": []}
    _, violations = validate_outputs(agent="a", mode=Mode.SILENT, raw=nothing)
    assert [(v.kind, v.output) for v in violations] == [(ViolationKind.MISSING_OUTPUT, "findings")]


@pytest.mark.parametrize(
    ("field", "value"),
    [("answered", "maybe"), ("openQuestions", "not a list"), ("findings", 42)],
)
def test_an_output_of_the_wrong_type_is_an_invalid_output(field: str, value: Any) -> None:
    raw = {"answered": False, "findings": "Payday is Friday.", "openQuestions": [], field: value}
    outputs, violations = validate_outputs(agent="a", mode=Mode.SILENT, raw=raw)
    assert outputs is None
    assert ViolationKind.INVALID_OUTPUT in {v.kind for v in violations}
    assert field in str(violations[-1])


def test_a_silent_agent_claiming_answered_is_a_violation() -> None:
    raw = {"answered": True, "findings": "Payday is Friday.", "openQuestions": []}
    _, violations = validate_outputs(agent="a", mode=Mode.SILENT, raw=raw)
    assert [v.kind for v in violations] == [ViolationKind.SILENT_ANSWERED]


def test_a_silent_agent_that_sent_messages_is_a_violation() -> None:
    raw, _ = VALID[Mode.SILENT]
    _, violations = validate_outputs(
        agent="a", mode=Mode.SILENT, raw=raw, messages_sent=("Hi!", "Payday is Friday.")
    )
    assert [v.kind for v in violations] == [ViolationKind.SILENT_MESSAGE]
    assert "2 message" in violations[0].message


@pytest.mark.parametrize("mode", [Mode.DIRECT, Mode.CONVERSATIONAL])
def test_claiming_answered_without_a_message_is_a_violation(mode: Mode) -> None:
    raw, _ = VALID[mode]
    _, violations = validate_outputs(
        agent="a", mode=mode, raw={**raw, "answered": True}, messages_sent=()
    )
    assert [v.kind for v in violations] == [ViolationKind.ANSWERED_WITHOUT_MESSAGE]


def test_declared_contract_outputs_become_required() -> None:
    raw, sent = VALID[Mode.DIRECT]
    _, violations = validate_outputs(
        agent="a",
        mode=Mode.DIRECT,
        raw=raw,
        messages_sent=sent,
        declared_outputs=("answered", "interactionSummary", "scopedRequest"),
    )
    assert [(v.kind, v.output) for v in violations] == [
        (ViolationKind.MISSING_OUTPUT, "scopedRequest")
    ]


def test_an_output_required_only_by_its_declaration_says_so() -> None:
    """A silent agent that declares ``interactionSummary`` must return it, but that is its own
    declaration, not a rule of silent agents: the message must not read as one."""
    raw, _ = VALID[Mode.SILENT]
    _, violations = validate_outputs(
        agent="a",
        mode=Mode.SILENT,
        raw=raw,
        declared_outputs=("answered", "findings", "openQuestions", "interactionSummary"),
    )
    assert [v.message for v in violations] == [
        "it declares the output 'interactionSummary', so it must return it"
    ]


@pytest.mark.parametrize("mode", list(Mode))
def test_a_null_answered_is_reported_once(mode: Mode) -> None:
    raw, sent = VALID[mode]
    outputs, violations = validate_outputs(
        agent="a", mode=mode, raw={**raw, "answered": None}, messages_sent=sent
    )
    assert outputs is None
    assert [(v.kind, v.output) for v in violations] == [(ViolationKind.MISSING_OUTPUT, "answered")]


def test_outputs_accept_snake_case_and_export_camel_case() -> None:
    outputs = SubagentOutputs.model_validate(
        {"answered": False, "findings": "x", "open_questions": ["y"]}
    )
    assert outputs.to_wire() == {"answered": False, "findings": "x", "openQuestions": ["y"]}


# --- at run time, through a parent ------------------------------------------------------------


def _one_agent_parent(agent: Any, *, strict: bool = False) -> Parent:
    return Parent(
        name="desk",
        subagents=[agent],
        model=planned_rules(),
        composer=RulesComposer(),
        strict=strict,
    )


async def test_a_silent_agent_is_given_no_way_to_message_the_user() -> None:
    model = act_model({"answered": False, "findings": "Payday is Friday.", "openQuestions": []})
    agent = ConnectedAgent(name="payroll", description="Pay dates.", mode=Mode.SILENT, model=model)
    turn = await _one_agent_parent(agent).conversation().send("payroll when is payday")
    (request,) = model.calls
    assert SEND not in {t.name for t in request.tools}
    assert isinstance(request.context, ActContext) and not request.context.can_message_user
    assert turn.results[0].ok
    assert [(m.sender, m.text) for m in turn.messages] == [("desk", "Payday is Friday.")]


async def test_a_silent_agent_that_tries_to_send_is_not_delivered_and_is_recorded() -> None:
    model = act_model(
        {"answered": False, "findings": "Payday is Friday.", "openQuestions": []},
        say="LEAKED: payday is Friday!",
    )
    agent = ConnectedAgent(name="payroll", description="Pay dates.", mode=Mode.SILENT, model=model)
    conversation = _one_agent_parent(agent).conversation()
    turn = await conversation.send("payroll when is payday")
    assert all("LEAKED" not in m.text for m in conversation.transcript)
    assert all(m.sender != "payroll" for m in conversation.transcript)
    (result,) = turn.results
    assert result.messages == ()
    assert [v.kind for v in result.violations] == [ViolationKind.SILENT_MESSAGE]
    assert not result.ok and not result.answered
    # The model was told it cannot message the user.
    tool_reply = [m for m in model.calls[-1].messages if m.role == "tool"]
    assert tool_reply and (tool_reply[0].content or "").startswith("error:")


async def test_a_direct_agent_claiming_answered_without_a_message_is_not_trusted() -> None:
    model = act_model(
        {"answered": True, "interactionSummary": "You have 12 days left.", "openQuestions": []}
    )
    agent = ChildAgent(name="pto", description="PTO.", mode=Mode.DIRECT, model=model)
    turn = await _one_agent_parent(agent).conversation().send("pto how many days left")
    (result,) = turn.results
    assert ViolationKind.ANSWERED_WITHOUT_MESSAGE in {v.kind for v in result.violations}
    assert not result.answered
    assert turn.messages[0].sender == "desk"
    # The parent was told the request is not answered, so the user still gets the answer, once.
    assert "You have 12 days left." in turn.text
    assert turn.text.count("12 days") == 1


@pytest.mark.parametrize(
    ("mode", "outputs", "say", "kind"),
    [
        (
            "silent",
            {"answered": False, "openQuestions": []},
            None,
            ViolationKind.MISSING_OUTPUT,
        ),
        (
            "direct",
            {"answered": True, "openQuestions": []},
            "You have 12 days left.",
            ViolationKind.MISSING_OUTPUT,
        ),
        (
            "conversational",
            {"answered": False, "interactionSummary": "asked", "openQuestions": []},
            "Which account?",
            ViolationKind.MISSING_OUTPUT,
        ),
        (
            "silent",
            {"answered": True, "findings": "Friday.", "openQuestions": []},
            None,
            ViolationKind.SILENT_ANSWERED,
        ),
        (
            "direct",
            {"answered": "perhaps", "interactionSummary": "x", "openQuestions": []},
            "You have 12 days left.",
            ViolationKind.INVALID_OUTPUT,
        ),
        (
            "silent",
            {"answered": False, "findings": "Friday.", "openQuestions": []},
            "Payday is Friday!",
            ViolationKind.SILENT_MESSAGE,
        ),
        (
            "direct",
            {"answered": True, "interactionSummary": "12 days", "openQuestions": []},
            None,
            ViolationKind.ANSWERED_WITHOUT_MESSAGE,
        ),
    ],
    ids=[
        "silent-missing",
        "direct-missing",
        "conversational-missing",
        "silent-answered",
        "invalid",
        "silent-message",
        "answered-without-message",
    ],
)
async def test_strict_mode_raises_on_a_violation_and_lenient_mode_surfaces_it(
    mode: str, outputs: dict[str, Any], say: str | None, kind: ViolationKind
) -> None:
    def build(strict: bool) -> Parent:
        agent = ConnectedAgent(
            name="agent", description="Does it.", mode=Mode(mode), model=act_model(outputs, say=say)
        )
        return _one_agent_parent(agent, strict=strict)

    with pytest.raises(ContractViolationError) as caught:
        await build(True).conversation().send("agent do it")
    assert caught.value.agent == "agent"
    assert kind in {v.kind for v in caught.value.violations}
    assert "agent" in str(caught.value)

    turn = await build(False).conversation().send("agent do it")
    (result,) = turn.results
    assert kind in {v.kind for v in result.violations}
    assert not result.answered and not result.ok
    assert turn.messages, "a lenient parent still answers the user"


async def test_a_handler_agent_cannot_message_the_user_when_silent() -> None:
    async def handler(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": False, "findings": f"Done: {ctx.scoped_request}", "openQuestions": []}

    agent = ConnectedAgent(name="job", description="Runs jobs.", mode=Mode.SILENT, handler=handler)
    turn = await _one_agent_parent(agent).conversation().send("job reindex")
    assert [(m.sender, m.text) for m in turn.messages] == [("desk", "Done: job reindex")]
    assert turn.results[0].ok


@pytest.mark.parametrize("mode", ["direct", "conversational"])
async def test_exactly_the_modes_required_outputs_are_enough(mode: str) -> None:
    # docs/contract.md: direct agents return answered + interactionSummary; conversational ones
    # add scopedRequest. openQuestions is only for agents that handled part of a request.
    async def handler(ctx: ToolContext) -> dict[str, Any]:
        raw: dict[str, Any] = {"answered": True, "interactionSummary": "You have 12 days left."}
        if mode == "conversational":
            raw["scopedRequest"] = ctx.scoped_request
        return raw

    agent = ChildAgent(name="pto", description="PTO.", mode=Mode(mode), handler=handler)
    turn = await _one_agent_parent(agent).conversation().send("pto how many days left")
    assert turn.results[0].violations == ()
    assert turn.results[0].answered
    # The user hears the answer once, from the agent; the parent does not repeat it.
    assert [m.sender for m in turn.messages] == ["pto"]


async def test_the_act_request_asks_for_the_outputs_of_the_mode() -> None:
    model = act_model({"answered": False, "findings": "x", "openQuestions": []})
    agent = ConnectedAgent(name="payroll", description="Pay.", mode=Mode.SILENT, model=model)
    await _one_agent_parent(agent).conversation().send("payroll when")
    schema = model.calls[0].output_schema
    assert schema is not None
    assert set(schema["required"]) == {"answered", "findings", "openQuestions"}
    assert schema["properties"]["answered"]["type"] == "boolean"
    assert schema["additionalProperties"] is False
