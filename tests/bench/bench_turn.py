"""Per-turn overhead of the parent on the offline models, with three sub-agents (one per mode).

Run it from the repository root::

    .venv/bin/python tests/bench/bench_turn.py [--turns 2000] [--warmup 200] [--json]

Every measured turn is the same multi-intent message, dispatched to a silent, a direct and a
conversational sub-agent (which finishes in one turn, so every turn does the same work). Three runs:

- ``rules``: the offline ``RulesModel`` plans, acts (calls the tools, sends messages) and composes;
- ``trivial``: a ``FunctionModel`` that answers every request at once with canned responses, so its
  time is the SDK's own overhead (plan, concurrent dispatch, validation, compose, transcript);
- ``rules-long``: the ``rules`` run in one long conversation instead of a fresh one every 10
  turns, comparing the first and the last 10 % of turns to show how the cost grows with history.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from harness import (
    ChildAgent,
    ConnectedAgent,
    FunctionModel,
    Mode,
    Model,
    Parent,
    Reply,
    RulesModel,
)
from harness.models import (
    ActContext,
    ModelRequest,
    ModelResponse,
    ToolCall,
)
from subagents import Usage

MESSAGE = (
    "When is my next payday, and how many vacation days do I have left, "
    "and please open an IT ticket for my laptop"
)
PLAN = [
    {"request": "When is my next payday", "agent": "payroll"},
    {"request": "how many vacation days do I have left", "agent": "pto"},
    {"request": "please open an IT ticket for my laptop", "agent": "ticket"},
]
SEND = "send_message_to_user"


def next_payday() -> str:
    """When the next paycheck (payday) arrives."""
    return "Your next payday is Friday, December 4."


def pto_balance() -> str:
    """How many paid time off (vacation) days are left."""
    return "You have 12 PTO days left this year."


def open_ticket(request: str) -> Reply:
    """Open an IT support ticket for a device."""
    return Reply(text="Ticket IT-1 is open for your laptop.")


def trivial_model() -> FunctionModel:
    """Canned answers for every task: the cheapest model the parent can run on."""
    usage = Usage(requests=1)

    def respond(request: ModelRequest) -> ModelResponse:
        context = request.context
        if request.output_name == "plan":
            return ModelResponse(output={"requests": PLAN}, usage=usage)
        if request.output_name == "reply":  # the results are the JSON after the first line
            payload = json.loads((request.messages[-1].content or "").split("\n", 1)[1])
            relay = " ".join(
                r["findings"] or "" for r in payload["results"] if r["mode"] == "silent"
            )
            return ModelResponse(output={"message": relay, "route": []}, usage=usage)
        assert isinstance(context, ActContext)
        if context.mode == "silent":
            out = {"answered": False, "findings": "Payday is Friday.", "openQuestions": []}
            return ModelResponse(output=out, usage=usage)
        if not any(m.role == "tool" for m in request.messages):
            call = ToolCall(id="send", name=SEND, arguments={"text": f"{context.agent}: done."})
            return ModelResponse(tool_calls=(call,), usage=usage)
        out = {"answered": True, "interactionSummary": "done", "openQuestions": []}
        if context.mode == "conversational":
            out["scopedRequest"] = context.scoped_request
        return ModelResponse(output=out, usage=usage)

    return FunctionModel(respond)


def build_parent(model: Model) -> Parent:
    """A parent with a silent, a direct and a conversational sub-agent."""
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
                tools=[next_payday],
                examples=["when will i be getting my next paycheck"],
            ),
            ChildAgent(
                name="pto",
                mode=Mode.DIRECT,
                description="Answers questions about paid time off (PTO, vacation days).",
                tools=[pto_balance],
                examples=["how many vacation days do i have left"],
            ),
            ConnectedAgent(
                name="ticket",
                mode=Mode.CONVERSATIONAL,
                description="Opens IT support tickets for broken devices.",
                tools=[open_ticket],
                examples=["open an it ticket for my laptop"],
            ),
        ],
    )


async def measure(parent: Parent, *, turns: int, warmup: int, fresh_every: int) -> list[float]:
    """Seconds per turn of ``turns`` turns after ``warmup`` unmeasured ones."""
    timings: list[float] = []
    conversation = parent.conversation()
    for index in range(warmup + turns):
        if fresh_every and index % fresh_every == 0:
            conversation = parent.conversation()
        started = time.perf_counter()
        turn = await conversation.send(MESSAGE)
        elapsed = time.perf_counter() - started
        if index == 0:
            agents = sorted(r.agent for r in turn.results)
            assert agents == ["payroll", "pto", "ticket"], agents
            assert all(r.ok for r in turn.results), turn.results
        if index >= warmup:
            timings.append(elapsed)
    return timings


def summary(timings: list[float]) -> dict[str, float]:
    ordered = sorted(timings)
    return {
        "turns": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p90_ms": ordered[int(0.9 * (len(ordered) - 1))] * 1000,
        "turns_per_s": len(ordered) / sum(ordered),
    }


async def run(turns: int, warmup: int) -> dict[str, Any]:
    runs: dict[str, Callable[[], Model]] = {"rules": RulesModel, "trivial": trivial_model}
    report: dict[str, Any] = {}
    for label, factory in runs.items():
        timings = await measure(build_parent(factory()), turns=turns, warmup=warmup, fresh_every=10)
        report[label] = summary(timings)
    long_run = await measure(build_parent(RulesModel()), turns=turns, warmup=0, fresh_every=0)
    tenth = max(1, len(long_run) // 10)
    report["rules-long"] = {
        "first_10pct_median_ms": statistics.median(long_run[:tenth]) * 1000,
        "last_10pct_median_ms": statistics.median(long_run[-tenth:]) * 1000,
    }
    rules, trivial = report["rules"]["median_ms"], report["trivial"]["median_ms"]
    report["rules_model_share_ms"] = rules - trivial
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.turns, args.warmup))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"per-turn time, 3 sub-agents (silent, direct, conversational), python {sys.version.split()[0]}"
    )
    print(f"{'model':<10} {'turns':>6} {'median ms':>10} {'p90 ms':>8} {'turns/s':>9}")
    for label in ("rules", "trivial"):
        row = report[label]
        print(
            f"{label:<10} {row['turns']:>6} {row['median_ms']:>10.3f} {row['p90_ms']:>8.3f} "
            f"{row['turns_per_s']:>9.0f}"
        )
    print(f"rules model's own work: {report['rules_model_share_ms']:.3f} ms per turn (median)")
    long = report["rules-long"]
    print(
        f"one {args.turns}-turn conversation: median {long['first_10pct_median_ms']:.3f} ms in "
        f"the first 10 % of turns, {long['last_10pct_median_ms']:.3f} ms in the last 10 %"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
