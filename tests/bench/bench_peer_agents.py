"""Turn overhead next to the OpenAI Agents SDK: one three-intent turn on scripted models.

Run it from the repository root (needs the ``bench`` extra, ``pip install -e ".[bench]"``)::

    .venv/bin/python tests/bench/bench_peer_agents.py [--turns 1000] [--warmup 100] [--json]

Both sides do the same work with the same number of model calls (ten per turn), every answer
scripted, so the time measured is each framework's own:

- *ours*: a ``Parent`` with a silent, a direct and a conversational sub-agent. The parent's model
  plans (1 call) and composes (1 call); the silent agent calls its tool and returns its outputs
  (2 calls); the direct and the conversational agent call their tool, send their message with the
  send tool and return their outputs (3 calls each). Every sub-agent result is validated against
  its mode's contract and every message is recorded in the transcript with its sender.
- *peer*: the Agents SDK's "agents as tools" pattern. An orchestrator ``Agent`` calls the three
  sub-agents, each exposed with ``Agent.as_tool``, in one response (1 call) and writes the final
  reply (1 call). Each sub-agent is an ``Agent`` with the same Python tool, a
  ``send_message_to_user`` function tool that records the message (direct and conversational
  ones) and a Pydantic ``output_type`` with the contract's outputs (2 or 3 calls, as ours).

The scripted model of each side is a minimal ``Model`` subclass answering from a fixed, cyclic
script (the peer's mirrors its own test suite's ``FakeModel``; ``agents.testing.ScriptedModel`` is
not used because it deep-copies every call's input, which would bill the peer for test bookkeeping).
Tools are plain sync functions on both sides; both SDKs run those in a worker thread. Tracing of
the peer is disabled, so it does no network I/O.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")

from harness import ChildAgent, ConnectedAgent, Mode, Parent  # noqa: E402
from harness.models import Model, ModelRequest, ModelResponse, ToolCall  # noqa: E402
from subagents import Usage  # noqa: E402

MESSAGE = (
    "When is my next payday, and how many vacation days do I have left, "
    "and please open an IT ticket for my laptop"
)
REQUESTS = {
    "payroll": "When is my next payday",
    "pto": "how many vacation days do I have left",
    "ticket": "please open an IT ticket for my laptop",
}
PAYDAY = "Your next payday is Friday, December 4."
PTO = "You have 12 PTO days left this year."
TICKET = "Ticket IT-1 is open for your laptop."
FINAL = PAYDAY
SEND = "send_message_to_user"
MODEL_CALLS_PER_TURN = 10


def next_payday() -> str:
    """When the next paycheck (payday) arrives."""
    return PAYDAY


def pto_balance() -> str:
    """How many paid time off (vacation) days are left."""
    return PTO


def open_ticket(request: str) -> str:
    """Open an IT support ticket for a device."""
    return TICKET


# --- ours ---------------------------------------------------------------------------------------


class CyclicModel(Model):
    """Plays a fixed script of responses over and over (one script cycle per turn)."""

    name = "cyclic"

    def __init__(self, script: Sequence[ModelResponse]) -> None:
        self.script = tuple(script)
        self.calls: list[ModelRequest] = []

    async def request(self, request: ModelRequest) -> ModelResponse:
        self.calls.append(request)
        return self.script[(len(self.calls) - 1) % len(self.script)]


def _call(name: str, **arguments: Any) -> ModelResponse:
    call = ToolCall(id=f"call_{name}", name=name, arguments=arguments)
    return ModelResponse(tool_calls=(call,), usage=Usage(requests=1))


def _output(**output: Any) -> ModelResponse:
    return ModelResponse(output=output, usage=Usage(requests=1))


def our_scripts() -> dict[str, list[ModelResponse]]:
    """The scripted responses of each of our agents, in the order one turn asks for them."""
    plan = [{"request": r, "agent": a} for a, r in REQUESTS.items()]
    return {
        "desk": [_output(requests=plan), _output(message=FINAL, route=[])],
        "payroll": [
            _call("next_payday"),
            _output(answered=False, findings=PAYDAY, openQuestions=[]),
        ],
        "pto": [
            _call("pto_balance"),
            _call(SEND, text=PTO),
            _output(answered=True, interactionSummary=PTO, openQuestions=[]),
        ],
        "ticket": [
            _call("open_ticket", request=REQUESTS["ticket"]),
            _call(SEND, text=TICKET),
            _output(
                answered=True,
                scopedRequest=REQUESTS["ticket"],
                interactionSummary=TICKET,
                openQuestions=[],
            ),
        ],
    }


def build_ours() -> Parent:
    """Our parent with a silent, a direct and a conversational sub-agent on scripted models."""
    scripts = our_scripts()
    return Parent(
        name="desk",
        instructions="You are the office helpdesk.",
        model=CyclicModel(scripts["desk"]),
        subagents=[
            ConnectedAgent(
                name="payroll",
                mode=Mode.SILENT,
                pass_history=False,
                description="Looks up pay dates and paychecks.",
                tools=[next_payday],
                model=CyclicModel(scripts["payroll"]),
            ),
            ChildAgent(
                name="pto",
                mode=Mode.DIRECT,
                description="Answers questions about paid time off (PTO, vacation days).",
                tools=[pto_balance],
                model=CyclicModel(scripts["pto"]),
            ),
            ConnectedAgent(
                name="ticket",
                mode=Mode.CONVERSATIONAL,
                description="Opens IT support tickets for broken devices.",
                tools=[open_ticket],
                model=CyclicModel(scripts["ticket"]),
            ),
        ],
    )


async def time_ours(turns: int, warmup: int) -> list[float]:
    """Seconds per turn, each turn in a fresh conversation (the peer keeps no state either)."""
    parent = build_ours()
    timings: list[float] = []
    for index in range(warmup + turns):
        conversation = parent.conversation()
        started = time.perf_counter()
        turn = await conversation.send(MESSAGE)
        elapsed = time.perf_counter() - started
        if index == 0:
            check_ours(turn)
        if index >= warmup:
            timings.append(elapsed)
    calls = sum(len(m.calls) for m in _models(parent))  # type: ignore[attr-defined]
    assert calls == MODEL_CALLS_PER_TURN * (warmup + turns), calls
    return timings


def _models(parent: Parent) -> list[Model]:
    return [parent.model, *(a.model for a in parent.subagents.values())]


def check_ours(turn: Any) -> None:
    """The turn did the intended work: three valid results and the expected messages."""
    assert sorted(r.agent for r in turn.results) == ["payroll", "pto", "ticket"], turn.results
    assert all(r.ok for r in turn.results), turn.results
    said = [(m.sender, m.text) for m in turn.messages]
    assert sorted(said) == sorted([("pto", PTO), ("ticket", TICKET), ("desk", FINAL)]), said


# --- peer: the OpenAI Agents SDK ----------------------------------------------------------------


@dataclass
class PeerTranscript:
    """The peer's run context: the messages its direct agents sent, with their senders."""

    messages: list[tuple[str, str]] = field(default_factory=list)


def build_peer() -> tuple[Any, type[Any], list[Any]]:
    """The orchestrator agent with three agents as tools, the context type, and the models."""
    from agents import Agent, RunContextWrapper, function_tool, set_tracing_disabled
    from agents.items import ModelResponse as PeerResponse
    from agents.models.interface import Model as PeerModel
    from agents.usage import Usage as PeerUsage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )
    from pydantic import BaseModel, ConfigDict, Field

    set_tracing_disabled(True)

    class PeerCyclicModel(PeerModel):  # type: ignore[misc]
        """The peer's minimal scripted model: a fixed, cyclic list of output items per call."""

        def __init__(self, script: Sequence[list[Any]]) -> None:
            self.script = tuple(script)
            self.calls: list[Any] = []

        async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kw: Any):  # type: ignore[no-untyped-def]
            self.calls.append(input)
            output = self.script[(len(self.calls) - 1) % len(self.script)]
            return PeerResponse(output=output, usage=PeerUsage(requests=1), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    def call(name: str, call_id: str, **arguments: Any) -> list[Any]:
        return [
            ResponseFunctionToolCall(
                id=call_id,
                call_id=call_id,
                type="function_call",
                name=name,
                arguments=json.dumps(arguments),
            )
        ]

    def say(text: str) -> list[Any]:
        content = ResponseOutputText(text=text, type="output_text", annotations=[], logprobs=[])
        return [
            ResponseOutputMessage(
                id="msg", type="message", role="assistant", status="completed", content=[content]
            )
        ]

    class SilentOutputs(BaseModel):
        model_config = ConfigDict(extra="forbid")
        answered: bool
        findings: str
        open_questions: list[str] = Field(alias="openQuestions")

    class DirectOutputs(BaseModel):
        model_config = ConfigDict(extra="forbid")
        answered: bool
        interaction_summary: str = Field(alias="interactionSummary")
        open_questions: list[str] = Field(alias="openQuestions")

    class ConversationalOutputs(DirectOutputs):
        scoped_request: str = Field(alias="scopedRequest")

    def send_message_to_user(ctx: RunContextWrapper[PeerTranscript], text: str) -> str:
        """Send one message to the user. Use it once, with the full answer."""
        ctx.context.messages.append(("agent", text))
        return "sent"

    # Annotations are strings here (PEP 563); the peer resolves them, so give it the real types.
    send_message_to_user.__annotations__ = {
        "ctx": RunContextWrapper[PeerTranscript],
        "text": str,
        "return": str,
    }

    send_tool = function_tool(send_message_to_user)
    payroll = Agent(
        name="payroll",
        instructions="Look up pay dates and paychecks. Never message the user.",
        tools=[function_tool(next_payday)],
        output_type=SilentOutputs,
        model=PeerCyclicModel(
            [
                call("next_payday", "c1"),
                say(json.dumps({"answered": False, "findings": PAYDAY, "openQuestions": []})),
            ]
        ),
    )
    pto = Agent(
        name="pto",
        instructions="Answer questions about paid time off.",
        tools=[function_tool(pto_balance), send_tool],
        output_type=DirectOutputs,
        model=PeerCyclicModel(
            [
                call("pto_balance", "c2"),
                call(SEND, "c3", text=PTO),
                say(json.dumps({"answered": True, "interactionSummary": PTO, "openQuestions": []})),
            ]
        ),
    )
    ticket = Agent(
        name="ticket",
        instructions="Open IT support tickets for broken devices.",
        tools=[function_tool(open_ticket), send_tool],
        output_type=ConversationalOutputs,
        model=PeerCyclicModel(
            [
                call("open_ticket", "c4", request=REQUESTS["ticket"]),
                call(SEND, "c5", text=TICKET),
                say(
                    json.dumps(
                        {
                            "answered": True,
                            "scopedRequest": REQUESTS["ticket"],
                            "interactionSummary": TICKET,
                            "openQuestions": [],
                        }
                    )
                ),
            ]
        ),
    )
    plan = [
        item
        for n, (agent, request) in enumerate(REQUESTS.items())
        for item in call(agent, f"p{n}", input=request)
    ]
    orchestrator = Agent(
        name="desk",
        instructions="You are the office helpdesk. Use the tools for each request.",
        tools=[
            payroll.as_tool("payroll", "Looks up pay dates and paychecks."),
            pto.as_tool("pto", "Answers questions about paid time off (PTO, vacation days)."),
            ticket.as_tool("ticket", "Opens IT support tickets for broken devices."),
        ],
        model=PeerCyclicModel([plan, say(FINAL)]),
    )
    models = [orchestrator.model, payroll.model, pto.model, ticket.model]
    return orchestrator, PeerTranscript, models


async def time_peer(turns: int, warmup: int) -> list[float]:
    """Seconds per ``Runner.run`` of the same turn."""
    from agents import Runner

    orchestrator, context_type, models = build_peer()
    timings: list[float] = []
    for index in range(warmup + turns):
        context = context_type()
        started = time.perf_counter()
        result = await Runner.run(orchestrator, MESSAGE, context=context)
        elapsed = time.perf_counter() - started
        if index == 0:
            assert result.final_output == FINAL, result.final_output
            assert sorted(t for _, t in context.messages) == sorted([PTO, TICKET]), context
        if index >= warmup:
            timings.append(elapsed)
    calls = sum(len(m.calls) for m in models)
    assert calls == MODEL_CALLS_PER_TURN * (warmup + turns), calls
    return timings


def peer_available() -> str | None:
    """None when the peer can run; else why not."""
    try:
        import agents  # noqa: F401
    except ImportError:
        return 'openai-agents is not installed (pip install -e ".[bench]")'
    return None


def peer_version() -> str:
    from importlib.metadata import version

    return version("openai-agents")


async def measure(turns: int, warmup: int, rounds: int = 3) -> dict[str, Any]:
    """Median milliseconds per turn of each side, interleaved over ``rounds`` rounds."""
    ours: list[float] = []
    theirs: list[float] = []
    skip = peer_available()
    for _ in range(rounds):
        ours += await time_ours(turns, warmup)
        if skip is None:
            theirs += await time_peer(turns, warmup)
    report: dict[str, Any] = {
        "turns": turns * rounds,
        "model_calls_per_turn": MODEL_CALLS_PER_TURN,
        "ours_ms": statistics.median(ours) * 1000,
        "ours_p90_ms": sorted(ours)[int(0.9 * (len(ours) - 1))] * 1000,
    }
    if skip is None:
        report["peer"] = f"openai-agents {peer_version()}"
        report["peer_ms"] = statistics.median(theirs) * 1000
        report["peer_p90_ms"] = sorted(theirs)[int(0.9 * (len(theirs) - 1))] * 1000
        report["ratio"] = report["ours_ms"] / report["peer_ms"]
    else:
        report["peer"] = None
        report["skipped"] = skip
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = asyncio.run(measure(args.turns, args.warmup, args.rounds))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"one three-intent turn, {MODEL_CALLS_PER_TURN} scripted model calls per side")
    print(f"  ours: median {report['ours_ms']:.3f} ms, p90 {report['ours_p90_ms']:.3f} ms")
    if report["peer"]:
        print(
            f"  {report['peer']}: median {report['peer_ms']:.3f} ms, "
            f"p90 {report['peer_p90_ms']:.3f} ms"
        )
        print(f"  ratio ours/peer: {report['ratio']:.2f}")
    else:
        print(f"  peer not measured: {report['skipped']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
