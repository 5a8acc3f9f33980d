"""The probe bots of a planning eval folder (``tests/fixtures/<folder>``: one YAML bot per name
and ``probes.jsonl``, one message per line with its ``bot``), and the offline planner's plan of a
probe message. Shared by ``refer_eval`` and ``nonrequest_eval``."""

from __future__ import annotations

import json
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
