"""What the contract accepts as ``answered``: a boolean, or the text "true" / "false" (a platform
whose variables are text sends that); anything else fails the call, and the handler path reads it
the same way validation does."""

from __future__ import annotations

from typing import Any

import pytest

from harness import ConnectedAgent, Parent, ToolContext
from subagents import Mode, ViolationKind, validate_outputs
from subagents.contract import read_answered

PAYDAY = "Your next payday is Friday, December 4."


@pytest.mark.parametrize(
    ("value", "read"),
    [(True, True), (False, False), ("true", True), ("False", False), (" TRUE ", True)],
)
def test_a_boolean_or_its_text_is_read_as_answered(value: Any, read: bool) -> None:
    raw = {"answered": value, "interactionSummary": "Told them payday."}
    outputs, violations = validate_outputs(
        agent="payroll", mode=Mode.DIRECT, raw=raw, messages_sent=("Payday is Friday.",)
    )
    assert outputs is not None and outputs.answered is read
    assert violations == ()


@pytest.mark.parametrize("value", ["yes", "no", "1", "", 1, 0, 0.0, [], {"a": True}])
def test_anything_else_is_an_invalid_answered(value: Any) -> None:
    raw = {"answered": value, "findings": "Payday is Friday.", "openQuestions": []}
    outputs, violations = validate_outputs(agent="payroll", mode=Mode.SILENT, raw=raw)
    assert outputs is None  # unreadable: the call fails
    assert [(v.kind, v.output) for v in violations] == [(ViolationKind.INVALID_OUTPUT, "answered")]
    assert "must be true or false" in violations[0].message
    assert read_answered(value) is None


def test_a_request_item_answered_is_read_the_same_way() -> None:
    raw = {
        "answered": "false",
        "findings": "Friday.",
        "openQuestions": [],
        "answeredRequests": [
            {"request": "payday", "answered": "false", "findings": "Friday."},
            {"request": "w2", "answered": "yes", "findings": ""},
        ],
    }
    outputs, violations = validate_outputs(
        agent="payroll", mode=Mode.SILENT, raw=raw, requests=("payday", "w2")
    )
    assert outputs is None
    assert [v.output for v in violations] == ["answeredRequests.1.answered"]


def test_a_request_items_null_answered_is_invalid_as_docs_contract_says() -> None:
    # Unlike a null top-level 'answered' (a missing_output), an item's null is an invalid_output.
    raw = {
        "answered": False,
        "findings": "Friday. 12 days.",
        "openQuestions": [],
        "answeredRequests": [
            {"request": "payday", "answered": None, "findings": "Friday."},
            {"request": "days off", "answered": False, "findings": "12 days."},
        ],
    }
    outputs, violations = validate_outputs(
        agent="payroll", mode=Mode.SILENT, raw=raw, requests=("payday", "days off")
    )
    assert outputs is None
    assert [(v.kind, v.output) for v in violations] == [
        (ViolationKind.INVALID_OUTPUT, "answeredRequests.0.answered")
    ]


def _payroll(answered: Any) -> ConnectedAgent:
    async def handler(ctx: ToolContext) -> dict[str, Any]:
        return {"answered": answered, "interactionSummary": PAYDAY, "findings": PAYDAY}

    return ConnectedAgent(
        name="payroll",
        mode="direct",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        handler=handler,
    )


async def test_a_handler_saying_false_as_text_sends_nothing_and_its_findings_are_relayed() -> None:
    turn = (
        await Parent(name="hd", subagents=[_payroll("false")])
        .conversation()
        .send("When is my next paycheck?")
    )
    (result,) = turn.results
    assert result.ok and not result.answered and result.messages == ()
    assert [(m.sender, m.text) for m in turn.messages] == [("hd", PAYDAY)]


async def test_a_handler_saying_yes_fails_the_call_without_a_message() -> None:
    turn = (
        await Parent(name="hd", subagents=[_payroll("yes")])
        .conversation()
        .send("When is my next paycheck?")
    )
    (result,) = turn.results
    assert result.status == "failed" and result.messages == ()
    assert "must be true or false" in (result.error or "")
