"""``tools.detector.fit acts|acts-sentences|pairs [--semantic] --no-measure``: a refit that writes the model and reads no held-out
material (SGD dev) afterwards. The fitting itself is replaced by stand-ins: what is checked is
which SGD files the command opens and that the model is written."""

from __future__ import annotations

import sys
from collections.abc import Iterator
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
    monkeypatch.setattr(fit, "embed_all", lambda items: [])

    def turns(path: Path) -> Iterator[Any]:
        names.append(path.name)
        return iter(())

    def fit_turn_acts(sgd: Path, **_options: Any) -> dict[str, Any]:
        turns(sgd / "sgd-train.jsonl.gz")
        return {"fitted": True}

    def fit_acts(sgd: Path, **_options: Any) -> tuple[dict[str, Any], None]:
        turns(sgd / "sgd-train.jsonl.gz")
        return {"fitted": True}, None

    monkeypatch.setattr(fit, "turns", turns)
    monkeypatch.setattr(fit, "fit_turn_acts", fit_turn_acts)
    monkeypatch.setattr(fit, "fit_acts", fit_acts)
    monkeypatch.setattr(fit, "first_tagger", lambda train, **_options: None)
    monkeypatch.setattr(fit, "measure_acts", lambda dev, tagger, first: {})
    monkeypatch.setattr(fit, "ActTagger", lambda model: None)
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


# (arguments, the model written, what measuring opens after the fit)
FITS = [
    (["acts"], "acts.json", ["sgd-train.jsonl.gz", "sgd-dev.jsonl.gz"]),
    (["acts-sentences"], "out.json", ["sgd-dev.jsonl.gz"]),
    (["pairs", "--semantic"], "pairs-semantic.json", ["sgd-dev.jsonl.gz", "sgd-dev.jsonl.gz"]),
]


@pytest.mark.parametrize(
    ("args", "model", "measured"), FITS, ids=["acts", "acts-sentences", "pairs-semantic"]
)
def test_every_fit_writes_its_model_and_reads_sgd_dev_only_when_measuring(
    args: list[str],
    model: str,
    measured: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    """``acts`` (whose measuring fits a first tagger on SGD train again), ``acts-sentences``
    and ``pairs --semantic``: with ``--no-measure`` only SGD train is opened, to fit."""
    common = ["--sgd", str(tmp_path), "--out", str(tmp_path / "out.json")]
    _run(monkeypatch, *args, "--no-measure", *common)
    assert (tmp_path / model).exists()
    assert opened == ["sgd-train.jsonl.gz"]
    opened.clear()
    _run(monkeypatch, *args, *common)
    assert opened == ["sgd-train.jsonl.gz", *measured]


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
