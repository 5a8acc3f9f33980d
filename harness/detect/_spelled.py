"""Values written another way: a restatement the claim rules do not meet.

The claim rules (:mod:`harness.detect.restate`) match claims by their facts as the fact extractor
reads them. A message that says an earlier one's values again in other forms ("thirty-five pounds"
for "£35", "half an hour" for "30 minutes": :mod:`._spelled_values`) shares none of those facts,
so the rules find no restatement and the scorer never sees the pair. :func:`spelled_restatement`
calls such a pair a restatement when most of the values of the side stating fewer stand in the
other, in whatever form: the pair then reaches the scorer, which decides, as for any other
candidate. It is asked only when the claim rules found nothing, nothing came close and no two
claims are one template filled twice (:meth:`._candidates._Memo.spelled`), so the pairs the rules
find, and their features, are what they were.
"""

from __future__ import annotations

from harness.detect._spelled_values import key_value, may_differ, stated, values_of, weight
from harness.detect.restate import ClaimMatch, Restatement
from harness.text import Analysis, Claim

__all__ = ["spelled_restatement"]

_MATCHED = 2.0
"""The weight of agreeing values a restatement needs (a value counts 1; a duration of "a" unit,
"a month", counts half: an article more often says "per" than a length)."""
_SHARE = 0.75
"""The share of the smaller side's values (by weight) the other side must state."""


def spelled_restatement(earlier: Analysis, later: Analysis, cover: float) -> Restatement | None:
    """The later message restating the earlier one's values in other forms, or None: the two
    share a content word, and of the side whose values weigh less, values of at least
    :data:`_MATCHED` and at least :data:`_SHARE` of its weight stand in the other side. The
    matched claims are those holding agreeing values; ``cover`` is the share of each message its
    matched claims must make up for the method ``semantic`` (else ``containment``)."""
    if earlier.words.isdisjoint(later.words):
        return None
    if not may_differ(earlier.text, later.text, earlier.facts, later.facts):
        return None
    # Decided on the whole messages' values (made once per message, whichever pair it is in);
    # the claims' values only say which claims match.
    e_all, l_all = values_of(earlier.text, earlier.facts), values_of(later.text, later.facts)
    if not e_all or not l_all:
        return None
    smaller, larger = (e_all, l_all) if weight(e_all) <= weight(l_all) else (l_all, e_all)
    matched = {v for v in smaller if stated(v, larger)}
    if weight(matched) < _MATCHED or weight(matched) < _SHARE * weight(smaller):
        return None
    # Some agreeing value written another way: values in one form on both sides ("3:00 pm" and
    # "3:00 pm") are the claim rules' to match, and a near miss of theirs stays one.
    alike = {key_value(k) for k in earlier.facts & later.facts}
    if all(stated(v, frozenset(x for x in alike if x is not None)) for v in matched):
        return None
    # A value of one kind on each side that the other does not state (another date, time or
    # duration): another statement, as the claim rules read differing facts.
    left = {v[0] for v in smaller - matched}
    other_left = {v[0] for v in larger if not stated(v, smaller)}
    if (left & other_left) - {"n"}:
        return None
    e_claims = [(c, values_of(c.span.text, c.facts)) for c in earlier.claims]
    l_claims = [(c, values_of(c.span.text, c.facts)) for c in later.claims]
    matches: list[ClaimMatch] = []
    e_used: set[int] = set()
    for b, b_values in l_claims:
        agreeing = {v for v in b_values if stated(v, e_all)}
        if not agreeing:
            continue
        for k, (a, a_values) in enumerate(e_claims):
            if any(stated(v, a_values) for v in agreeing):
                e_used.add(k)
                matches.append(ClaimMatch(a, b, 0.5, a.facts & b.facts))
    if not matches:
        return None
    e_cover = _share(earlier.claims, {id(earlier.claims[k]) for k in e_used})
    l_cover = _share(later.claims, {id(m.later) for m in matches})
    method = "semantic" if e_cover >= cover and l_cover >= cover else "containment"
    return Restatement(
        method=method,
        score=0.5,
        matches=tuple(matches),
        facts=frozenset().union(*(m.facts for m in matches)),
        earlier_cover=round(e_cover, 3),
        later_cover=round(l_cover, 3),
    )


def _share(claims: tuple[Claim, ...], used: set[int]) -> float:
    total = sum(c.weight for c in claims) or 1
    return min(1.0, sum(c.weight for c in claims if id(c) in used) / total)
