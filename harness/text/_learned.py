"""The learned part of the instruction reader: one logistic regression per reading.

Each reading of :data:`harness.text.instructions.ASKS` has a bias and a weight per feature of
:mod:`harness.text._features` (word classes, their order inside a clause, word stems: nothing the
rule frames use). The reader adds a reading the frames did not find when the model is confident of
it (probability above :data:`CONFIDENT`): the frames are precise but each covers one way of saying
a thing, and the model catches other wordings (passives, others speaking for the agent, new words).
Inference is pure Python and deterministic; the weights ship as ``_models/reader.json``, fitted and
cross-validated by source with ``tools/reader/fit.py``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["CONFIDENT", "MODEL_PATH", "ReaderModel", "reader_model"]

MODEL_PATH = Path(__file__).resolve().parent / "_models" / "reader.json"
CONFIDENT = 0.7
"""The probability above which the model adds a reading the frames did not find."""


@dataclass(frozen=True, slots=True)
class ReaderModel:
    """Per-reading biases and feature weights."""

    biases: Mapping[str, float]
    """The log-odds of each reading for a sentence with no known feature."""
    weights: Mapping[str, Mapping[str, float]]
    """Per reading, the weight of each feature (features not listed weigh nothing)."""

    def scores(self, features: Iterable[str]) -> dict[str, float]:
        """The log-odds of each reading for a sentence with ``features``: the weights are
        summed exactly (``math.fsum``), so a set of features gives the same log-odds in every
        process, whatever order its string hashing (``PYTHONHASHSEED``) puts them in."""
        chosen = tuple(features)
        return {
            ask: bias + math.fsum([self.weights[ask].get(f, 0.0) for f in chosen])
            for ask, bias in self.biases.items()
        }

    def probabilities(self, features: Iterable[str]) -> dict[str, float]:
        """The probability of each reading (the logistic of :meth:`scores`)."""
        return {
            ask: 1 / (1 + math.exp(-max(-30.0, min(30.0, s))))
            for ask, s in self.scores(features).items()
        }

    def asks(self, features: Iterable[str]) -> frozenset[str]:
        """The readings whose probability is above one half."""
        return frozenset(ask for ask, s in self.scores(features).items() if s > 0)

    def confident(self, features: Iterable[str], threshold: float = CONFIDENT) -> frozenset[str]:
        """The readings whose probability is above ``threshold``."""
        return frozenset(a for a, p in self.probabilities(features).items() if p > threshold)

    def to_json(self) -> dict[str, object]:
        return {
            "readings": {
                ask: {"bias": round(self.biases[ask], 6), "weights": dict(self.weights[ask])}
                for ask in self.biases
            }
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> ReaderModel:
        readings = data["readings"]
        assert isinstance(readings, dict)
        return cls(
            biases={ask: float(r["bias"]) for ask, r in readings.items()},
            weights={
                ask: {f: float(w) for f, w in r["weights"].items()} for ask, r in readings.items()
            },
        )


@lru_cache(maxsize=1)
def reader_model() -> ReaderModel:
    """The shipped model (``_models/reader.json``), loaded once."""
    return ReaderModel.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))
