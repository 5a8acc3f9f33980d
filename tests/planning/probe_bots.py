"""The probe bots of a planning eval folder (``tests/fixtures/<folder>``: one YAML bot per name
and ``probes.jsonl``, one message per line with its ``bot``), and the offline planner's plan of a
probe message, and how an eval prints a fit-half miss. Shared by ``refer_eval``,
``nonrequest_eval`` and ``short_eval``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from harness.planning import PlanInput, RulesPlanner
from harness.runtime.loading import load_bot

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@cache
def bot(folder: str, name: str) -> tuple[str, tuple[AgentCard, ...]]:
    """The parent's name and the agents' cards of a probe bot, as its YAML file loads them."""
    parent = load_bot(FIXTURES / folder / f"{name}.yaml")
    return parent.name, parent.dependencies.cards


def probes(folder: str) -> list[dict[str, Any]]:
    """The folder's probe messages, in file order."""
    lines = (FIXTURES / folder / "probes.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


async def plan(folder: str, message: dict[str, Any]) -> tuple[PlannedRequest, ...]:
    """The offline planner's plan of a probe ``message`` for its bot."""
    parent, cards = bot(folder, message["bot"])
    given = PlanInput(parent=parent, message=message["text"], agents=cards)
    result = await RulesPlanner().plan(given)
    return tuple(PlannedRequest(request=e.request, agent=e.agent) for e in result.entries)


def show_misses(
    message: dict[str, Any], entries: Iterable[PlannedRequest], wrong: Iterable[str], lead: str = ""
) -> None:
    """Print a probe message the plan got wrong: its text, the plan, and each wrong request."""
    print(f"[fit/{message['kind']}] {message['text']}")
    for e in entries:
        print(f"     plan: {e.agent}: {e.request!r}")
    for w in wrong:
        print(f"   {lead}{w}")
