"""Findings from pairs: messages that all restate each other are one finding, with its evidence."""

from __future__ import annotations

from collections.abc import Sequence

from harness.detect._candidates import Entry, Pair
from harness.detect.findings import Finding, Highlight, Scope

__all__ = ["evidence_facts", "findings_of", "quote"]


def quote(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


_WEAKEST = {"exact": 0, "near": 1, "semantic": 2, "containment": 3}


def findings_of(pairs: Sequence[Pair], inside: float = 0.75) -> list[Finding]:
    """Findings from pairs. Messages that all restate each other (a message sent three times,
    a relay and its repeat) are one finding naming every one of them; every pair inside counts.

    A message whose every claim another one states (a relay, a summary's part, a whole
    restatement: the rules' cover of it, :attr:`~harness.detect.restate.Restatement.earlier_cover`
    or ``later_cover``, at ``inside`` or more: the detector's ``cover_threshold``) says nothing
    that one does not, so a later message restating it restates that one too: they are one
    finding even when the scorer decided only some of their pairs."""
    linked = {(p.earlier.index, p.later.index) for p in pairs}
    within: dict[int, set[int]] = {}
    """For each message (by index), the messages whose every claim it states."""
    for p in pairs:
        found = p.found
        if found.method == "exact" or found.later_cover >= inside:
            within.setdefault(p.earlier.index, set()).add(p.later.index)
        if found.method == "exact" or found.earlier_cover >= inside:
            within.setdefault(p.later.index, set()).add(p.earlier.index)

    def joins(index: int, later: int) -> bool:
        return (index, later) in linked or any(
            (inner, later) in linked for inner in within.get(index, ())
        )

    by_text: dict[str, dict[int, Entry]] = {}
    for pair in pairs:
        if _copies(pair):
            copies = by_text.setdefault(pair.earlier.text.norm, {})
            copies.setdefault(pair.earlier.index, pair.earlier)
            copies.setdefault(pair.later.index, pair.later)
    groups: list[list[Pair]] = []
    members: list[dict[int, Entry]] = []
    """Each group's messages by index, in the order they joined."""
    exact_member = {index: norm for norm, copies in by_text.items() for index in copies}
    exact_groups: dict[str, int] = {}
    member_of: dict[int, list[int]] = {}
    """The groups (by number) each message (by index) belongs to."""
    for pair in pairs:
        norm = exact_member.get(pair.earlier.index)
        if norm is not None and _copies(pair):
            if norm not in exact_groups:
                exact_groups[norm] = len(groups)
                for index in by_text[norm]:
                    member_of.setdefault(index, []).append(len(groups))
                groups.append([])
                members.append(dict(by_text[norm]))
            groups[exact_groups[norm]].append(pair)
            continue
        # Only the groups the earlier message belongs to can take the pair.
        later = pair.later.index
        for number in member_of.get(pair.earlier.index, ()):
            group, people = groups[number], members[number]
            if later in people:
                group.append(pair)
                break
            if all(joins(index, later) for index in people):
                group.append(pair)
                people[later] = pair.later
                member_of.setdefault(later, []).append(number)
                break
        else:
            member_of.setdefault(pair.earlier.index, []).append(len(groups))
            member_of.setdefault(later, []).append(len(groups))
            groups.append([pair])
            members.append({pair.earlier.index: pair.earlier, later: pair.later})
    return [
        _finding(group, list(people.values()))
        for group, people in zip(groups, members, strict=True)
    ]


def _copies(pair: Pair) -> bool:
    """The two messages are the same text (once normalised)."""
    return pair.found.method == "exact" and pair.earlier.text.norm == pair.later.text.norm


def _finding(group: list[Pair], people: list[Entry]) -> Finding:
    people = sorted(people, key=lambda e: e.index)
    first = max(group, key=lambda p: _WEAKEST.get(p.found.method, 0))
    scope: Scope = "same_turn" if all(p.scope == "same_turn" for p in group) else "cross_turn"
    found = first.found
    highlights: list[Highlight] = []
    seen: set[tuple[str, str]] = set()
    for pair in group:
        for match in pair.found.matches:
            for entry, claim in ((pair.earlier, match.earlier), (pair.later, match.later)):
                key = (entry.message.id, claim.span.text)
                if key not in seen:
                    seen.add(key)
                    highlights.append(Highlight(message_id=entry.message.id, text=claim.span.text))
    later_turn = max(e.message.turn for e in people)
    return Finding(
        kind="duplicate",
        scope=scope,
        method=found.method,
        turn=later_turn,
        message_ids=tuple(e.message.id for e in people),
        senders=tuple(e.message.sender for e in people),
        score=found.score,
        evidence=_evidence(first, len(people)),
        highlights=tuple(highlights),
    )


def _evidence(pair: Pair, count: int) -> str:
    """Why, in one line: what is restated, with which facts (highlights carry the passages)."""
    found = pair.found
    parts: list[str] = []
    if count > 2:
        parts.append(f"sent {count} times")
    if pair.scope == "cross_turn":
        parts.append(f"turn {pair.later.message.turn} repeats turn {pair.earlier.message.turn}")
    if found.reason:
        parts.append(f"judged a duplicate: {found.reason}")
    elif found.method == "exact" and _copies(pair):
        parts.append(f"the same text: {quote(pair.later.message.text)}")
    elif found.matches:
        match = max(found.matches, key=lambda m: m.earlier.weight)
        restated = f"restates {quote(match.earlier.span.text)}"
        if len(found.matches) > 1:
            restated += f" (+{len(found.matches) - 1} more)"
        parts.append(restated)
    else:
        parts.append(f"embeddings {found.score:.2f} close, the same facts")
    facts = evidence_facts(found.facts)
    if facts and found.method != "exact":
        parts.append("facts: " + ", ".join(facts[:6]))
    return "; ".join(parts)


def evidence_facts(keys: frozenset[str]) -> list[str]:
    """The shared facts worth quoting, sorted: names are quoted in the passages already; a value
    that is part of another quoted value ("48" of "48 hour") adds nothing; status words ("open",
    "approved") only when no specific fact was shared, since a status alone is weak evidence."""
    values = {k.partition(":")[2]: k.partition(":")[0] for k in keys}
    values = {v: kind for v, kind in values.items() if kind not in ("name", "acronym") and v}
    specific = {v for v, kind in values.items() if kind != "state"}
    shown = specific or set(values)
    return sorted(v for v in shown if not any(v != other and v in other.split() for other in shown))
