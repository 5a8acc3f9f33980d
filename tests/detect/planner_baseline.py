"""How the offline planner (``harness.planning.RulesPlanner``) routes the labelled multi-intent set: a baseline for planner work.

Each gold request counts as routed right when the plan entry holding most of its content words
(at least half of them) goes to the request's agent (``AGENTS`` in ``build_multi_intent.py``
maps CLINC intents to seven helpdesk-like agents; ``agents.json`` gives their descriptions and
routing examples from CLINC's train split). A request no entry covers was dropped; an entry that
covers two or more requests merged them. Print the figures with
``python -m tests.detect.planner_baseline [dev|test] [--embeddings]`` (``--embeddings``: the planner
picks agents with ``harness.detect.embeddings.LocalEmbedder``, the ``embeddings`` extra).
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from functools import cache
from typing import Any

from harness.detect.missed import DeclaredRequest, plan_gaps
from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from harness.planning.base import PlanInput
from harness.planning.rules import RulesPlanner
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


@cache
def routing(split: str, *, embeddings: bool = False) -> Routing:
    planner = RulesPlanner()
    if embeddings:
        from harness.detect.embeddings import LocalEmbedder

        planner = RulesPlanner(embedder=LocalEmbedder())
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


if __name__ == "__main__":
    split = next((a for a in sys.argv[1:] if not a.startswith("-")), "test")
    print(routing(split, embeddings="--embeddings" in sys.argv).describe())
