"""A message as claims: what each sentence, list item or clause says, with its facts and words.

The duplicate detector compares claims, not whole messages: a parent's reply that restates one
sub-agent answer among new content shares a claim with it, not its wording as a whole.
"""

from __future__ import annotations

import hashlib
import logging
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from harness.text._records import slot_maker
from harness.text._split import Span, split_claims, split_sentences, strip_markdown
from harness.text.facts import STRONG_KINDS, Fact, extract_facts
from harness.text.words import content_words, normalise, words_and_negation

__all__ = [
    "ANALYSIS_BUDGET",
    "CLAIM_BUDGET",
    "Analysis",
    "Claim",
    "analyse",
    "analysed_part",
    "message_facts",
]

log = logging.getLogger("harness.text")

ANALYSIS_BUDGET = 10_000
"""The most characters of one message analysed into claims and facts. A longer message is analysed
on its first ``ANALYSIS_BUDGET`` characters (cut at a white space); the rest is not compared, and
``Analysis.partial`` says so. Chat messages are far shorter (Teams caps a message near 28 KB,
most bot replies are under 2,000 characters); the budget bounds the work one message can cause."""
CLAIM_BUDGET = 100
"""The most claims of one message analysed (claims are compared pairwise between messages)."""

_VALUES = frozenset({"money", "number", "percent"})
_NONE: frozenset[str] = frozenset()
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

    def __reduce__(self) -> tuple[Callable[..., Claim], tuple[object, ...]]:
        # As ``Span.__reduce__``: the fields in order, made through their slots (:func:`_claim`).
        return (
            _claim,
            (
                self.span,
                self.norm,
                self.words,
                self.facts,
                self.strong,
                self.negated,
                self.sentence,
                self.head,
                self.context,
            ),
        )


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
    analysed: int = -1
    """How many characters of ``text`` the claims cover (the analysis budget); -1: all of it."""

    @property
    def partial(self) -> bool:
        """Only the start of the text was analysed: it is over the analysis budget."""
        return self.analysed >= 0

    @property
    def weight(self) -> int:
        return sum(c.weight for c in self.claims)

    def __reduce__(self) -> tuple[Callable[..., Analysis], tuple[object, ...]]:
        # As ``Span.__reduce__``: the fields in order, made through their slots (:func:`_analysis`).
        return (
            _analysis,
            (self.text, self.norm, self.claims, self.facts, self.strong, self.words, self.analysed),
        )


@slot_maker(Claim)
def _claim(
    span: Span,
    norm: str,
    words: frozenset[str],
    facts: frozenset[str],
    strong: frozenset[str],
    negated: bool,
    sentence: int,
    head: str | None,
    context: frozenset[str],
) -> Claim:
    """``Claim(span, norm, ...)`` (every field, in order), the same object, each field set
    through its slot rather than by the frozen dataclass's ``__init__`` (which sets each through
    ``object.__setattr__``, about twice the cost; 100,000 messages make some 70,000 claims, and
    worker processes send them back pickled: ``__reduce__``); :func:`slot_maker`."""
    return Claim(span, norm, words, facts, strong, negated, sentence, head, context)


@slot_maker(Analysis)
def _analysis(
    text: str,
    norm: str,
    claims: tuple[Claim, ...],
    facts: frozenset[str],
    strong: frozenset[str],
    words: frozenset[str],
    analysed: int,
) -> Analysis:
    """``Analysis(text, norm, ...)`` (every field, in order), the same object, made as
    :func:`_claim` makes a claim."""
    return Analysis(text, norm, claims, facts, strong, words, analysed)


_ClaimRow = tuple[Span, str, frozenset[str], frozenset[str], frozenset[str], bool, int, str | None]
"""A claim's fields before its sentence's context is known (``Claim``'s order)."""


def analysed_part(text: str) -> str:
    """``text``, or its start within ``ANALYSIS_BUDGET`` characters, cut at a white space: the
    part of a message that is analysed (and compared)."""
    if len(text) <= ANALYSIS_BUDGET:
        return text
    cut = text.rfind(" ", ANALYSIS_BUDGET // 2, ANALYSIS_BUDGET)
    return text[: cut if cut > 0 else ANALYSIS_BUDGET]


def message_facts(text: str) -> frozenset[str]:
    """``analyse(text).facts``, without making the claims: for texts only whose facts are read
    (a user's messages). A text that may be over a budget is analysed in full (its warning
    included)."""
    if len(text) > _SHORT:
        return analyse(text).facts
    keys: set[str] = set()
    for sentence in split_sentences(text):
        for fact in extract_facts(sentence.text):
            keys.add(fact.key)
            if fact.kind == "duration":  # "12 days" also states the number 12
                keys.add("num:" + fact.value.split()[0])
    return frozenset(keys)


_SHORT = 2 * CLAIM_BUDGET
"""Texts up to this long are within both budgets: a claim takes at least one character and a
separator (a line break, or a mark and a space) from the next, so more than ``CLAIM_BUDGET`` claims
need more than ``2 * CLAIM_BUDGET`` characters."""


@lru_cache(maxsize=32_768)
def analyse(text: str) -> Analysis:
    """The claims, facts and content words of ``text`` (cached: relays and closers recur).

    At most ``ANALYSIS_BUDGET`` characters and ``CLAIM_BUDGET`` claims are analysed; the work is
    linear in that part, whatever the text holds.
    """
    rows: list[_ClaimRow] = []
    part = analysed_part(text)
    sentences = split_sentences(part)
    spans = split_claims(part)
    analysed = len(part) if len(part) < len(text) else -1
    if len(spans) > CLAIM_BUDGET:
        spans = spans[:CLAIM_BUDGET]
        sentences = tuple(s for s in sentences if s.start < spans[-1].end)
        analysed = spans[-1].end
    if analysed >= 0:
        log.warning(
            "a message of %d characters is over the analysis budget: only its first %d characters "
            "are compared",
            len(text),
            analysed,
        )
    # Facts sentence by sentence: sentences recur across messages far more than whole texts do
    # (a relay quotes an answer), so the cache of extract_facts serves most of them. Each fact's
    # offsets in the text, key and strong keys are worked out once, for every claim that holds it.
    all_facts: list[Fact] = []
    fact_starts: list[int] = []
    fact_ends: list[int] = []
    fact_keys: list[str] = []
    strong_keys: list[str | None] = []
    for piece in sentences:
        for fact in extract_facts(piece.text):
            all_facts.append(fact)
            fact_starts.append(fact.start + piece.start)
            fact_ends.append(fact.end + piece.start)
            key = fact.key
            fact_keys.append(key)
            strong_keys.append(key if fact.kind in STRONG_KINDS else None)
    durations = {
        at: "num:" + fact.value.split()[0]
        for at, fact in enumerate(all_facts)
        if fact.kind == "duration"
    }
    sentence_starts = [s.start for s in sentences]
    for span in spans:
        # Sentences and facts are in text order: find the claim's by bisection.
        at = bisect_right(sentence_starts, span.start) - 1
        sentence = at if at >= 0 and span.start < sentences[at].end else 0
        first = bisect_left(fact_starts, span.start)
        last = bisect_left(fact_starts, span.end)
        plain = strip_markdown(span.text)
        words, negated = words_and_negation(plain)
        if first == last:
            rows.append((span, normalise(plain), words, _NONE, _NONE, negated, sentence, None))
            continue
        keys = set(fact_keys[first:last])
        strong = {k for k in strong_keys[first:last] if k is not None}
        # "12 days" also states the number 12 ("12 vacation days").
        stated = [durations[k] for k in range(first, last) if k in durations]
        keys.update(stated)
        strong.update(stated)
        # Facts are matched as facts, not as words too: drop the words a fact is made of.
        fact_words: set[str] = set()
        for k in range(first, last):
            if all_facts[k].kind not in ("name", "acronym", "state"):
                fact_words.update(content_words(text[fact_starts[k] : fact_ends[k]]))
        rows.append(
            (
                span,
                normalise(plain),
                words - fact_words if fact_words else words,
                frozenset(keys),
                frozenset(strong),
                negated,
                sentence,
                next(
                    (fact_keys[k] for k in range(first, last) if all_facts[k].kind in _VALUES),
                    None,
                ),
            )
        )
    by_sentence: dict[int, set[str]] = {}
    for row in rows:
        if row[3]:  # a claim without facts adds nothing to its sentence's context
            by_sentence.setdefault(row[6], set()).update(
                row[4], [k for k in row[3] if k.startswith(_CONTEXT)]
            )
    # Each claim made once, with its sentence's context (claims of one sentence share it).
    contexts = {at: frozenset(keys) for at, keys in by_sentence.items()}
    claims = [_claim(*row, contexts.get(row[6], _NONE)) for row in rows]
    numbers = frozenset(durations.values())
    # A message that is one claim of its whole text has that claim's norm and words.
    whole = len(claims) == 1 and claims[0].span.text == part
    norm = claims[0].norm if whole else normalise(strip_markdown(part))
    if len(part) < len(text):
        # Past the budget, two messages are the same text only if the rest is the same too.
        norm += " " + hashlib.sha256(text[len(part) :].encode("utf-8", "surrogatepass")).hexdigest()
    return _analysis(
        text,
        norm,
        tuple(claims),
        frozenset(fact_keys) | numbers,
        frozenset(k for k in strong_keys if k is not None) | numbers,
        claims[0].words if len(claims) == 1 else frozenset().union(*(c.words for c in claims)),
        analysed,
    )
