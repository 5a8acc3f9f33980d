"""How the offline planner routes the refer probes (``tests/fixtures/refer``): messages whose
later request points back to an earlier one ("..., and how much is it?"), and messages that must
not change (a dummy "it", "they" meaning the staff, independent requests). New text written for
this work; all of it is development data. The bots are split before any result was looked at:
``FIT`` (a bike shop, a coworking space) and ``CHECK`` (an arts centre, a vet clinic).

``python -m tests.planning.refer_eval [--show]`` prints, per half and kind, the gold requests
whose covering plan entry goes to the gold agent (``planner_baseline.coverage``); ``--show``
lists the fit half's misses (the check half is read in aggregate only)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from tests.detect.planner_baseline import coverage
from tests.planning import probe_bots

FIT = ("bikes", "cowork")
CHECK = ("arts", "vet")


def bot(name: str) -> tuple[str, tuple[AgentCard, ...]]:
    """The parent's name and the agents' cards of a probe bot (``probe_bots.bot``)."""
    return probe_bots.bot("refer", name)


def probes() -> list[dict[str, Any]]:
    return probe_bots.probes("refer")


async def plan(message: dict[str, Any]) -> tuple[PlannedRequest, ...]:
    return await probe_bots.plan("refer", message)


def main(show: bool = False) -> None:
    tally: dict[tuple[str, str], list[int]] = {}
    for message in probes():
        entries = asyncio.run(plan(message))
        gold = message["requests"]
        covered = coverage([r["text"] for r in gold], entries)
        half = "fit" if message["bot"] in FIT else "check"
        row = tally.setdefault((half, message["kind"]), [0, 0])
        wrong = []
        for request, (entry, _) in zip(gold, covered, strict=True):
            row[1] += 1
            ok = entry is not None and entry.agent == request["agent"]
            row[0] += ok
            if not ok:
                wrong.append(f"{request['text']!r} -> {entry.agent if entry else None}")
        if show and wrong and half == "fit":
            probe_bots.show_misses(message, entries, wrong, lead="WRONG ")
    for (half, kind), (right, total) in sorted(tally.items()):
        print(f"{half:5} {kind:5}: {right}/{total} requests routed right")


if __name__ == "__main__":
    main(show="--show" in sys.argv)
