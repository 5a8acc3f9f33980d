"""The offline planner on the labelled multi-intent set (``tests/fixtures/multi_intent``).

``dev`` (built from CLINC150's train split) is where the splitting rules were developed; ``test``
(from CLINC's test split) is reported and asserted here. A request counts as routed right when the
plan entry holding most of its content words goes to its agent (``tests/detect/planner_baseline.py``).
Print the figures with ``python -m tests.detect.planner_baseline test``.

Measured on ``test`` (1,566 requests in 600 messages): 87.7 % routed right, 0 in no plan entry.
The same router given the gold requests one by one routes 87.8 % right, so what is left is the
routing of single requests over seven agents with 15 examples each, not the splitting.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from harness.models._text import content_tokens
from tests.detect.multi_intent import load
from tests.detect.planner_baseline import plan, routing


def test_the_planner_routes_the_held_out_requests_and_drops_none() -> None:
    measured = routing("test")
    assert measured.requests > 1500
    assert measured.dropped == 0
    assert measured.routed_right / measured.requests >= 0.85
    # Requests merged into another's entry (two requests, one text) stay rare.
    assert measured.merged / measured.requests <= 0.01


@pytest.mark.xfail(
    strict=True,
    reason="the issue's target is 95 %; routing single requests with these agent cards tops out "
    "near 88 % (see the module docstring)",
)
def test_the_issue_target_of_95_percent() -> None:
    measured = routing("test")
    assert measured.routed_right / measured.requests >= 0.95


@pytest.mark.parametrize("split", ["dev", "test"])
def test_no_word_of_a_message_is_left_out_of_the_plan(split: str) -> None:
    """Nothing is dropped in silence: each content word of the message is in some plan entry, and
    every entry is dispatched or answered by the parent (which says when it cannot help)."""
    for message in load(split):
        entries = asyncio.run(plan(message["text"]))
        planned = {t for entry in entries for t in content_tokens(entry.request)}
        said = re.sub(r"\bas well as\b", " ", message["text"], flags=re.IGNORECASE)
        assert set(content_tokens(said)) <= planned, message["id"]
