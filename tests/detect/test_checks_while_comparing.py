"""With worker processes, the other detectors run in a worker beside the analysis.

``harness detect`` forks workers for a long conversation's analysis and comparisons. The other
checks (the missed-request check, ...) read none of the analyses, so a worker forked first runs
them while the parent analyses (no analysis is sent back) and goes on beside the comparison: the
findings are the same, the other checks run once, in a worker, and an error on either side
still reaches the caller.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from harness.detect import _analysis, detect, duplicates
from harness.detect._meanwhile import Meanwhile, beside
from harness.detect.detectors import DETECTORS_BY_NAME, MissedRequests
from harness.detect.duplicates import find_duplicates, worker_processes
from harness.detect.findings import DetectorConfig
from tests.simulate.test_perf_equivalence import generated

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)

_WAIT = 30.0
"""Seconds the parent waits for the checks to start before it gives up (a failing run, not a
slow one: forking the checks' worker takes well under a second)."""


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)


def _broken_slice(bounds: tuple[int, int]) -> Any:
    raise LookupError(f"slice {bounds} broke")


def _counted_checks(monkeypatch: pytest.MonkeyPatch, event: Any = None) -> tuple[Any, Any]:
    """The missed-request check, counting its calls and the process of the last one in values
    the processes share (a forked worker's own lists stay in the worker), and setting ``event``."""
    context = multiprocessing.get_context("fork")
    calls, where = context.Value("i", 0), context.Value("i", 0)
    missed = DETECTORS_BY_NAME["missed_request"]
    assert isinstance(missed, MissedRequests)
    real_check = missed.check

    def check(*args: Any, **options: Any) -> Any:
        with calls.get_lock():
            calls.value += 1
        where.value = os.getpid()
        if event is not None:
            event.set()
        return real_check(*args, **options)

    monkeypatch.setattr(missed, "check", check)
    return calls, where


@pytest.mark.parametrize("jobs", [2, 3])
def test_the_other_checks_run_in_a_worker_while_the_parent_analyses(
    parallel: None, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    transcript = generated(21, 60, modes_known=True)
    alone = detect(transcript)
    event = multiprocessing.get_context("fork").Event()
    calls, where = _counted_checks(monkeypatch, event)
    real_analysed = _analysis._analysed

    def waiting(*args: Any) -> Any:
        # the parent analyses only once the checks have started elsewhere (this process
        # cannot run them before: it is busy here)
        if os.getpid() == parent and not event.wait(_WAIT):
            raise RuntimeError("the checks did not run while the parent analysed")
        return real_analysed(*args)

    parent = os.getpid()
    monkeypatch.setattr(_analysis, "_analysed", waiting)
    with worker_processes(jobs):
        together = detect(transcript)
    assert calls.value == 1  # once...
    assert where.value not in (0, parent)  # ...in a worker
    assert together == alone
    kinds = {f.kind for f in alone}
    assert {"duplicate", "missed_request"} <= kinds


def test_the_work_done_beside_comes_back() -> None:
    meanwhile = Meanwhile(os.getpid)
    with beside(meanwhile, fork=True) as forked:
        assert forked
    assert meanwhile.done
    assert meanwhile.result != os.getpid()
    here = Meanwhile(os.getpid)
    with beside(here, fork=False) as forked:
        assert not forked
    assert not here.done
    assert here() == os.getpid()
    assert here.done
    with beside(here, fork=True) as forked:  # done already: not again
        assert not forked


def test_a_worker_sends_its_results_and_ends_before_they_are_read() -> None:
    """The worker's pipe holds 1 MB (Linux's default is 64 KB): results of a few hundred KB
    (the checks' findings on 100,000 messages are about 0.4 MB) are written at once, and the
    worker ends while this process is still busy, instead of waiting, alive, to be read."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_SETPIPE_SZ"):
        pytest.skip("the platform cannot size pipes")
    limit = Path("/proc/sys/fs/pipe-max-size")
    if limit.is_file() and int(limit.read_text()) < 1 << 20:
        pytest.skip("this system refuses pipes of 1 MB (fs.pipe-max-size)")
    meanwhile = Meanwhile(lambda: "x" * 600_000)
    with beside(meanwhile, fork=True) as aside:
        assert aside is not None
        aside.process.join(timeout=10)
        assert aside.process.exitcode == 0  # ended before anything was read
    assert meanwhile.result == "x" * 600_000


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
        find_duplicates(
            transcript, DetectorConfig(), meanwhile=Meanwhile(lambda: order.append("meanwhile"))
        )
    # conversation_pairs calls it before returning: one process compares first, then the rest
    assert order == ["meanwhile", "compared"]
    with worker_processes(1):
        found = find_duplicates(
            transcript, DetectorConfig(), meanwhile=Meanwhile(lambda: order.append("again"))
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
    with worker_processes(2), pytest.raises(LookupError, match="broke"):
        detect(generated(24, 60, modes_known=True))
    assert not multiprocessing.active_children()  # the checks' worker stopped and joined


def test_an_error_in_the_work_beside_carries_the_workers_traceback() -> None:
    with pytest.raises(ZeroDivisionError) as raised, beside(Meanwhile(lambda: 1 / 0), fork=True):
        pass
    assert any("ZeroDivisionError" in note for note in raised.value.__notes__)
    assert not multiprocessing.active_children()


def test_a_checks_worker_done_first_takes_the_last_shares_of_the_analysis(
    parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = generated(25, 60, modes_known=True)
    config = DetectorConfig()
    alone = find_duplicates(transcript, config)
    context = multiprocessing.get_context("fork")
    helping, helped = context.Event(), context.Value("i", 0)
    real_analysed = _analysis._analysed
    parent = os.getpid()

    def waiting(*args: Any) -> Any:
        # the parent's first share waits until the worker, its checks done, analyses one
        if os.getpid() != parent:
            with helped.get_lock():
                helped.value += 1
            helping.set()
        elif not helping.wait(_WAIT):
            raise RuntimeError("the checks' worker took no share of the analysis")
        return real_analysed(*args)

    monkeypatch.setattr(_analysis, "_analysed", waiting)
    quick = Meanwhile(lambda: "checked")
    with worker_processes(2):
        together = find_duplicates(transcript, config, meanwhile=quick)
    assert quick.result == "checked"
    assert helped.value >= 1  # shares analysed in the worker...
    assert together == alone  # ...joined in order: the same findings


def test_shares_taken_from_both_ends_are_each_taken_once() -> None:
    messages = generated(26, 30, modes_known=True).messages
    ends = _analysis.Ends.of(messages)
    taken = [ends._take(last=k % 3 == 0) for k in range(len(ends.bounds) + 2)]
    assert sorted(k for k in taken if k is not None) == list(range(len(ends.bounds)))
    assert taken[-2:] == [None, None]
    fresh = _analysis.Ends.of(messages)
    fresh.helper = lambda: {}  # a helper that took none: this process took them all
    assert fresh.analysed() == _analysis._analysed(messages, 0, len(messages))
