"""Fit the detector's learned parts and measure them out of sample.

    python -m tools.detector.fit acts  --sgd PATH/TO/sgd
    python -m tools.detector.fit acts-sentences --sgd PATH/TO/sgd --out FILE
    python -m tools.detector.fit pairs --sgd PATH/TO/sgd --corpus tests/fixtures/duplicates-dev
    python -m tools.detector.fit measure --sgd PATH/TO/sgd --corpus tests/fixtures/duplicates-dev
    python -m tools.detector.fit pairs --semantic --sgd PATH/TO/sgd   # the --semantic scorer
    python -m tools.detector.fit spread --sgd PATH/TO/sgd --corpus tests/fixtures/duplicates-dev
    python -m tools.detector.fit pairs --no-measure --sgd PATH/TO/sgd   # refit, read no SGD dev

``acts`` fits the shipped act tagger on whole SGD train turns and reports its accuracy on SGD
dev, per turn and per sentence; ``acts-sentences`` fits a tagger per sentence (each act on the
sentence holding its slot values) into ``--out`` and reports the same
(:mod:`tools.detector.fit_acts`; ``docs/journal/detector.md`` says why the detector does not use
it).
``pairs`` fits the pair scorer on transcripts built from SGD train plus the labelled corpora's
transcripts and writes ``harness/detect/_models/pairs.json``. The corpora are ``--corpus``
(repeatable; by default :data:`CORPORA`, the dev corpus alone, as the shipped scorer was fitted;
add ``--corpus tests/fixtures/duplicates-own`` for both). ``measure`` reports the out-of-sample
figures: 5-fold cross-validation by transcript over all the corpora (the folds drawn within each
corpus, so that every fold holds some of each; each fold's scorer fitted on SGD train and the
other folds; with several corpora, each corpus's figures as well), the built SGD-dev
transcripts, and false alarms per 1,000 bot messages on the unchanged SGD-dev dialogues. With
``--semantic`` both do the same for the ``--semantic`` scorer
(``harness/detect/_models/pairs-semantic.json``): the messages are embedded with
:class:`harness.detect.embeddings.LocalEmbedder` (the ``embeddings`` extra), the candidates are
those ``harness detect --semantic`` sees, and each pair's embedding cosine is the last feature.
``spread`` says how far the fit moves with its training rows, and so what size of change a
comparison can tell apart (:mod:`tools.detector.spread`): nine fits (all the cached SGD-train rows,
then the rows less one eighth of their transcripts at a time), each with the corpora's
cross-validation and the figures on unfitted SGD-train dialogues, summed; ``--null K`` refits K
more times with a feature of seeded noise added (how far a feature that carries nothing moves
the sums), ``--rows K`` K more times with a seeded 1 % (``--share``) of the SGD-train rows left
out (how far a change that alters a few rows moves them).

After fitting, ``acts``, ``acts-sentences`` and ``pairs`` measure the fit, on SGD dev among
others, which is a held-out set. ``--no-measure`` fits and writes the model and stops there: a
refit (after a change to the features, say) then reads no held-out material; whoever may look at
SGD dev measures the new model later with ``measure``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from harness.detect.acts import ActTagger
from harness.detect.duplicates import Pair, conversation_pairs, embed_messages, find_duplicates
from harness.detect.embeddings import Embedder
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.scorer import (
    FEATURES,
    SEMANTIC_FEATURES,
    PairScorer,
    scorer,
    semantic_scorer,
)
from harness.detect.transcript import Transcript
from tools.detector.fit_acts import first_tagger, fit_acts, fit_turn_acts, measure_acts, turns
from tools.detector.linear import fit_averaged_trees, fit_dense
from tools.detector.sgd import build_all

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "harness" / "detect" / "_models"

MEMBERS = 0
"""Forests averaged before the shipped forest is fitted to their average
(:func:`tools.detector.linear.fit_averaged_trees`); 0, the default, fits one forest to the labels
(a little more accurate on the unfitted SGD-train slices, see docs/journal/detector.md)."""

COLUMNS = 0.5
"""The share of the features each tree of an averaged forest may split on."""


def _share(text: str) -> float:
    """``--share``: a share of the rows, above 0 and below 1."""
    share = float(text)
    if not 0.0 < share < 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not above 0 and below 1")
    return share


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["acts", "acts-sentences", "pairs", "measure", "spread"])
    parser.add_argument(
        "--sgd",
        type=Path,
        required=True,
        help="folder with sgd-train.jsonl.gz and sgd-dev.jsonl.gz",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        help=(
            "a labelled corpus folder (repeat for several; default: the dev corpus alone, "
            "the shipped fit's)"
        ),
    )
    parser.add_argument(
        "--every",
        type=int,
        default=EVERY,
        help="use every n-th SGD train dialogue",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("acts-sentences.json"),
        help="where acts-sentences writes the tagger fitted per sentence",
    )
    parser.add_argument(
        "--members",
        type=int,
        default=MEMBERS,
        help="forests averaged before the shipped one is fitted to them (0: one forest alone)",
    )
    parser.add_argument(
        "--null",
        type=int,
        default=0,
        help="spread: refit this many more times with a feature of seeded noise added",
    )
    parser.add_argument(
        "--rows",
        type=int,
        default=0,
        help="spread: refit this many more times with a seeded share of the SGD-train rows left out",
    )
    parser.add_argument(
        "--share",
        type=_share,
        default=None,
        help="spread, with --rows: the share of the SGD-train rows each refit leaves out, "
        "above 0 and below 1 (default 0.01)",
    )
    parser.add_argument(
        "--semantic",
        action="store_true",
        help="the --semantic scorer (embedding cosine as a feature; needs the embeddings extra)",
    )
    parser.add_argument(
        "--no-measure",
        action="store_true",
        help="acts, acts-sentences, pairs: fit and write the model only; measure nothing "
        "afterwards (no cross-validation, and SGD dev, a held-out set, is not read)",
    )
    args = parser.parse_args()
    if args.share is not None and not args.rows:
        parser.error("--share needs --rows (the refits that leave rows out)")
    if args.no_measure and args.what in ("measure", "spread"):
        parser.error(f"--no-measure applies to acts, acts-sentences and pairs, not {args.what}")
    measure = not args.no_measure
    corpora: list[Path] = args.corpus or list(CORPORA)
    if args.what == "acts":
        (MODELS / "acts.json").write_text(
            json.dumps(fit_turn_acts(args.sgd)) + "\n", encoding="utf-8"
        )
        from harness.detect.acts import tagger

        tagger.cache_clear()
        if measure:
            first = first_tagger(list(turns(args.sgd / "sgd-train.jsonl.gz")))
            dev = turns(args.sgd / "sgd-dev.jsonl.gz")
            print(json.dumps(measure_acts(dev, tagger(), first)))
        return
    if args.what == "acts-sentences":
        model, first = fit_acts(args.sgd)
        args.out.write_text(json.dumps(model) + "\n", encoding="utf-8")
        if measure:
            dev = turns(args.sgd / "sgd-dev.jsonl.gz")
            print(json.dumps(measure_acts(dev, ActTagger(model), first)))
        return
    if args.what == "spread":
        from tools.detector.spread import ROW_SHARE, spread

        spread(
            load_corpora(corpora),
            args.sgd,
            members=args.members,
            null=args.null,
            rows=args.rows,
            share=ROW_SHARE if args.share is None else args.share,
        )
        return
    if args.semantic:
        pairs_semantic(
            args.what, args.sgd, corpora, args.every, members=args.members, measure=measure
        )
        return
    corpus = load_corpora(corpora)
    corpus_rows = collect(corpus)
    built = collect(load_sgd(args.sgd / "sgd-train.jsonl.gz", every=args.every))
    sgd_rows = train_rows(built, ROWS, store=args.what == "pairs")
    if args.what == "pairs":
        model = fit_pairs(_parts(sgd_rows, corpus_rows), members=args.members)
        model["about"] = (
            "Pair scorer fitted by tools/detector/fit.py on transcripts built from Schema-Guided "
            f"Dialogue train (every {_nth(args.every)} dialogue; Rastogi et al. 2020, CC BY-SA 4.0) "
            f"and the labelled corpora {_named(corpora)}."
        )
        (MODELS / "pairs.json").write_text(json.dumps(model) + "\n", encoding="utf-8")
        scorer.cache_clear()
        if not measure:
            return
    cv = cross_validate(corpus, corpus_rows, sgd_rows, members=args.members)
    print("cv", json.dumps(cv.figures()))
    _print_corpora("cv", cv)
    shipped = PairScorer.load()
    dev = load_sgd(args.sgd / "sgd-dev.jsonl.gz")
    print("sgd-dev built", json.dumps(detect_all(dev, shipped).figures()))
    plain = load_sgd(args.sgd / "sgd-dev.jsonl.gz", plain=True)
    print("sgd-dev unchanged", json.dumps(detect_all(plain, shipped).figures()))


def pairs_semantic(
    what: str,
    sgd: Path,
    corpora: Sequence[Path],
    every: int,
    *,
    members: int = MEMBERS,
    measure: bool = True,
) -> None:
    """``pairs`` / ``measure`` for the ``--semantic`` scorer: the same material and folds as the
    default scorer's, every transcript embedded first, the cosine the last feature (``pairs``
    with ``measure`` False: the fit alone)."""
    corpus = load_corpora(corpora)
    train = load_sgd(sgd / "sgd-train.jsonl.gz", every=every)
    corpus_vectors = embed_all(corpus)
    corpus_rows = collect(corpus, corpus_vectors)
    sgd_rows = train_rows(collect(train, embed_all(train)), ROWS_SEMANTIC, store=what == "pairs")
    if what == "pairs":
        model = fit_pairs(
            _parts(sgd_rows, corpus_rows), features=SEMANTIC_FEATURES, members=members
        )
        model["about"] = (
            "The --semantic pair scorer fitted by tools/detector/fit.py --semantic on transcripts "
            f"built from Schema-Guided Dialogue train (every {_nth(every)} dialogue; Rastogi et al. "
            f"2020, CC BY-SA 4.0) and the labelled corpora {_named(corpora)}; the last "
            "feature is the WordLlama embedding cosine (harness.detect.embeddings.LocalEmbedder)."
        )
        (MODELS / "pairs-semantic.json").write_text(json.dumps(model) + "\n", encoding="utf-8")
        semantic_scorer.cache_clear()
        if not measure:
            return
    cv = cross_validate(
        corpus,
        corpus_rows,
        sgd_rows,
        vectors=corpus_vectors,
        features=SEMANTIC_FEATURES,
        members=members,
    )
    print("semantic cv", json.dumps(cv.figures()))
    _print_corpora("semantic cv", cv)
    shipped = PairScorer.load(MODELS / "pairs-semantic.json")
    dev = load_sgd(sgd / "sgd-dev.jsonl.gz")
    print("semantic sgd-dev built", json.dumps(detect_all(dev, shipped, embed_all(dev)).figures()))
    plain = load_sgd(sgd / "sgd-dev.jsonl.gz", plain=True)
    print(
        "semantic sgd-dev unchanged",
        json.dumps(detect_all(plain, shipped, embed_all(plain)).figures()),
    )


class _Known(Embedder):
    """Vectors looked up from texts embedded beforehand (one model run for a whole data set)."""

    def __init__(self, vectors: Mapping[str, list[float]]) -> None:
        self.vectors = vectors

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.vectors[t] for t in texts]


Vectors = dict[int, list[float]]


def embed_all(items: Sequence[Labelled]) -> list[Vectors]:
    """Each transcript's message vectors as ``harness detect --semantic`` computes them
    (:func:`harness.detect.duplicates.embed_messages` over the ``embeddings`` extra's model), the
    texts of all transcripts embedded in one run."""
    from harness.detect.embeddings import LocalEmbedder

    texts = sorted(
        {m.text for item in items for m in item.transcript.messages if m.role == "bot" and m.text}
    )
    found = asyncio.run(LocalEmbedder().embed(texts))
    known = _Known(dict(zip(texts, found, strict=True)))
    config = DetectorConfig()
    return [asyncio.run(embed_messages(item.transcript, known, config)) for item in items]


# --- the pair scorer --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Labelled:
    """One transcript with its labelled pairs (unordered pairs of message ids)."""

    name: str
    transcript: Transcript
    duplicates: frozenset[frozenset[str]]
    negatives: frozenset[frozenset[str]]
    source: str
    detail: Mapping[frozenset[str], tuple[str, str]] = field(default_factory=dict)
    """Each labelled duplicate's (method, scope) as the labels give them (empty if none)."""


Rows = tuple[NDArray[np.float64], NDArray[np.float64]]


def collect(items: Sequence[Labelled], vectors: Sequence[Vectors] | None = None) -> list[Rows]:
    """Each transcript's candidate pairs as (features, labels), in the order of ``items``; with
    ``vectors`` (one mapping per item), the ``--semantic`` candidates and features."""
    features = FEATURES if vectors is None else SEMANTIC_FEATURES
    probe = _constant_model(features)
    config = DetectorConfig()
    out: list[Rows] = []
    for i, item in enumerate(items):
        record: list[tuple[Pair, list[float]]] = []
        conversation_pairs(
            item.transcript,
            config,
            vectors=None if vectors is None else vectors[i],
            pair_model=probe,
            record=record,
        )
        x = np.array([f for _, f in record], dtype=np.float64).reshape(-1, len(features))
        y = np.array(
            [
                frozenset({p.earlier.message.id, p.later.message.id}) in item.duplicates
                for p, _ in record
            ],
            dtype=np.float64,
        )
        out.append((x, y))
    return out


def _constant_model(features: Sequence[str] = FEATURES) -> PairScorer:
    n = len(features)
    return PairScorer(
        {"features": list(features), "mean": [0] * n, "scale": [1] * n, "coef": [0] * n, "bias": 0}
    )


def fit_pairs(
    parts: Sequence[tuple[Sequence[Rows], float]],
    *,
    l2: float = 1.0,
    trees: bool = True,
    features: Sequence[str] = FEATURES,
    members: int = MEMBERS,
) -> dict[str, object]:
    """The pair scorer fitted on several sources, each with a total weight: one forest fitted to
    the average of ``members`` forests (:func:`tools.detector.linear.fit_averaged_trees`; 0: one
    forest fitted to the labels, as before the eighth session)."""
    xs, ys, ws = [], [], []
    for rows, weight in parts:
        x = np.vstack([r[0] for r in rows])
        y = np.concatenate([r[1] for r in rows])
        xs.append(x)
        ys.append(y)
        ws.append(np.full(len(y), weight / max(len(y), 1)))
    # Every source at the precision the rows cache stores (float32), so a fit from fresh rows
    # and one from the cache are the same fit.
    x = np.vstack(xs).astype(np.float32).astype(np.float64)
    y, w = np.concatenate(ys), np.concatenate(ws)
    w = w * len(y) / w.sum()
    if trees:
        fitted, base = fit_averaged_trees(x, y, weights=w, members=members, columns=COLUMNS)
        return {
            "features": list(features),
            "trees": fitted,
            "bias": round(base, 6),
            "threshold": 0.5,
        }
    mean = x.mean(0)
    scale = x.std(0)
    scale[scale < 1e-9] = 1.0
    coef, bias = fit_dense((x - mean) / scale, y, l2=l2, weights=w)
    return {
        "features": list(features),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "coef": [round(float(v), 6) for v in coef],
        "bias": round(bias, 6),
        "threshold": 0.5,
    }


DEV_CORPUS = ROOT / "tests" / "fixtures" / "duplicates-dev"
"""The dev corpus (60 hand-written transcripts): the shipped scorers were fitted on it."""
OWN_CORPUS = ROOT / "tests" / "fixtures" / "duplicates-own"
"""duplicates-own (40 transcripts in 16 other domains, written blind on 2026-12-04): a development
set, not in the shipped fit (docs/journal/detector.md says why)."""
CORPORA = (DEV_CORPUS,)
"""The labelled corpora used when no ``--corpus`` is given: the shipped fit's, so a bare
``fit pairs`` reproduces the shipped scorer."""


def load_corpus(corpus: Path) -> list[Labelled]:
    """A labelled corpus's transcripts with their labels (``source``: the folder's name)."""
    from harness.detect.readers import load_transcript

    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))["transcripts"]
    out = []
    for name in sorted(labels):
        label = labels[name]
        out.append(
            Labelled(
                name=name,
                transcript=load_transcript(corpus / name)[0],
                duplicates=frozenset(frozenset(p) for p in label["duplicates"]),
                negatives=frozenset(frozenset(p) for p in label["hard_negatives"]),
                source=corpus.name,
                detail={
                    frozenset(d["pair"]): (d.get("method", ""), d.get("scope", ""))
                    for d in label.get("duplicate_detail", [])
                },
            )
        )
    return out


def load_corpora(corpora: Sequence[Path]) -> list[Labelled]:
    """The transcripts of several labelled corpora, one corpus after another (each in name
    order); ValueError if two share a folder name (a transcript is known by its corpus)."""
    names = [corpus.name for corpus in corpora]
    if len(set(names)) != len(names):
        raise ValueError(f"two corpora share a folder name: {names}")
    return [item for corpus in corpora for item in load_corpus(corpus)]


def _named(corpora: Sequence[Path]) -> str:
    return ", ".join(corpus.name for corpus in corpora)


def _print_corpora(label: str, score: Score) -> None:
    """Each corpus's own figures, when there are several."""
    if len(score.parts) > 1:
        for source, part in sorted(score.parts.items()):
            print(f"{label} {source}", json.dumps(part.figures()))


def load_sgd(
    path: Path,
    *,
    every: int = 1,
    offset: int = 0,
    limit: int | None = None,
    plain: bool = False,
    recaps: bool = True,
) -> list[Labelled]:
    """Built SGD transcripts as :class:`Labelled` (``recaps``: see
    :func:`tools.detector.sgd.build`)."""
    return [
        Labelled(
            name=b.transcript.conversation,
            transcript=b.transcript,
            duplicates=frozenset(frozenset(p) for p in b.duplicates),
            negatives=frozenset(frozenset(p) for p in b.negatives),
            source=b.kind,
        )
        for b in build_all(
            path, every=every, offset=offset, limit=limit, plain=plain, recaps=recaps
        )
    ]


def found_pairs(findings: Iterable[Finding]) -> set[frozenset[str]]:
    """The message pairs the duplicate findings hold: every two messages of one finding, as the
    corpus's ``score.py`` pairs them (:class:`Score` and ``tools.detector.misses`` both count a
    labelled duplicate as found by this)."""
    return {
        frozenset(pair)
        for finding in findings
        if finding.kind == "duplicate"
        for pair in combinations(finding.message_ids, 2)
    }


@dataclass(slots=True)
class Score:
    """Pair-level precision and recall, scored as the corpus's ``score.py`` scores findings."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    hard_fp: int = 0
    findings: int = 0
    bot_messages: int = 0
    found: set[tuple[str, frozenset[str]]] = field(default_factory=set)
    """The labelled duplicates found, by transcript name."""
    parts: dict[str, Score] = field(default_factory=dict)
    """The same figures for each source of the transcripts added (each corpus's folder name;
    for built SGD transcripts, the builder's kind)."""

    def add(self, item: Labelled, findings: Sequence[Finding], *, part: bool = True) -> None:
        if part:
            self.parts.setdefault(item.source, Score()).add(item, findings, part=False)
        predicted = found_pairs(findings)
        self.findings += sum(1 for finding in findings if finding.kind == "duplicate")
        self.found |= {(item.name, p) for p in predicted & item.duplicates}
        self.tp += len(predicted & item.duplicates)
        self.fp += len(predicted - item.duplicates)
        self.fn += len(item.duplicates - predicted)
        self.hard_fp += len(predicted & item.negatives)
        self.bot_messages += sum(m.role == "bot" for m in item.transcript.messages)

    def figures(self) -> dict[str, float]:
        return {
            "P": round(self.tp / (self.tp + self.fp), 4) if self.tp + self.fp else 1.0,
            "R": round(self.tp / (self.tp + self.fn), 4) if self.tp + self.fn else 1.0,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "hard_negative_fp": self.hard_fp,
            "findings_per_1000_bot_messages": round(
                1000 * self.findings / max(self.bot_messages, 1), 2
            ),
            "bot_messages": self.bot_messages,
        }


def detect_all(
    items: Sequence[Labelled], model: PairScorer | None, vectors: Sequence[Vectors] | None = None
) -> Score:
    score = Score()
    config = DetectorConfig()
    for i, item in enumerate(items):
        given = None if vectors is None else vectors[i]
        findings = find_duplicates(item.transcript, config, vectors=given, pair_model=model)
        score.add(item, findings)
    return score


def folds(items: Sequence[Labelled], k: int = 5) -> list[list[int]]:
    """Fold of each transcript: round robin by its position among its own source's transcripts
    (name order within each corpus), so that every fold holds some of every corpus; one corpus
    alone is folded as before (position in name order, round robin)."""
    seen: dict[str, int] = {}
    fold_of = []
    for item in items:
        position = seen.get(item.source, 0)
        seen[item.source] = position + 1
        fold_of.append(position % k)
    return [[i for i in range(len(items)) if fold_of[i] == f] for f in range(k)]


def cross_validate(
    corpus: Sequence[Labelled],
    corpus_rows: Sequence[Rows],
    sgd_rows: Sequence[Rows],
    *,
    k: int = 5,
    vectors: Sequence[Vectors] | None = None,
    features: Sequence[str] = FEATURES,
    members: int = MEMBERS,
) -> Score:
    """Each fold scored by a scorer fitted on SGD rows and the other folds' transcripts (with
    ``vectors``, one mapping per corpus transcript: the ``--semantic`` scorer); ``corpus`` may
    hold several corpora (:func:`load_corpora`): the folds are drawn within each
    (:func:`folds`), and the score's ``parts`` are each corpus's figures."""
    score = Score()
    config = DetectorConfig()
    for held in folds(corpus, k):
        rest = [corpus_rows[i] for i in range(len(corpus)) if i not in held]
        model = PairScorer(fit_pairs(_parts(sgd_rows, rest), features=features, members=members))
        for i in held:
            given = None if vectors is None else vectors[i]
            found = find_duplicates(corpus[i].transcript, config, vectors=given, pair_model=model)
            score.add(corpus[i], found)
    return score


ROWS = ROOT / "tests" / "fixtures" / "detector" / "sgd-train-rows.npz"
"""The candidate pairs of the SGD-train transcripts the scorer is fitted on (the tests fit the
cross-validation folds from it and check that the builder reproduces its start)."""


def save_rows(rows: Sequence[Rows], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        x=np.vstack([r[0] for r in rows]).astype(np.float32),
        y=np.concatenate([r[1] for r in rows]).astype(np.int8),
        sizes=np.array([len(r[1]) for r in rows], dtype=np.int32),
    )


def train_rows(built: Sequence[Rows], path: Path, *, store: bool) -> list[Rows]:
    """The SGD-train rows to fit or measure with, at the precision the cache stores (float32).

    ``pairs`` (``store``) writes them to the cache at ``path`` and fits from them as stored, so
    the tests refit exactly what is shipped. ``measure`` leaves the cache alone: it measures the
    rows the current code builds and says on stderr when they differ from the cache (then the
    shipped scorer was fitted on other rows, and ``pairs`` would change it).
    """
    if store:
        save_rows(built, path)
        return load_rows(path)
    rows = [(x.astype(np.float32).astype(np.float64), y.astype(np.float64)) for x, y in built]
    cached = load_rows(path) if path.exists() else []
    same = len(cached) == len(rows) and all(
        np.array_equal(x, cx) and np.array_equal(y, cy)
        for (x, y), (cx, cy) in zip(rows, cached, strict=True)
    )
    if not same:
        print(
            f"note: the SGD-train rows this code builds differ from {path.name} (the rows the "
            "shipped scorer was fitted on); measured with the new rows, the cache left as it is. "
            "`fit pairs` refits and stores them.",
            file=sys.stderr,
        )
    return rows


def load_rows(path: Path) -> list[Rows]:
    data = np.load(path)
    x, y, sizes = data["x"].astype(np.float64), data["y"].astype(np.float64), data["sizes"]
    out: list[Rows] = []
    start = 0
    for size in sizes:
        out.append((x[start : start + size], y[start : start + size]))
        start += int(size)
    return out


ROWS_SEMANTIC = ROWS.with_name("sgd-train-rows-semantic.npz")
"""The same for the ``--semantic`` scorer (its candidates, the cosine the last feature)."""


SGD_WEIGHT = 0.3
"""The SGD-built rows' total weight beside the dev corpus's (1.0)."""

EVERY = 8
"""The SGD-train dialogues fitted on: every 8th (positions 0, 8, 16, ...); the other positions
mod 8 stay unfitted for choosing settings (``load_sgd(..., every=8, offset=3)``)."""


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _parts(
    sgd_rows: Sequence[Rows], corpus_rows: Sequence[Rows]
) -> list[tuple[Sequence[Rows], float]]:
    return [(sgd_rows, SGD_WEIGHT), (corpus_rows, 1.0)]


if __name__ == "__main__":
    main()
