"""Fit the instruction reader's learned part and measure it, cross-validated by source.

    python -m tools.reader.fit measure   # per-reading accuracy, k-fold by source
    python -m tools.reader.fit fit       # fit on the whole corpus, write harness/text/_models/reader.json

The corpus is ``tests/fixtures/text/corpus-*.tsv``: one sentence a row,
``labels<TAB>source<TAB>sentence``. ``measure`` splits the *sources* into folds (a source's
sentences are never on both sides), fits one logistic regression per reading on the other folds
(the feature vocabulary too) and scores the held-out fold; every sentence is scored exactly once,
by a model that never saw its source. It prints, per reading, the accuracy of the reader (frames
and model) and of the rule frames alone on the same sentences: over the corpus, over batch 4
(``corpus-v2.tsv``, the batch the frames were never changed for) and over the lint phrase corpus
(held out as its own source). Batch 5 (``corpus-v3.tsv``) is never fitted on: ``measure`` scores
it with the model fitted on everything else, which is the shipped one.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from harness.text._learned import MODEL_PATH, ReaderModel
from harness.text._roles import sentences
from harness.text.instructions import ASKS, LEARNED, _rule_asks, sentence_features_of
from instructions import (
    AgentView,
    ParentView,
    render_subagent_description,
    render_subagent_instructions,
    render_top_level_instruction,
)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "text"
PHRASES = ROOT / "tests" / "fixtures" / "lint" / "phrase-corpus.tsv"
FOLDS = 5
HELD_OUT = "v3"
"""Batch 5, written after the model was fitted: never fitted on, scored by the shipped model."""
MIN_COUNT = 2
L2 = 1.0
_BIAS_SCALE = 10.0
PRUNE = 0.01


@dataclass(frozen=True)
class Row:
    labels: frozenset[str]
    source: str
    sentence: str
    batch: str
    known: frozenset[str] = frozenset(ASKS)
    """The readings this row is labelled for (the lint phrase corpus labels three of them)."""


def load(batch: str, folder: Path = CORPUS) -> list[Row]:
    """The rows of ``corpus-<batch>.tsv``."""
    rows = []
    for line in (folder / f"corpus-{batch}.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        labels, source, sentence = line.split("\t")
        wanted = frozenset(labels.split(",")) - {"none"}
        if not wanted <= set(ASKS):
            raise ValueError(f"unknown reading in {line!r}")
        rows.append(Row(labels=wanted, source=source, sentence=sentence, batch=batch))
    return rows


def load_phrases(path: Path = PHRASES) -> list[Row]:
    """The lint phrase corpus, labelled for silence, address and scope only (its ``answered``
    label is a description's hint, not a reading). Its two parts are two sources: sentences written
    for the first reader, and sentences from Microsoft's Copilot Studio samples."""
    rows = []
    source = "lint-phrase-corpus"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# Real sentences"):
            source = "public:microsoft/vscode-copilotstudio (lint corpus)"
        if not line.strip() or line.startswith("#"):
            continue
        labels, sentence = line.split("\t", 1)
        known = frozenset({"silence", "address", "scope"})
        rows.append(
            Row(
                labels=frozenset(labels.split(",")) & known,
                source=source,
                sentence=sentence,
                batch="lint",
                known=known,
            )
        )
    return rows


def load_generated() -> list[Row]:
    """The sentences of the SDK's own generated instructions and descriptions (every mode),
    labelled for silence only, with the frames' reading (which ``tests/lint/test_generated.py``
    checks). They teach the model that describing who owns the conversation is no silence; they
    are always fitted on and never scored."""
    agents = tuple(
        AgentView(name=f"{mode}_agent", kind="child", mode=mode, description="Answers PTO.")
        for mode in ("silent", "direct", "conversational")
    )
    texts = [render_top_level_instruction(ParentView(name="helpdesk", subagents=agents))]
    texts += [render_subagent_instructions(a) for a in agents]
    texts += [render_subagent_description(a) for a in agents]
    rows, seen = [], set()
    for text in texts:
        for original, sentence in sentences(text):
            if original in seen:
                continue
            seen.add(original)
            silence = "silence" in _rule_asks(original, sentence)
            rows.append(
                Row(
                    labels=frozenset({"silence"} if silence else ()),
                    source="generated",
                    sentence=original,
                    batch="generated",
                    known=frozenset({"silence"}),
                )
            )
    return rows


def load_all(folder: Path = CORPUS) -> list[Row]:
    """Every batch of the instruction corpus but the held-out one, the lint phrase corpus and the
    generated text: what the model is fitted and cross-validated on."""
    batches = sorted(p.stem[7:] for p in folder.glob("corpus-*.tsv"))
    text = [r for b in batches if b != HELD_OUT for r in load(b, folder)]
    return text + load_phrases() + load_generated()


def source_folds(rows: Sequence[Row], k: int = FOLDS) -> list[int]:
    """A fold per row: sources, largest first, each go to the fold with fewest rows so far. The
    generated text is fold -1: fitted on in every fold, never scored."""
    sizes = Counter(r.source for r in rows if r.batch != "generated")
    load_ = [0] * k
    fold_of: dict[str, int] = {}
    for source, size in sorted(sizes.items(), key=lambda item: (-item[1], item[0])):
        fold = min(range(k), key=lambda f: (load_[f], f))
        fold_of[source] = fold
        load_[fold] += size
    return [fold_of.get(r.source, -1) for r in rows]


def fit_logistic(
    z: NDArray[np.float64],
    gram: NDArray[np.float64],
    y: NDArray[np.float64],
    *,
    l2: float,
    steps: int = 30,
) -> NDArray[np.float64]:
    """Binary logistic regression by Newton's method with an L2 penalty. ``z`` is the design
    matrix and ``gram`` its ``z @ z.T``: each step is solved in the row space (Woodbury: rows x rows
    instead of features x features, as rows are fewer than features)."""
    n = z.shape[0]
    beta = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(z @ beta, -30, 30)))
        grad = z.T @ (p - y) + l2 * beta
        root = np.sqrt(p * (1 - p))
        inner = np.linalg.solve(
            l2 * np.eye(n) + root[:, None] * gram * root[None, :], root * (z @ grad)
        )
        step = (grad - z.T @ (root * inner)) / l2
        beta -= step
        if np.abs(step).max() < 1e-5:
            break
    return beta


def fit(rows: Sequence[Row], features: Sequence[frozenset[str]], *, l2: float = L2) -> ReaderModel:
    """One logistic regression per reading the model decides (:data:`LEARNED`), over the features
    seen in ``MIN_COUNT`` rows or more."""
    counts = Counter(f for fs in features for f in fs)
    vocabulary = sorted(f for f, c in counts.items() if c >= MIN_COUNT)
    index = {f: i for i, f in enumerate(vocabulary)}
    x = np.zeros((len(rows), len(vocabulary)))
    for i, fs in enumerate(features):
        for f in fs:
            if f in index:
                x[i, index[f]] = 1.0
    # The bias is a column of _BIAS_SCALE, so that its share of the penalty is negligible.
    z = np.hstack([x, np.full((len(rows), 1), _BIAS_SCALE)])
    gram = z @ z.T
    biases: dict[str, float] = {}
    weights: dict[str, dict[str, float]] = {}
    for ask in LEARNED:
        chosen = np.array([i for i, r in enumerate(rows) if ask in r.known])
        y = np.array([1.0 if ask in rows[i].labels else 0.0 for i in chosen])
        beta = fit_logistic(z[chosen], gram[np.ix_(chosen, chosen)], y, l2=l2)
        biases[ask] = float(beta[-1] * _BIAS_SCALE)
        weights[ask] = {
            f: round(float(w), 5)
            for f, w in zip(vocabulary, beta[:-1], strict=True)
            if abs(w) >= PRUNE
        }
    return ReaderModel(biases=biases, weights=weights)


def reading(sentence: str, model: ReaderModel) -> frozenset[str]:
    """What the reader reads in ``sentence`` (all its sentences together) with ``model``: the
    frames' reading, and where they read nothing, what ``model`` is confident of."""
    out: set[str] = set()
    for original, normalised in sentences(sentence):
        asks = _rule_asks(original, normalised)
        if not asks:
            learned = model.confident(sentence_features_of(original))
            asks = frozenset(a for a in LEARNED if a in learned)
        out |= asks
    return frozenset(out)


def rule_reading(sentence: str) -> frozenset[str]:
    """What the rule frames alone read in ``sentence`` (all its sentences together)."""
    return frozenset().union(*(_rule_asks(o, s) for o, s in sentences(sentence)))


@dataclass(frozen=True)
class Scores:
    """Per-reading accuracy (share of rows where the reading's presence is right)."""

    learned: dict[str, float]
    rules: dict[str, float]
    rows: int


def _accuracy(rows: Sequence[Row], predicted: Sequence[frozenset[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for ask in ASKS:
        pairs = [(r, p) for r, p in zip(rows, predicted, strict=True) if ask in r.known]
        if pairs:
            out[ask] = sum((ask in r.labels) == (ask in p) for r, p in pairs) / len(pairs)
    return out


def cross_validate(
    rows: Sequence[Row], *, k: int = FOLDS, l2: float = L2
) -> tuple[list[frozenset[str]], list[int]]:
    """Each row's reading (the frames' and what a model fitted without its source's fold is
    confident of), and the folds."""
    features = [sentence_features_of(r.sentence) for r in rows]
    folds = source_folds(rows, k)
    predicted: list[frozenset[str]] = [frozenset()] * len(rows)
    for fold in range(k):
        train = [i for i, f in enumerate(folds) if f != fold]
        model = fit([rows[i] for i in train], [features[i] for i in train], l2=l2)
        for i, f in enumerate(folds):
            if f == fold:
                predicted[i] = reading(rows[i].sentence, model)
    return predicted, folds


def measure(rows: Sequence[Row], *, k: int = FOLDS, l2: float = L2) -> dict[str, Scores]:
    """Cross-validated per-reading accuracy on the whole corpus and on batch 4 alone."""
    predicted, _ = cross_validate(rows, k=k, l2=l2)
    rules = [rule_reading(r.sentence) for r in rows]
    out = {}
    for name, chosen in (
        ("corpus", [i for i, r in enumerate(rows) if r.batch not in ("lint", "generated")]),
        ("v2", [i for i, r in enumerate(rows) if r.batch == "v2"]),
        ("lint", [i for i, r in enumerate(rows) if r.batch == "lint"]),
    ):
        sub = [rows[i] for i in chosen]
        out[name] = Scores(
            learned=_accuracy(sub, [predicted[i] for i in chosen]),
            rules=_accuracy(sub, [rules[i] for i in chosen]),
            rows=len(sub),
        )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("measure", "fit"))
    parser.add_argument("--l2", type=float, default=L2)
    args = parser.parse_args(argv)
    rows = load_all()
    if args.command == "fit":
        model = fit(rows, [sentence_features_of(r.sentence) for r in rows], l2=args.l2)
        MODEL_PATH.parent.mkdir(exist_ok=True)
        MODEL_PATH.write_text(json.dumps(model.to_json(), sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH.relative_to(ROOT)} ({len(rows)} sentences)")
        return
    sources = len({r.source for r in rows})
    print(f"{len(rows)} sentences, {sources} sources, {FOLDS}-fold by source")
    results = measure(rows, l2=args.l2)
    model = fit(rows, [sentence_features_of(r.sentence) for r in rows], l2=args.l2)
    held = load(HELD_OUT)
    results[f"{HELD_OUT} held out"] = Scores(
        learned=_accuracy(held, [reading(r.sentence, model) for r in held]),
        rules=_accuracy(held, [rule_reading(r.sentence) for r in held]),
        rows=len(held),
    )
    for name, scores in results.items():
        print(f"{name} ({scores.rows} sentences)")
        for ask in scores.learned:
            print(f"  {ask:15} learned {scores.learned[ask]:.3f}  rules {scores.rules[ask]:.3f}")


if __name__ == "__main__":
    main()
