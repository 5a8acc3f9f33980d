"""The learned pair scorer: is a candidate pair of bot messages a duplicate?

The rules of :mod:`harness.detect.restate` propose candidates (claims that share facts or
wording); this module describes each candidate with interpretable features and a logistic
regression turns them into a calibrated probability. Features:

- **facts**, split into subjects (ids, names, acronyms, e-mail addresses, URLs: what a claim is
  about) and values (amounts, numbers, times, dates, durations, status words: what it says).
  A repeat shares values about the same subject; a shared subject with other values is an update;
- **wording**: content-word overlap, the word-sequence ratio and small substitutions (the same
  template with another word: "10 events" / "10 hotels"), rare words only one side uses (drug and
  plan names), and how the rules matched (exact, near, semantic, containment, borderline);
- **dialogue acts** of both messages (:mod:`harness.detect.acts`): confirmations, offers,
  requests, closings;
- **the user in between**: an explicit re-ask whose topic is what gets repeated, the same question
  again, a choice the later message confirms, the number of user turns, and how much of the later
  message's restated part stands beside the answer to the user's last message rather than being
  it (``restated_aside``);
- **distance**: same turn or not, turns apart, same sender;
- **values the fact extractor does not read**: single capitalised names only one side states on
  both sides ("a standard Accord" / "a standard Camry"), and days named by word that differ
  ("today" / "tomorrow");
- **order-free agreement** (for rewordings across turns that keep the values): the share of the
  smaller side's content words and of its values (facts in one format, days, name words) that
  the other side states too, the values' Jaccard overlap, how far both sides' dialogue acts agree
  and whether both ask for a confirmation.

Weights ship in ``_models/pairs.json`` (fitted by ``tools/detector/fit.py``; ``docs/detector.md``
says on what data and gives the held-out figures). Inference is pure Python. With embeddings
(``harness detect --semantic``), ``_models/pairs-semantic.json`` is used instead: the same features
and the two messages' embedding cosine as the last one (:func:`with_cosine`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from harness.detect._bound import Bounds, Node, compile_bound, compile_forest, parse_tree
from harness.detect._features import (
    COSINE,
    FEATURES,
    SEMANTIC_FEATURES,
    PairContext,
    UserLike,
    message_values,
    named_items,
    pair_features,
    with_cosine,
)
from harness.detect._pair_bounds import feature_bounds, first_bounds, user_bounds
from harness.detect._wording import swapped_words

__all__ = [
    "COSINE",
    "FEATURES",
    "SEMANTIC_FEATURES",
    "Bounds",
    "PairContext",
    "PairScorer",
    "UserLike",
    "feature_bounds",
    "first_bounds",
    "message_values",
    "named_items",
    "pair_features",
    "scorer",
    "semantic_scorer",
    "swapped_words",
    "user_bounds",
    "with_cosine",
]

_MODEL = Path(__file__).resolve().parent / "_models" / "pairs.json"

_MODEL = Path(__file__).resolve().parent / "_models" / "pairs.json"
_SEMANTIC_MODEL = _MODEL.with_name("pairs-semantic.json")


_MARGIN = 1e-6
"""Log-odds below the threshold's that :meth:`PairScorer.may_reach` keeps for rounding."""


def _floats(raw: object, size: int, default: float) -> list[float]:
    if raw is None:
        return [default] * size
    if not isinstance(raw, list) or len(raw) != size:
        raise ValueError("the pair model's vectors do not match its features")
    return [float(x) for x in raw]


class PairScorer:
    """Gradient-boosted trees (or a logistic regression) over :data:`FEATURES`: the trees'
    leaves plus a linear part plus a bias are the log-odds of a duplicate."""

    def __init__(self, model: dict[str, object], source: str = "the pair model") -> None:
        names = model.get("features")
        if not isinstance(names, list) or tuple(names) not in (FEATURES, SEMANTIC_FEATURES):
            raise ValueError(f"{source} was fitted on other features; refit it")
        self.features: tuple[str, ...] = tuple(names)
        self.cosine = self.features == SEMANTIC_FEATURES
        """Whether the model reads the embedding cosine (the ``--semantic`` model)."""
        trees = model.get("trees") or []
        if not isinstance(trees, list):
            raise ValueError(f"{source}: its trees must be a list")
        n = len(self.features)
        try:
            self.trees: tuple[Node, ...] = tuple(
                parse_tree(t, n, f"trees[{i}]") for i, t in enumerate(trees)
            )
        except ValueError as error:
            raise ValueError(f"{source}: {error}") from None
        self.mean = _floats(model.get("mean"), n, 0.0)
        self.scale = _floats(model.get("scale"), n, 1.0)
        self.coef = _floats(model.get("coef"), n, 0.0)
        self.bias = float(str(model.get("bias", 0.0)))
        self.threshold = float(str(model.get("threshold", 0.5)))
        self._forest = compile_forest(self.trees)
        self._bounds: dict[int, tuple[Bounds, Callable[[Sequence[float]], float]]] = {}
        """Compiled bounds by the identity of their widening (held, so the id stays its own)."""
        odds = (
            math.log(self.threshold / (1 - self.threshold)) if 0.0 < self.threshold < 1.0 else None
        )
        self._odds = odds if odds is not None and -30.0 < odds < 30.0 else None
        """The threshold's log-odds; None when :meth:`may_reach` cannot bound (:meth:`probability`
        clips the log-odds at ±30)."""
        self._linear = tuple(i for i, c in enumerate(self.coef) if c)

    @classmethod
    def load(cls, path: Path = _MODEL) -> PairScorer:
        return cls(json.loads(path.read_text(encoding="utf-8")), str(path))

    def probability(self, features: Sequence[float]) -> float:
        """The calibrated probability that the pair is a duplicate."""
        total = self.bias
        for x, m, s, c in zip(features, self.mean, self.scale, self.coef, strict=True):
            if c:
                total += c * (x - m) / s
        if self.trees:
            total += self._forest(features)
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, total))))

    def may_reach(self, features: Sequence[float], widened: Bounds) -> bool:
        """Whether some features within ``widened`` of ``features`` (see :data:`Bounds`) might
        reach the threshold: False only when none can. An upper bound of the log-odds, summed in
        the same order as :meth:`probability` (rounding is monotone, so it is never below the
        log-odds of any features within the bounds), is compared with the threshold's log-odds
        less a margin far above rounding error. The bound is compiled once per ``widened``."""
        odds = self._odds
        if odds is None:
            return True
        caps = dict(widened) if self._linear else {}
        total = self.bias
        for i in self._linear:
            x, m, s, c = features[i], self.mean[i], self.scale[i], self.coef[i]
            cap = caps.get(i)
            if cap is None:
                total += c * (x - m) / s
            elif cap == -math.inf:
                return True  # a linear term of a free feature has no bound
            else:
                total += max(c * (x - m) / s, c * (cap - m) / s)
        if self.trees:
            total += self.bound(widened)(features)
        return math.isnan(total) or total >= odds - _MARGIN

    def bound(self, widened: Bounds) -> Callable[[Sequence[float]], float]:
        """The forest's upper bound over features within ``widened`` (:func:`compile_bound`),
        compiled on first use and kept (by identity: the bounds in use are module constants)."""
        known = self._bounds.get(id(widened))
        if known is None or known[0] is not widened:
            known = self._bounds[id(widened)] = (widened, compile_bound(self.trees, widened))
        return known[1]

    def duplicate(self, features: Sequence[float]) -> bool:
        """Whether the probability reaches the model's threshold."""
        return self.probability(features) >= self.threshold


@lru_cache(maxsize=1)
def scorer() -> PairScorer:
    """The shipped scorer (loaded once)."""
    return PairScorer.load()


@lru_cache(maxsize=1)
def semantic_scorer() -> PairScorer:
    """The shipped ``--semantic`` scorer: :data:`SEMANTIC_FEATURES`, fitted with the embeddings
    of :class:`harness.detect.embeddings.LocalEmbedder` (loaded once)."""
    return PairScorer.load(_SEMANTIC_MODEL)
