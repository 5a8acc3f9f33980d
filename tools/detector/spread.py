"""How far the pair scorer's fit moves, and so what size of change a comparison can tell apart.

    python -m tools.detector.fit spread --sgd PATH/TO/sgd [--members N] [--null K] [--rows K]

One fitted forest moves single pairs from one fit to the next, so one cross-validation run cannot
say whether a change of the code helped. This module refits the scorer nine times: with all the
cached SGD-train rows (``tests/fixtures/detector/sgd-train-rows.npz``) and with the rows less one
eighth of their transcripts at a time. Each of the nine fits gives

- the labelled corpora's 5-fold cross-validation by transcript (found, false positives, hard
  negatives; with several corpora, each corpus's as well, ``cv <corpus>``);
- with ``--sgd``, the figures on SGD-train dialogues the scorer is never fitted on, scored by that
  fit's scorer on all the corpora's transcripts: the dialogues at position 3 mod 8 built
  into labelled transcripts (found, false positives, hard negatives), and the findings on the
  unchanged dialogues at positions 3, 5 and 6 mod 8 (false alarms).

Every figure is summed over the nine fits. ``--null K`` then does the same K more times with one
more feature column of seeded uniform noise in every row, a feature that carries nothing: how far
the sums move when a new feature is added and the scorer refitted is the size of change a real
feature must beat (``docs/journal/detector.md``, "Thirteenth session"). ``--rows K`` does the same K
more times with a seeded random share of the SGD-train rows left out (:data:`ROW_SHARE`,
``--share``), and nothing else changed: a change of the facts or the rules changes rows, not
columns, and how far the sums move when a few rows differ is the size of change such a change must
beat (``docs/journal/detector.md``, "Fifteenth session"). Every pair is scored from features
recorded once (:mod:`tools.detector.tune`), so the nine fits cost what the fitting costs. Everything
read here is development material.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

import tools.detector.fit as fit
import tools.detector.tune as tune

PARTS = 8
"""The SGD-train rows are left out one eighth of their transcripts at a time."""

UNCHANGED = (5, 6)
"""Positions mod 8 of the unchanged SGD-train dialogues read for false alarms, besides the
built slice's own (``position``, 3 by default)."""

ROW_SHARE = 0.01
"""The share of the SGD-train rows ``--rows`` leaves out at random in each of its refits."""

FIGURES = ("cv", "cv_fp", "cv_hn", "slice_found", "slice_fp", "slice_hn", "unchanged")
"""What each fit reports, in the order printed."""


@dataclass(frozen=True, slots=True)
class Material:
    """The recorded candidate pairs every fit is scored on."""

    corpus: list[tune.Recorded]
    sgd_rows: list[fit.Rows]
    built: list[tune.Recorded]
    """The built transcripts of the unfitted slice (empty without ``--sgd``)."""
    unchanged: list[tune.Recorded]
    """The unchanged dialogues of the unfitted slices (empty without ``--sgd``)."""


def record(corpus: Sequence[fit.Labelled], sgd: Path | None, *, position: int = 3) -> Material:
    """Record the labelled corpora and, with ``sgd``, the unfitted SGD-train slices."""
    sgd_rows = fit.load_rows(fit.ROWS)
    if sgd is None:
        return Material(tune.record(corpus), sgd_rows, [], [])
    train = sgd / "sgd-train.jsonl.gz"
    built = tune.record(fit.load_sgd(train, every=PARTS, offset=position))
    unchanged = [
        r
        for k in sorted({position, *UNCHANGED})
        for r in tune.record(fit.load_sgd(train, every=PARTS, offset=k, plain=True))
    ]
    return Material(tune.record(corpus), sgd_rows, built, unchanged)


def with_noise(material: Material, seed: int) -> Material:
    """``material`` with one more feature column of uniform noise (seeded) in every row."""
    rng = np.random.default_rng(seed)

    def more(x: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.hstack([x, rng.random((len(x), 1))])

    def each(items: list[tune.Recorded]) -> list[tune.Recorded]:
        return [replace(r, x=more(r.x)) for r in items]

    return Material(
        each(material.corpus),
        [(more(x), y) for x, y in material.sgd_rows],
        each(material.built),
        each(material.unchanged),
    )


def rows_left_out(total: int, share: float) -> int:
    """How many of ``total`` rows a ``share`` leaves out; ValueError unless it is above 0 and
    below 1 and leaves out at least one row and keeps at least one."""
    if not 0.0 < share < 1.0:
        raise ValueError(f"the share of rows to leave out is {share}, not above 0 and below 1")
    dropped = round(total * share)
    if not 0 < dropped < total:
        raise ValueError(f"a share of {share} leaves out {dropped} of {total} rows")
    return dropped


def with_fewer_rows(material: Material, seed: int, *, share: float = ROW_SHARE) -> Material:
    """``material`` with a random ``share`` of its SGD-train rows (candidate pairs, not
    transcripts) left out, seeded; every transcript keeps its place, so the nine fits still leave
    out the same eighths."""
    sizes = [len(y) for _, y in material.sgd_rows]
    total = sum(sizes)
    dropped = rows_left_out(total, share)
    rng = np.random.default_rng(seed)
    drop = rng.choice(total, size=dropped, replace=False)
    keep = np.ones(total, dtype=bool)
    keep[drop] = False
    rows: list[fit.Rows] = []
    start = 0
    for (x, y), size in zip(material.sgd_rows, sizes, strict=True):
        kept = keep[start : start + size]
        rows.append((x[kept], y[kept]))
        start += size
    return replace(material, sgd_rows=rows)


@dataclass(frozen=True, slots=True)
class Fit:
    """One fit's figures (:data:`FIGURES`) and the labelled pairs its cross-validation found."""

    figures: dict[str, int]
    found: set[tuple[str, frozenset[str]]]


def nine_fits(material: Material, *, members: int = fit.MEMBERS) -> list[Fit]:
    """The figures of each of the nine fits (all rows first)."""
    corpus = material.corpus
    n = len(corpus)

    def fitted(indices: Sequence[int], rows: Sequence[fit.Rows]) -> dict[str, object]:
        own = [(corpus[i].x, corpus[i].y) for i in indices]
        return fit.fit_pairs(fit._parts(rows, own), members=members)

    out = []
    for left in [None, *range(PARTS)]:
        rows = [r for i, r in enumerate(material.sgd_rows) if left is None or i % PARTS != left]
        cv = fit.Score()
        for held in fit.folds([r.item for r in corpus]):
            model = fitted([i for i in range(n) if i not in held], rows)
            items = [corpus[i] for i in held]
            tune.score(items, tune.probabilities(model, items), 0.5, cv)
        figures = {"cv": cv.tp, "cv_fp": cv.fp, "cv_hn": cv.hard_fp}
        if len(cv.parts) > 1:
            for source, part in sorted(cv.parts.items()):
                figures |= {
                    f"cv {source}": part.tp,
                    f"cv_fp {source}": part.fp,
                    f"cv_hn {source}": part.hard_fp,
                }
        if material.built:
            model = fitted(range(n), rows)
            built = tune.score(material.built, tune.probabilities(model, material.built), 0.5)
            alarms = tune.score(
                material.unchanged, tune.probabilities(model, material.unchanged), 0.5
            )
            figures |= {
                "slice_found": built.tp,
                "slice_fp": built.fp,
                "slice_hn": built.hard_fp,
                "unchanged": alarms.findings,
            }
        out.append(Fit(figures, cv.found))
    return out


def summed(fits: Sequence[Fit]) -> dict[str, int]:
    """Each figure summed over the fits, and how many labelled pairs some fits find and others
    miss (``unstable``)."""
    total = {k: sum(f.figures[k] for f in fits) for k in FIGURES if k in fits[0].figures}
    total |= {k: sum(f.figures[k] for f in fits) for k in fits[0].figures if k not in total}
    some = set().union(*(f.found for f in fits))
    every = set(fits[0].found).intersection(*(f.found for f in fits[1:]))
    total["unstable"] = len(some - every)
    return total


def spread(
    corpus: Sequence[fit.Labelled],
    sgd: Path | None = None,
    *,
    members: int = fit.MEMBERS,
    null: int = 0,
    rows: int = 0,
    share: float = ROW_SHARE,
    position: int = 3,
) -> dict[str, int]:
    """Print the nine fits' figures and their sums, then (``null``) the sums of that many fits
    with a noise feature added and (``rows``) of that many with a random ``share`` of the SGD-train
    rows left out, and how far each kind moves the sums from the first; returns the sums."""
    if rows:
        rows_left_out(1_000_000, share)  # a share out of range fails now, not after the fits
    material = record(corpus, sgd, position=position)
    if rows:
        total_rows = sum(len(y) for _, y in material.sgd_rows)
        print(
            f"each of the {rows} refits leaves out {rows_left_out(total_rows, share):,} of the "
            f"{total_rows:,} SGD-train rows ({share:.1%})",
            flush=True,
        )
    fits = nine_fits(material, members=members)
    for name, one in zip(
        ["all rows", *(f"less part {k}" for k in range(PARTS))], fits, strict=True
    ):
        print(name, json.dumps(one.figures), flush=True)
    total = summed(fits)
    print("summed over the nine fits", json.dumps(total), flush=True)
    trials = [
        (
            "with a noise feature",
            "a feature of noise",
            lambda seed: with_noise(material, seed),
            null,
        ),
        (
            f"with {share:.1%} of the SGD rows left out",
            "leaving rows out",
            lambda seed: with_fewer_rows(material, seed, share=share),
            rows,
        ),
    ]
    for label, what, changed, times in trials:
        moved: dict[str, list[int]] = {k: [] for k in total}
        for seed in range(1, times + 1):
            other = summed(nine_fits(changed(seed), members=members))
            print(f"{label} (seed {seed})", json.dumps(other), flush=True)
            for k in total:
                moved[k].append(other[k] - total[k])
        if times:
            print(
                f"{what} moved the sums by (least, most):",
                json.dumps({k: [min(v), max(v)] for k, v in moved.items()}),
                flush=True,
            )
    return total
