"""A message as claims: what each sentence, list item or clause says, with its facts and words.

The duplicate detector compares claims, not whole messages: a parent's reply that restates one
sub-agent answer among new content shares a claim with it, not its wording as a whole.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

from harness.text._split import Span, split_claims, split_sentences, strip_markdown
from harness.text.facts import STRONG_KINDS, Fact, extract_facts
from harness.text.words import NEGATIONS, content_words, normalise, tokens

__all__ = ["Analysis", "Claim", "analyse"]

_VALUES = frozenset({"money", "number", "percent"})
_CONTEXT = ("state:", "acronym:", "weekday:", "month:")


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim of a message."""

    span: Span
    """Where it stands in the message (``span.text`` is the original text, Markdown and all)."""
    norm: str
    """The normalised text (the ``exact`` key)."""
    words: frozenset[str]
    """Stems of its content words."""
    facts: frozenset[str]
    """Its facts' keys (``num:12``, ``date:02-15``, ``id:eb57102``, ``name:lower bowl``)."""
    strong: frozenset[str]
    """The keys of its specific facts (every kind but names, weekdays and months)."""
    negated: bool
    """It holds a negation ("not", "can't", "no")."""
    sentence: int = 0
    """The index of the sentence it belongs to."""
    head: str | None = None
    """The key of its first amount or number: the value the claim is mostly about."""
    context: frozenset[str] = frozenset()
    """The specific facts, status words, weekdays and months of its whole sentence."""

    @property
    def weight(self) -> int:
        """How much it says: its content words and facts."""
        return len(self.words) + len(self.facts)


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything the detector needs to know about one message's text."""

    text: str
    norm: str
    claims: tuple[Claim, ...]
    facts: frozenset[str]
    """Every fact key of the message."""
    strong: frozenset[str]
    words: frozenset[str]

    @property
    def weight(self) -> int:
        return sum(c.weight for c in self.claims)


def _fact_keys(facts: tuple[Fact, ...]) -> tuple[frozenset[str], frozenset[str]]:
    keys = {f.key for f in facts}
    strong = {f.key for f in facts if f.kind in STRONG_KINDS}
    for fact in facts:
        if fact.kind == "duration":
            # "12 days" also states the number 12 ("12 vacation days").
            number = "num:" + fact.value.split()[0]
            keys.add(number)
            strong.add(number)
    return frozenset(keys), frozenset(strong)


@lru_cache(maxsize=32_768)
def analyse(text: str) -> Analysis:
    """The claims, facts and content words of ``text`` (cached: relays and closers recur)."""
    claims: list[Claim] = []
    sentences = split_sentences(text)
    # Facts sentence by sentence: sentences recur across messages far more than whole texts do
    # (a relay quotes an answer), so the cache of extract_facts serves most of them.
    all_facts = tuple(
        Fact(f.kind, f.value, f.start + sentence.start, f.end + sentence.start)
        for sentence in sentences
        for f in extract_facts(sentence.text)
    )
    for span in split_claims(text):
        sentence = next((i for i, s in enumerate(sentences) if s.start <= span.start < s.end), 0)
        inside = tuple(f for f in all_facts if span.start <= f.start < span.end)
        plain = strip_markdown(span.text)
        keys, strong = _fact_keys(inside)
        words = content_words(plain)
        # Facts are matched as facts, not as words too: drop the words a fact is made of.
        fact_words: set[str] = set()
        for fact in inside:
            if fact.kind not in ("name", "acronym", "state"):
                fact_words.update(content_words(text[fact.start : fact.end]))
        claims.append(
            Claim(
                span=span,
                norm=normalise(plain),
                words=words - fact_words,
                facts=keys,
                strong=strong,
                negated=any(t in NEGATIONS or t.endswith("n't") for t in tokens(plain)),
                sentence=sentence,
                head=next((f.key for f in inside if f.kind in _VALUES), None),
            )
        )
    by_sentence: dict[int, set[str]] = {}
    for claim in claims:
        by_sentence.setdefault(claim.sentence, set()).update(
            claim.strong | {k for k in claim.facts if k.startswith(_CONTEXT)}
        )
    claims = [dataclasses.replace(c, context=frozenset(by_sentence[c.sentence])) for c in claims]
    keys, strong = _fact_keys(all_facts)
    return Analysis(
        text=text,
        norm=normalise(strip_markdown(text)),
        claims=tuple(claims),
        facts=keys,
        strong=strong,
        words=frozenset().union(*(c.words for c in claims)) if claims else frozenset(),
    )
