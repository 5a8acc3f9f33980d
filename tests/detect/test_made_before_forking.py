"""What the comparison's processes would each make on first use (the screen, the pair scorer's
compiled bounds), made once by the parent before they fork: the forked processes make none of
their own, and what they inherit is what each would have made (the same findings as one
process's, the same bounds as compiled afresh). The parent makes it, and turns its own shares of
the analysis into steps, before it waits for the checks' worker's last shares.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from harness.detect import _analysis, _screen, duplicates
from harness.detect import scorer as scorer_module
from harness.detect._bound import compile_bound
from harness.detect._meanwhile import Meanwhile
from harness.detect._pair_bounds import PAIR_BOUNDS
from harness.detect._users import _User
from harness.detect.duplicates import find_duplicates, worker_processes
from harness.detect.findings import DetectorConfig
from harness.detect.scorer import FEATURES, scorer
from tests.simulate.test_perf_equivalence import generated

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)


def _forgotten() -> None:
    """The shipped scorer's compiled bounds and screens dropped (another test made them)."""
    scorer()._bounds.clear()
    _screen._SCREENS.clear()


def _counting(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Counts the bounds compiled in processes other than this one (forked ones: a shared
    counter), by patching the compiler where the scorer and the screen call it."""
    parent = os.getpid()
    counter = multiprocessing.get_context("fork").Value("i", 0)

    def counted(*args: Any, **given: Any) -> Callable[[Sequence[float]], float]:
        if os.getpid() != parent:
            with counter.get_lock():
                counter.value += 1
        return compile_bound(*args, **given)

    monkeypatch.setattr(scorer_module, "compile_bound", counted)
    monkeypatch.setattr(_screen, "compile_bound", counted)
    return counter


@pytest.mark.parametrize("seed", [51, 52])
def test_the_comparisons_processes_compile_no_bound_and_find_the_same(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcript = generated(seed, 60, modes_known=True)
    config = DetectorConfig()
    alone = find_duplicates(transcript, config)
    assert alone
    compared: list[int] = []
    real = duplicates._pairs_in_processes

    def spying(run: Any, jobs: int) -> Any:
        compared.append(jobs)
        return real(run, jobs)

    monkeypatch.setattr(duplicates, "_pairs_in_processes", spying)
    forked = _counting(monkeypatch)
    for meanwhile in (Meanwhile(lambda: "checked"), None):
        _forgotten()
        with worker_processes(2):
            assert find_duplicates(transcript, config, meanwhile=meanwhile) == alone
    assert compared == [2, 2]  # the comparison did run in two processes, both times
    assert forked.value == 0


def test_the_bounds_made_before_forking_are_those_compiled_afresh() -> None:
    _forgotten()
    model = scorer()
    duplicates._made_before_forking(None, None)
    rng = random.Random(5)
    vectors = [[rng.choice([0.0, 1.0, rng.uniform(-1, 6)]) for _ in FEATURES] for _ in range(300)]
    for widened in (*PAIR_BOUNDS, _screen.WORDING_FREE):
        kept = model.bound(widened)
        assert model.bound(widened) is kept  # compiled once, then reused
        fresh = compile_bound(model.trees, widened)
        assert [kept(v) for v in vectors] == [fresh(v) for v in vectors]
    made = _screen.screen(model)
    assert _screen.screen(model) is made
    afresh = _screen.Screen(model)
    screened = [v[: len(_screen.SCREENED)] for v in vectors]
    assert [made.rules_out(v) for v in screened] == [afresh.rules_out(v) for v in screened]


def _plain(steps: list[Any]) -> list[tuple[Any, ...]]:
    """Steps as comparable values (an entry compares by identity)."""
    return [
        ("user", step) if isinstance(step, _User) else (step.index, step.message, step.text)
        for step in steps
    ]


def test_this_processs_shares_become_steps_before_it_waits_for_the_helpers() -> None:
    """The helper's shares (the last) are joined after this process's (the first) have become
    steps, and after the work that waits for none of them: the same steps as one process's."""
    transcript = generated(53, 30, modes_known=True)
    messages = transcript.messages
    ends = _analysis.Ends.of(messages)
    helped = {}
    for _ in range(len(ends.bounds) // 3):  # a helper done first takes the last shares
        k = ends._take(last=True)
        assert k is not None
        helped[k] = _analysis._analysed(messages, *ends.bounds[k])
    order: list[str] = []

    def helper() -> dict[int, list[Any]]:
        order.append("helper")
        return helped

    ends.helper = helper
    joined = _analysis.steps(transcript, 1, ends=ends, before_waiting=lambda: order.append("work"))
    assert order == ["work", "helper"]
    assert ends.mine == len(ends.bounds) - len(helped)
    assert _plain(joined) == _plain(_analysis.steps(transcript, 1))


def test_a_scorer_that_reads_the_cosine_runs_in_processes_without_vectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Such a scorer is asked without the screen and the bounds, so none is made for it.
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcript = generated(51, 60, modes_known=True)
    model = scorer_module.semantic_scorer()
    alone = find_duplicates(transcript, DetectorConfig(), pair_model=model)
    with worker_processes(2):
        assert find_duplicates(transcript, DetectorConfig(), pair_model=model) == alone
