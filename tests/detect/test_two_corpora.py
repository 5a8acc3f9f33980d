"""The pair scorer's fit over several labelled corpora (``tools.detector.fit``): folds drawn
within each corpus, figures per corpus, and the miss stages by corpus, on made-up transcripts
(the corpora's own runs are development runs, not tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.detect.findings import Finding
from tests.detect.test_failure_classes import conversation
from tests.detect.test_miss_stages import _scorer
from tools.detector.fit import (
    CORPORA,
    DEV_CORPUS,
    OWN_CORPUS,
    Labelled,
    Score,
    folds,
    load_corpora,
)
from tools.detector.misses import stages


def _item(name: str, source: str, duplicates: set[tuple[str, str]] | None = None) -> Labelled:
    return Labelled(
        name=name,
        transcript=conversation(
            ("user", "When does the pottery class start?"),
            ("studio", "The wheel-throwing class starts on March 3 at 6 pm in room B."),
            ("studio", "Wheel throwing begins March 3, 6 pm, room B."),
        ),
        duplicates=frozenset(frozenset(p) for p in duplicates or set()),
        negatives=frozenset(),
        source=source,
    )


def test_one_corpus_is_folded_as_before() -> None:
    items = [_item(f"t{i:02}", "only") for i in range(12)]
    assert folds(items, 5) == [[i for i in range(12) if i % 5 == f] for f in range(5)]


def test_every_corpus_is_folded_as_it_is_alone() -> None:
    # Seven transcripts of one corpus, then five of another. Each corpus keeps the folds it has
    # alone (round robin by its own name order), whatever the size of the corpora before it, so
    # every fold holds some of every corpus with at least five transcripts; round robin over the
    # whole list would start the second corpus at fold 2.
    first = [_item(f"a{i}", "first") for i in range(7)]
    second = [_item(f"b{i}", "second") for i in range(5)]
    drawn = folds(first + second, 5)
    assert sorted(i for fold in drawn for i in fold) == list(range(12))
    assert [[i for i in fold if i < 7] for fold in drawn] == folds(first, 5)
    assert [[i - 7 for i in fold if i >= 7] for fold in drawn] == folds(second, 5)
    assert drawn[0] == [0, 5, 7]


def test_the_score_keeps_each_corpus_s_figures() -> None:
    score = Score()
    found = [
        Finding(
            kind="duplicate",
            turn=1,
            message_ids=("m2", "m3"),
            senders=("studio", "studio"),
            evidence="restated",
        )
    ]
    score.add(_item("a", "first", {("m2", "m3")}), found)
    score.add(_item("b", "second", {("m2", "m3")}), [])
    assert (score.tp, score.fn) == (1, 1)
    assert set(score.parts) == {"first", "second"}
    assert score.parts["first"].figures()["R"] == 1.0
    assert score.parts["second"].figures()["R"] == 0.0
    assert score.parts["first"].parts == {}  # one level only


def test_the_corpora_are_known_by_their_folder_names() -> None:
    # By default the shipped fit's corpus alone, so a bare `fit pairs` reproduces it.
    assert CORPORA == (DEV_CORPUS,)
    items = load_corpora([DEV_CORPUS, OWN_CORPUS])
    assert {i.source for i in items} == {"duplicates-dev", "duplicates-own"}
    # One corpus after another, each in name order.
    sources = [i.source for i in items]
    assert sources == sorted(sources)
    with pytest.raises(ValueError, match="share a folder name"):
        load_corpora([DEV_CORPUS, Path("elsewhere") / DEV_CORPUS.name])


def test_a_miss_says_its_corpus() -> None:
    (miss,) = stages([_item("t", "second", {("m2", "m3")})], _scorer(-10.0))
    assert (miss.corpus, miss.transcript, miss.pair) == ("second", "t", ("m2", "m3"))
