"""The speed bench's real text (``tests/bench/bench_detect.generate_real``) reads the dev corpus
and SGD train only: SGD dev is held out for the detector, so no figure may be timed on it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.bench import bench_detect


def _dialogues(path: Path, texts: list[str]) -> None:
    turns = [
        {"speaker": "USER" if k % 2 == 0 else "SYSTEM", "text": t} for k, t in enumerate(texts)
    ]
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(json.dumps({"turns": turns}) + "\n")


def test_the_real_text_reads_no_sgd_dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sgd").mkdir()
    (tmp_path / "corpus").mkdir()
    _dialogues(tmp_path / "sgd" / "sgd-dev.jsonl.gz", ["Is the pool heated?", "It is, all year."])
    train = ["Can I bring my bike on the ferry?", "Yes, bikes ride free on weekdays."]
    _dialogues(tmp_path / "sgd" / "sgd-train.jsonl.gz", train)
    monkeypatch.setattr(bench_detect, "SHARED", tmp_path)
    monkeypatch.setattr(bench_detect, "CORPUS", tmp_path / "corpus")
    transcript = bench_detect.generate_real(10)
    assert [m.text for m in transcript.messages] == train
    assert [m.role for m in transcript.messages] == ["user", "bot"]
