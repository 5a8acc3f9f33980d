"""Composing: write the parent's reply from the sub-agents' results, and route what is left.

The seam between the runtime and its models for the compose step, as ``harness.planning`` is for
the plan (docs/architecture.md, "The turn"): the runtime asks a ``Composer`` for a ``Composition``
at each compose step. ``LLMComposer`` asks any ``Model`` with an ordinary structured-output request;
``RulesComposer`` composes offline, with no model. This package sits below ``harness.runtime`` and
above ``harness.models`` (an import-linter contract says so); the models never import it.
"""

from __future__ import annotations

from harness.composing.base import (
    ComposeInput,
    Composer,
    Composition,
    ResultView,
    Route,
)
from harness.composing.llm import COMPOSE_SCHEMA, LLMComposer, compose_request, compose_schema
from harness.composing.rules import RulesComposer

__all__ = [
    "COMPOSE_SCHEMA",
    "ComposeInput",
    "Composer",
    "Composition",
    "LLMComposer",
    "ResultView",
    "Route",
    "RulesComposer",
    "compose_request",
    "compose_schema",
]
