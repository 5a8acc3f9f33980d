"""The planner baseline says how many requests name an agent their message is not planned over
(``tests.detect.planner_baseline.Routing.foreign``)."""

from __future__ import annotations

from tests.detect import planner_baseline
from tests.detect.planner_baseline import routing


def test_requests_for_agents_the_planner_is_not_given_are_counted(monkeypatch) -> None:
    messages = (
        {
            "id": "m1",
            "text": "What is my card's limit? And which airport do I land at?",
            "requests": [
                {"text": "What is my card's limit?", "agent": "cards"},
                {"text": "which airport do I land at?", "agent": "flights"},
            ],
        },
    )
    monkeypatch.setattr(planner_baseline, "load", lambda split: messages)
    measured = routing.__wrapped__("made-up")
    assert measured.requests == 2
    assert measured.foreign == 1
    assert "not planned over 1" in measured.describe()


def test_a_split_whose_agents_the_planner_has_has_none() -> None:
    assert routing("dev").foreign == 0
    assert "not planned over" not in routing("dev").describe()
