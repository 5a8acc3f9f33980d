"""With worker processes, the other detectors run in the parent while the workers compare.

``harness detect`` forks workers for a long conversation's comparisons; the parent would idle
until they finish and then run the missed-request check and the others alone. It runs them
meanwhile instead: the findings are the same, the other checks run once, in the parent, before
the comparisons are joined, and an error on either side still reaches the caller.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import pytest

from harness.detect import detect, duplicates
from harness.detect.detectors import DETECTORS_BY_NAME, MissedRequests
from harness.detect.duplicates import find_duplicates, worker_processes
from harness.detect.findings import DetectorConfig
from tests.simulate.test_perf_equivalence import generated

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)

_WAIT = 60.0
"""Seconds a worker waits for the parent's checks before it gives up (a failing run, not a
slow one: the parent's checks of 60 turns take well under a second)."""


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)


_REAL_SLICE = duplicates._compare_slice
_EVENTS: list[Any] = []
"""The event the workers wait for (set before they are forked)."""


def _waiting_slice(bounds: tuple[int, int]) -> Any:
    """A comparison slice that waits until the parent's other checks have started (workers
    pickle the function they run by name, so it lives at module level)."""
    if not _EVENTS[0].wait(_WAIT):
        raise RuntimeError("the parent's checks did not run while the workers compared")
    return _REAL_SLICE(bounds)


def _broken_slice(bounds: tuple[int, int]) -> Any:
    raise LookupError(f"slice {bounds} broke")


def _workers_wait_for(event: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every comparison slice waits until ``event`` is set (by the parent's other checks)."""
    _EVENTS[:] = [event]
    monkeypatch.setattr(duplicates, "_compare_slice", _waiting_slice)


def test_the_other_checks_run_in_the_parent_while_the_workers_compare(
    parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = generated(21, 60, modes_known=True)
    alone = detect(transcript)
    event = multiprocessing.get_context("fork").Event()
    _workers_wait_for(event, monkeypatch)
    missed = DETECTORS_BY_NAME["missed_request"]
    assert isinstance(missed, MissedRequests)
    real_check = missed.check
    calls: list[int] = []

    def check(*args: Any, **options: Any) -> Any:
        calls.append(os.getpid())
        event.set()  # the workers go on only now: the check ran before they finished
        return real_check(*args, **options)

    monkeypatch.setattr(missed, "check", check)
    with worker_processes(2):
        together = detect(transcript)
    _EVENTS.clear()
    assert calls == [os.getpid()]  # once, in this process
    assert together == alone
    kinds = {f.kind for f in alone}
    assert {"duplicate", "missed_request"} <= kinds


def test_meanwhile_runs_once_after_the_comparison_in_one_process() -> None:
    transcript = generated(22, 30, modes_known=True)
    order: list[str] = []
    real = duplicates.conversation_pairs

    def spying(*args: Any, **options: Any) -> Any:
        pairs = real(*args, **options)
        order.append("compared")
        return pairs

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(duplicates, "conversation_pairs", spying)
        find_duplicates(transcript, DetectorConfig(), meanwhile=lambda: order.append("meanwhile"))
    # conversation_pairs calls it before returning: one process compares first, then the rest
    assert order == ["meanwhile", "compared"]
    with worker_processes(1):
        found = find_duplicates(
            transcript, DetectorConfig(), meanwhile=lambda: order.append("again")
        )
    assert order[2:] == ["again"]
    assert found == find_duplicates(transcript, DetectorConfig())


def test_an_error_in_the_parents_checks_reaches_the_caller(
    parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    missed = DETECTORS_BY_NAME["missed_request"]

    def broken(*args: Any, **options: Any) -> Any:
        raise LookupError("the check broke")

    monkeypatch.setattr(missed, "check", broken)
    with worker_processes(2), pytest.raises(LookupError, match="the check broke"):
        detect(generated(23, 60, modes_known=True))


def test_an_error_in_a_worker_reaches_the_caller(
    parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(duplicates, "_compare_slice", _broken_slice)
    ran: list[str] = []
    missed = DETECTORS_BY_NAME["missed_request"]
    real_check = missed.check

    def check(*args: Any, **options: Any) -> Any:
        ran.append("missed")
        return real_check(*args, **options)

    monkeypatch.setattr(missed, "check", check)
    with worker_processes(2), pytest.raises(LookupError, match="broke"):
        detect(generated(24, 60, modes_known=True))
    assert ran == ["missed"]
