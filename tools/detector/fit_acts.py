"""Fit the dialogue-act tagger on SGD train, per turn or per sentence, and measure it on SGD dev.

    python -m tools.detector.fit acts --sgd PATH/TO/sgd
    python -m tools.detector.fit acts-sentences --sgd PATH/TO/sgd --out FILE

SGD (Schema-Guided Dialogue, CC BY-SA 4.0) annotates each system *turn* with its acts, and each
act's slot values with character spans. The shipped tagger (``_models/acts.json``,
:func:`fit_turn_acts`) is fitted on whole turns, so it learns a turn's acts from every sentence
of it. :func:`fit_acts` fits one per sentence instead: each act is placed on the sentence(s) of
the turn (cut by :func:`harness.text.split_sentences`, the detector's own cut) that hold its slot
spans, or the text of one of its values. An act with no span and no value in the text
(``REQUEST`` a slot, ``REQ_MORE``, ``GOODBYE``, ``NOTIFY_SUCCESS``, ``OFFER_INTENT``) goes to the
sentence that a first tagger, fitted on the one-sentence turns alone (three turns in four, whose
labels need no placing), finds likeliest to hold it. A sentence left without an act (for example
"Is that correct?" after a confirmation's values) takes the turn's acts that the first tagger
gives at least even odds, or none ("Sure."). ``docs/journal/detector.md`` gives both taggers'
figures and why the detector keeps the turn tagger.

Measured on SGD dev, never used for fitting: per turn (a turn's acts are the union of its
sentences' acts, against the annotation as it is) and per sentence (against the labels placed the
same way, with the first tagger fitted on train), per act and over acts.
"""

from __future__ import annotations

import base64
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from harness.detect.acts import ActTagger, act_features
from harness.text import split_sentences
from tools.detector.linear import fit_sparse
from tools.detector.sgd import read_dialogues

__all__ = ["ACTS", "Turn", "fit_acts", "fit_turn_acts", "measure_acts", "place", "turns"]

ACTS = (
    "INFORM",
    "OFFER",
    "CONFIRM",
    "REQUEST",
    "NOTIFY_SUCCESS",
    "NOTIFY_FAILURE",
    "INFORM_COUNT",
    "OFFER_INTENT",
    "REQ_MORE",
    "GOODBYE",
)
_KNOWN = frozenset(ACTS)


@dataclass(frozen=True, slots=True)
class Turn:
    """One SGD system turn cut into sentences, with its acts placed where the data says."""

    text: str
    sentences: tuple[str, ...]
    acts: frozenset[str]
    """The turn's acts (those the tagger knows), as annotated."""
    located: tuple[frozenset[str], ...]
    """Per sentence, the acts whose slot span or value stands in it."""
    floating: frozenset[str]
    """The turn's acts found in no sentence."""


def turns(path: Path) -> Iterator[Turn]:
    """Every system turn of an ``sgd-*.jsonl.gz`` file, in file order."""
    for dialogue in read_dialogues(path):
        raw = dialogue["turns"]
        assert isinstance(raw, list)
        for turn in raw:
            if turn["speaker"] == "SYSTEM":
                yield _turn(turn)


def _turn(turn: dict[str, Any]) -> Turn:
    text: str = turn["text"]
    cut = split_sentences(text) or ()
    spans = [(s.start, s.end) for s in cut] or [(0, len(text))]
    sentences = tuple(s.text for s in cut) or (text,)
    lower = text.lower()
    located: list[set[str]] = [set() for _ in spans]
    acts: set[str] = set()
    placed: set[str] = set()
    for frame in turn["frames"]:
        by_slot: dict[str, list[int]] = {}
        for slot, start, _ in frame["spans"]:
            by_slot.setdefault(slot, []).append(start)
        for act, slot, values in frame["actions"]:
            if act not in _KNOWN:
                continue
            acts.add(act)
            starts = list(by_slot.get(slot, ()))
            if not starts:
                for value in values:
                    found = re.search(r"(?<!\w)" + re.escape(value.lower()) + r"(?!\w)", lower)
                    if value and found:
                        starts.append(found.start())
            for start in starts:
                for i, (a, b) in enumerate(spans):
                    if a <= start < b:
                        located[i].add(act)
                        placed.add(act)
    return Turn(
        text=text,
        sentences=sentences,
        acts=frozenset(acts),
        located=tuple(frozenset(s) for s in located),
        floating=frozenset(acts - placed),
    )


def place(turn: Turn, first: ActTagger) -> list[frozenset[str]]:
    """Each sentence's acts: those located in it; each floating act on the sentence ``first``
    finds likeliest; a sentence left without an act takes the turn's acts ``first`` gives at
    least even odds."""
    if len(turn.sentences) == 1:
        return [turn.acts]
    labels = [set(s) for s in turn.located]
    scores = [first.scores(s) for s in turn.sentences]
    for act in sorted(turn.floating):
        best = max(range(len(scores)), key=lambda i: scores[i][act])
        labels[best].add(act)
    for i, label in enumerate(labels):
        if not label:
            label.update(a for a in turn.acts if scores[i][a] >= 0.5)
    return [frozenset(label) for label in labels]


def _fit(examples: Sequence[tuple[str, frozenset[str]]], vocabulary: int) -> dict[str, object]:
    counts: Counter[str] = Counter()
    for text, _ in examples:
        counts.update(set(act_features(text)))
    # Ties broken by name, so the vocabulary does not depend on the order of a set.
    ranked = sorted((f for f, c in counts.items() if c >= 5), key=lambda f: (-counts[f], f))
    return _tagger_file(
        examples,
        ranked[:vocabulary],
        "Dialogue-act tagger fitted per sentence on the system turns of Schema-Guided "
        "Dialogue train (Rastogi et al. 2020, CC BY-SA 4.0) by tools/detector/fit_acts.py.",
    )


def _tagger_file(
    examples: Sequence[tuple[str, frozenset[str]]], names: list[str], about: str
) -> dict[str, object]:
    """The tagger's file: one-vs-rest weights over the feature ``names``, quantised to int8."""
    index = {f: i for i, f in enumerate(names)}
    rows = [sorted({index[f] for f in act_features(t) if f in index}) for t, _ in examples]
    labels = np.array([[a in acts for a in ACTS] for _, acts in examples], dtype=np.float64)
    weights, bias = fit_sparse(rows, labels, len(names))
    scale = float(np.abs(weights).max() / 127) or 1.0
    quantised = np.clip(np.round(weights / scale), -127, 127).astype(np.int8)
    return {
        "about": about,
        "acts": list(ACTS),
        "features": names,
        "scale": scale,
        "weights": base64.b64encode(quantised.tobytes()).decode("ascii"),
        "bias": [round(float(b), 4) for b in bias],
    }


def first_tagger(train: Sequence[Turn], *, vocabulary: int = 6000) -> ActTagger:
    """The tagger fitted on the one-sentence turns alone (it places the other turns' acts)."""
    single = [(t.sentences[0], t.acts) for t in train if len(t.sentences) == 1]
    return ActTagger(_fit(single, vocabulary))


def fit_acts(sgd: Path, *, vocabulary: int = 6000) -> tuple[dict[str, object], ActTagger]:
    """A tagger fitted per sentence on SGD train, and the first tagger that placed the acts of
    the turns of more than one sentence."""
    train = list(turns(sgd / "sgd-train.jsonl.gz"))
    first = first_tagger(train, vocabulary=vocabulary)
    examples = [
        (sentence, label)
        for turn in train
        for sentence, label in zip(turn.sentences, place(turn, first), strict=True)
    ]
    return _fit(examples, vocabulary), first


def fit_turn_acts(sgd: Path, *, vocabulary: int = 6000) -> dict[str, object]:
    """The tagger fitted on whole SGD train system turns (``_models/acts.json``: the answer
    matcher's features were fitted on its probabilities, so it stays as it was fitted)."""
    train = [(t.text, t.acts) for t in turns(sgd / "sgd-train.jsonl.gz")]
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for k, (text, _) in enumerate(train):
        found = set(act_features(text))
        counts.update(found)
        for feature in found:
            first.setdefault(feature, k)
    # Ties ranked by the turn that first holds the feature, then by name. The shipped tagger was
    # written with ``most_common``, which keeps ties in the order they were first counted: by
    # turn, and within a turn in the order of a set of strings, which follows the string hash,
    # so each run wrote the features in another order (the same features and int8 weights).
    # Ranking ties by name alone would change which features make the vocabulary's cut.
    ranked = sorted(
        (f for f, c in counts.items() if c >= 5), key=lambda f: (-counts[f], first[f], f)
    )
    return _tagger_file(
        train,
        ranked[:vocabulary],
        "Dialogue-act tagger fitted on the system turns of Schema-Guided Dialogue train "
        "(Rastogi et al. 2020, CC BY-SA 4.0) by tools/detector/fit.py.",
    )


@dataclass
class _Counts:
    tp: Counter[str]
    fp: Counter[str]
    fn: Counter[str]
    exact: int = 0
    total: int = 0

    def add(self, found: frozenset[str], truth: frozenset[str]) -> None:
        self.total += 1
        self.exact += found == truth
        self.tp.update(found & truth)
        self.fp.update(found - truth)
        self.fn.update(truth - found)

    def figures(self) -> dict[str, object]:
        tp, fp, fn = sum(self.tp.values()), sum(self.fp.values()), sum(self.fn.values())
        per_act = {}
        for act in ACTS:
            p = _ratio(self.tp[act], self.tp[act] + self.fp[act])
            r = _ratio(self.tp[act], self.tp[act] + self.fn[act])
            per_act[act] = {"P": p, "R": r, "F1": _ratio(2 * p * r, p + r)}
        return {
            "n": self.total,
            "exact": _ratio(self.exact, self.total),
            "P": _ratio(tp, tp + fp),
            "R": _ratio(tp, tp + fn),
            "per_act": per_act,
        }


def _ratio(a: float, b: float) -> float:
    return round(a / b, 4) if b else 0.0


def measure_acts(
    dev: Iterable[Turn], tagger: ActTagger, first: ActTagger
) -> dict[str, dict[str, object]]:
    """``tagger`` on SGD dev turns: per turn (the union of its sentences' acts against the
    annotation) and per sentence (against the labels placed with ``first``)."""
    turn = _Counts(Counter(), Counter(), Counter())
    sentence = _Counts(Counter(), Counter(), Counter())
    for item in dev:
        found = [tagger.tag(s) for s in item.sentences]
        turn.add(frozenset().union(*found), item.acts)
        for got, label in zip(found, place(item, first), strict=True):
            sentence.add(got, label)
    return {"turns": turn.figures(), "sentences": sentence.figures()}
