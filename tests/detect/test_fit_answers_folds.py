"""The semantic confidence's fit (``tools.detector.fit_answers --semantic``): its folds keep each
request in one fold, and its trees are written the same from one run to the next."""

from __future__ import annotations

import itertools
import math

import numpy as np

from tools.detector.fit_answers import FOLDS, request_folds, short_thresholds

MESSAGES = [
    ("Book a table for two", "What is the cost?"),
    ("what is the  COST?", "Play some jazz"),  # the first one's request, in other case / spaces
    ("Play some jazz", "Call mom"),  # joined to the first through the second
    ("Call a cab", "Set an alarm for six"),
    ("Turn off the lights", "Is it raining"),
    ("Is it raining", "Order more paper"),
    ("Renew my library book", "When is it due"),
]


def _requests_in_folds(folds: dict[tuple[str, ...], int]) -> dict[str, set[int]]:
    where: dict[str, set[int]] = {}
    for message, fold in folds.items():
        for request in message:
            where.setdefault(" ".join(request.lower().split()), set()).add(fold)
    return where


def test_messages_sharing_a_request_fall_in_one_fold_and_no_request_in_two() -> None:
    folds = request_folds(MESSAGES)
    assert set(folds) == set(MESSAGES)
    assert folds[MESSAGES[0]] == folds[MESSAGES[1]] == folds[MESSAGES[2]]
    assert folds[MESSAGES[4]] == folds[MESSAGES[5]]
    assert all(len(f) == 1 for f in _requests_in_folds(folds).values())
    # The largest group first, each to the emptiest fold: the four groups in four folds.
    assert len({folds[MESSAGES[k]] for k in (0, 3, 4, 6)}) == 4
    assert set(folds.values()) <= set(range(FOLDS))


def test_the_folds_do_not_depend_on_the_order_of_the_messages() -> None:
    folds = request_folds(MESSAGES)
    for order in itertools.islice(itertools.permutations(MESSAGES), 0, 5040, 97):
        assert request_folds(order) == folds
    assert request_folds(MESSAGES + MESSAGES[:2]) == folds  # a message seen twice is one


def test_many_unrelated_messages_fill_the_folds_evenly() -> None:
    messages = [(f"request {k}", f"other {k}") for k in range(23)]
    sizes = np.bincount(list(request_folds(messages).values()), minlength=FOLDS)
    assert sizes.max() - sizes.min() <= 1


def test_written_thresholds_are_short_and_part_the_fitted_values_as_before() -> None:
    x = np.array([[0.0020633811173866478, 1.0], [0.0020633811173866494, 2.0], [0.5, 3.0]])
    midpoint = 0.0020633811173866486
    tree = {
        "f": 0,
        "t": midpoint,
        "l": {"v": -0.1},
        "r": {"f": 1, "t": 2.5, "l": {"v": 0.2}, "r": {"v": 0.3}},
    }
    (short,) = short_thresholds([tree], x)
    # The two values are 2 ulp apart: as many digits as part them are kept.
    assert x[0, 0] < short["t"] < x[1, 0]
    x[1, 0] = 0.003
    (short,) = short_thresholds([tree], x)
    assert short["t"] == 0.00206338112  # the fewest digits that stay above 0.00206338111738
    # One ulp up or down in the fitted threshold writes the same bytes.
    for t in (math.nextafter(midpoint, 0), math.nextafter(midpoint, 1)):
        assert short_thresholds([{**tree, "t": t}], x) == [short]
    assert short["r"] == {"f": 1, "t": 2.5, "l": {"v": 0.2}, "r": {"v": 0.3}}
    for row in x:
        assert (row[0] <= short["t"]) == (row[0] <= midpoint)
    assert short_thresholds([{"v": 0.5}], x) == [{"v": 0.5}]


def test_a_written_threshold_never_equals_a_fitted_value() -> None:
    # Six and eight digits of the midpoint give 1.0 and 1.0000001, each a fitted value; a
    # threshold equal to the upper one would send its row to the other side.
    x = np.array([[1.0], [1.0000001], [3.0]])
    midpoint = (1.0 + 1.0000001) / 2
    tree = {"f": 0, "t": midpoint, "l": {"v": -0.1}, "r": {"v": 0.1}}
    (short,) = short_thresholds([tree], x)
    assert short["t"] not in set(x[:, 0])
    for row in x:
        assert (row[0] <= short["t"]) == (row[0] <= midpoint)


def test_a_rounding_that_lands_on_the_upper_value_is_not_written() -> None:
    # Six digits of the midpoint give 0.123456, the upper fitted value itself: the row there
    # would go left (x <= t) instead of right.
    x = np.array([[0.1234551], [0.123456], [0.5]])
    midpoint = (0.1234551 + 0.123456) / 2
    tree = {"f": 0, "t": midpoint, "l": {"v": -0.1}, "r": {"v": 0.1}}
    (short,) = short_thresholds([tree], x)
    assert short["t"] not in set(x[:, 0])
    for row in x:
        assert (row[0] <= short["t"]) == (row[0] <= midpoint)


def test_a_written_threshold_keeps_half_its_room_on_each_side() -> None:
    # Nine digits give 0.340599999999999, 1 ulp above the lower value; the fitted midpoint
    # had 9 ulps on each side, and a feature recomputed an ulp or two away would cross it.
    lo, hi = 0.34059999999999896, 0.3406
    x = np.array([[lo], [hi], [0.9]])
    midpoint = 0.34059999999999946
    tree = {"f": 0, "t": midpoint, "l": {"v": -0.1}, "r": {"v": 0.1}}
    (short,) = short_thresholds([tree], x)
    assert lo < short["t"] < hi
    assert short["t"] - lo >= (midpoint - lo) / 2
    assert hi - short["t"] >= (hi - midpoint) / 2


def test_a_request_with_no_words_joins_no_messages() -> None:
    folds = request_folds([(), ("hello", ""), ("a",), ("b", "  "), ("c",), ("d",), ("e",)])
    # ("hello", "") and ("b", "  ") are named by their one real request each: seven groups
    # of one message, so the five folds hold them 2, 2, 1, 1, 1; before, ("hello", "") and
    # ("b", "  ") shared the group of the message with no request.
    assert sorted(np.bincount(list(folds.values()), minlength=FOLDS)) == [1, 1, 1, 2, 2]
    assert len({folds[()], folds[("hello", "")], folds[("b", "  ")]}) == 3
