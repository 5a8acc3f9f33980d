"""Whether a part of a user's message asks for an answer of its own: the learned model the request
segmenter (:mod:`harness.detect.requests`) and the missed-request check read ("Thanks a lot",
"That sounds great", "Yes, please" ask for none)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import repeat
from pathlib import Path

from harness.detect.acts import feature_set

_NEEDS = Path(__file__).resolve().parent / "_models" / "needs.json"


@dataclass(frozen=True, slots=True)
class NeedsModel:
    """How likely a part of a user's message asks for an answer of its own: a logistic regression
    over the act tagger's word features (:func:`harness.detect.acts.act_features`), fitted by
    ``tools/detector/fit_needs.py`` on the parts of Schema-Guided Dialogue *train* user turns
    labelled from their dialogue acts (CC BY-SA 4.0; "Thanks a lot", "That sounds great", "Yes,
    please", "for 4 people" need none) and CLINC150 *train* requests (CC-BY-3.0)."""

    weights: dict[str, float]
    bias: float
    threshold: float
    """Parts less likely than this to need an answer are no request (chosen on development data:
    ``docs/journal/simulate.md``)."""

    @classmethod
    def load(cls, path: Path = _NEEDS) -> NeedsModel:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            weights={str(k): float(v) for k, v in raw["weights"].items()},
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
        )

    def probability(self, text: str) -> float:
        features = feature_set(text)
        # Summed exactly: a set's order follows the process's string hashing (PYTHONHASHSEED).
        z = self.bias + math.fsum(map(self.weights.get, features, repeat(0.0, len(features))))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def needs_model() -> NeedsModel:
    """The shipped model (``_models/needs.json``)."""
    return NeedsModel.load()


# Room for the requests of a long conversation: the missed-request check segments every user
# turn before it matches any, and the matching reads these again (about 27,500 texts for
# 100,000 messages; with room for 16,384, a third of the model's readings were made twice).
_REMEMBERED = 65_536


@lru_cache(maxsize=_REMEMBERED)
def needs_answer(text: str) -> bool:
    """Whether a part of a user's message asks for an answer of its own (:class:`NeedsModel`):
    "what's their address" does, "that sounds great" and "thanks, that's all" do not."""
    return needs_probability(text) >= needs_model().threshold


@lru_cache(maxsize=_REMEMBERED)
def needs_probability(text: str) -> float:
    """How likely a part of a user's message asks for an answer of its own (:class:`NeedsModel`,
    the shipped model), remembered for the texts read last."""
    return needs_model().probability(text)
