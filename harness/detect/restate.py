"""Does a later bot message restate an earlier one? Claim by claim, by facts and content words.

A message is a list of claims (sentences, list items, clauses; see :mod:`harness.text`). A later
message restates an earlier one when some of its claims say what the earlier message's claims said:
the same facts (amounts, dates, ids, times...) and none that differ, and enough of the same content
words. How much of each message the matched claims cover decides the method:

- ``exact``: the same text once normalised;
- ``near``: both messages covered, in mostly the same words;
- ``semantic``: both covered, reworded;
- ``containment``: part of one restated inside the other, among other content.

Different facts never match: a claim that states a value of some kind (a sum, a date) which the
other message does not state, facing a claim that states a different value of that kind, is a
different statement however alike the words are.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from harness.detect._spelled_values import key_value, stated, values_of
from harness.text import Analysis, Claim, Span, content_words, normalise, strip_markdown

__all__ = [
    "ClaimMatch",
    "Restatement",
    "Thresholds",
    "borderline",
    "claim_match",
    "compare",
    "restates",
]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The numbers the restatement rules compare against (``DetectorConfig`` documents each)."""

    paraphrase: float
    """Dice similarity of content words two claims sharing one specific fact must reach."""
    wording: float
    """Dice similarity two claims without shared specific facts must reach."""
    near: float
    """Jaccard similarity of two whole messages' content words for ``near`` (else ``semantic``)."""
    cover: float
    """Share of a message (by weight) its matched claims must make up to count as covered."""
    strict: float
    """Dice similarity every matched claim must reach when the two messages answer different
    requests (they may only repeat each other near-verbatim)."""


@dataclass(frozen=True, slots=True)
class ClaimMatch:
    """Two claims that say the same thing."""

    earlier: Claim
    later: Claim
    score: float
    facts: frozenset[str]
    """The facts both state."""


@dataclass(frozen=True, slots=True)
class Restatement:
    """Why a later message restates an earlier one."""

    method: str
    score: float
    matches: tuple[ClaimMatch, ...]
    facts: frozenset[str]
    """Every fact the matched claims share."""
    earlier_cover: float
    """The share of the earlier message the later one restates."""
    later_cover: float
    """The share of the later message that is restatement."""
    reason: str = ""
    """Why, in a judge's words, when an LLM judge decided it."""


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return 2 * len(a & b) / (len(a) + len(b))


def _shares(a: frozenset[str], b: frozenset[str]) -> bool:
    """``bool(_shared(a, b))``, without building the set when a fact is plainly shared."""
    return bool(a & b) or bool(_shared(a, b))


def _kind(key: str) -> str:
    """A fact's kind, for telling facts apart: numbers and ids are one family ("W-2" / "1099")."""
    kind = key.partition(":")[0]
    return "num" if kind == "id" else kind


@lru_cache(maxsize=65_536)
def _keyed(keys: frozenset[str]) -> tuple[bool, bool, bool]:
    """Whether ``keys`` hold a name, a number, an id (computed once per fact set: the same
    claims meet many others)."""
    return (
        any(k.startswith("name:") for k in keys),
        any(k.startswith("num:") for k in keys),
        any(k.startswith("id:") for k in keys),
    )


def _shared(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """Facts both sides state; an id matches a masked or shortened form of itself (``…9f2a``)."""
    shared = a & b
    if not a or not b or len(shared) == len(a) or len(shared) == len(b):
        return shared  # nothing left on one side to match a name, number or id against
    name_a, number_a, id_a = _keyed(a)
    name_b, number_b, id_b = _keyed(b)
    if not ((name_a and name_b) or (id_a and (number_b or id_b)) or (id_b and number_a)):
        return shared  # no name, id or number pairing below can apply
    names_a = [k for k in a - shared if k.startswith("name:")]
    names_b = [k for k in b - shared if k.startswith("name:")]
    for x in names_a:
        for y in names_b:
            # "Gold Card" is "the Acme Gold Card".
            wx, wy = set(x[5:].split()), set(y[5:].split())
            if wx <= wy or wy <= wx:
                shared |= {x, y}
    for side, other in ((a, b), (b, a)):
        # "B7-8" and "seats 7-8": a code whose digits are a number the other side states.
        numbers = {k[4:]: k for k in other - shared if k.startswith("num:")}
        if numbers:
            for key in side - shared:
                if key.startswith("id:"):
                    digits = "".join(ch for ch in key[3:] if ch.isdigit())
                    if digits in numbers:
                        shared |= {key, numbers[digits]}
    ids_a = [k for k in a - shared if k.startswith("id:")]
    ids_b = [k for k in b - shared if k.startswith("id:")]
    if ids_a and ids_b:
        for x in ids_a:
            for y in ids_b:
                if min(len(x), len(y)) >= 7 and (x.endswith(y[3:]) or y.endswith(x[3:])):
                    shared |= {x, y}
    return shared


_CONFLICTING = ("state:", "acronym:", "weekday:", "month:")


def _conflict(
    a: Claim, b: Claim, shared: frozenset[str], earlier: Analysis, later: Analysis
) -> bool:
    """Each claim states a fact of some kind the other message does not state at all (a
    different sum, date, id, status word or acronym)."""
    if not a.facts or not b.facts:
        return False  # the fact rule needs a fact on each side
    a_keys = a.strong | {k for k in a.facts if k.startswith(_CONFLICTING)}
    b_keys = b.strong | {k for k in b.facts if k.startswith(_CONFLICTING)}
    return _conflict_keys(a_keys, b_keys, shared, earlier, later)


def _conflict_keys(
    a_keys: frozenset[str],
    b_keys: frozenset[str],
    shared: frozenset[str],
    earlier: Analysis,
    later: Analysis,
) -> bool:
    """The fact rule: ``a_keys`` hold a kind of fact that ``later`` never states, and ``b_keys``
    a value of the same kind that ``earlier`` never states."""
    if not a_keys or not b_keys:
        return False
    only_a = {_kind(k) for k in a_keys - shared if k not in later.facts}
    if not only_a:
        return False
    only_b = {_kind(k) for k in b_keys - shared if k not in earlier.facts}
    return bool(only_a & only_b)


def _exclusive(claim: Claim, shared: frozenset[str]) -> set[str]:
    """The claim's specific facts the other does not share (a duration whose number is shared,
    "12 days" beside "12 vacation days", counts as shared)."""
    return {
        k
        for k in claim.strong - shared
        if not (k.startswith("duration:") and "num:" + k[9:].split()[0] in shared)
    }


def _same_template(a: Claim, b: Claim, earlier: Analysis, later: Analysis) -> bool:
    """Two claims worded alike that state different facts ("desk 3A ... booked until 1 pm"
    and "desk 3B ... booked until noon"): the messages are one template filled twice."""
    dice = _dice(a.words, b.words)
    if dice < 0.5:
        return False
    if a.negated != b.negated and dice >= 0.6 and a.facts == b.facts:
        return True  # "is eligible" / "is not eligible"
    if not a.facts or not b.facts:
        return False
    shared = _shared(a.facts, b.facts)
    if _conflict(a, b, shared, earlier, later):
        # Unless the differing facts are one value written another way ("30 minutes" / "half
        # an hour", "a 24-month warranty" / "two years"): then neither states another value.
        return not one_value_another_way(a, b)
    # Different names in the same wording: "the Acme Silver HMO plan" / "the Zenith HMO plan".
    names_a = [k for k in a.facts - shared if k.startswith("name:") and k not in later.facts]
    names_b = [k for k in b.facts - shared if k.startswith("name:") and k not in earlier.facts]
    # A name differs when it has a word the other message never uses ("Acme Silver HMO" and
    # "Zenith HMO"; not "Acme Silver" and "Silver").
    differ_a = [k for k in names_a if content_words(k[5:]) - later.words]
    differ_b = [k for k in names_b if content_words(k[5:]) - earlier.words]
    return bool(differ_a and differ_b)


def one_value_another_way(a: Claim, b: Claim) -> bool:
    """Whether every specific fact one claim states and the other does not is a value the other
    states in another form ("30 minutes" / "half an hour"); an id, a name or a value the other
    does not state at all ("GP-1182" / "GP-1183", "#2" / "#1") is another fact."""
    a_only, b_only = a.strong - b.strong, b.strong - a.strong
    if not a_only or not b_only:
        return False
    for only, own, other in ((a_only, a, b), (b_only, b, a)):
        lengths = {"num:" + k[9:].split()[0] for k in own.strong if k.startswith("duration:")}
        theirs = values_of(other.span.text, other.facts)
        for key in only - lengths:
            value = key_value(key)
            if value is None or not stated(value, theirs):
                return False
    return True


def claim_match(
    a: Claim, b: Claim, earlier: Analysis, later: Analysis, limits: Thresholds
) -> ClaimMatch | None:
    """Whether claim ``b`` (of ``later``) says what claim ``a`` (of ``earlier``) says."""
    if a.norm and a.norm == b.norm:
        return ClaimMatch(a, b, 1.0, a.facts)
    shared = _shared(a.facts, b.facts)
    strong = frozenset(k for k in shared if k in a.strong or k in b.strong)
    if _conflict(a, b, strong, earlier, later):
        return None
    if _conflict_keys(a.context, b.context, strong, earlier, later):
        return None  # the sentence around one claim states a different value
    dice = _dice(a.words, b.words)
    if a.negated != b.negated and (dice >= 0.5 or (dice >= 0.3 and not strong)):
        return None
    states = frozenset(k for k in shared if k.startswith("state:"))
    weak = shared - strong - states
    if weak and not strong:
        # Names alone ("Hall B", "the North Stand") say what a claim is about, not what
        # it says: the rest of the wording must agree on its own.
        named = frozenset(w for k in weak for w in content_words(k.partition(":")[2]))
        dice = _dice(a.words - named, b.words - named)
    weight = _weighted(strong | states)
    if weight >= 2.5 and not (_exclusive(a, shared) or _exclusive(b, shared)):
        ok = True  # every specific fact of each restated by the other, in other words
    elif weight >= 3:
        ok = dice >= 0.15
    elif weight >= 2:
        ok = dice >= 0.3
    elif weight >= 1:
        ok = dice >= limits.paraphrase - 0.1 * min(len(weak), 2)
    else:
        ok = dice >= limits.wording and min(len(a.words), len(b.words)) >= 3
    weight += 0.5 * len(weak)
    score = dice + 0.15 * weight
    if not ok and weight >= 1 and _weighted(strong) >= 1:
        # A short claim wholly inside a longer one with its fact ("your fee is $230").
        small, large = (a, b) if len(a.words) <= len(b.words) else (b, a)
        ok = bool(small.words) and small.words <= large.words
        score = 0.6 + 0.15 * weight
    if not ok:
        return None
    return ClaimMatch(a, b, round(min(1.0, score), 3), shared)


def _merge(claims: list[Claim], analysis: Analysis) -> Claim:
    """One claim standing for several claims of a message (a fact split over two sentences)."""
    first, last = claims[0].span, claims[-1].span
    span = Span(first.start, last.end, analysis.text[first.start : last.end])
    return Claim(
        span=span,
        norm=normalise(strip_markdown(span.text)),
        words=frozenset().union(*(c.words for c in claims)),
        facts=frozenset().union(*(c.facts for c in claims)),
        strong=frozenset().union(*(c.strong for c in claims)),
        negated=any(c.negated for c in claims),
        sentence=claims[0].sentence,
        head=claims[0].head,
    )


def _weighted(facts: frozenset[str]) -> float:
    """How specific a set of facts is: a small whole number ("2", "10") counts half."""
    return sum(
        0.5 if k.startswith("name:") or (k.startswith("num:") and len(k) <= 5) else 1.0
        for k in facts
    )


def _merged_match(
    one: Claim,
    others: tuple[Claim, ...],
    analysis: Analysis,
    earlier_side: bool,
    earlier: Analysis,
    later: Analysis,
) -> ClaimMatch | None:
    """``one`` against the claims of the other message that share its specific facts, merged."""
    sharing = [c for c in others if c.strong and _shares(one.strong, c.strong)]
    if len(sharing) == 1:
        # One claim holds the facts: take the whole sentence around it ("order: X — blue mug").
        sharing = [c for c in others if c.sentence == sharing[0].sentence]
    if len(sharing) < 2:
        return None
    merged = _merge(sharing, analysis)
    shared = _shared(one.strong, merged.strong)
    if earlier_side:
        a, b = one, merged
    else:
        a, b = merged, one
    if _conflict(a, b, shared, earlier, later):
        return None
    cover = len(one.words & merged.words) / len(one.words) if one.words else 0.0
    if a.head and b.head and a.head != b.head and b.head not in earlier.facts:
        return None
    weight = _weighted(shared)
    if not ((weight >= 2 and cover >= 0.3) or (weight >= 1 and cover >= 0.6)):
        return None
    return ClaimMatch(a, b, round(min(1.0, cover * 0.6 + 0.15 * weight), 3), shared)


def _related(a: Claim, b: Claim) -> bool:
    """Whether two claims share a content word, a fact (as :func:`_shared` reads facts) or their
    text. Claims that share none of these are never one template filled twice, never match
    (while ``Thresholds.wording`` is above 0) and are never borderline: the loops over claim
    pairs skip them, which is most pairs (``tests/detect/test_restate_prefilter.py`` checks this
    against the rules)."""
    if not a.words.isdisjoint(b.words):
        return True
    if a.facts and b.facts:
        if not a.facts.isdisjoint(b.facts):
            return True
        name_a, number_a, id_a = _keyed(a.facts)
        name_b, number_b, id_b = _keyed(b.facts)
        # Only these pairings let :func:`_shared` match facts that are not equal.
        fuzzy = (name_a and name_b) or (id_a and (number_b or id_b)) or (id_b and number_a)
        if fuzzy and _shared(a.facts, b.facts):
            return True
    return bool(a.norm) and a.norm == b.norm


def _may_restate(earlier: Analysis, later: Analysis) -> bool:
    """A cheap first test: a restatement shares a fact, or at least two content words."""
    if earlier.facts & later.facts or len(earlier.words & later.words) >= 2:
        return True
    ids = [k for k in earlier.strong if k.startswith("id:")]
    return bool(ids) and any(k.startswith("id:") for k in later.strong)


def restates(
    earlier: Analysis, later: Analysis, limits: Thresholds, *, strict: bool = False
) -> Restatement | None:
    """How ``later`` restates ``earlier``, or None when it does not.

    Args:
        earlier: the message sent first.
        later: the message checked.
        limits: the thresholds.
        strict: the two answer different requests: only near-verbatim claims count.
    """
    return compare(earlier, later, limits, strict=strict)[0]


def compare(
    earlier: Analysis, later: Analysis, limits: Thresholds, *, strict: bool = False
) -> tuple[Restatement | None, bool]:
    """:func:`restates`, and whether every pair of claims was found not to be one template
    filled twice (then :func:`borderline` need not check that again)."""
    if not earlier.claims or not later.claims:
        return None, False
    if earlier.norm != later.norm and not _may_restate(earlier, later):
        # ``duplicates._restates_nothing`` relies on this early exit (and on ``borderline``
        # making the same first test): keep them in step.
        return None, False
    if earlier.norm and earlier.norm == later.norm:
        exact = Restatement(
            method="exact",
            score=1.0,
            matches=tuple(ClaimMatch(c, c, 1.0, c.facts) for c in later.claims),
            facts=later.facts,
            earlier_cover=1.0,
            later_cover=1.0,
        )
        return exact, False
    matches: list[ClaimMatch] = []
    skip = limits.wording > 0
    for a in earlier.claims:
        best: ClaimMatch | None = None
        for b in later.claims:
            if skip and not _related(a, b):
                continue
            if _same_template(a, b, earlier, later):
                return None, False
            found = claim_match(a, b, earlier, later, limits)
            if found is not None and (best is None or found.score > best.score):
                best = found
        if best is not None and not (strict and best.score < limits.strict):
            matches.append(best)
    if not strict:
        direct_a = {id(m.earlier): len(m.facts) for m in matches}
        direct_b = {id(m.later): len(m.facts) for m in matches}
        for b in later.claims:
            if b.strong:
                found = _merged_match(b, earlier.claims, earlier, False, earlier, later)
                if found is not None and len(found.facts) > direct_b.get(id(b), 0):
                    matches.append(found)
        for a in earlier.claims:
            if a.strong:
                found = _merged_match(a, later.claims, later, True, earlier, later)
                if found is not None and len(found.facts) > direct_a.get(id(a), 0):
                    matches.append(found)
        covered = frozenset().union(*(m.facts for m in matches)) if matches else frozenset()
        profile = _fact_profile(earlier, later)
        if _weighted(frozenset().union(*(m.facts for m in profile)) - covered) >= 1:
            matches.extend(profile)  # the facts say more than the claims matched so far
    if not matches:
        return None, True
    return _decide(earlier, later, matches, limits), True


def _fact_profile(earlier: Analysis, later: Analysis) -> list[ClaimMatch]:
    """Heavy rewording that keeps the facts: most specific facts of the smaller side restated,
    none of the same kind different, and some content words shared."""
    shared = _shared(earlier.strong, later.strong) | {
        k for k in earlier.facts & later.facts if k.startswith("state:")
    }
    if _weighted(shared) < 2.5:
        return []
    smaller = min(_weighted(earlier.strong), _weighted(later.strong)) or 1.0
    if _weighted(shared) / smaller < 0.6 or _dice(earlier.words, later.words) < 0.15:
        return []
    only_a = {_kind(k) for k in earlier.strong - shared}
    only_b = {_kind(k) for k in later.strong - shared}
    if only_a & only_b - {"num", "id"}:
        return []  # a different date, time or duration: a different statement
    out = []
    for b in later.claims:
        here = _shared(b.strong, shared)
        if not here:
            continue
        sources = [a for a in earlier.claims if a.strong and _shares(a.strong, here)]
        if not sources:
            continue
        merged = _merge(sources, earlier)
        if b.head and merged.head and b.head != merged.head and b.head not in earlier.facts:
            continue  # "3 seats are free now" is not "5 seats are free"
        out.append(ClaimMatch(merged, b, 0.5, here))
    return out


def _decide(
    earlier: Analysis, later: Analysis, matches: list[ClaimMatch], limits: Thresholds
) -> Restatement | None:
    matched_earlier = {(m.earlier.span.start, m.earlier.span.end) for m in matches}
    matched_later = {(m.later.span.start, m.later.span.end) for m in matches}
    earlier_weight = sum(c.weight for c in earlier.claims) or 1
    later_weight = sum(c.weight for c in later.claims) or 1
    earlier_cover = _covered(earlier, matched_earlier) / earlier_weight
    later_cover = _covered(later, matched_later) / later_weight
    facts = frozenset().union(*(m.facts for m in matches))
    strong = facts & (earlier.strong | later.strong)
    informative = _weighted(strong) >= 2 or any(
        (m.score >= 0.75 and m.earlier.weight >= 6)
        or (m.score >= 0.6 and _weighted(m.facts & strong) >= 1)
        for m in matches
    )
    score = round(sum(m.score for m in matches) / len(matches), 3)
    unmatched_facts = any(
        c.facts and not any(a <= c.span.start and c.span.end <= b for a, b in matched_later)
        for c in later.claims
    )
    if earlier_cover >= limits.cover and later_cover >= limits.cover and not unmatched_facts:
        union = earlier.words | later.words
        overlap = len(earlier.words & later.words) / len(union) if union else 0.0
        method = "near" if overlap >= limits.near else "semantic"
        if not informative and earlier_cover < 0.8:
            return None
    elif informative and (
        earlier_cover >= 0.3
        or _weighted(strong) >= 2
        or any(m.score >= 0.75 and _weighted(m.facts & strong) >= 1 for m in matches)
    ):
        method = "containment"
    else:
        return None
    return Restatement(
        method=method,
        score=score,
        matches=tuple(matches),
        facts=facts,
        earlier_cover=round(min(1.0, earlier_cover), 3),
        later_cover=round(min(1.0, later_cover), 3),
    )


def _covered(analysis: Analysis, spans: set[tuple[int, int]]) -> int:
    """The weight of the claims of ``analysis`` inside the matched spans."""
    return sum(
        c.weight
        for c in analysis.claims
        if any(a <= c.span.start and c.span.end <= b for a, b in spans)
    )


def borderline(
    earlier: Analysis, later: Analysis, *, templates_checked: bool = False
) -> Restatement | None:
    """A pair the rules did not call a restatement but came close to: claims that share a
    specific fact without stating different ones, or that share much of their wording. Only an
    optional judge looks at these.

    ``templates_checked``: :func:`compare` already found that no two claims of the pair are one
    template filled twice."""
    if not earlier.claims or not later.claims or not _may_restate(earlier, later):
        return None
    close: list[ClaimMatch] = []
    for a in earlier.claims:
        for b in later.claims:
            if not _related(a, b):
                continue
            if not templates_checked and _same_template(a, b, earlier, later):
                return None
            shared = _shared(a.strong, b.strong)
            dice = _dice(a.words, b.words)
            if (shared and not _conflict(a, b, shared, earlier, later)) or dice >= 0.45:
                close.append(ClaimMatch(a, b, round(dice, 3), shared))
    if not close:
        return None
    return Restatement(
        method="semantic",
        score=0.0,
        matches=tuple(close),
        facts=frozenset().union(*(m.facts for m in close)),
        earlier_cover=0.0,
        later_cover=0.0,
    )
