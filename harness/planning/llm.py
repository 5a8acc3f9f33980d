"""The LLM planner: one structured-output request to any ``Model``.

The request is an ordinary one (a system prompt, the recent conversation and the user's message,
an output schema): the model needs no notion of "planning" to answer it.

Like the offline planner, it works within ``harness.text.ANALYSIS_BUDGET``: the model is sent at
most that many characters of the message and of each recent message (their start, cut at a
space), and at most ``CLAIM_BUDGET`` planned requests of at most that many characters each are
read from its answer. One huge message (or answer) costs one budget's worth, not its size.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from harness.exceptions import ModelBehaviorError
from harness.models.base import ChatMessage, Model, ModelRequest
from harness.planning.base import Plan, PlanEntry, PlanInput, Planner
from harness.text.claims import CLAIM_BUDGET, analysed_part

__all__ = ["PLAN_SCHEMA", "LLMPlanner", "plan_request", "plan_schema"]

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "requests": {
            "type": "array",
            "description": "One entry per distinct request in the user's message, in order.",
            "items": {
                "type": "object",
                "properties": {
                    "request": {
                        "type": "string",
                        "description": "The scoped request, self-contained.",
                    },
                    "agent": {
                        "type": "string",
                        "description": "The sub-agent's name, or the parent's.",
                    },
                },
                "required": ["request", "agent"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["requests"],
    "additionalProperties": False,
}
"""The JSON schema of a plan, with ``agent`` free (``plan_schema`` limits it to the bot's names)."""


@functools.lru_cache(maxsize=64)
def plan_schema(names: tuple[str, ...]) -> Mapping[str, Any]:
    """``PLAN_SCHEMA`` with ``agent`` limited to ``names`` (the sub-agents', then the parent's).

    A server that enforces schemas then cannot produce an unknown agent. Cached per bot: the same
    (read-only) schema object serves every turn.
    """
    schema: dict[str, Any] = json.loads(json.dumps(PLAN_SCHEMA))
    agent = schema["properties"]["requests"]["items"]["properties"]["agent"]
    agent["enum"] = list(dict.fromkeys(names))
    return schema


_NAME_BUDGET = 200
"""The most characters of an agent name read from the model's answer (names are short; an
unknown one goes to the parent)."""


def _floor_note(active: str) -> str:
    return (
        f"\n\nRight now the conversational sub-agent `{active}` is in a dialogue with the "
        "user and holds the floor. Still split the user's message into its requests: "
        f"give `{active}` the part that answers or continues its dialogue (as its scoped "
        "request), and route every other request as usual, each to its own agent.\n"
    )


def plan_request(given: PlanInput) -> ModelRequest:
    """The model request that asks for a plan of ``given`` (output name ``plan``)."""
    system = given.system
    if given.active_agent is not None:
        system += _floor_note(given.active_agent)
    recent = tuple(
        replace(m, content=analysed_part(m.content)) if m.content else m for m in given.recent
    )
    return ModelRequest(
        agent=given.parent,
        system=system,
        messages=(*recent, ChatMessage(role="user", content=analysed_part(given.message))),
        output_schema=plan_schema((*(card.name for card in given.agents), given.parent)),
        output_name="plan",
    )


class LLMPlanner(Planner):
    """Plans with one structured-output request to ``model``.

    Args:
        model: any model; its answer must match ``PLAN_SCHEMA``.
    """

    def __init__(self, model: Model) -> None:
        self.model = model

    async def plan(self, given: PlanInput) -> Plan:
        response = await self.model.request(plan_request(given))
        output = response.output
        entries = output.get("requests") if isinstance(output, Mapping) else None
        if not isinstance(entries, list):
            raise ModelBehaviorError("the plan has no list of requests", agent=given.parent)
        if not entries:
            raise ModelBehaviorError("the plan's list of requests is empty", agent=given.parent)
        entries = entries[:CLAIM_BUDGET]
        if not all(isinstance(entry, Mapping) for entry in entries):
            raise ModelBehaviorError(
                "each planned request must be an object with 'request' and 'agent'",
                agent=given.parent,
            )
        message = analysed_part(given.message)
        return Plan(
            entries=tuple(
                PlanEntry(
                    request=analysed_part(str(entry.get("request") or message)),
                    agent=str(entry.get("agent", given.parent))[:_NAME_BUDGET],
                )
                for entry in entries
            ),
            usage=response.usage,
        )
