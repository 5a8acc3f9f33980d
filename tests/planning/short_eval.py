"""How the offline planner plans the short-request set (``tests/fixtures/short``): real short
requests (CLINC150 train, at most four content words) one per message, CLINC150's out-of-scope
train utterances, short requests after a longer one, elliptical follow-ups and short requests with
social parts, over four bots written for this work. All of it is development data; the bots were
split before any result was read: fit = motorist + household, check = bistro + phone.

The planner routes with a concept table built without the set's CLINC utterances (they are
sources of the shipped table), so no request is routed by a table that saw it.

``python -m tests.planning.short_eval [--show] [--e2e]`` prints, per half and kind: requests
routed to the gold agent (``planner_baseline.coverage``; an out-of-scope request is right when the
parent keeps it), requests lost (covered by no entry, or kept by the parent when an agent has it),
spurious entries (covering no gold request); with ``--e2e`` also the replies' "I can't help
with" sentences of the ``social`` and ``alone`` messages sent to their loaded bots (offline
model), and how many of them quote only a part that asks nothing. ``--show``
lists the fit half's misses (the check half is read in aggregate only)."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from harness.planning import PlanInput, RulesPlanner
from harness.planning._nonrequest import asks_nothing
from harness.planning.concepts import ConceptTable
from harness.runtime.loading import load_bot
from tests.detect.planner_baseline import coverage
from tests.planning import probe_bots

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "short"


@cache
def bot(name: str) -> tuple[str, tuple[AgentCard, ...]]:
    """The parent's name and the agents' cards of a bot of the set, as its YAML file loads them."""
    parent = load_bot(HERE / f"{name}.yaml")
    return parent.name, parent.dependencies.cards


def messages() -> list[dict[str, Any]]:
    lines = (HERE / "set.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


@cache
def table() -> ConceptTable:
    """The concept table built without the set's requests (CLINC train sources of the shipped
    one)."""
    from tests.planning.build_concepts import table_without

    return table_without(frozenset(r["text"] for m in messages() for r in m["requests"]))


async def plan(message: dict[str, Any]) -> tuple[PlannedRequest, ...]:
    parent, cards = bot(message["bot"])
    given = PlanInput(parent=parent, message=message["text"], agents=cards)
    result = await RulesPlanner(concepts=table()).plan(given)
    return tuple(PlannedRequest(request=e.request, agent=e.agent) for e in result.entries)


def score(
    message: dict[str, Any], entries: tuple[PlannedRequest, ...]
) -> tuple[Counter[str], list[str]]:
    """The message's tallies (requests, right, lost, spurious) and its misses."""
    parent, _ = bot(message["bot"])
    gold = message["requests"]
    covered = coverage([r["text"] for r in gold], entries)
    tally: Counter[str] = Counter(requests=len(gold))
    wrong: list[str] = []
    for request, (entry, _) in zip(gold, covered, strict=True):
        agent = entry.agent if entry is not None else None
        if message["kind"] == "oos" and entry is None:
            agent = parent  # nothing planned for it: no agent took it
        ok = agent == request["agent"]
        tally["right"] += ok
        if request["agent"] != parent and agent in (None, parent):
            tally["lost"] += 1
        if not ok:
            wrong.append(f"WRONG {request['text']!r} -> {agent}")
    owners = {id(e) for e, _ in covered if e is not None}
    for entry in entries:
        if id(entry) not in owners and message["kind"] != "oos":
            tally["spurious"] += 1
            wrong.append(f"SPURIOUS {entry.agent}: {entry.request!r}")
    return tally, wrong


_REFUSAL = re.compile(r'I can\'t help with "(.*?)…?" here')


async def refusals(message: dict[str, Any]) -> tuple[int, int]:
    """The "I can't help with" sentences of the reply to ``message`` from its loaded bot, and
    those of them that quote only a part that asks nothing (a greeting, thanks, an apology)."""
    parent = load_bot(HERE / f"{message['bot']}.yaml")
    turn = await parent.conversation().send(message["text"])
    quotes = _REFUSAL.findall(turn.text)
    return turn.text.count("I can't help with"), sum(asks_nothing(q) for q in quotes)


def main(*, show: bool = False, e2e: bool = False) -> None:
    tallies: dict[tuple[str, str], Counter[str]] = {}
    for message in messages():
        entries = asyncio.run(plan(message))
        tally, wrong = score(message, entries)
        half = message["half"]
        if e2e and message["kind"] in ("social", "alone"):
            refused, social = asyncio.run(refusals(message))
            tally["refusals"] += refused
            tally["refused turns"] += refused > 0
            tally["social refusals"] += social
        tallies.setdefault((half, message["kind"]), Counter()).update(tally)
        if show and wrong and half == "fit":
            probe_bots.show_misses(message, entries, wrong)
    for (half, kind), t in sorted(tallies.items()):
        line = (
            f"{half:5} {kind:8}: right {t['right']}/{t['requests']}, lost {t['lost']},"
            f" spurious {t['spurious']}"
        )
        if e2e and kind in ("social", "alone"):
            line += (
                f", can't-help {t['refusals']} in {t['refused turns']} turns"
                f" ({t['social refusals']} of a part that asks nothing)"
            )
        print(line)


if __name__ == "__main__":
    main(show="--show" in sys.argv, e2e="--e2e" in sys.argv)
