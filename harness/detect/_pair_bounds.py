"""How far each of the pair scorer's features can move before the claim comparison: the bounds
:meth:`harness.detect.scorer.PairScorer.may_reach` is given, so that candidate pairs the scorer
cannot call duplicates skip the comparison (``tests/detect/test_pair_bound.py`` checks they
hold). Split from :mod:`harness.detect._features`, which computes the features themselves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from harness.detect._aside import may_stand_aside
from harness.detect._bound import Bounds
from harness.detect._features import (
    _ASIDE,
    _SAME,
    _UNSEEN,
    _USER_PAIR_FEATURES,
    FEATURES,
    PairContext,
    UserLike,
    _add_user_features,
    _own_features,
)
from harness.text import Analysis

__all__ = ["PAIR_BOUNDS", "feature_bounds", "first_bounds", "user_bounds"]

_FOUND_FEATURES = (
    "rule_near",
    "rule_semantic",
    "rule_containment",
    "rule_borderline",
    "rule_score",
    "earlier_cover",
    "later_cover",
    "restated_aside",
)
"""Features read from the rules' :class:`Restatement` alone: unknown before the comparison. A
new feature that reads the restatement or the word-sequence comparison must be listed in one of
these groups (``tests/detect/test_pair_bound.py`` fails otherwise), or the bound is wrong."""
_GROWING_FEATURES = ("topic_overlap", "reask_on_topic")
"""Features that grow with the facts the restatement shares (never below their value without
one): unknown above."""
_WORDING_FEATURES = ("sequence_ratio", "small_substitutions", "rare_words_differ")
"""Features of the word-sequence comparison: unknown before it."""
_SWAPPED_FEATURES = {"values_earlier_only": 3.0, "values_later_only": 3.0, "values_conflict": 2.0}
"""Features the swapped words of the word-sequence comparison add to, up to these caps."""


def feature_bounds(
    earlier: Analysis,
    later: Analysis,
    context: PairContext,
    users: Sequence[UserLike],
    first: UserLike | None,
) -> tuple[list[float], Bounds]:
    """The features of :func:`~harness.detect._features.pair_features` and how far each may move, over every restatement
    the rules may find and every word-sequence comparison, computed without either (both cost
    most of a pair's time): the features that do not depend on them are exact, the others free
    or capped (see :data:`Bounds`). With :meth:`PairScorer.may_reach`, pairs the scorer cannot
    call duplicates skip the comparison; ``tests/detect/test_pair_bound.py`` checks the bounds
    hold. The same as :func:`first_bounds` then :func:`user_bounds`."""
    values, widened = first_bounds(earlier, later, context, users)
    return values, user_bounds(values, widened, earlier, later, users, first)


def first_bounds(
    earlier: Analysis,
    later: Analysis,
    context: PairContext,
    users: Sequence[UserLike],
) -> tuple[list[float], Bounds]:
    """:func:`feature_bounds` with the features of :data:`_USER_PAIR_FEATURES` left free (not
    computed): a looser bound, cheaper to compute, that already rules out most candidates (the
    first stage of the pair bound; :func:`user_bounds` is the second)."""
    exact = bool(earlier.norm) and earlier.norm == later.norm
    values = _own_features(earlier, later, None, context, users, _SAME if exact else _UNSEEN)
    if may_stand_aside(later, users[-1] if users else None):
        return values, _FIRST_EXACT_WIDENED if exact else _FIRST_WIDENED
    # ``restated_aside`` is 0.0 whatever the comparison finds: known, not free.
    return values, _FIRST_EXACT_KNOWN if exact else _FIRST_KNOWN


def user_bounds(
    values: list[float],
    widened: Bounds,
    earlier: Analysis,
    later: Analysis,
    users: Sequence[UserLike],
    first: UserLike | None,
) -> Bounds:
    """The second stage of the pair bound: sets the features of :data:`_USER_PAIR_FEATURES` in
    ``values`` (from :func:`first_bounds`) and returns the bounds of :func:`feature_bounds`."""
    _add_user_features(values, earlier, later, None, users, first)
    return _SECOND[widened]


def _widening(*parts: tuple[tuple[str, float], ...]) -> Bounds:
    """Bounds from (feature name, cap) pairs; a later part's cap replaces an earlier one's."""
    caps = {FEATURES.index(name): cap for part in parts for name, cap in part}
    return tuple(sorted(caps.items()))


_EXACT_PART = (
    *((f, -math.inf) for f in _FOUND_FEATURES),
    *((f, math.inf) for f in _GROWING_FEATURES),
)
_WORDING_PART = (
    *((f, -math.inf) for f in _WORDING_FEATURES),
    *_SWAPPED_FEATURES.items(),
)
_USERS_PART = tuple((f, -math.inf) for f in _USER_PAIR_FEATURES)
_EXACT_WIDENED: Bounds = _widening(_EXACT_PART)
_WIDENED: Bounds = _widening(_EXACT_PART, _WORDING_PART)
_FIRST_EXACT_WIDENED: Bounds = _widening(_EXACT_PART, _USERS_PART)
_FIRST_WIDENED: Bounds = _widening(_EXACT_PART, _WORDING_PART, _USERS_PART)


def _known_aside(widened: Bounds) -> Bounds:
    """``widened`` with ``restated_aside`` exact (a later message that cannot stand aside)."""
    return tuple((i, cap) for i, cap in widened if i != _ASIDE)


_EXACT_KNOWN, _KNOWN = _known_aside(_EXACT_WIDENED), _known_aside(_WIDENED)
_FIRST_EXACT_KNOWN, _FIRST_KNOWN = _known_aside(_FIRST_EXACT_WIDENED), _known_aside(_FIRST_WIDENED)
_SECOND: dict[Bounds, Bounds] = {
    _FIRST_EXACT_WIDENED: _EXACT_WIDENED,
    _FIRST_WIDENED: _WIDENED,
    _FIRST_EXACT_KNOWN: _EXACT_KNOWN,
    _FIRST_KNOWN: _KNOWN,
}
"""The second stage's bounds of each first stage's, keyed by value (a copy of a first stage's
bounds, one sent to a worker process, finds its second stage too)."""
PAIR_BOUNDS: tuple[Bounds, ...] = (*_SECOND, *_SECOND.values())
"""Every bound :func:`first_bounds` and :func:`user_bounds` return (module constants: a
:class:`~harness.detect.scorer.PairScorer` compiles its bound over each once, by identity)."""
