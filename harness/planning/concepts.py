"""What words mean for routing, learnt from real requests: each word as the intents that use it.

An agent's texts rarely hold every word its users say: "what's my salary" for an agent described by
"paydays, income, W-2 tax forms". This module ships a table learnt from real user requests labelled
with their intent (CLINC150 train and Schema-Guided Dialogue train user turns, 187 intents in all):
each word becomes a vector over those intents, how often each intent's requests use it. "salary"
and "income" point at the same intent, so a request and an agent's text that share no word can
still be close. Two neighbouring words that mostly one intent's requests use ("credit rating",
"spending limit") are an entry of their own, as a phrase means what neither word does alone
(``pairs``, ``PAIR_FOCUS``). The table knows nothing about any one bot: the matcher applies it to
whatever the bot's author wrote (``harness.planning.match``).

A table helps only where it knows the bot's subject. For a bot about something its intents never
covered (a veterinary clinic), the vectors carry chance associations and routing gets worse. So the
matcher asks, per bot, whether the table tells the bot's own texts apart better than the texts'
words do (``AgentMatcher`` leaves each text out in turn and routes it by the rest, both ways);
only then does it use the table (``leave_one_out``), and then each word's ``focus`` (how much of
its use is one intent's) sharpens the weight of the bot's words as well.

The table ships in ``_models/concepts.json``, built by ``python -m tests.planning.build_concepts``
from the train splits of two public data sets, described in ``docs/models.md`` (CLINC150:
Larson et al., EMNLP 2019, CC-BY-3.0; Schema-Guided Dialogue: Rastogi et al., AAAI 2020,
CC BY-SA 4.0). The file is derived from both and is distributed under
CC BY-SA 4.0 as well. Pure Python; a request costs a few sparse additions per word.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from harness.models._text import content_tokens

__all__ = ["ConceptTable", "leave_one_out", "shipped_table", "tokens"]

TABLE_FILE = Path(__file__).resolve().parent / "_models" / "concepts.json"
MIN_COUNT = 2
"""A word (or word pair) used by fewer requests than this is left out of the table."""
TOP = 8
"""The most intents kept per word (the largest shares)."""
PAIR_FOCUS = 0.9
"""A word pair ("credit rat", "spend limit") is an entry of its own only when this much of its use
is one intent's (its vector's largest weight): a fixed phrase whose meaning is one thing, not two
common words that happen to meet ("new york", used by many intents, is left out)."""


def pairs(words: Sequence[str]) -> list[str]:
    """Each two neighbouring content words of ``words`` as one key of the table ("credit rat":
    the words of a pair never hold a space)."""
    return [f"{a} {b}" for a, b in itertools.pairwise(words) if a != b]


_CODE = re.compile(r"\b[A-Za-z]+[0-9][A-Za-z]*[0-9][A-Za-z0-9]*\b")
"""An id or a code's shape: letters, then two digits or more ("DL402", "ABC123", "B12"); a word
with one digit ("W2", "mp3") or that opens with digits ("401k", "10th", "3pm") is no code."""
_DIGIT = re.compile(r"[0-9]")


def tokens(text: str) -> list[str]:
    """Content words. Bare numbers ("600", "15") and ids or codes (``_CODE``: "DL402", "UA88")
    are values: they say nothing about which agent a request is for."""
    if _DIGIT.search(text) is None:
        return content_tokens(text)
    return [t for t in content_tokens(_CODE.sub(" ", text)) if not t.isdigit()]


K = TypeVar("K", int, str)


def unit(vector: Mapping[K, float]) -> dict[K, float]:
    """``vector`` scaled to unit length (an empty one stays empty)."""
    norm = math.sqrt(sum(x * x for x in vector.values())) or 1.0
    return {k: x / norm for k, x in vector.items()}


@dataclass(frozen=True, slots=True, eq=False)
class ConceptTable:
    """Words as unit vectors over intents (the module docstring)."""

    words: Mapping[str, tuple[tuple[int, float], ...]]
    """Each word's (intent index, weight) pairs, and each kept word pair's (``pairs``); the
    weights of an entry have unit length."""

    def vector(self, words: Sequence[str], weight: Callable[[str], float]) -> dict[int, float]:
        """The unit vector of a text (``words`` in the text's order): its distinct words'
        vectors, each times ``weight(word)``, and those of its word pairs the table holds, each
        times the mean weight of its two words."""
        out: defaultdict[int, float] = defaultdict(float)
        table = self.words
        # The distinct words in the text's order (not a set's, which follows the process's
        # string hashing): each intent's weight is then summed in the same order in every
        # process, to the last bit.
        for key in dict.fromkeys(pairs(words)):
            found = table.get(key)
            if found:
                first, second = key.split(" ")
                w = (weight(first) + weight(second)) / 2
                for k, x in found:
                    out[k] += w * x
        for word in dict.fromkeys(words):
            found = table.get(word)
            if found:
                w = weight(word)
                for k, x in found:
                    out[k] += w * x
        return unit(out)

    def focus(self, word: str) -> float:
        """How much of ``word``'s use is one intent's: its vector's largest weight (1.0 for a word
        only one intent's requests use, down to about 0.35 for one spread evenly over ``TOP``
        intents); 1.0 for a word the table does not hold."""
        pairs = self.words.get(word)
        return max(x for _, x in pairs) if pairs else 1.0

    @classmethod
    def build(cls, requests: Iterable[tuple[str, str]]) -> ConceptTable:
        """The table of (text, intent) ``requests``: a word's weight for an intent is the share of
        that intent's requests using it, the word's weights scaled to unit length; the same for
        each pair of neighbouring content words (``pairs``) whose ``PAIR_FOCUS`` is high enough."""
        per_word: defaultdict[str, Counter[str]] = defaultdict(Counter)
        per_intent: Counter[str] = Counter()
        for text, intent in requests:
            per_intent[intent] += 1
            found = tokens(text)
            for word in set(found):
                per_word[word][intent] += 1
            for pair in set(pairs(found)):
                per_word[pair][intent] += 1
        index = {intent: i for i, intent in enumerate(sorted(per_intent))}
        words: dict[str, tuple[tuple[int, float], ...]] = {}
        for word in sorted(per_word):
            counts = per_word[word]
            if sum(counts.values()) < MIN_COUNT:
                continue
            shares = sorted(
                ((k / per_intent[i], index[i]) for i, k in counts.items()),
                key=lambda s: (-s[0], s[1]),
            )[:TOP]
            norm = math.sqrt(sum(s * s for s, _ in shares))
            if " " in word and shares[0][0] / norm < PAIR_FOCUS:
                continue
            words[word] = tuple((i, round(s / norm, 4)) for s, i in shares)
        return cls(words=words)

    def to_json(self, about: str) -> str:
        rows = {w: [[i, x] for i, x in pairs] for w, pairs in self.words.items()}
        return json.dumps({"about": about, "words": rows}, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ConceptTable:
        raw = json.loads(text)["words"]
        return cls(
            words={w: tuple((int(i), float(x)) for i, x in pairs) for w, pairs in raw.items()}
        )


def leave_one_out(texts: Sequence[Sequence[Mapping[K, float]]], limit: int = 400) -> float:
    """How many of the agents' texts go to their own agent when each is left out in turn and
    routed by the mean similarity of its three closest other texts per agent (``texts``: per
    agent, unit vectors of any kind; at most ``limit`` texts are routed, evenly spread, so the
    work stays bounded for large bots)."""
    flat = [(a, i, t) for a, per in enumerate(texts) for i, t in enumerate(per)]
    if not flat:
        return 0.0
    postings: dict[K, list[tuple[int, int, float]]] = {}
    for a, i, text in flat:
        for k, x in text.items():
            postings.setdefault(k, []).append((a, i, x))
    step = max(1, math.ceil(len(flat) / limit))
    right = total = 0
    for a, i, text in flat[::step]:
        total += 1
        sums = [[0.0] * len(per) for per in texts]
        for k, x in text.items():
            for b, j, y in postings[k]:
                sums[b][j] += x * y
        sums[a][i] = 0.0  # left out (every similarity is at least 0)
        best, best_agent = 0.0, -1
        for b, per in enumerate(sums):
            score = sum(sorted(per, reverse=True)[:3]) / 3
            if score > best:
                best, best_agent = score, b
        right += best_agent == a
    return right / total


@functools.cache
def shipped_table() -> ConceptTable:
    """The table that ships with the SDK (``_models/concepts.json``)."""
    return ConceptTable.from_json(TABLE_FILE.read_text(encoding="utf-8"))
