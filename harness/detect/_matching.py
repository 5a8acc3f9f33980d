"""A maximum bipartite matching by Kuhn's augmenting paths, shared by the answer matching
(:func:`harness.detect.answers.assignment`) and the answer units (:mod:`harness.detect._units`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["augmenting_match"]


def augmenting_match(
    rows: Iterable[int], neighbours: Callable[[int], Iterable[int]]
) -> tuple[set[int], dict[int, int]]:
    """Each row in turn, in the order given, takes a column of its own if one is free or can be
    freed by moving earlier rows along their other columns (tried in ``neighbours``' order).

    Returns the rows matched and the matching (column -> row). A row once matched stays matched,
    so the rows that go without are the later ones. Rows x edges steps.
    """
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in neighbours(i):
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    matched = {i for i in rows if augment(i, set())}
    return matched, owner
