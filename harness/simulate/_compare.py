"""Comparing two messages: are they the same content (exact, near, containment, semantic)?

The rules that keep the duplicate detector precise live here: facts must agree, a bigger sentence
must cover a smaller one and state its facts, a clause only counts when the sentences around it do
not state different things, and a paraphrase found by embeddings must keep every number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from harness.simulate._text import (
    Sentence,
    TextFeatures,
    facts_agree,
    facts_compatible,
    facts_conflict,
    jaccard,
)
from harness.simulate.detectors import DetectorConfig

__all__ = ["Limits", "Match", "compare", "content_text", "limits", "quote", "restated_units"]


@dataclass(frozen=True, slots=True)
class Match:
    """Why two messages are duplicates."""

    method: str
    score: float | None
    evidence: str
    restated: tuple[str, ...] = ()
    """The sentences of the later message that repeat the earlier one (``containment``, ``near``,
    ``exact``: used by the guard to drop them)."""


def quote(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


class Limits(NamedTuple):
    """The two sentence-level thresholds."""

    cover: float
    """Share of a sentence's words a bigger sentence must repeat."""
    near: float
    """Jaccard similarity two sentences of about the same size must reach."""


def limits(config: DetectorConfig, *, strict: bool = False) -> Limits:
    if strict:
        return Limits(config.strict_threshold, config.strict_threshold)
    return Limits(config.sentence_threshold, config.near_threshold)


def _sentences_match(part: Sentence, unit: Sentence, lim: Limits) -> bool:
    """Whether ``unit`` says what ``part`` says.

    A bigger unit (a sentence with more content) must cover the part's words and state its facts.
    A unit of about the same size is a rewording or a different statement: then the two must share
    most of their words (Jaccard) and state the same facts. A clause only counts when the
    sentences around the two do not state different things.
    """
    tokens = part.tokens
    size = len(tokens)
    if not size:
        return False
    shared = len(tokens & unit.tokens)
    if shared < lim.cover * size:
        return False
    extra = len(unit.tokens) - shared
    if extra <= max(2, size // 3):
        if shared < lim.near * (size + extra) or not facts_agree(part.facts, unit.facts):
            return False
    elif not facts_compatible(part.facts, unit.facts):
        return False
    if part.whole is not None or unit.whole is not None:
        return not facts_conflict(part.sentence_facts, unit.sentence_facts)
    return True


def _find_unit(part: Sentence, whole: TextFeatures, lim: Limits) -> Sentence | None:
    """The unit of ``whole`` that restates ``part``."""
    if len(part.tokens & whole.tokens) < lim.cover * len(part.tokens):
        return None  # no single unit can cover more than the whole message does
    for unit in whole.units:
        if _sentences_match(part, unit, lim):
            return unit
    return None


def _restated(
    part: TextFeatures, whole: TextFeatures, lim: Limits
) -> tuple[list[Sentence], int, int]:
    """The sentences (or clauses) of ``part`` that ``whole`` restates, their weight and the total."""
    matched: list[Sentence] = []
    got = total = 0
    for sentence in part.sentences:
        weight = len(sentence.tokens)
        total += weight
        if _find_unit(sentence, whole, lim) is not None:
            matched.append(sentence)
            got += weight
            continue
        for clause in sentence.clauses:
            if clause.tokens and _find_unit(clause, whole, lim) is not None:
                matched.append(clause)
                got += len(clause.tokens)
    return matched, min(got, total), total


def _repeated_statement(
    a: TextFeatures, b: TextFeatures, lim: Limits, min_words: int
) -> tuple[Sentence, float] | None:
    """A factual sentence or clause that both messages state near-verbatim."""
    best: tuple[Sentence, float] | None = None
    for unit in b.units:
        facts = unit.facts
        size = len(unit.tokens)
        if size <= min_words or not (facts.values or facts.names):
            continue
        if len(unit.tokens & a.tokens) < lim.cover * size:
            continue
        for other in a.units:
            score = jaccard(unit.tokens, other.tokens)
            if (
                score >= lim.cover
                and facts_agree(unit.facts, other.facts)
                and not facts_conflict(unit.sentence_facts, other.sentence_facts)
            ):
                if best is None or score > best[1]:
                    best = (unit, score)
                break
    return best


def restated_units(earlier: TextFeatures, later: TextFeatures, lim: Limits) -> list[Sentence]:
    """The sentences of ``later`` that say again what ``earlier`` said, or only their clauses
    that do when a sentence also says something new: what the guard drops."""
    out: list[Sentence] = []
    for sentence in later.sentences:
        if _find_unit(sentence, earlier, lim) is not None:
            out.append(sentence)
            continue
        hits = [
            clause
            for clause in sentence.clauses
            if clause.tokens
            and (
                _find_unit(clause, earlier, lim) is not None
                or any(_sentences_match(unit, clause, lim) for unit in earlier.units)
            )
        ]
        if hits:
            out.extend([sentence] if len(hits) == len(sentence.clauses) else hits)
        elif any(_sentences_match(unit, sentence, lim) for unit in earlier.units):
            out.append(sentence)
    return out


def compare(
    earlier: TextFeatures,
    later: TextFeatures,
    config: DetectorConfig,
    *,
    strict: bool = False,
    cosine: float | None = None,
) -> Match | None:
    """Decide whether ``later`` repeats ``earlier`` (both content messages, not boilerplate).

    Args:
        earlier: the message sent first.
        later: the message sent after it.
        config: thresholds.
        strict: the two messages answer different requests: only near-verbatim repeats count.
        cosine: the messages' embedding similarity, when an embedder is configured.
    """
    if not earlier.key or not later.key:
        return None
    if earlier.key == later.key:
        return Match("exact", 1.0, f"the same text: {quote(later.key)}", _texts(later.sentences))
    if earlier.weight < config.min_words or later.weight < config.min_words:
        return None
    lim = limits(config, strict=strict)
    same_facts = facts_agree(earlier.facts, later.facts)
    if same_facts:
        score = jaccard(earlier.tokens, later.tokens)
        if score >= lim.near:
            return Match(
                "near",
                score,
                f"reads alike ({score:.2f}): {quote(content_text(earlier))} / "
                f"{quote(content_text(later))}",
                _texts(later.sentences),
            )
    # Containment, both ways: the later message restates the earlier one among new content, or
    # repeats part of it.
    best: Match | None = None
    for part, whole in ((earlier, later), (later, earlier)):
        matched, got, total = _restated(part, whole, lim)
        if not total or got / total < config.containment_threshold or got < config.min_words:
            continue
        share = got / total
        if best is None or share > (best.score or 0.0):
            quoted = quote(" ".join(s.text for s in matched))
            best = Match(
                "containment", share, f"restates {quoted}", _restated_texts(earlier, later, lim)
            )
    if best is not None:
        return best
    # A factual statement repeated near-verbatim inside otherwise different messages.
    repeated = _repeated_statement(earlier, later, lim, config.min_words)
    if repeated is not None:
        unit, score = repeated
        return Match(
            "containment",
            score,
            f"repeats {quote(unit.text)}",
            _restated_texts(earlier, later, lim),
        )
    # A paraphrase keeps every number and status word: no subset leniency for embeddings.
    if (
        cosine is not None
        and not strict
        and same_facts
        and earlier.facts.values == later.facts.values
        and earlier.facts.states == later.facts.states
        and cosine >= config.semantic_threshold
    ):
        return Match(
            "semantic",
            cosine,
            f"same meaning (cosine {cosine:.2f}): {quote(content_text(earlier))} / "
            f"{quote(content_text(later))}",
            _texts(later.sentences),
        )
    return None


def content_text(text: TextFeatures) -> str:
    """A message's content sentences (boilerplate and holding phrases left out)."""
    return " ".join(s.text for s in text.sentences)


def _texts(sentences: Sequence[Sentence]) -> tuple[str, ...]:
    return tuple(s.text for s in sentences)


def _restated_texts(earlier: TextFeatures, later: TextFeatures, lim: Limits) -> tuple[str, ...]:
    return tuple(u.text for u in restated_units(earlier, later, lim))
