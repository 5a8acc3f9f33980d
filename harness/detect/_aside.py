"""The ``restated_aside`` feature of the pair scorer: a claim said again beside the answer to the
user's new question, not the answer itself ("Your parcel is insured up to $500." said again above
"Collection can be booked for any weekday after 9 am." after "when can the courier collect it?").
Split from :mod:`harness.detect._features` to keep it small."""

from __future__ import annotations

from typing import Protocol

from harness.detect.restate import Restatement
from harness.text import Analysis


class _Said(Protocol):
    @property
    def words(self) -> frozenset[str]: ...
    @property
    def facts(self) -> frozenset[str]: ...


def restated_aside(later: Analysis, found: Restatement, said: frozenset[str]) -> float:
    """The share (by weight) of the later message's restated claims that share no word or fact
    with ``said`` (the user's last message), when another of its claims does; else 0.0."""
    restated = {id(m.later): m.later for m in found.matches}
    if all(
        id(c) in restated or (said.isdisjoint(c.words) and said.isdisjoint(c.facts))
        for c in later.claims
    ):
        return 0.0
    total = sum(c.weight for c in restated.values())
    unasked = sum(
        c.weight for c in restated.values() if said.isdisjoint(c.words) and said.isdisjoint(c.facts)
    )
    return unasked / total if total else 0.0


def may_stand_aside(later: Analysis, last: _Said | None) -> bool:
    """Whether :func:`restated_aside` may be above 0.0 for some restatement of ``later``: there is
    a user message in between (``last``, the last one), a claim of ``later`` shares a word or a
    fact with it (the answer) and another shares none (what may be restated aside). Known before
    the claims are compared, so the pair bound can hold the feature exact at 0.0 otherwise."""
    if last is None or len(later.claims) < 2:
        return False
    said = last.words | last.facts
    shares = [not (said.isdisjoint(c.words) and said.isdisjoint(c.facts)) for c in later.claims]
    return any(shares) and not all(shares)
