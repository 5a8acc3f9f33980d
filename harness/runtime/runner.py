"""Runs one sub-agent call: picks its transport, and owns its deadline, validation and failures.

Whatever happens inside (a crash, a timeout, a model that breaks the contract), the caller gets a
``SubagentResult``; nothing escapes except cancellation (and, in strict mode, model misbehaviour).
How the call itself runs is its transport's business (``harness.transport``): the agent's handler
or model loop in-process, HTTP for a remote ``ConnectedAgent``, or a test double.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Literal

from harness.exceptions import ModelBehaviorError
from harness.models._slots import CALLER_DEADLINE
from harness.transport.base import AgentTransport, Delivery, PreparedAgent, SubagentCall
from harness.transport.http import HTTPTransport
from harness.transport.local import SEND_TOOL, LocalTransport, output_schema, prepare
from subagents import Mode, Subagent, SubagentResult, Usage, validate_outputs

__all__ = [
    "SEND_TOOL",
    "PreparedAgent",
    "SubagentCall",
    "default_transport",
    "output_schema",
    "prepare",
    "run_subagent",
]

log = logging.getLogger("harness")

_HTTP = HTTPTransport()


def default_transport(agent: Subagent, local: LocalTransport) -> AgentTransport:
    """How ``agent`` runs when no transport is given for it: in-process on ``local`` (its handler
    or model loop); over HTTP for a connected agent with a ``url``."""
    if agent.handler is None and getattr(agent, "url", None):
        return _HTTP
    return local


async def run_subagent(call: SubagentCall) -> SubagentResult:
    """Run one sub-agent call under its timeout and validate what it returns.

    Never raises for a failing agent: crashes become ``failed`` results and deadlines ``timed_out``
    ones. Contract violations are recorded on the result (the parent raises them in strict mode).
    """
    agent = call.agent
    deliver = Delivery(send=None if agent.mode is Mode.SILENT else call.send)
    transport = call.transport or default_transport(agent, LocalTransport())
    call.spent = Usage()
    call.tools_called = None
    started = time.perf_counter()

    def tools() -> tuple[str, ...] | None:
        return None if call.tools_called is None else tuple(call.tools_called)

    def failed(
        status: Literal["failed", "timed_out"], error: str, cause: BaseException | None = None
    ) -> SubagentResult:
        # One line; with --debug (the harness logger at DEBUG) the traceback too.
        trace = cause if cause is not None and log.isEnabledFor(logging.DEBUG) else None
        log.info("sub-agent %s %s: %s", agent.name, status.replace("_", " "), error, exc_info=trace)
        return SubagentResult(
            agent=agent.name,
            mode=agent.mode,
            request=call.request,
            status=status,
            messages=tuple(deliver.sent),
            error=error,
            duration_s=time.perf_counter() - started,
            usage=call.spent,
            tool_calls=tools(),
            requests=call.requests,
        )

    try:
        async with asyncio.timeout(agent.timeout) as deadline:
            # A model with a concurrency limit moves this deadline by the time its request queued.
            token = CALLER_DEADLINE.set(deadline)
            try:
                reply = await transport.run(call, deliver)
            finally:
                CALLER_DEADLINE.reset(token)
    except TimeoutError as exc:
        if deadline.expired():
            return failed("timed_out", f"no result within {agent.timeout:g}s")
        # The agent's own code timed out (a socket, a tool's own limit): a failure, not the deadline.
        return failed("failed", f"{type(exc).__name__}: {exc}", exc)
    except ModelBehaviorError as exc:
        if call.strict:
            raise
        return failed("failed", f"{type(exc).__name__}: {exc}", exc)
    except Exception as exc:  # a failing sub-agent must never crash the turn
        return failed("failed", f"{type(exc).__name__}: {exc}", exc)
    except SystemExit as exc:  # a handler calling sys.exit() must not stop a server
        return failed("failed", f"SystemExit({exc.code!r}) raised inside the agent", exc)
    outputs, violations = validate_outputs(
        agent=agent.name,
        mode=agent.mode,
        raw=reply.outputs,
        messages_sent=tuple(deliver.sent) + tuple(deliver.attempted),
        declared_outputs=agent.output_names,
        requests=call.requests,
    )
    open_questions = outputs.open_questions if outputs is not None else None
    answers = (outputs.answered_requests if outputs is not None else None) or ()
    status: Literal["complete", "partial", "failed"] = "partial" if open_questions else "complete"
    error: str | None = None
    if outputs is None:  # garbage outputs: nothing to relay or route, so the call failed
        status = "failed"
        error = "contract violation: " + "; ".join(str(v) for v in violations)
    elif any(not a.answered and not (a.findings or "").strip() for a in answers):
        status = "partial"  # a request handed back in its item, not in openQuestions, is open
    return SubagentResult(
        agent=agent.name,
        mode=agent.mode,
        request=call.request,
        status=status,
        outputs=outputs,
        messages=tuple(deliver.sent),
        violations=violations,
        error=error,
        duration_s=time.perf_counter() - started,
        usage=reply.usage,
        tool_calls=tools(),
        requests=call.requests,
    )
