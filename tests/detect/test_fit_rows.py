"""``tools.detector.fit``'s SGD-train rows cache: only ``fit pairs`` writes it; ``fit measure``
measures the rows the code builds and says when the shipped scorer was fitted on other rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tools.detector.fit import train_rows


def _rows(shift: float) -> list[tuple[np.ndarray, np.ndarray]]:
    x = np.arange(12, dtype=np.float64).reshape(4, 3) / 7 + shift
    return [(x[:3], np.array([1.0, 0.0, 0.0])), (x[3:], np.array([0.0]))]


def test_pairs_stores_the_rows_and_returns_them_as_stored(tmp_path: Path) -> None:
    cache = tmp_path / "rows.npz"
    rows = train_rows(_rows(0.0), cache, store=True)
    assert cache.exists()
    assert [len(y) for _, y in rows] == [3, 1]
    assert rows[0][0].dtype == np.float64
    assert np.array_equal(rows[0][0], _rows(0.0)[0][0].astype(np.float32).astype(np.float64))


def test_measure_leaves_the_cache_alone_and_says_when_it_is_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "rows.npz"
    train_rows(_rows(0.0), cache, store=True)
    stored = cache.read_bytes()

    same = train_rows(_rows(0.0), cache, store=False)
    assert "differ" not in capsys.readouterr().err
    changed = train_rows(_rows(0.5), cache, store=False)
    assert "differ from rows.npz" in capsys.readouterr().err

    assert cache.read_bytes() == stored  # measuring never rewrites what the scorer was fitted on
    assert not np.array_equal(same[0][0], changed[0][0])
    assert np.array_equal(changed[0][0], _rows(0.5)[0][0].astype(np.float32).astype(np.float64))
