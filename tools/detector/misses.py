"""Where each duplicate the labelled corpora's cross-validation misses is lost.

    python -m tools.detector.misses [--corpus tests/fixtures/duplicates-dev ...] [--sgd PATH]

``--corpus`` is repeatable (default: the dev corpus alone; several are fitted and
cross-validated together, the folds drawn within each corpus); every miss names its corpus, and
the counts by stage are printed per corpus.

Each fold's scorer is fitted as ``fit measure`` fits it: the SGD-train rows (the cached rows the
shipped scorer was fitted on; with ``--sgd``, the rows this code builds from SGD train, which is
what ``fit measure`` uses) and the other folds' transcripts. Every labelled duplicate of the held
fold that no finding holds is put at the stage of the detector that loses it:

- ``no candidate``: the comparison never met the pair with a restatement (the two messages share
  no fact or rare words, or the claim rules found nothing between them);
- ``excused: closing``: a small closing message sent again in another turn, which the comparison
  sets aside before it asks the scorer;
- ``excused: RULE``: taken (scored at or above the threshold, or a copy the detector takes
  whatever the scorer says: ``_verbatim``, ``_resent``, ``_contained``), then turned down by a
  stated rule asked after the scorer (the first that fires, in the detector's order:
  ``asked_again``, ``confirms_choice``, ``offers_another``, ``confirms_new_request``,
  ``swapped_words``, ``new_state``, ``new_stage``);
- ``scored``: scored under the threshold and no copy, so the scorer loses it whatever the stated
  rules say (a rule that fires on it as well is named in ``rule``: it would lose the pair too);
  printed with the features that pull it down most (each feature set alone to its median over
  the fold's found duplicates: how far the probability would rise);
- ``finding stage``: taken and let through by every rule, yet in no finding.

A pair is counted found as ``fit measure`` counts it (:func:`tools.detector.fit.found_pairs`).

Both corpora are development material: their texts and errors may be read. Nothing held out is
read here.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import harness.detect.duplicates as duplicates_module
from harness.detect._candidates import Entry, Pair
from harness.detect._excuses import only_closes
from harness.detect.duplicates import conversation_pairs, find_duplicates
from harness.detect.findings import DetectorConfig
from harness.detect.scorer import FEATURES, PairScorer
from tools.detector import fit

__all__ = ["Miss", "main", "misses", "stages"]

RULES = (
    "asked_again",
    "confirms_choice",
    "offers_another",
    "confirms_new_request",
    "swapped_words",
    "new_state",
    "new_stage",
)
"""The stated rules the comparison asks after the scorer, in its order (names in
:mod:`harness.detect.duplicates`)."""

PULLING = 3
"""How many of the features that pull a scored miss down most are printed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Miss:
    """One labelled duplicate no finding holds, and where it was lost."""

    transcript: str
    pair: tuple[str, str]
    """The two message ids, in order."""
    corpus: str = ""
    """The transcript's corpus (its folder's name)."""
    stage: str
    """``no candidate``, ``excused: closing``, ``excused: RULE``, ``scored`` or
    ``finding stage``."""
    probability: float | None = None
    """The scorer's probability (None: no candidate)."""
    method: str = ""
    """How the claim rules said the later message restates the earlier (the detector's method;
    "" when no candidate)."""
    scope: str = ""
    labelled: tuple[str, str] = ("", "")
    """The pair's method and scope as its labels give them."""
    rule: str = ""
    """The first stated rule that fires on the pair ("" when none), whatever the scorer says:
    for an excused miss the one that loses it; for a scored miss, one that would lose it too."""
    pulling: tuple[tuple[str, float], ...] = ()
    """For a scored miss: the features whose median among found duplicates raises the
    probability most, with the probability that would give."""


COPIES = ("_verbatim", "_resent", "_contained", "_recap")
"""The copy rules beside the scorer: a pair either finds is let through whatever the scorer
says (names in :mod:`harness.detect.duplicates`)."""


class _Always(PairScorer):
    """Calls every pair a duplicate, so that the rules after the scorer are all asked."""

    def duplicate(self, features: Sequence[float]) -> bool:
        return True


class _Never(PairScorer):
    """Calls no pair a duplicate, so that the copy rules beside the scorer are asked."""

    def duplicate(self, features: Sequence[float]) -> bool:
        return False


@contextmanager
def _watched(
    names: Sequence[str], fired: Callable[[str, tuple[object, ...]], None]
) -> Iterator[None]:
    """The comparison's functions ``names``, each calling ``fired(name, args)`` when it fires."""
    originals = {name: getattr(duplicates_module, name) for name in names}

    def watched(name: str) -> object:
        rule = originals[name]

        def call(*args: object, **kwargs: object) -> object:
            result = rule(*args, **kwargs)
            if result:
                fired(name, args)
            return result

        return call

    try:
        for name in names:
            setattr(duplicates_module, name, watched(name))
        yield
    finally:
        for name, rule in originals.items():
            setattr(duplicates_module, name, rule)


@dataclass(frozen=True, slots=True)
class _Decision:
    """What the comparison made of one candidate pair."""

    pair: Pair
    features: list[float]
    rule: str
    """The first stated rule that fires on it ("closing" or a name of :data:`RULES`; "" when
    none does): whether it loses the pair depends on the scorer (see :func:`stages`)."""
    copied: bool
    """A copy rule (:data:`COPIES`) lets it through whatever the scorer says."""


def _rules(
    item: fit.Labelled, config: DetectorConfig, spec: Mapping[str, object]
) -> dict[frozenset[str], tuple[Pair, list[float], str]]:
    """Each candidate pair (by its two ids): the pair, its features and the first stated rule
    after the scorer that fires on it ("" when none does), with a scorer that takes every pair
    (so that every rule is asked). The rules are asked only in the pair's decision, so the
    first that fires since the last pair recorded is this pair's."""
    fired: list[str] = []
    out: dict[frozenset[str], tuple[Pair, list[float], str]] = {}

    class _Noting(list[tuple[Pair, list[float]]]):
        def append(self, row: tuple[Pair, list[float]]) -> None:
            pair, features = row
            out[_key(pair.earlier, pair.later)] = (pair, features, fired[0] if fired else "")
            fired.clear()

    with _watched(RULES, lambda name, args: fired.append(name)):
        conversation_pairs(item.transcript, config, pair_model=_Always(spec), record=_Noting())
    return out


def _copied(
    item: fit.Labelled, config: DetectorConfig, spec: Mapping[str, object]
) -> set[frozenset[str]]:
    """The pairs (by their two ids) a copy rule lets through, with a scorer that takes none (so
    that the copy rules are asked) and the features recorded (so that every candidate pair is
    compared: no screen, no decision copied from an earlier message of the same text)."""
    out: set[frozenset[str]] = set()

    def fired(name: str, args: tuple[object, ...]) -> None:
        other, entry = args[0], args[1]
        assert isinstance(other, Entry) and isinstance(entry, Entry)
        out.add(_key(other, entry))

    with _watched(COPIES, fired):
        conversation_pairs(item.transcript, config, pair_model=_Never(spec), record=[])
    return out


def _key(earlier: Entry, later: Entry) -> frozenset[str]:
    return frozenset({earlier.message.id, later.message.id})


def _decisions(
    item: fit.Labelled, model: PairScorer, config: DetectorConfig
) -> dict[frozenset[str], _Decision]:
    """Each candidate pair (by its two ids), with the stated rule that turns it down and whether
    a copy rule lets it through: the comparison run twice, once with a scorer that takes every
    pair (every rule after it is asked) and once with one that takes none (the copy rules
    beside it are asked)."""
    spec = {
        "features": list(model.features),
        "mean": [0] * len(model.features),
        "scale": [1] * len(model.features),
        "coef": [0] * len(model.features),
        "bias": 0,
    }
    copied = _copied(item, config, spec)
    out: dict[frozenset[str], _Decision] = {}
    for key, (pair, features, rule) in _rules(item, config, spec).items():
        closing = pair.scope == "cross_turn" and (
            only_closes(pair.earlier) or only_closes(pair.later)
        )
        out[key] = _Decision(
            pair=pair,
            features=features,
            rule="closing" if closing else rule,
            copied=key in copied,
        )
    return out


def _found(item: fit.Labelled, model: PairScorer, config: DetectorConfig) -> set[frozenset[str]]:
    return fit.found_pairs(find_duplicates(item.transcript, config, pair_model=model))


def stages(
    items: Sequence[fit.Labelled], model: PairScorer, *, config: DetectorConfig | None = None
) -> list[Miss]:
    """The labelled duplicates of ``items`` that ``model``'s findings miss, each with the stage
    that loses it."""
    config = config or DetectorConfig()
    missed: list[tuple[fit.Labelled, frozenset[str], _Decision | None]] = []
    found_rows: list[list[float]] = []
    for item in items:
        decided = _decisions(item, model, config)
        found = _found(item, model, config)
        for pair in sorted(item.duplicates, key=sorted):
            if pair in found:
                if pair in decided:
                    found_rows.append(decided[pair].features)
                continue
            missed.append((item, pair, decided.get(pair)))
    medians = np.median(np.array(found_rows), axis=0) if found_rows else None
    out = []
    for item, pair, decision in missed:
        order = tuple(sorted(pair, key=_position(item)))
        ids = (order[0], order[1])
        labelled = item.detail.get(pair, ("", ""))
        if decision is None:
            out.append(
                Miss(
                    transcript=item.name,
                    corpus=item.source,
                    pair=ids,
                    stage="no candidate",
                    labelled=labelled,
                )
            )
            continue
        candidate, features, rule = decision.pair, decision.features, decision.rule
        probability = model.probability(features)
        taken = decision.copied or probability >= model.threshold
        pulling: tuple[tuple[str, float], ...] = ()
        if rule == "closing" or (rule and taken):
            stage = f"excused: {rule}"  # closing is asked before the scorer, the others after
        elif not taken:
            stage = "scored"
            if medians is not None:
                pulling = _pulling(model, features, medians)
        else:
            stage = "finding stage"
        out.append(
            Miss(
                transcript=item.name,
                corpus=item.source,
                pair=ids,
                stage=stage,
                probability=round(probability, 4),
                method=candidate.found.method,
                scope=candidate.scope,
                labelled=labelled,
                rule=rule,
                pulling=pulling,
            )
        )
    return out


def _position(item: fit.Labelled) -> Callable[[str], int]:
    at = {m.id: i for i, m in enumerate(item.transcript.messages)}
    return lambda message_id: at.get(message_id, -1)


def _pulling(
    model: PairScorer, features: Sequence[float], medians: np.ndarray
) -> tuple[tuple[str, float], ...]:
    rises = []
    for j, name in enumerate(model.features):
        if features[j] == medians[j]:
            continue
        moved = list(features)
        moved[j] = float(medians[j])
        rises.append((model.probability(moved), name))
    rises.sort(reverse=True)
    return tuple((name, round(p, 4)) for p, name in rises[:PULLING])


def misses(corpus: Path | Sequence[Path], *, sgd: Path | None = None, k: int = 5) -> list[Miss]:
    """The cross-validation misses of one corpus or of several fitted together (folds by
    transcript drawn within each corpus, as ``fit measure``); with ``sgd``, fitted on the
    SGD-train rows this code builds rather than the cached ones."""
    items = fit.load_corpora([corpus] if isinstance(corpus, Path) else corpus)
    corpus_rows = fit.collect(items)
    if sgd is None:
        sgd_rows = fit.load_rows(fit.ROWS)
    else:
        built = fit.collect(fit.load_sgd(sgd / "sgd-train.jsonl.gz", every=fit.EVERY))
        sgd_rows = fit.train_rows(built, fit.ROWS, store=False)
    out: list[Miss] = []
    for held in fit.folds(items, k):
        rest = [corpus_rows[i] for i in range(len(items)) if i not in held]
        model = PairScorer(fit.fit_pairs(fit._parts(sgd_rows, rest), features=FEATURES))
        out += stages([items[i] for i in held], model)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        help="a labelled corpus folder (repeat for several, fitted and cross-validated together; "
        "default: the dev corpus alone, the shipped fit's)",
    )
    parser.add_argument("--sgd", type=Path, help="the SGD data folder (SGD train only is read)")
    args = parser.parse_args()
    found = misses(args.corpus or list(fit.CORPORA), sgd=args.sgd)
    for miss in found:
        print(
            json.dumps(
                {
                    "corpus": miss.corpus,
                    "transcript": miss.transcript,
                    "pair": miss.pair,
                    "stage": miss.stage,
                    "probability": miss.probability,
                    "method": miss.method,
                    "scope": miss.scope,
                    "labelled_method": miss.labelled[0],
                    "labelled_scope": miss.labelled[1],
                    "rule": miss.rule,
                    "pulling": miss.pulling,
                }
            )
        )
    for corpus in sorted({miss.corpus for miss in found}):
        mine = [miss for miss in found if miss.corpus == corpus]
        by_stage: dict[str, int] = {}
        for miss in mine:
            by_stage[miss.stage] = by_stage.get(miss.stage, 0) + 1
        print(f"{corpus} missed:", len(mine), "by stage:", json.dumps(by_stage, sort_keys=True))


if __name__ == "__main__":
    main()
