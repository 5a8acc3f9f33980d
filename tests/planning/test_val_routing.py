"""The offline planner on the held-out routing set built blind from CLINC150's val split
(``tests/fixtures/multi_intent/val.jsonl``, ``tests/detect/build_val_multi_intent.py``).

The set was built without reading the planner's code, concept table or routing docs, committed
(27f6e2d), and then measured once per path with ``python -m tests.detect.planner_baseline val
[--embeddings]`` (2026-12-02 12:39-12:40 UTC): default path 1,513 of 1,603 requests to the right
agent (94.4 %), 7 in no plan entry, 32 merged with another, 508 of 600 messages planned in full;
with the ``embeddings`` extra 1,521 (94.9 %), 7, 32, 515 of 600. Only these aggregates were looked
at (no single routing error), so the set is still held out. The floors below are those figures;
issue 25's target (95 % and no request dropped) is not met on either path, hence the strict
xfails.
"""

from __future__ import annotations

import importlib.util

import pytest

from tests.detect.planner_baseline import Routing, routing

needs_embeddings = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="the 'embeddings' extra is not installed"
)


def _at_least_as_measured(
    measured: Routing, *, rate: float, dropped: int, merged: int, full: int
) -> None:
    assert measured.requests == 1603
    assert measured.messages == 600
    assert measured.routed_right / measured.requests >= rate
    assert measured.dropped <= dropped
    assert measured.merged <= merged
    assert measured.planned_in_full >= full


def test_the_planner_routes_the_val_set_as_measured() -> None:
    _at_least_as_measured(routing("val"), rate=0.943, dropped=7, merged=32, full=508)


@needs_embeddings
def test_with_embeddings_the_planner_routes_the_val_set_as_measured() -> None:
    measured = routing("val", embeddings=True)
    _at_least_as_measured(measured, rate=0.948, dropped=7, merged=32, full=515)
    assert measured.routed_right > routing("val").routed_right


@pytest.mark.xfail(
    strict=True,
    reason="issue 25's target on a clean set: 94.4 % to the right agent and 7 requests in no plan "
    "entry (2026-12-02, see the module docstring)",
)
def test_the_issue_target_on_the_val_set() -> None:
    measured = routing("val")
    assert measured.routed_right / measured.requests >= 0.95
    assert measured.dropped == 0


@needs_embeddings
@pytest.mark.xfail(
    strict=True,
    reason="issue 25's target on a clean set: with embeddings 94.9 % to the right agent and 7 "
    "requests in no plan entry (2026-12-02, see the module docstring)",
)
def test_the_issue_target_on_the_val_set_with_embeddings() -> None:
    measured = routing("val", embeddings=True)
    assert measured.routed_right / measured.requests >= 0.95
    assert measured.dropped == 0
