"""Requests shared by the model tests."""

from __future__ import annotations

from typing import Any

from harness.models import ChatMessage, ModelRequest, ToolDefinition

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answered": {"type": "boolean"},
        "findings": {"type": "string"},
        "openQuestions": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["answered", "findings", "openQuestions"],
    "additionalProperties": False,
}
OUTPUTS = {"answered": False, "findings": "Friday, December 4", "openQuestions": []}
LOOKUP = ToolDefinition(
    name="lookup",
    description="Look a thing up.",
    parameters={"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    keywords=("only", "for", "rules"),
)


def act_request(**changes: Any) -> ModelRequest:
    fields: dict[str, Any] = {
        "agent": "payroll",
        "system": "You are payroll.",
        "messages": (ChatMessage(role="user", content='{"scopedRequest": "next payday"}'),),
        "tools": (LOOKUP,),
        "output_schema": SCHEMA,
        "output_name": "payroll_outputs",
    }
    fields.update(changes)
    return ModelRequest(**fields)
