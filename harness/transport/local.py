"""The local transport: a sub-agent's handler, or its model loop with its tools and the send tool.

A silent agent is never given the send tool: if its model calls one anyway, the message is not
delivered and the attempt is a contract violation (recorded on the ``Delivery``).
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from harness.agent.loop import LoopHooks, ToolOutcome, run_agent_loop
from harness.agent.tools import invoke_tool
from harness.exceptions import ModelBehaviorError
from harness.models._wire import loads_checked
from harness.models.base import (
    ActContext,
    ChatMessage,
    ModelRequest,
    ModelResponse,
    ToolCall,
    ToolDefinition,
)
from harness.transport.base import (
    ANSWERS,
    AgentReply,
    AgentTransport,
    Delivery,
    PreparedAgent,
    SubagentCall,
)
from instructions import contract
from subagents import REQUIRED_OUTPUTS, HistoryEntry, Mode, Subagent, Tool, ToolContext, Usage
from subagents.contract import read_answered, validate_outputs

__all__ = ["SEND_TOOL", "LocalTransport", "output_schema", "prepare"]

log = logging.getLogger("harness")

SEND_TOOL = "send_message_to_user"
"""The name of the tool direct and conversational agents use to message the user."""

# ``json.dumps(..., ensure_ascii=False)`` builds a new encoder on every call; this is the same
# encoder, built once (the output is identical).
_JSON = json.JSONEncoder(ensure_ascii=False)


class LocalTransport(AgentTransport):
    """Runs a sub-agent in this process: its ``handler`` when it has one, else its model loop.

    The model loop calls the agent's model until it returns the outputs (at most
    ``call.max_steps`` calls), running the tools it asks for and delivering what it sends with
    the send tool (``harness.agent.loop``, with ``tool_errors="fail"``). Unknown tools and bad
    arguments go back to the model as ``error: ...`` results; a tool that raises (or outlasts the
    agent's ``tool_timeout``) fails the call.

    A parent owns one (``harness.runtime.deps.Dependencies``): a turn gives the same history tuple
    to every agent it calls, so the transport keeps the last tuple's JSON and the agents of one
    turn that receive history share one encoding. Nothing is cached for the whole process.
    """

    __slots__ = ("_last_history",)

    def __init__(self) -> None:
        # One pair, replaced in one assignment, so a reader in another thread never sees one
        # tuple with another's JSON.
        self._last_history: tuple[object, str] = (None, "")

    async def run(self, call: SubagentCall, deliver: Delivery) -> AgentReply:
        agent = call.agent
        history = call.history if agent.receives_history else None
        ctx = ToolContext(
            agent=agent.name,
            scoped_request=call.request,
            history=history,
            state=call.state,
            requests=call.requests if len(call.requests) > 1 else (),
            answers=call.answers,
        )
        if agent.handler is not None:
            return await _handler_outputs(call, ctx, deliver)
        return await _model_loop(call, ctx, deliver, self._input_message(call))

    def _input_message(self, call: SubagentCall) -> str:
        # The user's answers to the agent's questions go beside the request, as data
        # (``userAnswers``: docs/contract.md), never into its text.
        request = _JSON.encode(call.request)
        if call.answers:
            answers = _JSON.encode(
                [
                    {"request": a.request, "question": a.question, "value": a.value}
                    for a in call.answers
                ]
            )
            request = f"{request}, {_ANSWERS_KEY}: {answers}"
        if not call.agent.receives_history:
            return f"{{{_REQUEST_KEY}: {request}}}"
        return f"{{{_REQUEST_KEY}: {request}, {_HISTORY_KEY}: {self._history_json(call.history)}}}"

    def _history_json(self, history: Sequence[HistoryEntry]) -> str:
        last = self._last_history
        if last[0] is history:
            return last[1]
        encoded = _JSON.encode(
            [{"turn": h.turn, "role": h.role, "sender": h.sender, "text": h.text} for h in history]
        )
        self._last_history = (history, encoded)
        return encoded


def output_schema(agent: Subagent) -> dict[str, Any]:
    """JSON schema of the outputs ``agent`` must return (``instructions.contract.output_schema``)."""
    return contract.output_schema(
        agent.mode,
        declared=agent.output_names,
        descriptions={spec.name: spec.description for spec in agent.outputs or ()},
    )


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
    schema = output_schema(agent)
    return PreparedAgent(
        tools=tools,
        definitions=definitions,
        schema=schema,
        several_schema=contract.with_request_answers(schema),
    )


def _schema(prepared: PreparedAgent, *, several: bool) -> dict[str, Any]:
    """The call's output schema: with ``answeredRequests`` required when it carries two or more
    requests."""
    if not several:
        return prepared.schema
    return prepared.several_schema or contract.with_request_answers(prepared.schema)


_REQUEST_KEY = _JSON.encode(contract.SCOPED_REQUEST)
_ANSWERS_KEY = _JSON.encode(ANSWERS)
_HISTORY_KEY = _JSON.encode(contract.HISTORY)


class _SubagentHooks(LoopHooks[AgentReply]):
    """The sub-agent's part of the agent loop: the send tool, ``call.spent``, JSON outputs and
    the conversational dialogue state."""

    __slots__ = ("asked", "call", "deliver", "dialogue")

    def __init__(self, call: SubagentCall, deliver: Delivery, dialogue: list[dict[str, str]]):
        self.call = call
        self.deliver = deliver
        self.dialogue = dialogue
        self.asked: set[str] = set()
        """The tools already warned about for ``Reply(done=False)`` in this call."""

    async def on_tool_call(self, call: ToolCall) -> str | None:
        if call.name != SEND_TOOL:
            if self.call.tools_called is not None:
                self.call.tools_called.append(call.name)
            return None
        deliver = self.deliver
        text = str(call.arguments.get("text", "")).strip()
        if self.call.agent.mode is Mode.SILENT or not deliver.allowed:
            deliver.attempted.append(text)
            return "error: you cannot message the user; put your answer in the outputs"
        if text:
            if self.call.agent.mode is Mode.CONVERSATIONAL:
                # The dialogue so far, this message included, is in the state saved before the
                # message goes out (``finish`` writes the final one).
                self.call.dialogue[:] = [
                    *self.dialogue,
                    {"role": "user", "text": self.call.request},
                    *({"role": "agent", "text": t} for t in (*deliver.sent, text)),
                ][-40:]
            await deliver(text)
        return "sent"

    async def on_tool_result(self, call: ToolCall, outcome: ToolOutcome) -> str:
        agent = self.call.agent
        if (
            outcome.asks_user
            and agent.mode is not Mode.CONVERSATIONAL
            and outcome.name not in self.asked
        ):
            # Only a conversational agent holds the floor; elsewhere the question is just text
            # (findings the parent relays, or a direct message), and the user's reply to it goes
            # to the planner like any message. Said once per call and tool, not silently ignored.
            self.asked.add(outcome.name)
            log.warning(
                "tool %r of %s agent %r returned Reply(done=False): only a conversational agent "
                "keeps the floor for the user's answer; its text is used as the agent's answer "
                "(make the agent conversational to ask the user something)",
                outcome.name,
                agent.mode.value,
                agent.name,
            )
        return outcome.output

    def on_usage(self, usage: Usage) -> None:
        self.call.spent = usage  # kept by the runner even if a later step fails

    def finish(self, response: ModelResponse, usage: Usage) -> AgentReply:
        agent = self.call.agent
        if response.output is not None:
            output = dict(response.output)
        elif response.text:
            try:
                parsed = loads_checked(response.text)
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
            dialogue = self.dialogue
            dialogue.append({"role": "user", "text": self.call.request})
            dialogue.extend({"role": "agent", "text": text} for text in self.deliver.sent)
            answered = read_answered(output.get(contract.ANSWERED)) is True
            self.call.dialogue[:] = [] if answered else dialogue[-40:]
        return AgentReply(outputs=output, usage=usage)


async def _model_loop(
    call: SubagentCall, ctx: ToolContext, deliver: Delivery, input_message: str
) -> AgentReply:
    agent = call.agent
    can_message = agent.mode is not Mode.SILENT and deliver.allowed
    prepared = call.prepared or prepare(agent)
    definitions = prepared.definitions
    if can_message:
        definitions += (_SEND_DEFINITION,)
    dialogue: list[dict[str, str]] = list(call.dialogue)
    call.tools_called = []  # the model loop sees every tool call
    messages: list[ChatMessage] = []
    for entry in dialogue:
        role = "user" if entry["role"] == "user" else "assistant"
        messages.append(ChatMessage(role=role, content=entry["text"]))  # type: ignore[arg-type]
    messages.append(ChatMessage(role="user", content=input_message))
    several = ctx.requests
    context = ActContext(
        agent=agent.name,
        mode=agent.mode.value,
        scoped_request=call.request,
        history=ctx.history,
        required_outputs=REQUIRED_OUTPUTS[agent.mode]
        + ((contract.ANSWERED_REQUESTS,) if several else ()),
        can_message_user=can_message,
        continuing=call.continuing,
        requests=several,
        answers=call.answers,
    )
    request = ModelRequest(
        agent=agent.name,
        system=call.system,
        messages=tuple(messages),
        tools=definitions,
        output_schema=_schema(prepared, several=bool(several)),
        output_name=f"{agent.name}_outputs",
        context=context,
        timeout=agent.timeout,
    )
    return await run_agent_loop(
        _SubagentHooks(call, deliver, dialogue),
        request,
        model=call.model,
        tools=prepared.tools,
        tool_context=ctx,
        max_steps=call.max_steps,
        tool_errors="fail",  # a crashing tool fails the call; the parent tells the user
        tool_timeout=agent.tool_timeout,
        owner=call.tool_threads,
    )


async def _handler_outputs(call: SubagentCall, ctx: ToolContext, deliver: Delivery) -> AgentReply:
    handler = call.agent.handler
    assert handler is not None
    raw: Any
    if _is_async(handler):
        raw = await handler(ctx)  # type: ignore[misc] # an async def's result is awaitable
    else:
        # A plain function may block (a database driver, a sync HTTP client): it runs on a worker
        # thread from the agent's share, as a sync tool does, so the agent's timeout still fires
        # and the loop every conversation shares keeps running. It is called positionally, in a
        # copy of the caller's contextvars; a coroutine it returns is awaited here, on the loop.
        # (A future it made with ``asyncio.ensure_future`` cannot be: a thread has no running
        # loop. Such a handler is documented as unsupported: write ``async def``.)
        as_tool = Tool(
            name=f"{call.agent.name} handler",
            description="",
            function=functools.partial(contextvars.copy_context().run, handler, ctx),
            parameters={},
        )
        raw = await invoke_tool(as_tool, {}, ctx, agent=call.agent.name, threads=call.tool_threads)
    if not isinstance(raw, Mapping):
        # Not outputs at all: validation makes the call failed with a contract violation that
        # says so, and nothing is sent.
        return AgentReply(outputs=raw)
    summary = raw.get(contract.INTERACTION_SUMMARY)
    items = raw.get(contract.ANSWERED_REQUESTS)
    some_answered = isinstance(items, list) and any(
        isinstance(item, Mapping) and read_answered(item.get(contract.ANSWERED)) is True
        for item in items
    )
    # 'answered' read as validation reads it: the text "false" is false, not a truthy string.
    answered = read_answered(raw.get(contract.ANSWERED)) is True
    speaks = answered or some_answered or call.agent.mode is Mode.CONVERSATIONAL
    if (
        call.agent.mode is not Mode.SILENT
        and deliver.allowed
        and isinstance(summary, str)
        and speaks
        and _readable(call, raw, summary)
    ):
        await deliver(summary)
    return AgentReply(outputs=raw)


def _is_async(function: object) -> bool:
    """Whether calling ``function`` gives a coroutine (an ``async def``, or an object whose
    ``__call__`` is one)."""
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        getattr(function, "__call__", None)  # noqa: B004 - the method, not callability
    )


def _readable(call: SubagentCall, raw: Mapping[str, Any], summary: str) -> bool:
    """Whether ``raw`` can be read as outputs once ``summary`` is sent. The runtime sends a
    handler's summary itself, so it checks first: outputs that make the call fail send nothing,
    and the user gets the failure apology alone, not an answer followed by it."""
    outputs, _ = validate_outputs(
        agent=call.agent.name,
        mode=call.agent.mode,
        raw=raw,
        messages_sent=(summary,),
        declared_outputs=call.agent.output_names,
        requests=call.requests,
    )
    return outputs is not None
