"""The semantic confidence's fit (``tools.detector.fit_answers --semantic``): its folds keep each
request in one fold."""

from __future__ import annotations

import itertools

import numpy as np

from tools.detector.fit_answers import FOLDS, request_folds

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
