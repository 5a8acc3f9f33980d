"""The LLM composer: one structured-output request to any ``Model``.

The request is an ordinary one (the parent's system prompt, the user's message and the turn's
results as JSON, an output schema): the model needs no notion of "composing" to answer it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from harness.composing.base import (
    SAID_ANSWERED,
    SENT_TO_USER,
    ComposeInput,
    Composer,
    Composition,
    Route,
)
from harness.exceptions import ModelBehaviorError
from harness.models.base import ChatMessage, Model, ModelRequest

__all__ = ["COMPOSE_SCHEMA", "SENT_NOTE", "LLMComposer", "compose_request", "compose_schema"]

# ``json.dumps(..., ensure_ascii=False)`` builds a new encoder on every call; this one is built once.
_JSON = json.JSONEncoder(ensure_ascii=False)

COMPOSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {
            "type": "string",
            "description": "What the parent says now: only what the user has not received yet; empty if nothing.",
        },
        "route": {
            "type": "array",
            "description": "Open questions to hand to a sub-agent this turn.",
            "items": {
                "type": "object",
                "properties": {"request": {"type": "string"}, "agent": {"type": "string"}},
                "required": ["request", "agent"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["message", "route"],
    "additionalProperties": False,
}
"""The JSON schema of a reply, with a route's ``agent`` free (``compose_schema`` limits it)."""


@functools.lru_cache(maxsize=64)
def compose_schema(agents: tuple[str, ...]) -> Mapping[str, Any]:
    """``COMPOSE_SCHEMA`` with a route's ``agent`` limited to ``agents`` (unchanged when there are
    none), so a server that enforces schemas cannot route to an unknown agent. Cached per bot."""
    if not agents:
        return COMPOSE_SCHEMA
    schema: dict[str, Any] = json.loads(json.dumps(COMPOSE_SCHEMA))
    schema["properties"]["route"]["items"]["properties"]["agent"]["enum"] = list(
        dict.fromkeys(agents)
    )
    return schema


SENT_NOTE = (
    f"In the results that follow, `{SENT_TO_USER}` lists the messages a sub-agent already sent the "
    "user during this turn: the user has read them, so do not repeat, restate or summarise them. "
    "Such a sub-agent's outputs broke the contract (`error` says how), so its `answered` is false "
    f"whatever they said; `{SAID_ANSWERED}` is what they said. If `{SAID_ANSWERED}` is true, the "
    "sub-agent holds that what it sent answers its request: add nothing for it. If it is false, "
    "the sub-agent itself said the user does not have the answer yet: relay what it meant to tell "
    "them (`findings`, `interactionSummary`) where the sent messages do not already say it, or say "
    "that part could not be done."
)
"""What the LLM composer is told about ``sentToUser``, in a message of its own just before the
results (which stay the last message), sent only when a result carries the key (so no other
request changes)."""


def compose_request(given: ComposeInput) -> ModelRequest:
    """The model request that asks for the reply to ``given`` (output name ``reply``)."""
    text = given.user_message
    results = [v.to_json() for v in given.results]
    payload = {"userMessage": text, "handledByYou": list(given.own_requests), "results": results}
    messages = [ChatMessage(role="user", content=text)]
    if any(SENT_TO_USER in r for r in results):
        messages.append(ChatMessage(role="user", content=SENT_NOTE))
    messages.append(
        ChatMessage(
            role="user",
            content="Sub-agent results for this turn (JSON):\n" + _JSON.encode(payload),
        )
    )
    return ModelRequest(
        agent=given.parent,
        system=given.system,
        messages=tuple(messages),
        output_schema=given.schema
        if given.schema is not None
        else compose_schema(tuple(card.name for card in given.agents)),
        output_name="reply",
    )


class LLMComposer(Composer):
    """Composes with one structured-output request to ``model``.

    Args:
        model: any model; its answer must match ``COMPOSE_SCHEMA`` (a plain-text answer is taken
            as the message).
    """

    def __init__(self, model: Model) -> None:
        self.model = model

    async def compose(self, given: ComposeInput) -> Composition:
        response = await self.model.request(compose_request(given))
        output = response.output if response.output is not None else {}
        if not isinstance(output, Mapping):
            raise ModelBehaviorError("the reply is not an object", agent=given.parent)
        routes = tuple(
            Route(request=str(r["request"]), agent=str(r["agent"]))
            for r in output.get("route", []) or []
            if isinstance(r, Mapping) and r.get("request") and r.get("agent")
        )
        message = str(output.get("message", response.text or "") or "").strip()
        return Composition(message=message, routes=routes, usage=response.usage)
