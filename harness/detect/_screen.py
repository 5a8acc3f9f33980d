"""A cheap first look at each candidate pair: the pair bound over fewer features.

Most candidate pairs of a bot message are ruled out by the pair bound
(:meth:`harness.detect.scorer.PairScorer.may_reach` over :func:`~harness.detect.scorer.first_bounds`)
before their claims are compared, and computing that bound's 37 features, then the bound over
them, was most of the comparison stage's time. The screen computes only the features that do most
of the ruling out (:data:`SCREENED`: those of one message alone, the pair's distance, what the
user said in the last few turns, and the pair's shared words, values and acts), in one function
over values made once per message, and bounds the scorer with every other feature free. Freeing
features only widens the bound (each tree's bound is its largest reachable leaf, and more
reachable leaves give a larger one; the trees are summed in the same order, and rounding is
monotone), so a pair the screen rules out is one the first stage would rule out too: the pairs
it passes go through the full bound, and the findings are the same.
``tests/detect/test_screen.py`` checks the screen's features against :func:`first_bounds`' and
its bound against the full one.

Pairs of the same normalised text (whose wording features are known exactly) are not screened.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from harness.detect._bound import compile_bound
from harness.detect._features import (
    _UNSEEN,
    FEATURES,
    PairContext,
    UserLike,
    _flag,
    _pair_features,
    _side,
    _weighted,
)
from harness.detect._pair_bounds import (
    _FIRST_WIDENED,
    _SWAPPED_FEATURES,
    _WORDING_FEATURES,
    _WORDING_PART,
    _widening,
)
from harness.detect.scorer import _MARGIN, Bounds, PairScorer

if TYPE_CHECKING:
    from harness.detect._features import _Wording
    from harness.detect._users import _User
    from harness.detect.restate import Restatement
    from harness.text import Analysis

__all__: list[str] = []

SCREENED = (
    "word_dice",
    "word_cover",
    "short",
    "length_ratio",
    "values_shared",
    "values_earlier_only",
    "values_later_only",
    "earlier_values_restated",
    "value_cover",
    "value_jaccard",
    "names_differ",
    "acts_agree",
    "both_confirm",
    "same_turn",
    "turns_apart",
    "different_requests",
    "same_request_again",
    "reask_cue",
    "user_said",
    "later_confirm",
    "later_offer",
    "later_notify",
    "later_request",
    "later_closing",
    "later_count",
    "earlier_offer",
    "earlier_request",
    "earlier_confirm",
    "earlier_asks",
    "later_says_repeat",
)
"""The features the screen computes, in the order :func:`screen_features` returns them (the
``exact`` feature, 0 for the pairs screened, is among the free ones)."""

_Sketch = tuple[
    frozenset[str],
    int,
    int,
    frozenset[str],
    float,
    frozenset[str],
    frozenset[str],
    frozenset[str],
    tuple[float, ...],
    tuple[float, ...],
    float,
    float,
]
_SKETCHES: dict[int, tuple[Analysis, _Sketch]] = {}
_SKETCHES_SIZE = 65_536


def _sketch(analysis: Analysis) -> _Sketch:
    """What the screen reads of one message, made once (cached by identity; the cache holds the
    analysis, so its id is not reused while the entry lives)."""
    known = _SKETCHES.get(id(analysis))
    if known is not None and known[0] is analysis:
        return known[1]
    side = _side(analysis)
    words = analysis.words
    sketch: _Sketch = (
        words,
        len(words),
        len(words) + len(analysis.facts),
        side.values,
        side.weight,
        side.caps,
        side.all_values,
        side.acts,
        side.as_later,
        side.as_earlier,
        _flag(side.asks),
        _flag(side.says_repeat),
    )
    if len(_SKETCHES) >= _SKETCHES_SIZE:
        _SKETCHES.clear()
    _SKETCHES[id(analysis)] = (analysis, sketch)
    return sketch


_ACTS: dict[tuple[frozenset[str], frozenset[str]], tuple[float, float]] = {}


def _acts(earlier: frozenset[str], later: frozenset[str]) -> tuple[float, float]:
    """``acts_agree`` and ``both_confirm`` of two act sets (few distinct sets: cached)."""
    known = _ACTS.get((earlier, later))
    if known is None:
        union = earlier | later
        known = _ACTS[(earlier, later)] = (
            len(earlier & later) / len(union) if union else 0.0,
            _flag("CONFIRM" in earlier and "CONFIRM" in later),
        )
    return known


def user_cues(users: Sequence[_User]) -> tuple[float, float]:
    """``reask_cue`` and ``user_said`` of the user's messages in between."""
    return (
        _flag(any(u.reask for u in users)),
        float(min(max((len(u.words) + len(u.facts) for u in users), default=0), 5)),
    )


def screen_features(
    earlier: Analysis,
    later: Analysis,
    same_turn: bool,
    turns_apart: int,
    different_requests: bool,
    same_request_again: bool,
    cues: tuple[float, float],
) -> tuple[float, ...]:
    """The features of :data:`SCREENED` of a pair whose normalised texts differ, equal to those
    :func:`~harness.detect.scorer.first_bounds` computes (``cues``: :func:`user_cues` of the
    user's messages in between)."""
    known = _SKETCHES.get(id(earlier))
    e = known[1] if known is not None and known[0] is earlier else _sketch(earlier)
    known = _SKETCHES.get(id(later))
    lt = known[1] if known is not None and known[0] is later else _sketch(later)
    new, nlw = e[1], lt[1]
    if new and nlw:
        words = len(e[0] & lt[0])
        dice = 2 * words / (new + nlw)
        cover = words / (new if new < nlw else nlw)
    else:
        dice = cover = 0.0
    ev, lv = e[3], lt[3]
    eweight = e[4]
    shared = ev & lv
    if shared:
        weight = _weighted(shared)
        kept = len(shared)
        e_only = eweight - weight if len(ev) > kept else 0
        l_only = lt[4] - weight if len(lv) > kept else 0
    else:
        weight = 0
        e_only = eweight if ev else 0
        l_only = lt[4] if lv else 0
    eall, lall = e[6], lt[6]
    if eall and lall:
        both = len(eall & lall)
        value_cover = both / min(len(eall), len(lall))
        value_jaccard = both / (len(eall) + len(lall) - both)
    else:
        value_cover = value_jaccard = 0.0
    nwe, nwl = e[2], lt[2]
    fewer = nwe if nwe < nwl else nwl
    ecaps, lcaps = e[5], lt[5]
    acts = _ACTS.get((e[7], lt[7]))
    if acts is None:
        acts = _acts(e[7], lt[7])
    return (
        dice,
        cover,
        1.0 if fewer <= 4 else 0.0,
        fewer / max(nwe, nwl, 1),
        min(weight, 4.0),
        min(e_only, 3.0),
        min(l_only, 3.0),
        weight / (eweight or 1.0),
        value_cover,
        value_jaccard,
        float(min(len(ecaps - lcaps), len(lcaps - ecaps), 3)),
        *acts,
        1.0 if same_turn else 0.0,
        math.log1p(turns_apart),
        1.0 if different_requests else 0.0,
        1.0 if same_request_again else 0.0,
        *cues,
        *lt[8],
        *e[9],
        e[10],
        lt[11],
    )


class Screen:
    """The screen's bound for one pair scorer."""

    def __init__(self, model: PairScorer) -> None:
        odds = model._odds
        self.active = odds is not None and not model._linear and bool(model.trees)
        """Whether the screen can rule pairs out (the scorer's bound needs trees, a finite
        threshold and no linear term on a free feature)."""
        self.floor = (odds if odds is not None else 0.0) - _MARGIN
        self.bias = model.bias
        order = [FEATURES.index(name) for name in SCREENED]
        caps = dict(_FIRST_WIDENED)
        kept = set(order)
        widened = tuple(
            (i, caps[i] if i in kept else -math.inf)
            for i in range(len(FEATURES))
            if i in caps or i not in kept
        )
        self._bound: Callable[[Sequence[float]], float] = compile_bound(
            model.trees, widened, order=order
        )

    def rules_out(self, features: Sequence[float]) -> bool:
        """Whether no pair with these :data:`SCREENED` features can reach the scorer's threshold
        (the comparison of :meth:`PairScorer.may_reach`, with the same bias and margin)."""
        if not self.active:
            return False
        total = self.bias
        total += self._bound(features)
        return not (math.isnan(total) or total >= self.floor)


_SCREENS: dict[int, tuple[PairScorer, Screen]] = {}


def screen(model: PairScorer) -> Screen:
    """The screen of ``model`` (made once per model)."""
    known = _SCREENS.get(id(model))
    if known is None or known[0] is not model:
        known = _SCREENS[id(model)] = (model, Screen(model))
    return known[1]


# --- after the claim comparison ------------------------------------------------------------------

WORDING_FREE: Bounds = _widening(_WORDING_PART)
"""The bounds of :func:`unworded_features`: the word-sequence comparison's features free, and
the features its swapped words add to capped."""


def unworded_features(
    earlier: Analysis,
    later: Analysis,
    found: Restatement,
    context: PairContext,
    users: Sequence[UserLike],
    first: UserLike | None,
) -> list[float]:
    """The features of :func:`~harness.detect.scorer.pair_features` of a pair whose normalised
    texts differ, but with the word-sequence comparison (``difflib``, the costliest feature once
    the claims are compared) not made: within :data:`WORDING_FREE` of the real ones."""
    return _pair_features(earlier, later, found, context, users, first, _UNSEEN)


_WORDING_SLOTS = tuple(FEATURES.index(f) for f in _WORDING_FEATURES)
_SWAPPED_SLOTS = tuple((FEATURES.index(f), cap) for f, cap in _SWAPPED_FEATURES.items())


def worded(unworded: list[float], wording: _Wording) -> list[float]:
    """:func:`unworded_features`'s ``unworded`` made the pair's real features (in place, and
    returned) with its word-sequence comparison ``wording`` (:func:`~._features._wording`), so
    that a pair the bound keeps is not featured twice: the comparison's own features set, and
    its swapped words added to the features they add to, up to their caps. Exact: each of those
    was its value without swapped words, capped, and a capped one stays at its cap."""
    ratio, small, rare, swapped = wording
    for i, x in zip(_WORDING_SLOTS, (ratio, small, rare), strict=True):
        unworded[i] = x
    if swapped:
        for i, cap in _SWAPPED_SLOTS:
            unworded[i] = min(unworded[i] + swapped, cap)
    return unworded
