"""``fit spread``'s sums and its noise feature (:mod:`tools.detector.spread`), on small made-up
material: the nine fits themselves are a development run, not a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tools.detector.spread import Fit, Material, summed, with_fewer_rows, with_noise


def test_the_sums_count_pairs_some_fits_find_and_others_miss() -> None:
    a, b, c = ("t1", frozenset({"1", "2"})), ("t1", frozenset({"2", "3"})), ("t2", frozenset())
    fits = [
        Fit({"cv": 2, "cv_fp": 0, "cv_hn": 0}, {a, b}),
        Fit({"cv": 3, "cv_fp": 1, "cv_hn": 1}, {a, b, c}),
        Fit({"cv": 1, "cv_fp": 0, "cv_hn": 0}, {a}),
    ]
    assert summed(fits) == {"cv": 6, "cv_fp": 1, "cv_hn": 1, "unstable": 2}


def test_the_noise_feature_is_one_more_column_and_the_same_for_the_same_seed() -> None:
    rows = [(np.zeros((3, 2)), np.zeros(3)), (np.ones((1, 2)), np.ones(1))]
    material = Material([], rows, [], [])
    once, again, other = with_noise(material, 1), with_noise(material, 1), with_noise(material, 2)
    assert [x.shape for x, _ in once.sgd_rows] == [(3, 3), (1, 3)]
    assert np.array_equal(once.sgd_rows[0][0], again.sgd_rows[0][0])
    assert not np.array_equal(once.sgd_rows[0][0], other.sgd_rows[0][0])
    assert np.array_equal(once.sgd_rows[1][0][:, :2], rows[1][0])


def test_fewer_rows_leave_out_the_share_asked_and_the_same_for_the_same_seed() -> None:
    rows = [
        (np.arange(i * 20, i * 20 + 100, dtype=float).reshape(50, 2), np.zeros(50)) for i in (0, 5)
    ]
    material = Material([], rows, [], [])
    once, again, other = (
        with_fewer_rows(material, 1, share=0.1),
        with_fewer_rows(material, 1, share=0.1),
        with_fewer_rows(material, 2, share=0.1),
    )
    assert len(once.sgd_rows) == 2
    assert sum(len(y) for _, y in once.sgd_rows) == 90
    assert [x.shape[1] for x, _ in once.sgd_rows] == [2, 2]
    assert all(
        np.array_equal(a[0], b[0]) for a, b in zip(once.sgd_rows, again.sgd_rows, strict=True)
    )
    assert not all(
        len(a[0]) == len(b[0]) and np.array_equal(a[0], b[0])
        for a, b in zip(once.sgd_rows, other.sgd_rows, strict=True)
    )
    kept = {tuple(r) for x, _ in once.sgd_rows for r in x}
    assert kept <= {tuple(r) for x, _ in rows for r in x}


@pytest.mark.parametrize("share", [1.5, 1.0, 0.0, -0.1, 0.004])
def test_a_share_that_leaves_out_no_row_or_every_row_is_refused(share: float) -> None:
    rows = [(np.zeros((8, 2)), np.zeros(8))]
    with pytest.raises(ValueError, match="share"):
        with_fewer_rows(Material([], rows, [], []), 1, share=share)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, check=False, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["spread", "--rows", "2", "--share", "1.5"], "not above 0 and below 1"),
        (["spread", "--rows", "2", "--share", "-0.1"], "not above 0 and below 1"),
        (["spread", "--share", "0.1"], "--share needs --rows"),
    ],
)
def test_fit_spread_refuses_a_share_out_of_range_or_without_rows(
    args: list[str], said: str, tmp_path: Path
) -> None:
    done = _run("tools.detector.fit", *args, "--sgd", str(tmp_path))
    assert done.returncode == 2
    assert said in done.stderr


def test_fit_answers_refuses_an_embedder_without_semantic(tmp_path: Path) -> None:
    done = _run("tools.detector.fit_answers", "--sgd", str(tmp_path), "--embedder", "minilm")
    assert done.returncode == 2
    assert "--embedder needs --semantic" in done.stderr
