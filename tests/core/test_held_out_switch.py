"""``HARNESS_SKIP_HELD_OUT`` keeps a test run away from held-out material (``tests/held_out.py``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests import held_out
from tests.detect import multi_intent, planner_baseline, sgd_real_multi
from tests.planning import routing_eval


@pytest.mark.parametrize(
    "read",
    [
        lambda: multi_intent.load("unseen"),
        lambda: multi_intent.load("test"),
        lambda: sgd_real_multi.load("dev"),
        lambda: planner_baseline.out_of_scope("test"),
        lambda: routing_eval.sgd("dev"),
    ],
    ids=["unseen", "test", "sgd-real-dev", "clinc-oos-test", "sgd-dev-routing"],
)
def test_the_switch_skips_whatever_reads_a_held_out_set(
    monkeypatch: pytest.MonkeyPatch, read: Callable[[], object]
) -> None:
    monkeypatch.setenv(held_out.SWITCH, "1")
    with pytest.raises(pytest.skip.Exception, match="held out"):
        read()


def test_the_switch_leaves_development_material_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(held_out.SWITCH, "1")
    assert multi_intent.load("dev")
    assert sgd_real_multi.load("train")


@pytest.mark.parametrize("value", ["", "0"])
def test_without_the_switch_nothing_is_skipped(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(held_out.SWITCH, value)
    assert not held_out.skipping()
    held_out.guard("anything")  # returns
