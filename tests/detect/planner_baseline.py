"""How the offline planner (``harness.planning.RulesPlanner``) routes the labelled multi-intent set: a baseline for planner work.

Each gold request counts as routed right when the plan entry holding most of its content words
(at least half of them) goes to the request's agent (``AGENTS`` in ``build_multi_intent.py``
maps CLINC intents to seven helpdesk-like agents; ``agents.json`` gives their descriptions and
routing examples from CLINC's train split). A request no entry covers was dropped; an entry that
covers two or more requests merged them. Print the figures with
``python -m tests.detect.planner_baseline [dev|test] [--embeddings]`` (``--embeddings``: the planner
picks agents with ``harness.detect.embeddings.LocalEmbedder``, the ``embeddings`` extra), and the
planner's CPU time per message (median, ``time.process_time``, the agents' matcher built before).

``python -m tests.detect.planner_baseline out-of-scope [val|test]`` prints how often the planner
sends a request that belongs to no agent to some agent anyway: CLINC's own out-of-scope utterances
(``oos_val`` / ``oos_test``) and the utterances of the CLINC intents no agent has (from ``val`` or
``test``), one message each, over the same seven agents (needs ``../shared/data/clinc150``).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from harness.detect.missed import DeclaredRequest, plan_gaps
from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from harness.planning.base import PlanInput
from harness.planning.concepts import ConceptTable
from harness.planning.match import agent_matcher
from harness.planning.rules import RulesPlanner
from tests.detect.build_multi_intent import AGENT_OF, CLINC
from tests.detect.multi_intent import FIXTURES, load

PARENT = "helpdesk"


@cache
def cards() -> tuple[AgentCard, ...]:
    raw: list[dict[str, Any]] = json.loads((FIXTURES / "agents.json").read_text("utf-8"))
    return tuple(
        AgentCard(
            name=a["name"],
            description=a["description"],
            mode="silent",
            examples=tuple(a["examples"]),
        )
        for a in raw
    )


async def plan(text: str, planner: RulesPlanner | None = None) -> tuple[PlannedRequest, ...]:
    """The offline planner's plan for one message."""
    given = PlanInput(parent=PARENT, message=text, agents=cards())
    result = await (planner or RulesPlanner()).plan(given)
    return tuple(PlannedRequest(request=e.request, agent=e.agent) for e in result.entries)


@dataclass(frozen=True)
class Routing:
    requests: int
    routed_right: int
    dropped: int
    merged: int
    messages: int
    planned_in_full: int

    def describe(self) -> str:
        return (
            f"requests {self.requests}: routed to the right agent {self.routed_right} "
            f"({self.routed_right / self.requests:.1%}), in no plan entry {self.dropped}, "
            f"merged with another {self.merged}; messages with every request in an entry of "
            f"its own to the right agent {self.planned_in_full}/{self.messages}"
        )


def concepts(split: str) -> ConceptTable | bool:
    """The planner's concept table: on ``dev`` (CLINC train, a source of the shipped table) one
    built without the dev requests, so the figures stay out of sample; else the shipped one."""
    if split != "dev":
        return True
    from tests.planning.build_concepts import dev_table

    return dev_table()


@cache
def routing(split: str, *, embeddings: bool = False) -> Routing:
    planner = RulesPlanner(concepts=concepts(split))
    if embeddings:
        from harness.detect.embeddings import LocalEmbedder

        planner = RulesPlanner(embedder=LocalEmbedder(), concepts=concepts(split))
    right = dropped = merged = full = total = 0
    for message in load(split):
        gold = message["requests"]
        entries = asyncio.run(plan(message["text"], planner))
        gaps = plan_gaps([DeclaredRequest(text=r["text"]) for r in gold], entries)
        ok = True
        for index, request in enumerate(gold):
            total += 1
            reason, entry = gaps.get(index, ("the plan has no entry for it", None))
            if entry is None:
                dropped += 1
                ok = False
                continue
            merged += bool(reason)
            right += entry.agent == request["agent"]
            ok = ok and not reason and entry.agent == request["agent"]
        full += ok
    return Routing(
        requests=total,
        routed_right=right,
        dropped=dropped,
        merged=merged,
        messages=len(load(split)),
        planned_in_full=full,
    )


@dataclass(frozen=True)
class OutOfScope:
    own: int
    own_sent: int
    other: int
    other_sent: int

    def describe(self) -> str:
        return (
            f"sent to some agent: CLINC out-of-scope {self.own_sent}/{self.own} "
            f"({self.own_sent / self.own:.1%}), intents no agent has {self.other_sent}/{self.other} "
            f"({self.other_sent / self.other:.1%})"
        )


@cache
def out_of_scope(split: str) -> OutOfScope:
    """How many requests that belong to no agent the planner sends to one (see the docstring)."""
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    own = [text for text, _ in data[f"oos_{split}"]]
    other = [text for text, intent in data[split] if intent not in AGENT_OF]
    planner = RulesPlanner()

    def sent(texts: list[str]) -> int:
        return sum(any(e.agent != PARENT for e in asyncio.run(plan(t, planner))) for t in texts)

    return OutOfScope(own=len(own), own_sent=sent(own), other=len(other), other_sent=sent(other))


def cpu_per_message(split: str) -> float:
    """The median CPU time (user + system) of one message's plan, in seconds (the agents' matcher
    built before; run it first in a process, before anything else planned these messages)."""
    agent_matcher(cards(), concepts=concepts(split))
    planner = RulesPlanner(concepts=concepts(split))

    async def run() -> list[float]:
        times = []
        for message in load(split):
            start = time.process_time()
            await plan(message["text"], planner)
            times.append(time.process_time() - start)
        return times

    return statistics.median(asyncio.run(run()))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    if args[:1] == ["out-of-scope"]:
        print(out_of_scope(args[1] if len(args) > 1 else "test").describe())
    else:
        split = args[0] if args else "test"
        # First, while nothing about these messages is remembered yet.
        cpu = cpu_per_message(split)
        print(routing(split, embeddings="--embeddings" in sys.argv).describe())
        print(f"CPU per message (median, first time each): {cpu * 1000:.2f} ms")
