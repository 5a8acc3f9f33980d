"""Planning: split a user message into scoped requests and pick the agent for each.

The seam between the runtime and its models (docs/architecture.md, "The turn"): the runtime asks a
``Planner`` for a ``Plan`` once per turn. ``LLMPlanner`` asks any ``Model`` with an ordinary
structured-output request; ``RulesPlanner`` plans offline, with no model. This package sits below
``harness.runtime`` and above ``harness.models`` (an import-linter contract says so).
"""

from __future__ import annotations

from harness.planning.base import Plan, PlanEntry, PlanInput, Planner, WaitingRequest
from harness.planning.llm import PLAN_SCHEMA, LLMPlanner, plan_request, plan_schema
from harness.planning.rules import RulesPlanner

__all__ = [
    "PLAN_SCHEMA",
    "LLMPlanner",
    "Plan",
    "PlanEntry",
    "PlanInput",
    "Planner",
    "RulesPlanner",
    "WaitingRequest",
    "plan_request",
    "plan_schema",
]
