"""The pair scorer's trees compiled into Python, and their upper bound over feature intervals.

:class:`harness.detect.scorer.PairScorer` sums the leaves of gradient-boosted trees. Before a
candidate pair is compared, some features are not known yet; :data:`Bounds` says which, and how far
each may move. The bound of one tree is its largest leaf that features within those intervals can
reach: a split on an exact feature takes one branch, a split on a free feature both (the larger of
the two), a split on a capped feature the branches its interval reaches. The intervals' kinds are
known when the bound is compiled, so "the larger of both branches" is worked out there: two
subtrees are merged into one decision tree over the exact features whose leaves are the larger of
the two (:func:`_larger`), and the compiled bound is nested comparisons only, a path per tree,
like the forest itself. A tree whose merged form would grow too large keeps a ``max()`` in its
expression instead.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

__all__ = ["Bounds", "Node", "compile_bound", "compile_forest", "parse_tree"]

Node = float | tuple[int, float, "Node", "Node"]
"""A fitted tree: a leaf's value, or (feature, threshold, left when at most, right)."""

Bounds = tuple[tuple[int, float], ...]
"""Which features of a vector are not known exactly: (feature, cap) pairs. A cap of ``-inf``
marks a feature that may take any value; any other cap, one that may take any value from the
vector's up to the cap (``inf``: no cap). The other features are the vector's values."""

_Split = tuple[int, float, "_Bound", "_Bound", bool]
_Bound = float | _Split
"""A tree's bound as a decision tree: a number, or (feature, threshold, when at most, when above,
``above``): with ``above`` false the test is ``x[feature] <= threshold`` (the forest's own test,
for exact features), with ``above`` true it is ``x[feature] > threshold`` (for a capped feature:
only values above the threshold leave its lower branch out)."""
_Known = dict[int, tuple[float, float]]
"""What a path has established: ``low < x[feature] <= high``."""

_MAX_LEAVES = 256
"""Leaves of one tree's merged bound above which it keeps ``max()`` (a refit with deeper trees
must not make compiling explode)."""


def parse_tree(raw: object, features: int, where: str = "tree") -> Node:
    """A tree of a fitted file: ``{"v": leaf}`` or ``{"f", "t", "l", "r"}`` (``x[f] <= t`` goes
    left), checked: ``f`` an int in ``range(features)``, ``t`` and ``v`` finite numbers, ``l`` and
    ``r`` present. A bad node raises :class:`ValueError` naming its path (``where``)."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a tree node must be an object")
    if "v" in raw:
        return _finite(raw["v"], f"{where}.v")
    for key in ("f", "t", "l", "r"):
        if key not in raw:
            raise ValueError(f"{where}: a split needs {key!r}")
    feature = raw["f"]
    if isinstance(feature, bool) or not isinstance(feature, int) or not 0 <= feature < features:
        raise ValueError(f"{where}.f: {feature!r} is no feature index below {features}")
    return (
        feature,
        _finite(raw["t"], f"{where}.t"),
        parse_tree(raw["l"], features, f"{where}.l"),
        parse_tree(raw["r"], features, f"{where}.r"),
    )


def _finite(raw: object, where: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ValueError(f"{where}: {raw!r} is not a finite number")
    return float(raw)


def compile_forest(trees: Sequence[Node]) -> Callable[[Sequence[float]], float]:
    """The forest as one Python expression (the trees are numbers and comparisons only, built
    from floats and ints, so nothing else can reach the compiled code): about fifty times faster
    than walking the nodes."""
    body = " + ".join(_expression(t) for t in trees) or "0.0"
    forest: Callable[[Sequence[float]], float] = _function(body, "<pair-scorer>", {})
    return forest


def compile_bound(
    trees: Sequence[Node], widened: Bounds, *, order: Sequence[int] | None = None
) -> Callable[[Sequence[float]], float]:
    """The forest's upper bound over features within ``widened`` of ``x``, compiled like
    :func:`compile_forest`: the trees' bounds summed in the same order as the forest's leaves (so,
    rounding being monotone, never below the forest's sum for any features within the bounds).

    ``order``, when given, lists the features the compiled bound is given, in the order it reads
    them (``x[k]`` is feature ``order[k]``); every feature it leaves out must be free in
    ``widened``."""
    caps = dict(widened)
    parts: list[str] = []
    for tree in trees:
        bound = _bound(tree, caps)
        parts.append(_code(bound) if bound is not None else _repr(_bound_expression(tree, caps)))
    body = " + ".join(parts) or "0.0"
    compiled: Callable[[Sequence[float]], float] = _function(
        body, "<pair-scorer-bound>", {"max": max}, order
    )
    return compiled


_FEATURE = re.compile(r"x\[(\d+)\]")


def _function(
    body: str, name: str, names: dict[str, object], order: Sequence[int] | None = None
) -> Callable[[Sequence[float]], float]:
    """``lambda x: body`` compiled, with each feature ``x[i]`` the body reads taken into a local
    name once rather than indexed at every test (a quarter less time for the bound; the same
    operations on the same values otherwise, so the same sums). With ``order``, feature ``i`` is
    read from ``x[order.index(i)]``."""
    used = sorted({int(i) for i in _FEATURE.findall(body)})
    slot = {i: i for i in used} if order is None else {f: k for k, f in enumerate(order)}
    missing = [i for i in used if i not in slot]
    if missing:
        raise ValueError(f"the bound reads features {missing} that are not given")
    lines = [f"    x{i} = x[{slot[i]}]\n" for i in used]
    returned = _FEATURE.sub(r"x\1", body)
    source = "def f(x):\n" + "".join(lines) + f"    return {returned}\n"
    scope: dict[str, Callable[[Sequence[float]], float]] = {}
    exec(compile(source, name, "exec"), {"__builtins__": {}, **names}, scope)
    return scope["f"]


def _expression(node: Node) -> str:
    if not isinstance(node, tuple):
        return repr(node)
    feature, threshold, left, right = node
    return f"({_expression(left)} if x[{feature}] <= {threshold!r} else {_expression(right)})"


# --- the bound as one decision tree per tree ----------------------------------------------------


def _bound(node: Node, caps: dict[int, float]) -> _Bound | None:
    """A tree's bound over ``caps`` as a decision tree without ``max()``, or None when it would
    have more than :data:`_MAX_LEAVES` leaves."""
    if not isinstance(node, tuple):
        return node
    feature, threshold, left, right = node
    low, high = _bound(left, caps), _bound(right, caps)
    if low is None or high is None:
        return None
    cap = caps.get(feature)
    if cap is None:  # exact
        return _split(feature, threshold, low, high, above=False)
    if cap != -math.inf and cap <= threshold:
        return low  # every value from x's up to the cap is at most the threshold
    both = _larger(low, high, {})
    if both is None or cap == -math.inf:
        return both
    # From x's value up to the cap: above the threshold only the upper branch is reached.
    return _split(feature, threshold, both, high, above=True)


def _split(feature: int, threshold: float, low: _Bound, high: _Bound, *, above: bool) -> _Bound:
    if not isinstance(low, tuple) and not isinstance(high, tuple) and low == high:
        return low
    return (feature, threshold, low, high, above)


def _larger(a: _Bound, b: _Bound, known: _Known) -> _Bound | None:
    """One decision tree whose value is the larger of ``a``'s and ``b``'s for every ``x`` that
    meets ``known`` (tests that ``known`` decides are dropped), or None when too large."""
    a, b = _settled(a, known), _settled(b, known)
    if not isinstance(a, tuple):
        if not isinstance(b, tuple):
            return max(a, b)
        a, b = b, a
    if _leaves(a) * _leaves(b) > _MAX_LEAVES:
        return None
    feature, threshold, low, high, above = a
    lowest, highest = known.get(feature, (-math.inf, math.inf))
    # x[feature] > threshold on the upper branch of either test. On the lower branch of an
    # ``above`` test x may also be NaN (which fails every comparison), so nothing is known there.
    upper = {**known, feature: (max(lowest, threshold), highest)}
    lower = known if above else {**known, feature: (lowest, min(highest, threshold))}
    left, right = _larger(low, b, lower), _larger(high, b, upper)
    if left is None or right is None:
        return None
    return _split(feature, threshold, left, right, above=above)


def _settled(node: _Bound, known: _Known) -> _Bound:
    """``node`` with the tests that ``known`` decides replaced by the branch they take."""
    while isinstance(node, tuple):
        feature, threshold, low, high, _ = node
        interval = known.get(feature)
        if interval is None:
            return node
        lowest, highest = interval
        if highest <= threshold:
            node = low
        elif lowest >= threshold:
            node = high
        else:
            return node
    return node


def _leaves(node: _Bound) -> int:
    if not isinstance(node, tuple):
        return 1
    return _leaves(node[2]) + _leaves(node[3])


def _code(node: _Bound) -> str:
    if not isinstance(node, tuple):
        return repr(node)
    feature, threshold, low, high, above = node
    if above:
        return f"({_code(high)} if x[{feature}] > {threshold!r} else {_code(low)})"
    return f"({_code(low)} if x[{feature}] <= {threshold!r} else {_code(high)})"


# --- the fallback: the larger branch taken with max() ---------------------------------------------


def _bound_expression(node: Node, widened: dict[int, float]) -> str | float:
    """A tree's largest leaf that features within ``widened`` of ``x`` can reach, as an expression
    of ``x`` or, when it does not depend on ``x``, a number: a branch is taken when every value of
    a feature falls on its side, both (the larger leaf) when they straddle its threshold."""
    if not isinstance(node, tuple):
        return node
    feature, threshold, left, right = node
    low, high = _bound_expression(left, widened), _bound_expression(right, widened)
    cap = widened.get(feature)
    if cap is None:  # exact
        if isinstance(low, float) and isinstance(high, float) and low == high:
            return low
        return f"({_repr(low)} if x[{feature}] <= {threshold!r} else {_repr(high)})"
    if cap != -math.inf and cap <= threshold:
        return low
    if isinstance(low, float) and isinstance(high, float):
        both: str | float = max(low, high)
    else:
        both = f"max({_repr(low)}, {_repr(high)})"
    if cap == -math.inf:
        return both
    return f"({_repr(high)} if x[{feature}] > {threshold!r} else {_repr(both)})"


def _repr(part: str | float) -> str:
    return repr(part) if isinstance(part, float) else part
