"""How ``harness detect`` splits a long conversation's work between its processes, and that the
split changes nothing.

The comparisons come in many slices: whichever process is free takes the next one, the parent
too once its other checks are done, and each process goes on from the index its last slice left
instead of indexing the conversation again. The analysis comes in many shares the same way. The
pairs, the analyses and the findings must be those of one process.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
from typing import Any

import pytest

from harness.detect import _analysis, detect, duplicates
from harness.detect.duplicates import _Progress, _Run, thresholds, worker_processes
from harness.detect.findings import DetectorConfig
from harness.detect.transcript import Transcript
from harness.text import normalise
from tests.simulate.test_perf_equivalence import generated

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)

_WAIT = 60.0
"""Seconds a worker waits for the parent to take a slice before it gives up (a failing run, not
a slow one)."""


def _run(transcript: Transcript) -> _Run:
    config = DetectorConfig()
    return _Run(
        steps=_analysis.steps(transcript, 1),
        limits=thresholds(config),
        closers=frozenset(normalise(p) for p in config.boilerplate),
        window=config.cross_turn_window,
        semantic=config.semantic_threshold,
        vectors=None,
        pair_model=None,
    )


def _key(pairs: list[duplicates.Pair]) -> list[tuple[int, int, object, object]]:
    return [(p.earlier.index, p.later.index, p.scope, p.found) for p in pairs]


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_slices_that_go_on_from_their_index_give_the_pairs_of_one_pass(seed: int) -> None:
    run = _run(generated(seed, 50, modes_known=True))
    whole = _key(run.pairs(0, len(run.steps)))
    assert whole  # the conversation has duplicates to find
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(run.steps)), 9))
    bounds = list(zip([0, *cuts], [*cuts, len(run.steps)], strict=True))
    # Two processes' progress: each takes slices in order, skipping those the other took; a
    # slice before the one a progress last did starts a fresh index.
    progress = [_Progress(), _Progress()]
    found: list[tuple[int, int, object, object]] = []
    for start, stop in bounds:
        found += _key(run.pairs(start, stop, progress=progress[rng.randrange(2)]))
    assert found == whole
    late = _Progress()
    run.pairs(*bounds[-1], progress=late)
    assert late.position == len(run.steps)
    assert _key(run.pairs(*bounds[1], progress=late)) == _key(run.pairs(*bounds[1]))


_PARENT: list[int] = []
_TAKEN: list[Any] = []
"""The parent's pid and the event set when it takes a slice (set before the workers fork)."""
_REAL_SLICE = duplicates._compare_slice


def _slice_after_the_parent_took_one(bounds: tuple[int, int]) -> Any:
    """A comparison slice: in the parent it says so; in a worker it waits until the parent
    has taken one (workers pickle the function by name, so it lives at module level)."""
    if os.getpid() == _PARENT[0]:
        _TAKEN[0].set()
    elif not _TAKEN[0].wait(_WAIT):
        raise RuntimeError("the parent took no slice")
    return _REAL_SLICE(bounds)


def test_the_parent_compares_the_slices_no_worker_has_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcript = generated(34, 60, modes_known=True)
    alone = detect(transcript)
    _PARENT[:] = [os.getpid()]
    _TAKEN[:] = [multiprocessing.get_context("fork").Event()]
    monkeypatch.setattr(duplicates, "_compare_slice", _slice_after_the_parent_took_one)
    try:
        with worker_processes(2):
            together = detect(transcript)
    finally:
        _TAKEN.clear()
    assert together == alone
    assert any(f.kind == "duplicate" for f in alone)


def test_analysis_shares_taken_by_any_process_join_in_order() -> None:
    messages = generated(35, 80, modes_known=True).messages
    alone = _analysis._analysed(messages, 0, len(messages))
    for jobs in (2, 3):
        assert _analysis.analysed_in_processes(messages, jobs) == alone


@pytest.mark.parametrize("total", [0, 1, 2, 5, 20, 100, 49_881])
@pytest.mark.parametrize("count", [1, 2, 16])
def test_shares_shrink_and_cover_the_work(total: int, count: int) -> None:
    cuts = _analysis.shrinking(total, count)
    assert len(cuts) == count - 1
    edges = [0, *cuts, total]
    sizes = [b - a for a, b in itertools.pairwise(edges)]
    assert all(size >= 0 for size in sizes) and sum(sizes) == total
    assert sizes == sorted(sizes, reverse=True) or total < count**2


_HELD: list[Any] = []
"""The event set when the parent takes the last slice or share, and the number of slices or
shares the workers took (set before the workers fork)."""
_REAL_ANALYSED = _analysis._analysed


def _slice_held_until_the_parent_is_done(bounds: tuple[int, int]) -> Any:
    """A comparison slice: the parent's last one sets the event; a worker counts its slices and
    does not finish one before the parent has taken the last."""
    if os.getpid() == _PARENT[0]:
        if bounds[1] == len(duplicates._FORKED[0].steps):
            _HELD[0].set()
    else:
        with _HELD[1].get_lock():
            _HELD[1].value += 1
        # A worker that took the last slice itself (the parent slow to start, on a busy
        # machine) leaves nothing for the parent to take: it does not wait.
        last = bounds[1] == len(duplicates._FORKED[0].steps)
        if not last and not _HELD[0].wait(_WAIT):
            raise RuntimeError("the parent could not take the last slice")
    return _REAL_SLICE(bounds)


def test_a_busy_worker_holds_no_slice_it_has_not_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a worker compares a slice, every slice after it is the parent's to take: the worker
    compares only the one it started (a pool that queued the next slice for it made the parent
    wait for both at the end)."""
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcript = generated(36, 60, modes_known=True)
    alone = detect(transcript)
    context = multiprocessing.get_context("fork")
    _PARENT[:] = [os.getpid()]
    _HELD[:] = [context.Event(), context.Value("i", 0)]
    monkeypatch.setattr(duplicates, "_compare_slice", _slice_held_until_the_parent_is_done)
    try:
        with worker_processes(2):
            together = detect(transcript)
        assert _HELD[1].value <= 1  # none when the parent took every slice before it started
    finally:
        _HELD.clear()
    assert together == alone


def _share_held_until_the_parent_is_done(messages: Any, start: int, stop: int, *rest: Any) -> Any:
    """:func:`_analysis._analysed` of a share, held in a worker as the slice above is."""
    if os.getpid() == _PARENT[0]:
        if stop == len(messages):
            _HELD[0].set()
    else:
        with _HELD[1].get_lock():
            _HELD[1].value += 1
        # As for a slice: a worker that took the last share itself does not wait.
        if stop != len(messages) and not _HELD[0].wait(_WAIT):
            raise RuntimeError("the parent could not take the last share")
    return _REAL_ANALYSED(messages, start, stop, *rest)


def test_a_busy_worker_holds_no_share_it_has_not_started(monkeypatch: pytest.MonkeyPatch) -> None:
    messages = generated(37, 80, modes_known=True).messages
    alone = _analysis._analysed(messages, 0, len(messages))
    context = multiprocessing.get_context("fork")
    _PARENT[:] = [os.getpid()]
    _HELD[:] = [context.Event(), context.Value("i", 0)]
    monkeypatch.setattr(_analysis, "_analysed", _share_held_until_the_parent_is_done)
    try:
        shared = _analysis.analysed_in_processes(messages, 2)
        assert _HELD[1].value <= 1  # the worker may start after the parent took every share
    finally:
        _HELD.clear()
    assert shared == alone
