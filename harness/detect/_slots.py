"""What a request asks for and what a bot's sentence gives, read as the slots of task-oriented
dialogue: two naive Bayes models whose agreement is a feature of the answer matcher
(:mod:`harness.detect.answers`) for an answer in the bot's own words ("What is the estimated
arrival time" / "The cab will be there in 12 minutes": no word in common, both about the wait).

The models are fitted by ``tools/detector/fit_slots.py`` on Schema-Guided Dialogue *train* turns
labelled by their dialogue acts (CC BY-SA 4.0): user turns that request one slot, and the bot's
sentences that inform one slot (or nothing). They ship as ``_models/slots.json``."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from harness.detect._answer_terms import reply_terms, words_of

MODEL = Path(__file__).resolve().parent / "_models" / "slots.json"

NOTHING = "-"
"""The label of a sentence that informs no slot ("Your table is booked.")."""


@dataclass(frozen=True, slots=True)
class _Bayes:
    """A multinomial naive Bayes model: log priors, and per word the log likelihood under each
    label it was seen with (``unseen``: under the others)."""

    priors: dict[str, float]
    likely: dict[str, dict[str, float]]
    unseen: dict[str, float]

    @classmethod
    def of(cls, raw: Mapping[str, object]) -> _Bayes:
        docs: dict[str, int] = dict(raw["docs"])  # type: ignore[call-overload]
        words: dict[str, dict[str, int]] = dict(raw["words"])  # type: ignore[call-overload]
        size = int(raw["vocabulary"])  # type: ignore[call-overload]
        n = sum(docs.values())
        priors = {label: math.log(count / n) for label, count in docs.items()}
        totals = {label: sum(words.get(label, {}).values()) + size for label in docs}
        unseen = {label: math.log(1 / totals[label]) for label in docs}
        likely: dict[str, dict[str, float]] = {}
        for label, counts in words.items():
            for word, count in counts.items():
                likely.setdefault(word, {})[label] = math.log((count + 1) / totals[label])
        return cls(priors=priors, likely=likely, unseen=unseen)

    def posterior(self, terms: frozenset[str]) -> dict[str, float]:
        """P(label | a text's terms); terms the model never kept are left out."""
        known = sorted(w for w in terms if w in self.likely)
        scores = {
            label: math.fsum(
                [prior, *(self.likely[w].get(label, self.unseen[label]) for w in known)]
            )
            for label, prior in self.priors.items()
        }
        top = max(scores.values())
        weights = {label: math.exp(s - top) for label, s in scores.items()}
        total = math.fsum(weights.values())
        return {label: w / total for label, w in weights.items()}


@dataclass(frozen=True, slots=True)
class SlotModels:
    """The two shipped models."""

    requests: _Bayes
    """P(slot | a request's words)."""
    informs: _Bayes
    """P(slot | a bot sentence's words), with :data:`NOTHING` for a sentence that informs none."""

    @classmethod
    def load(cls, path: Path = MODEL) -> SlotModels:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(requests=_Bayes.of(raw["requests"]), informs=_Bayes.of(raw["informs"]))


@cache
def slot_models() -> SlotModels:
    """The shipped models (``_models/slots.json``), read once."""
    return SlotModels.load()


@lru_cache(maxsize=4_096)
def asked_slots(request: str) -> dict[str, float]:
    """P(slot | request), read from the request's words (:func:`words_of`)."""
    return slot_models().requests.posterior(words_of(request))


@lru_cache(maxsize=4_096)
def given_slots(sentence: str) -> dict[str, float]:
    """P(slot | a bot's sentence), :data:`NOTHING` included, read from its words and the kinds
    of value it gives (:func:`reply_terms`: "$23.40" as ``@money``)."""
    return slot_models().informs.posterior(reply_terms(sentence))


def same_slot(request: str, sentence: str) -> float:
    """How likely ``request`` and ``sentence`` are about the same slot: the sum over slots of
    P(slot | request) P(slot | sentence)."""
    given = given_slots(sentence)
    return math.fsum(p * given.get(slot, 0.0) for slot, p in sorted(asked_slots(request).items()))
