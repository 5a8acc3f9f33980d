"""Shared doubles and builders for the core tests: recording models, fixed plans, small agents."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from harness import FunctionModel, ModelRequest, ModelResponse, RulesModel
from harness.models import ActContext, ToolCall
from subagents import Usage

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
HELPDESK_NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
CONFIGS = ROOT / "tests" / "fixtures" / "configs"

SEND = "send_message_to_user"

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# How the LLM planner's prompt names a floor holder (harness.planning.llm).
_FLOOR = re.compile(r"conversational sub-agent `([^`]+)` is in a dialogue")


def recording_rules() -> FunctionModel:
    """A ``FunctionModel`` that answers like ``RulesModel`` and records every request in ``calls``.

    As a parent's model it writes the replies; give the parent ``planner=RulesPlanner()`` to plan.
    """
    return FunctionModel(RulesModel().request)


def clause_plan(text: str) -> list[dict[str, str]]:
    """Plan ``"alpha do x and beta do y"`` as one request per clause, routed by its first word."""
    return [
        {"request": clause.strip(), "agent": clause.split()[0]} for clause in text.split(" and ")
    ]


def planned_rules(
    plan: Callable[[str], list[dict[str, str]]] = clause_plan,
) -> FunctionModel:
    """A parent model with a fixed plan function; act and compose requests go to ``RulesModel``.

    It answers the ``LLMPlanner``'s plan request as an LLM would, from the prompt alone (the
    user's message is the last one; the system prompt names a floor holder). It keeps tests
    independent of the offline planner's routing where routing is not what the test is about.
    """
    rules = RulesModel()

    async def respond(request: ModelRequest) -> ModelResponse:
        if request.output_name == "plan":
            message = request.messages[-1].content or ""
            holder = _FLOOR.search(request.system)
            # These tests send the floor holder single-part messages.
            holds = [{"request": message, "agent": holder.group(1)}] if holder else None
            entries = holds or plan(message)
            return ModelResponse(output={"requests": entries}, usage=Usage(requests=1))
        return await rules.request(request)

    return FunctionModel(respond)


def act_model(
    outputs: Mapping[str, Any] | Callable[[ModelRequest], Mapping[str, Any]],
    *,
    say: str | None = None,
) -> FunctionModel:
    """A sub-agent model: optionally calls the send tool with ``say`` once, then returns ``outputs``.

    The send tool is called by name even when the request offers no such tool, as a misbehaving
    LLM would.
    """

    def respond(request: ModelRequest) -> ModelResponse:
        assert isinstance(request.context, ActContext)
        tried = any(m.role == "tool" for m in request.messages)
        if say is not None and not tried:
            call = ToolCall(id="call_send", name=SEND, arguments={"text": say})
            return ModelResponse(tool_calls=(call,), usage=Usage(requests=1))
        data = outputs(request) if callable(outputs) else outputs
        return ModelResponse(output=dict(data), usage=Usage(requests=1))

    return FunctionModel(respond)


def request_text(request: ModelRequest) -> str:
    """Everything a model is shown in one request, as one string (system, messages, context)."""
    parts: list[str] = [request.system]
    for message in request.messages:
        parts.append(message.content or "")
        for call in message.tool_calls:
            parts.append(json.dumps(dict(call.arguments)))
    context = request.context
    if isinstance(context, ActContext):
        parts.append(context.scoped_request)
        for entry in context.history or ():
            parts.append(entry.text)
    return "\n".join(parts)


def act_requests(model: FunctionModel, agent: str) -> list[ModelRequest]:
    """The act requests ``model`` received for ``agent``."""
    return [c for c in model.calls if isinstance(c.context, ActContext) and c.agent == agent]


def sentences(text: str) -> list[str]:
    """The sentences of a message (split after ., ! or ?), stripped, empty ones dropped."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def contains_any(text: str, needles: Iterable[str]) -> list[str]:
    """The needles that occur in ``text`` (case-insensitive)."""
    lowered = text.lower()
    return [n for n in needles if n.lower() in lowered]


def violation_kinds(results: Sequence[Any]) -> set[str]:
    """The violation kinds of a sequence of ``SubagentResult``, as strings."""
    return {v.kind.value for r in results for v in r.violations}
