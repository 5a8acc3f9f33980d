"""The ``--semantic`` pair scorer: the default features plus the embedding cosine, used whenever
messages are embedded, and its out-of-sample figures (``docs/journal/detector.md``, "The --semantic
scorer").

The figures need the ``embeddings`` extra (WordLlama embeds every transcript) and, for SGD, the data
beside the repository. The SGD-train candidate pairs with their cosine are cached
(``tests/fixtures/detector/sgd-train-rows-semantic.npz``, written by ``python -m tools.detector.fit
pairs --semantic``); one test rebuilds their start with the builder and the embedder.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from harness.detect import detect
from harness.detect import duplicates as engine
from harness.detect.embeddings import Embedder
from harness.detect.scorer import (
    COSINE,
    FEATURES,
    SEMANTIC_FEATURES,
    PairScorer,
    scorer,
    semantic_scorer,
    with_cosine,
)
from tests import held_out
from tests.simulate._helpers import conversation

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "duplicates-dev"
SGD = ROOT.parent / "shared" / "data" / "sgd"
needs_sgd = pytest.mark.skipif(not SGD.is_dir(), reason="../shared/data/sgd is not beside the repo")
needs_extra = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None, reason="the 'embeddings' extra is not installed"
)


def _splits(node: object, feature: int) -> tuple[int, int]:
    """(splits on ``feature``, all splits) of one tree."""
    if not isinstance(node, tuple):
        return 0, 0
    f, _, left, right = node
    a, b = _splits(left, feature)
    c, d = _splits(right, feature)
    return a + c + (f == feature), b + d + 1


def test_the_semantic_model_reads_the_default_features_then_the_cosine() -> None:
    model = semantic_scorer()
    assert (*FEATURES, COSINE) == SEMANTIC_FEATURES
    assert model.features == SEMANTIC_FEATURES and model.cosine
    assert not scorer().cosine
    used = [_splits(tree, len(FEATURES)) for tree in model.trees]
    assert sum(u for u, _ in used) > 0  # the trees do split on the cosine


def test_a_model_fitted_on_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="refit"):
        PairScorer({"features": [*FEATURES, "something_else"]})


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ({"f": -1, "t": 0.5, "l": {"v": 1.0}, "r": {"v": 0.0}}, r"trees\[0\]\.f: -1"),
        ({"f": True, "t": 0.5, "l": {"v": 1.0}, "r": {"v": 0.0}}, r"trees\[0\]\.f: True"),
        ({"f": 0, "t": float("nan"), "l": {"v": 1.0}, "r": {"v": 0.0}}, r"trees\[0\]\.t: nan"),
        ({"f": 0, "t": 0.5, "l": {"v": 1.0}}, r"trees\[0\]: a split needs 'r'"),
    ],
)
def test_a_malformed_pair_model_is_refused_at_load_naming_the_file(
    tmp_path: Path, tree: dict[str, object], message: str
) -> None:
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps({"features": list(FEATURES), "trees": [tree]}), encoding="utf-8")
    with pytest.raises(ValueError, match=message) as raised:
        PairScorer.load(path)
    assert str(path) in str(raised.value)


def test_with_cosine_appends_the_dot_product_of_the_unit_vectors() -> None:
    assert with_cosine([1.0, 2.0], [0.6, 0.8], [0.8, 0.6]) == [1.0, 2.0, pytest.approx(0.96)]
    assert with_cosine([1.0], None, [1.0, 0.0]) == [1.0, 0.0]  # a message too short to embed


class _Axes(Embedder):
    """Texts sharing their first word get the same unit vector (deterministic, no model)."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] if t.split()[0] == "Your" else [0.0, 1.0] for t in texts]


def test_embedded_messages_are_judged_by_the_semantic_scorer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[int] = []

    class Spy(PairScorer):
        def probability(self, features: Sequence[float]) -> float:
            seen.append(len(features))
            return super().probability(features)

    spy = Spy({"features": list(SEMANTIC_FEATURES), "bias": 0.0})
    monkeypatch.setattr(engine, "semantic_scorer", lambda: spy)
    t = conversation(
        ("when is payday", [("payroll", "Your next payday is Friday, March 13.")]),
        ("and again?", [("payroll", "Your next payday is Friday, March 13, as I said.")]),
    )
    detect(t)
    assert seen == []  # without embeddings: the default scorer
    detect(t, embedder=_Axes())
    assert seen and set(seen) == {len(SEMANTIC_FEATURES)}


# --- the figures ------------------------------------------------------------------------------


@needs_extra
def test_cross_validated_on_the_dev_corpus_with_the_cosine() -> None:
    from tools.detector.fit import (
        ROWS_SEMANTIC,
        collect,
        cross_validate,
        embed_all,
        load_corpus,
        load_rows,
    )

    corpus = load_corpus(CORPUS)
    vectors = embed_all(corpus)
    figures = cross_validate(
        corpus,
        collect(corpus, vectors),
        load_rows(ROWS_SEMANTIC),
        vectors=vectors,
        features=SEMANTIC_FEATURES,
    ).figures()
    # Measured here, from the float32 rows cache: P 0.987, R 0.895 (77 of 86), 1 hard-negative
    # false positive; the fit script, from rows it builds in float64, gets R 0.907 (78 of 86):
    # the trees differ slightly. The default scorer: R 0.895.
    assert figures["P"] >= 0.97, figures
    assert figures["R"] >= 0.88, figures
    assert figures["hard_negative_fp"] <= 1, figures


@needs_extra
@needs_sgd
def test_the_cached_semantic_rows_are_what_the_builder_and_embedder_make() -> None:
    from tools.detector.fit import ROWS_SEMANTIC, collect, embed_all, load_rows, load_sgd

    cached = load_rows(ROWS_SEMANTIC)[:30]
    built = load_sgd(SGD / "sgd-train.jsonl.gz", every=8, limit=30)
    rebuilt = collect(built, embed_all(built))
    assert len(rebuilt) == len(cached)
    for (x, y), (cx, cy) in zip(rebuilt, cached, strict=True):
        assert np.array_equal(y, cy)
        assert np.allclose(x, cx, atol=1e-4)
    assert sum(len(y) for _, y in rebuilt) > 30


@needs_extra
def test_the_shipped_semantic_scorer_is_what_fit_pairs_fits() -> None:
    # `fit pairs --semantic` with no --corpus: the cached SGD-train rows and the dev corpus's rows
    # as the code and the embedder build them (see test_figures.py for the default scorer's).
    from tools.detector.fit import (
        MODELS,
        ROWS_SEMANTIC,
        SGD_WEIGHT,
        collect,
        embed_all,
        fit_pairs,
        load_corpus,
        load_rows,
    )

    corpus = load_corpus(CORPUS)
    rows = collect(corpus, embed_all(corpus))
    fitted = fit_pairs(
        [(load_rows(ROWS_SEMANTIC), SGD_WEIGHT), (rows, 1.0)], features=SEMANTIC_FEATURES
    )
    shipped = json.loads((MODELS / "pairs-semantic.json").read_text(encoding="utf-8"))
    shipped.pop("about")
    assert fitted == shipped, "refit: python -m tools.detector.fit pairs --semantic --no-measure"


@needs_extra
@needs_sgd
def test_built_sgd_dev_transcripts_with_the_cosine() -> None:
    from tools.detector.fit import detect_all, embed_all, load_sgd

    held_out.guard("SGD dev")
    built = load_sgd(SGD / "sgd-dev.jsonl.gz", every=5)
    figures = detect_all(built, semantic_scorer(), embed_all(built)).figures()
    assert figures["P"] >= 0.94, figures  # measured 0.954 (default scorer: 0.966)
    assert figures["R"] >= 0.84, figures  # measured 0.851 (default scorer: 0.862)


@needs_extra
@needs_sgd
def test_false_alarms_on_unchanged_sgd_dev_dialogues_with_the_cosine() -> None:
    from tools.detector.fit import detect_all, embed_all, load_sgd

    held_out.guard("SGD dev")
    plain = load_sgd(SGD / "sgd-dev.jsonl.gz", every=3, plain=True)
    figures = detect_all(plain, semantic_scorer(), embed_all(plain)).figures()
    assert figures["bot_messages"] > 5000
    # The target: at most 1.0 (measured 0.62 on this third, default scorer 0.77; 0.52 on
    # all of SGD dev, default 0.77).
    assert figures["findings_per_1000_bot_messages"] <= 1.0, figures
