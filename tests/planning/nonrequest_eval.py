"""How the offline planner plans the nonrequest probes (``tests/fixtures/nonrequest``): messages
with two to four requests and parts that ask nothing (a greeting, thanks, an apology, "I have two
questions.", a sentence about the user's situation), and messages whose context sentence is itself
a request ("I need a refund ...", "My card was declined ..."). New text written for this work; all
of it is development data. The bots were split before any result was read: ``FIT`` (a ski resort,
a town council) and ``CHECK`` (a broadband provider, a dental practice).

``python -m tests.planning.nonrequest_eval [--show] [--e2e]`` prints, per half and kind:
requests routed to the gold agent (``planner_baseline.coverage``), requests lost (covered by no
entry, or by the parent's), spurious entries (an entry that covers no gold request), context cut
(a gold request whose covering entry lacks the context words it needs); with ``--e2e`` also the
replies' "I can't help with" sentences when each message is sent to its loaded bot (offline
model). ``--show`` lists the fit half's misses (the check half is read in aggregate only)."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from harness.runtime.loading import load_bot
from tests.detect.planner_baseline import coverage
from tests.planning import probe_bots

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "nonrequest"
FIT = ("ski", "council")
CHECK = ("broadband", "dental")


def bot(name: str) -> tuple[str, tuple[AgentCard, ...]]:
    """The parent's name and the agents' cards of a probe bot (``probe_bots.bot``)."""
    return probe_bots.bot("nonrequest", name)


def probes() -> list[dict[str, Any]]:
    return probe_bots.probes("nonrequest")


async def plan(message: dict[str, Any]) -> tuple[PlannedRequest, ...]:
    return await probe_bots.plan("nonrequest", message)


def score(
    message: dict[str, Any], entries: tuple[PlannedRequest, ...]
) -> tuple[Counter[str], list[str]]:
    """The message's tallies (requests, right, lost, spurious, context, cut) and its misses."""
    parent, _ = bot(message["bot"])
    gold = message["requests"]
    covered = coverage([r["text"] for r in gold], entries)
    tally: Counter[str] = Counter(requests=len(gold))
    wrong: list[str] = []
    for request, (entry, _) in zip(gold, covered, strict=True):
        ok = entry is not None and entry.agent == request["agent"]
        tally["right"] += ok
        if entry is None or entry.agent == parent:
            tally["lost"] += 1
        if not ok:
            wrong.append(f"WRONG {request['text']!r} -> {entry.agent if entry else None}")
        if "context" in request:
            tally["context"] += 1
            if entry is None or request["context"].lower() not in entry.request.lower():
                tally["cut"] += 1
                wrong.append(f"CUT {request['context']!r} from {request['text']!r}")
    owners = {id(e) for e, _ in covered if e is not None}
    for entry in entries:
        if id(entry) not in owners:
            tally["spurious"] += 1
            wrong.append(f"SPURIOUS {entry.agent}: {entry.request!r}")
    return tally, wrong


async def refusals(message: dict[str, Any]) -> int:
    """The "I can't help with" sentences of the reply to ``message`` from its loaded bot."""
    parent = load_bot(HERE / f"{message['bot']}.yaml")
    turn = await parent.conversation().send(message["text"])
    return turn.text.count("I can't help with")


def main(*, show: bool = False, e2e: bool = False) -> None:
    tallies: dict[tuple[str, str], Counter[str]] = {}
    for message in probes():
        entries = asyncio.run(plan(message))
        tally, wrong = score(message, entries)
        half = "fit" if message["bot"] in FIT else "check"
        if e2e:
            refused = asyncio.run(refusals(message))
            tally["refusals"] += refused
            tally["refused turns"] += refused > 0
        tallies.setdefault((half, message["kind"]), Counter()).update(tally)
        if show and wrong and half == "fit":
            probe_bots.show_misses(message, entries, wrong)
    for (half, kind), t in sorted(tallies.items()):
        line = (
            f"{half:5} {kind:8}: right {t['right']}/{t['requests']}, lost {t['lost']},"
            f" spurious {t['spurious']}, context cut {t['cut']}/{t['context']}"
        )
        if e2e:
            line += f", can't-help {t['refusals']} in {t['refused turns']} turns"
        print(line)


if __name__ == "__main__":
    main(show="--show" in sys.argv, e2e="--e2e" in sys.argv)
