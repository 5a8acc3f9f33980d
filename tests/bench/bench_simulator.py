"""Simulator throughput: scripted multi-intent conversations, every lexical detector on.

Run it from the repository root::

    .venv/bin/python tests/bench/bench_simulator.py [--conversations 1000] [--runs 3] [--json]

The bot is a helpdesk parent with a silent (payroll), a direct (pto) and a conversational (ticket)
sub-agent on a ``FunctionModel`` that answers every plan, act and compose request from the request
itself (so the time is the SDK's and the simulator's, not a model's). It is built with
``record=False``: a recording test double keeps every request it was sent (about 24,000 here),
and the garbage collector's passes over them were about a sixth of the run. Every conversation has three
turns: a three-intent message, a two-intent one and a single request, each with the facts of its
own conversation (numbers differ, so the detectors compare real, varied text) and the scenario's
expected answers. Each conversation goes through ``run_scenario`` with an ``InProcessTarget``:
the conversation, then ``detect`` with the default ``DetectorConfig`` (duplicate exact / near /
containment, silent leaks, awkward acks, missed requests, wrong scope; no embeddings), then the
scenario's expectations. The process is pinned to one core where the OS allows it.

Reported: turns per second over all conversations (median of the runs), and the same for the
offline ``RulesModel`` (which also does the routing and tool choice) as a second row. Each row also
gives turns per CPU-second of the process (``time.process_time``, worker threads included): on a
machine shared with other work the wall-clock figure drops while the CPU figure holds, so the two
together say whether a low figure is the code or the machine.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import ChildAgent, ConnectedAgent, FunctionModel, Mode, Parent, Reply, RulesModel  # noqa: E402
from harness.detect import DetectorConfig  # noqa: E402
from harness.models import (  # noqa: E402
    ActContext,
    Model,
    ModelRequest,
    ModelResponse,
    ToolCall,
)
from harness.simulate.runner import run_scenario  # noqa: E402
from harness.simulate.scenarios import RequestExpectation, Scenario, ScenarioTurn  # noqa: E402
from harness.simulate.targets import InProcessTarget  # noqa: E402
from subagents import Tool, ToolContext, Usage  # noqa: E402

SEND = "send_message_to_user"
TURNS_PER_CONVERSATION = 3


# --- the bot's tools (fake data that differs per conversation) ----------------------------------


def _n(ctx: ToolContext) -> int:
    return int(ctx.state.get("n") or 0)


def next_payday(ctx: ToolContext) -> str:
    """When the next paycheck (payday) arrives."""
    return f"Your next payday is Friday, March {ctx.scoped_request.count(' ') % 27 + 1}."


def pto_balance(ctx: ToolContext) -> str:
    """How many paid time off (vacation) days are left."""
    return f"You have {len(ctx.scoped_request) % 30 + 2} PTO days left this year."


def open_ticket(request: str) -> Reply:
    """Open an IT support ticket for a broken device."""
    return Reply(
        text=f"Ticket IT-{len(request) * 7} is open for your {request.rsplit(' my ', 1)[-1]}."
    )


async def next_payday_async(ctx: ToolContext) -> str:
    """When the next paycheck (payday) arrives."""
    return next_payday(ctx)


async def pto_balance_async(ctx: ToolContext) -> str:
    """How many paid time off (vacation) days are left."""
    return pto_balance(ctx)


async def open_ticket_async(request: str) -> Reply:
    """Open an IT support ticket for a broken device."""
    return open_ticket(request)


def _tool(function: Any, name: str) -> Tool:
    return Tool.from_function(function, name=name)


def build_bot(model: Model, *, async_tools: bool = True) -> Parent:
    """The helpdesk parent used by every conversation.

    With ``async_tools`` its tools are ``async def`` functions; without, plain functions, which
    the runtime runs on a worker thread (a thread hop of about 0.05 ms per tool call).
    """
    if async_tools:
        payday, pto, ticket = next_payday_async, pto_balance_async, open_ticket_async
    else:
        payday, pto, ticket = next_payday, pto_balance, open_ticket
    return Parent(
        name="desk",
        instructions="You are the office helpdesk.",
        model=model,
        subagents=[
            ConnectedAgent(
                name="payroll",
                mode=Mode.SILENT,
                pass_history=False,
                description="Looks up pay dates and paychecks.",
                tools=[_tool(payday, "next_payday")],
                examples=["when will i be getting my next paycheck", "when is payday"],
            ),
            ChildAgent(
                name="pto",
                mode=Mode.DIRECT,
                description="Answers questions about paid time off (PTO, vacation days).",
                tools=[_tool(pto, "pto_balance")],
                examples=["how many vacation days do i have left"],
            ),
            ConnectedAgent(
                name="ticket",
                mode=Mode.CONVERSATIONAL,
                description="Opens IT support tickets for broken devices (laptop, monitor).",
                tools=[_tool(ticket, "open_ticket")],
                examples=["open an it ticket for my laptop"],
            ),
        ],
    )


# --- the scripted model -------------------------------------------------------------------------

ROUTES = {"payday": "payroll", "paycheck": "payroll", "vacation": "pto", "ticket": "ticket"}


def _route(clause: str) -> str:
    lowered = clause.lower()
    return next(agent for word, agent in ROUTES.items() if word in lowered)


def respond(request: ModelRequest) -> ModelResponse:
    """Answers as a well-behaved LLM would: plan by keyword, call the tool, send, return outputs."""
    usage = Usage(requests=1)
    context = request.context
    if request.output_name == "plan":
        clauses = [c.strip() for c in (request.messages[-1].content or "").split(", and ")]
        plan = [{"request": c, "agent": _route(c)} for c in clauses]
        return ModelResponse(output={"requests": plan}, usage=usage)
    if request.output_name == "reply":  # the results are the JSON after the first line
        payload = json.loads((request.messages[-1].content or "").split("\n", 1)[1])
        relay = " ".join(r["findings"] or "" for r in payload["results"] if r["mode"] == "silent")
        return ModelResponse(output={"message": relay, "route": []}, usage=usage)
    assert isinstance(context, ActContext)
    tool_results = [m for m in request.messages if m.role == "tool"]
    if not tool_results:
        tool = request.tools[0]
        args = {"request": context.scoped_request} if tool.name == "open_ticket" else {}
        call = ToolCall(id=f"call_{tool.name}", name=tool.name, arguments=args)
        return ModelResponse(tool_calls=(call,), usage=usage)
    answer = tool_results[0].content or ""
    if answer.startswith("{"):
        answer = json.loads(answer)["text"]
    if context.mode == "silent":
        output: dict[str, Any] = {"answered": False, "findings": answer, "openQuestions": []}
        return ModelResponse(output=output, usage=usage)
    if len(tool_results) == 1:
        call = ToolCall(id="call_send", name=SEND, arguments={"text": answer})
        return ModelResponse(tool_calls=(call,), usage=usage)
    output = {"answered": True, "interactionSummary": answer, "openQuestions": []}
    if context.mode == "conversational":
        output["scopedRequest"] = context.scoped_request
    return ModelResponse(output=output, usage=usage)


# --- the scenarios ------------------------------------------------------------------------------

DEVICES = ["laptop", "monitor", "keyboard", "docking station", "headset", "phone"]


def scenarios(count: int) -> list[Scenario]:
    """``count`` three-turn conversations, each with its own wording and facts."""
    out: list[Scenario] = []
    for n in range(count):
        device = DEVICES[n % len(DEVICES)]
        pad = " really" * (n % 5)
        first = (
            f"When is my{pad} next payday, and how many vacation days do I have left, "
            f"and please open an IT ticket for my {device}"
        )
        second = f"How many vacation days do I{pad} have left this year, and when is payday"
        third = f"Please open a ticket for my {DEVICES[(n + 1) % len(DEVICES)]}"
        turns = [
            ScenarioTurn(
                user=first,
                requests=[
                    RequestExpectation(agent="payroll", expect="next payday is Friday"),
                    RequestExpectation(agent="pto", expect="PTO days left"),
                    RequestExpectation(agent="ticket", expect=f"open for your {device}"),
                ],
            ),
            ScenarioTurn(
                user=second,
                requests=[
                    RequestExpectation(agent="pto", expect="PTO days left"),
                    RequestExpectation(agent="payroll", expect="payday"),
                ],
            ),
            ScenarioTurn(user=third, requests=[RequestExpectation(agent="ticket")]),
        ]
        out.append(Scenario(name=f"conversation-{n}", turns=turns))
    return out


async def run_all(
    model_factory: Any, convs: list[Scenario], *, async_tools: bool = True
) -> tuple[float, int, int, float]:
    """Seconds for every conversation through ``run_scenario``, turns run, findings found, and
    the process's CPU seconds meanwhile (worker threads included)."""
    target = InProcessTarget(build_bot(model_factory(), async_tools=async_tools))
    config = DetectorConfig()
    findings = 0
    cpu_started = time.process_time()
    started = time.perf_counter()
    for scenario in convs:
        result = await run_scenario(target, scenario, file="bench", config=config)
        findings += len(result.findings)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return elapsed, len(convs) * TURNS_PER_CONVERSATION, findings, cpu


def pin_one_core() -> str:
    """Pin this process to one CPU; returns what was done."""
    if hasattr(os, "sched_setaffinity"):
        try:
            cpu = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
        except OSError as exc:
            return f"not pinned ({exc})"
    return "not pinned (no sched_setaffinity)"


VARIANTS: dict[str, tuple[Any, bool]] = {
    "function": (lambda: FunctionModel(respond, record=False), True),
    "function-sync-tools": (lambda: FunctionModel(respond, record=False), False),
    "rules": (RulesModel, True),
}
"""Label: (model factory, async tools)."""


def measure(
    conversations: int, runs: int, variants: Sequence[str] = tuple(VARIANTS)
) -> dict[str, Any]:
    """Turns per second of each variant: the median over ``runs`` runs of every conversation."""
    convs = scenarios(conversations)
    report: dict[str, Any] = {"conversations": conversations, "runs": runs}
    for label in variants:
        factory, async_tools = VARIANTS[label]
        warmup = convs[: max(10, conversations // 20)]
        asyncio.run(run_all(factory, warmup, async_tools=async_tools))
        rates: list[float] = []
        cpu_rates: list[float] = []
        findings = 0
        for _ in range(runs):
            seconds, turns, findings, cpu = asyncio.run(
                run_all(factory, convs, async_tools=async_tools)
            )
            rates.append(turns / seconds)
            cpu_rates.append(turns / cpu)
        report[label] = {
            "turns": conversations * TURNS_PER_CONVERSATION,
            "turns_per_s": statistics.median(rates),
            "ms_per_turn": 1000 / statistics.median(rates),
            "turns_per_cpu_s": statistics.median(cpu_rates),
            "findings": findings,
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    args = parser.parse_args(argv)
    pinned = "not pinned" if args.no_pin else pin_one_core()
    report = measure(args.conversations, args.runs)
    report["cpu"] = pinned
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.conversations} conversations x {TURNS_PER_CONVERSATION} turns, {pinned}")
    for label in VARIANTS:
        row = report[label]
        print(
            f"  {label:<20} {row['turns_per_s']:8.0f} turns/s  {row['ms_per_turn']:.3f} ms/turn  "
            f"{row['turns_per_cpu_s']:8.0f} turns/CPU-s  {row['findings']} findings"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
