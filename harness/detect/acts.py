"""Dialogue acts of bot sentences: inform, offer, confirm, request, notify, count, closing...

A multi-label logistic regression over word and word-pair features, fitted on the system turns of
the Schema-Guided Dialogue data (SGD train, CC BY-SA 4.0; see ``docs/detector.md`` for how it was
fitted and measured). The weights ship as ``_models/acts.json`` and inference is pure Python, so
tagging needs no extra package. The act names are SGD's: ``INFORM``, ``OFFER``, ``CONFIRM``,
``REQUEST``, ``NOTIFY_SUCCESS``, ``NOTIFY_FAILURE``, ``INFORM_COUNT``, ``OFFER_INTENT``,
``REQ_MORE`` (a closing offer of more help) and ``GOODBYE``.

SGD has no greeting act, so the tagger reads a greeting as a closing ("How can I help you
today?"). :func:`greeting` is a stated rule for it: a message that opens with a salutation or a
welcome, or by introducing the bot.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
from array import array
from functools import lru_cache
from pathlib import Path

from harness.text import split_sentences

__all__ = ["ActTagger", "act_features", "greeting", "message_acts", "tagger"]

_MODEL = Path(__file__).resolve().parent / "_models" / "acts.json"
_TOKEN = re.compile(r"[a-z]+|\d+|[?!]")
_GREETING = re.compile(
    r"^[^\w]{0,3}(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|"
    r"welcome)\b"
    r"|^[^\w]{0,3}(?:i'?m|i am|this is|my name is)\b[^.!?\n]{0,60}?"
    r"\b(?:assistant|bot|agent|concierge|helper|advisor|adviser)\b",
    re.IGNORECASE,
)


def act_features(text: str) -> list[str]:
    """The features of one sentence: lower-case words (digits as ``0``), word pairs, a question
    mark, and the first word."""
    words = ["0" if w[0].isdigit() else w for w in _TOKEN.findall(text.lower())]
    out = ["w:" + w for w in words]
    out += ["b:" + a + "_" + b for a, b in itertools.pairwise(words)]
    if words:
        out.append("first:" + words[0])
    return out


class ActTagger:
    """The fitted tagger: a weight per (feature, act) and a bias per act."""

    def __init__(self, model: dict[str, object]) -> None:
        acts = model["acts"]
        features = model["features"]
        assert isinstance(acts, list) and isinstance(features, list)
        self.acts: tuple[str, ...] = tuple(str(a) for a in acts)
        scale = float(str(model["scale"]))
        raw = array("b", base64.b64decode(str(model["weights"])))
        width = len(self.acts)
        self.weights: dict[str, tuple[float, ...]] = {
            str(name): tuple(raw[i * width + k] * scale for k in range(width))
            for i, name in enumerate(features)
        }
        bias = model["bias"]
        assert isinstance(bias, list)
        self.bias: tuple[float, ...] = tuple(float(b) for b in bias)

    @classmethod
    def load(cls, path: Path = _MODEL) -> ActTagger:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def scores(self, sentence: str) -> dict[str, float]:
        """The probability of each act for one sentence."""
        totals = list(self.bias)
        for feature in set(act_features(sentence)):
            weights = self.weights.get(feature)
            if weights is not None:
                for k, w in enumerate(weights):
                    totals[k] += w
        return {
            act: 1 / (1 + math.exp(-max(-30.0, min(30.0, t))))
            for act, t in zip(self.acts, totals, strict=True)
        }

    def tag(self, sentence: str) -> frozenset[str]:
        """The acts of one sentence (probability at least one half; the likeliest when none is)."""
        scores = self.scores(sentence)
        found = frozenset(a for a, p in scores.items() if p >= 0.5)
        return found or frozenset({max(scores, key=scores.__getitem__)})


@lru_cache(maxsize=1)
def tagger() -> ActTagger:
    """The shipped tagger (loaded once)."""
    return ActTagger.load()


@lru_cache(maxsize=32_768)
def message_acts(text: str) -> frozenset[str]:
    """The acts of a whole message: those of its sentences."""
    model = tagger()
    acts: set[str] = set()
    for sentence in split_sentences(text):
        acts |= model.tag(sentence.text)
    return frozenset(acts)


def greeting(text: str) -> bool:
    """The message opens with a greeting: a salutation or a welcome ("Hi there, welcome to ...",
    "Good morning!") or the bot introducing itself ("I'm Ava, the energy assistant")."""
    return bool(_GREETING.search(text[:200]))
