"""Which request a question back follows up, by what each kind of request needs asked.

A bot that is doing what it was asked often asks back for what it still needs: "In which city?"
after "check the weather for March 10th", "Where are you leaving from?" after "find me a bus
ticket". Such a question shares no word with the request, and a generic one ("What city?") scores
about alike for every request of the message, under the matcher's limit for its own.

What each kind of request needs asked is learned from the Schema-Guided Dialogue *train*
dialogues (CC BY-SA 4.0), whose acts mark both sides: a user turn with an ``INFORM_INTENT`` act
says what the user wants done in which domain ("Restaurants", "Weather", ...), and a system turn
whose acts are all ``REQUEST`` is a question back for a slot that domain needs. Two naive Bayes
models over those turns, one per side: how likely each domain is given the request's words, and
how likely the question's terms (its content words and the question word that opens it:
"where", "when", "which", ...) are in that domain's questions back. How well a request explains
a question back is then ``P(question | request) = sum over domains of P(domain | request) *
P(question | domain)`` (:meth:`AskedBack.explains`, a log-probability; only its differences
between the requests of one message are read). The counts ship in ``_models/asked-back.json``,
fitted by ``tools/detector/fit_asked_back.py``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from harness.detect._answer_terms import words_of

__all__ = ["AskedBack", "asked_back", "question_terms"]

_MODEL = Path(__file__).resolve().parent / "_models" / "asked-back.json"

_QUESTION_WORD = re.compile(r"\b(where|when|which|what|who|how many|how)\b", re.I)


@lru_cache(maxsize=16_384)
def question_terms(question: str) -> frozenset[str]:
    """The terms of a question back: its content words and the first question word in it
    ("?where" for "Where are you leaving from?")."""
    found = _QUESTION_WORD.search(question)
    lead = frozenset({"?" + found.group(1).lower().replace(" ", "_")}) if found else frozenset()
    return words_of(question) | lead


@dataclass(frozen=True, slots=True)
class AskedBack:
    """The fitted counts: per domain, how many turns of each side and in how many of them each
    word (request side) or term (question side) was seen."""

    requests: Mapping[str, int]
    """Per domain, its user turns with an ``INFORM_INTENT`` act."""
    request_words: Mapping[str, Mapping[str, int]]
    """Per domain, per word, the number of those turns holding it."""
    questions: Mapping[str, int]
    """Per domain, its system turns that only ``REQUEST``."""
    question_terms: Mapping[str, Mapping[str, int]]
    """Per domain, per term, the number of those turns holding it."""
    _words: frozenset[str] = field(init=False, repr=False, compare=False)
    _terms: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The words and terms the counts know (others are left out of every score alike).
        object.__setattr__(self, "_words", _union(self.request_words))
        object.__setattr__(self, "_terms", _union(self.question_terms))

    def explains(self, request: str, question: str) -> float:
        """``log P(question | request)``, summed over the domains (terms neither side's counts
        know are left out, alike for every request)."""
        posterior = self._domains(words_of(request))
        terms = question_terms(question)
        known = self._terms
        total = 0.0
        for domain, weight in posterior.items():
            n = self.questions.get(domain, 0)
            seen = self.question_terms.get(domain, {})
            log_q = math.fsum(math.log((seen.get(t, 0) + 1) / (n + 2)) for t in terms if t in known)
            total += weight * math.exp(log_q)
        return math.log(total) if total > 0 else -math.inf

    def _domains(self, words: frozenset[str]) -> dict[str, float]:
        """``P(domain | words)`` by naive Bayes over the words present (unknown words left out)."""
        known = self._words
        everyone = sum(self.requests.values())
        scores = {}
        for domain, n in sorted(self.requests.items()):
            seen = self.request_words.get(domain, {})
            scores[domain] = math.log(n / everyone) + math.fsum(
                math.log((seen.get(w, 0) + 1) / (n + 2)) for w in words if w in known
            )
        top = max(scores.values())
        weights = {d: math.exp(s - top) for d, s in scores.items()}
        whole = math.fsum(weights.values())
        return {d: w / whole for d, w in weights.items()}

    @classmethod
    def load(cls, path: Path = _MODEL) -> AskedBack:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            requests=raw["requests"],
            request_words={d: _unpack(p) for d, p in raw["request_words"].items()},
            questions=raw["questions"],
            question_terms={d: _unpack(p) for d, p in raw["question_terms"].items()},
        )


def _union(counts: Mapping[str, Mapping[str, int]]) -> frozenset[str]:
    return frozenset().union(*(frozenset(c) for c in counts.values()))


def _unpack(packed: str) -> dict[str, int]:
    parts = packed.split()
    return {parts[k]: int(parts[k + 1]) for k in range(0, len(parts) - 1, 2)}


def asked_back(requests: Sequence[str], question: str) -> list[float]:
    """How well each request explains a question back (:meth:`AskedBack.explains`)."""
    back = model()
    return [back.explains(r, question) for r in requests]


@cache
def model() -> AskedBack:
    """The shipped counts (``_models/asked-back.json``)."""
    return AskedBack.load()
