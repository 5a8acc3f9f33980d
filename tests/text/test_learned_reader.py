"""The learned part of the instruction reader: cross-validated by source, batch 5 held out, and the
shipped weights are what ``tools/reader/fit.py`` makes from the corpus.

Floors sit just under the figures docs/lint.md reports (``python -m tools.reader.fit measure``).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from harness.text._learned import reader_model
from harness.text.instructions import ASKS, read_sentence, sentence_features_of
from tools.reader.fit import (
    FOLDS,
    HELD_OUT,
    Scores,
    fit,
    load,
    load_all,
    measure,
    reading,
    rule_reading,
    source_folds,
)

ROWS = load_all()


@pytest.fixture(scope="module")
def figures() -> dict[str, Scores]:
    return measure(ROWS)


def test_folds_never_split_a_source_and_the_held_out_batch_is_never_fitted_on() -> None:
    folds_of: dict[str, set[int]] = defaultdict(set)
    for row, fold in zip(ROWS, source_folds(ROWS), strict=True):
        folds_of[row.source].add(fold)
    assert all(len(folds) == 1 for folds in folds_of.values())
    assert set().union(*folds_of.values()) == set(range(FOLDS)) | {-1}  # -1: generated text
    assert len({r.source for r in ROWS if r.batch not in ("lint", "generated")}) >= 70
    assert not [r for r in ROWS if r.batch == HELD_OUT]


def test_cross_validated_by_source_every_reading_is_right_for_95_percent(
    figures: dict[str, Scores],
) -> None:
    corpus, batch4, lint = figures["corpus"], figures["v2"], figures["lint"]
    assert corpus.rows >= 500 and batch4.rows >= 150
    assert min(corpus.learned.values()) >= 0.985, corpus.learned
    assert corpus.learned["silence"] >= 0.99
    # Batch 4, which the frames were never changed for: the model lifts silence from 0.928.
    assert batch4.rules["silence"] < 0.94
    assert batch4.learned["silence"] >= 0.98
    assert min(batch4.learned.values()) >= 0.96, batch4.learned
    # The lint phrase corpus held out as one source: the model costs some silence precision.
    assert lint.learned["silence"] >= 0.955
    assert lint.learned["address"] >= 0.99 and lint.learned["scope"] >= 0.99


def test_on_the_held_out_batch_the_model_lifts_silence(figures: dict[str, Scores]) -> None:
    held = load(HELD_OUT)
    model = reader_model()
    learned = [reading(r.sentence, model) for r in held]
    rules = [rule_reading(r.sentence) for r in held]

    def accuracy(predicted: list[frozenset[str]], ask: str) -> float:
        return sum(
            (ask in r.labels) == (ask in p) for r, p in zip(held, predicted, strict=True)
        ) / len(held)

    assert len(held) >= 80
    # Below the 0.95 for silence: see docs/lint.md.
    assert accuracy(learned, "silence") >= 0.91
    assert accuracy(rules, "silence") < 0.86
    for ask in ASKS:
        assert accuracy(learned, ask) >= 0.98 or ask == "silence", ask


def test_the_shipped_weights_are_what_fit_makes_from_the_corpus() -> None:
    fitted = fit(ROWS, [sentence_features_of(r.sentence) for r in ROWS])
    shipped = reader_model()
    assert set(fitted.biases) == set(shipped.biases) == {"silence"}
    for ask, weights in fitted.weights.items():
        assert fitted.biases[ask] == pytest.approx(shipped.biases[ask], abs=1e-3)
        other = shipped.weights[ask]
        keys = set(weights) | set(other)
        assert max(abs(weights.get(k, 0.0) - other.get(k, 0.0)) for k in keys) < 0.02


def test_the_model_decides_silence_only_where_the_frames_read_nothing() -> None:
    passive = "The patient must never be contacted by you."
    assert rule_reading(passive) == frozenset()
    assert read_sentence(passive) == {"silence"}
    # A prohibition on how to talk is no silence, and the model does not touch what the frames read.
    assert read_sentence("Never respond to the guest in French.") == frozenset()
    assert read_sentence("Do not greet the flyer until the gate opens.") == {"conditional"}
