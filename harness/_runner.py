"""Runs one sub-agent call: the model loop, its tools, the send tool, timeouts and validation.

Whatever happens inside (a crash, a timeout, a model that breaks the contract), the caller gets a
``SubagentResult``; nothing escapes except cancellation. A silent agent is never given a send tool:
if its model calls one anyway, the message is not delivered and the attempt is a contract violation.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.exceptions import ModelBehaviorError, TurnLimitError
from harness.models._slots import CALLER_DEADLINE
from harness.models.base import (
    ActContext,
    ChatMessage,
    Model,
    ModelRequest,
    ToolCall,
    ToolDefinition,
)
from subagents import (
    REQUIRED_OUTPUTS,
    HistoryEntry,
    Mode,
    Reply,
    Subagent,
    SubagentResult,
    Tool,
    ToolContext,
    Usage,
    validate_outputs,
)

__all__ = ["SEND_TOOL", "PreparedAgent", "SubagentCall", "output_schema", "prepare", "run_subagent"]

SEND_TOOL = "send_message_to_user"
"""The name of the tool direct and conversational agents use to message the user."""

Sender = Callable[[str], Awaitable[None]]

# ``json.dumps(..., ensure_ascii=False)`` builds a new encoder on every call; these are the same
# encoders, built once (the output is identical).
_JSON = json.JSONEncoder(ensure_ascii=False)
_JSON_ANY = json.JSONEncoder(ensure_ascii=False, default=str)


@dataclass(frozen=True, slots=True, kw_only=True)
class PreparedAgent:
    """What the model loop needs of a sub-agent that never changes between its calls.

    The parent builds one per sub-agent up front (see :func:`prepare`), so a turn does not rebuild
    the tool definitions and the output schema for every call.
    """

    tools: Mapping[str, Tool]
    """The agent's tools by name."""
    definitions: tuple[ToolDefinition, ...]
    """The tools as the model sees them, without the send tool."""
    schema: dict[str, Any]
    """The JSON schema of its outputs (:func:`output_schema`)."""


@dataclass(slots=True, kw_only=True)
class SubagentCall:
    """One call of one sub-agent within a turn."""

    agent: Subagent
    request: str
    """The scoped request (the whole user message when the agent takes no ``scopedRequest``)."""
    history: tuple[HistoryEntry, ...]
    """The parent's conversation before this turn's replies; filtered by ``receives_history``."""
    model: Model
    system: str
    """The agent's system prompt (generated instructions plus its own)."""
    state: MutableMapping[str, Any] = field(default_factory=dict)
    """The agent's memory in this conversation."""
    send: Sender | None = None
    """Delivers a message to the user; never given to a silent agent."""
    continuing: bool = False
    """True when a conversational agent that holds the floor gets the user's next message."""
    max_steps: int = 8
    """Model calls allowed in one sub-agent call."""
    strict: bool = False
    """Re-raise model misbehaviour (``ModelBehaviorError``) instead of returning a failed result."""
    prepared: PreparedAgent | None = None
    """The agent's tools and output schema, built once by :func:`prepare`; built per call if None."""


def output_schema(agent: Subagent) -> dict[str, Any]:
    """JSON schema of the outputs ``agent`` must return (its mode's plus any declared)."""
    names = list(REQUIRED_OUTPUTS[agent.mode])
    for name in agent.output_names:
        if name not in names and name in (
            "scopedRequest",
            "interactionSummary",
            "findings",
            "openQuestions",
        ):
            names.append(name)
    if "openQuestions" not in names:
        names.append("openQuestions")
    props: dict[str, Any] = {}
    descriptions = {spec.name: spec.description for spec in agent.outputs or ()}
    for name in names:
        schema: dict[str, Any]
        if name == "answered":
            schema = {"type": "boolean"}
        elif name == "openQuestions":
            schema = {"type": "array", "items": {"type": "string"}}
        else:
            schema = {"type": "string"}
        if descriptions.get(name):
            schema["description"] = descriptions[name]
        props[name] = schema
    return {
        "type": "object",
        "properties": props,
        "required": names,
        "additionalProperties": False,
    }


def _send_tool() -> ToolDefinition:
    return ToolDefinition(
        name=SEND_TOOL,
        description="Send one message to the user. Use it once, with the full answer.",
        parameters={
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The message."}},
            "required": ["text"],
            "additionalProperties": False,
        },
    )


_SEND_DEFINITION = _send_tool()


def prepare(agent: Subagent) -> PreparedAgent:
    """Build what the model loop needs of ``agent`` once: its tools, their definitions, its schema."""
    tools = {t.name: t for t in agent.tool_specs}
    definitions = tuple(
        ToolDefinition(
            name=t.name, description=t.description, parameters=t.parameters, keywords=t.keywords
        )
        for t in tools.values()
    )
    return PreparedAgent(tools=tools, definitions=definitions, schema=output_schema(agent))


def _tool_result_text(value: Any) -> str:
    if isinstance(value, Reply):
        return _JSON.encode(
            {"text": value.text, "done": value.done, "openQuestions": list(value.open_questions)}
        )
    if isinstance(value, str):
        return value
    try:
        return _JSON_ANY.encode(value)
    except (TypeError, ValueError):
        return str(value)


def _input_message(call: SubagentCall) -> str:
    payload: dict[str, Any] = {"scopedRequest": call.request}
    if call.agent.receives_history:
        payload["history"] = [
            {"turn": h.turn, "role": h.role, "sender": h.sender, "text": h.text}
            for h in call.history
        ]
    return _JSON.encode(payload)


async def _model_loop(
    call: SubagentCall,
    ctx: ToolContext,
    sent: list[str],
    attempted: list[str],
    spent: list[Usage],
) -> tuple[Mapping[str, Any], Usage]:
    agent = call.agent
    can_message = agent.mode is not Mode.SILENT and call.send is not None
    prepared = call.prepared or prepare(agent)
    tools = prepared.tools
    definitions = prepared.definitions
    if can_message:
        definitions += (_SEND_DEFINITION,)
    dialogue: list[dict[str, str]] = list(call.state.get("_dialogue", []))
    messages: list[ChatMessage] = []
    for entry in dialogue:
        role = "user" if entry["role"] == "user" else "assistant"
        messages.append(ChatMessage(role=role, content=entry["text"]))  # type: ignore[arg-type]
    messages.append(ChatMessage(role="user", content=_input_message(call)))
    context = ActContext(
        agent=agent.name,
        mode=agent.mode.value,
        scoped_request=call.request,
        history=ctx.history,
        required_outputs=REQUIRED_OUTPUTS[agent.mode],
        can_message_user=can_message,
        continuing=call.continuing,
    )
    usage = Usage()
    schema = prepared.schema
    for _ in range(call.max_steps):
        response = await call.model.request(
            ModelRequest(
                task="act",
                agent=agent.name,
                system=call.system,
                messages=tuple(messages),
                tools=definitions,
                output_schema=schema,
                output_name=f"{agent.name}_outputs",
                context=context,
                timeout=agent.timeout,
            )
        )
        usage = usage + response.usage
        spent[0] = usage  # kept by the caller even if a later step fails
        if response.refusal:
            raise ModelBehaviorError(f"the model refused: {response.refusal}", agent=agent.name)
        if response.tool_calls:
            messages.append(
                ChatMessage(role="assistant", content=response.text, tool_calls=response.tool_calls)
            )
            for tool_call in response.tool_calls:
                result = await _call_tool(call, ctx, tools, tool_call, sent, attempted)
                messages.append(
                    ChatMessage(
                        role="tool", content=result, tool_call_id=tool_call.id, name=tool_call.name
                    )
                )
            continue
        if response.output is not None:
            output = dict(response.output)
        elif response.text:
            try:
                parsed = json.loads(response.text)
            except json.JSONDecodeError as exc:
                raise ModelBehaviorError(
                    "the model's final answer is not the JSON outputs object",
                    agent=agent.name,
                    body=response.text,
                ) from exc
            if not isinstance(parsed, dict):
                raise ModelBehaviorError(
                    "the model's outputs are not a JSON object",
                    agent=agent.name,
                    body=response.text,
                )
            output = parsed
        else:
            raise ModelBehaviorError(
                "the model returned neither tool calls nor outputs", agent=agent.name
            )
        if agent.mode is Mode.CONVERSATIONAL:
            dialogue.append({"role": "user", "text": call.request})
            dialogue.extend({"role": "agent", "text": text} for text in sent)
            answered = bool(output.get("answered"))
            call.state["_dialogue"] = [] if answered else dialogue[-40:]
        return output, usage
    raise TurnLimitError(
        f"sub-agent {agent.name!r} used {call.max_steps} model calls without returning outputs",
        limit=call.max_steps,
    )


async def _call_tool(
    call: SubagentCall,
    ctx: ToolContext,
    tools: Mapping[str, Any],
    tool_call: ToolCall,
    sent: list[str],
    attempted: list[str],
) -> str:
    if tool_call.name == SEND_TOOL:
        text = str(tool_call.arguments.get("text", "")).strip()
        if call.agent.mode is Mode.SILENT or call.send is None:
            attempted.append(text)
            return "error: you cannot message the user; put your answer in the outputs"
        if text:
            await call.send(text)
            sent.append(text)
        return "sent"
    tool = tools.get(tool_call.name)
    if tool is None:
        return f"error: there is no tool named {tool_call.name!r}"
    try:
        value = await tool.call(tool_call.arguments, ctx)
    except TypeError as exc:
        return f"error: bad arguments for {tool_call.name}: {exc}"
    return _tool_result_text(value)


async def _handler_outputs(
    call: SubagentCall, ctx: ToolContext, sent: list[str]
) -> tuple[Mapping[str, Any], Usage]:
    assert call.agent.handler is not None
    raw = await call.agent.handler(ctx)
    summary = raw.get("interactionSummary")
    speaks = raw.get("answered") or call.agent.mode is Mode.CONVERSATIONAL
    if (
        call.agent.mode is not Mode.SILENT
        and call.send is not None
        and isinstance(summary, str)
        and speaks
    ):
        await call.send(summary)
        sent.append(summary)
    return raw, Usage()


async def run_subagent(call: SubagentCall) -> SubagentResult:
    """Run one sub-agent call under its timeout and validate what it returns.

    Never raises for a failing agent: crashes become ``failed`` results and deadlines ``timed_out``
    ones. Contract violations are recorded on the result (the parent raises them in strict mode).
    """
    agent = call.agent
    history = call.history if agent.receives_history else None
    ctx = ToolContext(
        agent=agent.name, scoped_request=call.request, history=history, state=call.state
    )
    sent: list[str] = []
    attempted: list[str] = []
    started = time.perf_counter()
    usage = Usage()
    spent = [Usage()]

    def failed(status: Literal["failed", "timed_out"], error: str) -> SubagentResult:
        return SubagentResult(
            agent=agent.name,
            mode=agent.mode,
            request=call.request,
            status=status,
            messages=tuple(sent),
            error=error,
            duration_s=time.perf_counter() - started,
            usage=spent[0],
        )

    try:
        async with asyncio.timeout(agent.timeout) as deadline:
            if agent.handler is not None:
                raw, usage = await _handler_outputs(call, ctx, sent)
            elif getattr(agent, "url", None):
                from harness.hosting.remote import remote_outputs

                raw, usage = await remote_outputs(call, sent)
            else:
                # A model with a concurrency limit moves this deadline by the time queued.
                token = CALLER_DEADLINE.set(deadline)
                try:
                    raw, usage = await _model_loop(call, ctx, sent, attempted, spent)
                finally:
                    CALLER_DEADLINE.reset(token)
    except TimeoutError:
        return failed("timed_out", f"no result within {agent.timeout:g}s")
    except ModelBehaviorError as exc:
        if call.strict:
            raise
        return failed("failed", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a failing sub-agent must never crash the turn
        return failed("failed", f"{type(exc).__name__}: {exc}")
    outputs, violations = validate_outputs(
        agent=agent.name,
        mode=agent.mode,
        raw=raw,
        messages_sent=tuple(sent) + tuple(attempted),
        declared_outputs=agent.output_names,
    )
    open_questions = outputs.open_questions if outputs is not None else None
    status: Literal["complete", "partial"] = "partial" if open_questions else "complete"
    return SubagentResult(
        agent=agent.name,
        mode=agent.mode,
        request=call.request,
        status=status,
        outputs=outputs,
        messages=tuple(sent),
        violations=violations,
        duration_s=time.perf_counter() - started,
        usage=usage,
    )
