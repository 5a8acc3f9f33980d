"""One agent loop, shared by sub-agents (``harness.transport.local``) and team members.

The loop asks the model, runs the tools it calls, hands the results back and asks again, until the
model gives its final answer (a response without tool calls) or ``max_steps`` model calls are used
up (``TurnLimitError``). A refusal is a ``ModelBehaviorError``. Both callers get the same tool
handling:

- an unknown tool: ``error: there is no tool named 'x'``;
- arguments that do not fit the signature: ``error: bad arguments for x: ...``;
- an optional per-tool timeout (``tool_timeout``);
- a return value as text by ``tool_result_text`` (a ``Reply`` with nothing more to say is its
  text);
- a tool that raises or times out follows ``tool_errors``: ``"fail"`` lets the error end the call
  (a sub-agent: its call becomes a ``failed`` result, which the parent tells the user about);
  ``"report"`` tells the model ``error: tool 'x' failed: ValueError: ...`` and goes on (a team
  member, whose team has no failure path of its own).

What differs between the callers goes through a ``LoopHooks`` object: tool calls the caller
answers itself (the sub-agents' send tool), what happens to a tool's outcome before the model reads
it (a team screens it and emits events), usage as it accrues, and how the final answer is read.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from harness.agent.tools import ToolArgumentsError, ToolThreads, invoke_tool, tool_result_text
from harness.exceptions import ModelBehaviorError, RunError, TurnLimitError
from harness.models.base import ChatMessage, Model, ModelRequest, ModelResponse, ToolCall
from subagents import Reply, Tool, ToolContext, Usage

__all__ = [
    "LoopHooks",
    "ToolErrors",
    "ToolOutcome",
    "ToolTimeoutError",
    "run_agent_loop",
    "run_tool_call",
]

OutputT = TypeVar("OutputT")

ToolErrors = Literal["fail", "report"]
"""What a tool that raises or times out does: ``fail`` the call, or ``report`` it to the model."""


class ToolTimeoutError(RunError):
    """A tool call took longer than its ``tool_timeout`` (under ``tool_errors="fail"``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolOutcome:
    """The result of one tool call made by the loop."""

    name: str
    """The tool's name, as the model called it."""
    ok: bool
    """False when the tool is unknown, got bad arguments, raised or timed out."""
    output: str
    """The tool's output as text for the model, or the error text (``error: ...``)."""
    error: str | None = None
    """What went wrong (the error text without the ``error:`` prefix), when not ok."""
    duration_s: float = 0.0
    asks_user: bool = False
    """The tool returned ``Reply(done=False)``: it wants the user's answer before it is done."""


class LoopHooks(ABC, Generic[OutputT]):
    """What one caller of the loop adds to it; the ``on_*`` methods do nothing by default."""

    __slots__ = ()

    async def on_tool_call(self, call: ToolCall) -> str | None:
        """Answer ``call`` without running one of the agent's tools (the send tool).

        Returns:
            The text the model reads, or None to run the agent's tool as usual.
        """
        return None

    async def on_tool_result(self, call: ToolCall, outcome: ToolOutcome) -> str:
        """See a tool's outcome and return the text the model reads (by default its output)."""
        return outcome.output

    def on_usage(self, usage: Usage) -> None:
        """The usage so far, after every model call (so a call that fails later keeps it)."""

    @abstractmethod
    def finish(self, response: ModelResponse, usage: Usage) -> OutputT:
        """Read the model's final answer (a response without tool calls) into the loop's result.

        Raises:
            ModelBehaviorError: the answer is not what the caller expects.
        """


async def run_tool_call(
    tool: Tool | None,
    call: ToolCall,
    context: ToolContext,
    *,
    threads: str,
    tool_timeout: float | None = None,
    tool_errors: ToolErrors = "report",
    owner: ToolThreads | None = None,
) -> ToolOutcome:
    """Run one tool call the model asked for and say how it went, as text for the model.

    Args:
        tool: the agent's tool of that name; None when it has none (the model is told so).
        call: the model's call.
        context: the ``ToolContext`` a tool may ask for.
        threads: whose share of tool threads a sync tool uses (see ``harness.agent.tools``).
        owner: the ``ToolThreads`` that share belongs to (a bot's); None: the shared one.
        tool_timeout: seconds the call may take; None: no limit of its own.
        tool_errors: ``fail`` re-raises what the tool raised (and ``ToolTimeoutError``);
            ``report`` turns it into an ``error: ...`` outcome.

    Raises:
        ToolTimeoutError: under ``fail``, the call took longer than ``tool_timeout``.
        Exception: under ``fail``, whatever the tool raised (``ToolCrashError`` for
            ``SystemExit`` and the like).
    """
    if tool is None:
        return _failed(call.name, f"there is no tool named {call.name!r}", 0.0)
    started = time.perf_counter()
    timer: asyncio.Timeout | None = None
    try:
        if tool_timeout is None:
            value = await invoke_tool(tool, call.arguments, context, agent=threads, threads=owner)
        else:
            async with asyncio.timeout(tool_timeout) as timer:
                value = await invoke_tool(
                    tool, call.arguments, context, agent=threads, threads=owner
                )
    except ToolArgumentsError as exc:  # the model's mistake, whatever the policy: it may retry
        error = f"bad arguments for {call.name}: {exc}"
    except Exception as exc:
        if timer is not None and timer.expired():
            error = f"tool {call.name!r} timed out after {tool_timeout:g}s"
            if tool_errors == "fail":
                raise ToolTimeoutError(error) from None
        elif tool_errors == "fail":
            raise
        else:
            error = f"tool {call.name!r} failed: {type(exc).__name__}: {exc}"
    else:
        return ToolOutcome(
            name=call.name,
            ok=True,
            output=tool_result_text(value),
            duration_s=time.perf_counter() - started,
            asks_user=isinstance(value, Reply) and not value.done,
        )
    return _failed(call.name, error, time.perf_counter() - started)


def _failed(name: str, error: str, duration_s: float) -> ToolOutcome:
    return ToolOutcome(
        name=name, ok=False, output=f"error: {error}", error=error, duration_s=duration_s
    )


def _with_messages(request: ModelRequest, messages: tuple[ChatMessage, ...]) -> ModelRequest:
    # Every field spelled out: twice as fast as dataclasses.replace on this hot path. A test
    # (tests/agent/test_loop.py) fails when ModelRequest gains a field this does not copy.
    return ModelRequest(
        agent=request.agent,
        system=request.system,
        messages=messages,
        tools=request.tools,
        output_schema=request.output_schema,
        output_name=request.output_name,
        context=request.context,
        timeout=request.timeout,
    )


async def run_agent_loop(
    hooks: LoopHooks[OutputT],
    request: ModelRequest,
    *,
    model: Model,
    tools: Mapping[str, Tool],
    tool_context: ToolContext,
    max_steps: int,
    tool_errors: ToolErrors,
    tool_timeout: float | None = None,
    threads: str | None = None,
    owner: ToolThreads | None = None,
) -> OutputT:
    """Run one agent's model and tools until its final answer; return what ``hooks.finish`` reads.

    Args:
        hooks: the caller's part (see ``LoopHooks``).
        request: the first model request (its ``messages`` are the conversation so far); later
            requests are the same with the tool calls and results added.
        model: the model to ask.
        tools: the agent's tools by name (the definitions the model sees are ``request.tools``).
        tool_context: what a tool that asks for a ``ToolContext`` gets.
        max_steps: model calls allowed.
        tool_errors: ``fail`` or ``report`` a tool that raises or times out (see the module).
        tool_timeout: seconds one tool call may take; None: only the caller's deadline applies.
        threads: whose share of tool threads sync tools use; None: ``request.agent``.
        owner: the ``ToolThreads`` that share belongs to (a bot's); None: the shared one.

    Raises:
        TurnLimitError: ``max_steps`` model calls without a final answer.
        ModelBehaviorError: the model refused, or ``hooks.finish`` rejected its answer.
    """
    agent = request.agent
    pool = agent if threads is None else threads
    messages = list(request.messages)
    usage = Usage()
    for step in range(max_steps):
        if step:
            request = _with_messages(request, tuple(messages))
        response = await model.request(request)
        usage = usage + response.usage
        hooks.on_usage(usage)
        if response.refusal:
            raise ModelBehaviorError(f"the model refused: {response.refusal}", agent=agent)
        if not response.tool_calls:
            return hooks.finish(response, usage)
        messages.append(
            ChatMessage(role="assistant", content=response.text, tool_calls=response.tool_calls)
        )
        for call in response.tool_calls:
            text = await hooks.on_tool_call(call)
            if text is None:
                outcome = await run_tool_call(
                    tools.get(call.name),
                    call,
                    tool_context,
                    threads=pool,
                    tool_timeout=tool_timeout,
                    tool_errors=tool_errors,
                    owner=owner,
                )
                text = await hooks.on_tool_result(call, outcome)
            messages.append(
                ChatMessage(role="tool", content=text, tool_call_id=call.id, name=call.name)
            )
    raise TurnLimitError(
        f"agent {agent!r} used {max_steps} model calls without a final answer", limit=max_steps
    )
