"""``tools.detector.fit pairs --no-measure``: a refit that writes the model and reads no held-out
material (SGD dev) afterwards. The fitting itself is replaced by stand-ins: what is checked is
which SGD files the command opens and that the model is written."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tools.detector import fit


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SGD files the command opens, with every costly step stubbed out and the model and
    rows cache written under ``tmp_path`` (the shipped ones are never touched)."""
    names: list[str] = []

    def load_sgd(path: Path, **_options: Any) -> list[Any]:
        names.append(path.name)
        return []

    monkeypatch.setattr(fit, "MODELS", tmp_path)
    monkeypatch.setattr(fit, "ROWS", tmp_path / "rows.npz")
    monkeypatch.setattr(fit, "load_sgd", load_sgd)
    monkeypatch.setattr(fit, "load_corpora", lambda corpora: [])
    monkeypatch.setattr(fit, "train_rows", lambda built, path, *, store: [])
    monkeypatch.setattr(fit, "fit_pairs", lambda parts, **_options: {"fitted": True})
    monkeypatch.setattr(fit, "cross_validate", lambda *args, **_options: fit.Score())
    monkeypatch.setattr(fit, "detect_all", lambda *args, **_options: fit.Score())
    monkeypatch.setattr(fit.PairScorer, "load", classmethod(lambda cls, *args: None))
    return names


def _run(monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", ["fit", *args])
    fit.main()


def test_pairs_no_measure_writes_the_model_and_reads_no_sgd_dev(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[str]
) -> None:
    _run(monkeypatch, "pairs", "--no-measure", "--sgd", str(tmp_path))
    assert (tmp_path / "pairs.json").exists()
    assert opened == ["sgd-train.jsonl.gz"]


def test_pairs_without_it_still_measures_on_sgd_dev(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[str]
) -> None:
    _run(monkeypatch, "pairs", "--sgd", str(tmp_path))
    assert opened == ["sgd-train.jsonl.gz", "sgd-dev.jsonl.gz", "sgd-dev.jsonl.gz"]


@pytest.mark.parametrize("what", ["measure", "spread"])
def test_no_measure_is_refused_where_it_means_nothing(
    what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        _run(monkeypatch, what, "--no-measure", "--sgd", str(tmp_path))
    assert stopped.value.code == 2
    assert f"--no-measure applies to acts, acts-sentences and pairs, not {what}" in (
        capsys.readouterr().err
    )
