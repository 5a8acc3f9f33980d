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
import sys
from array import array
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from harness.text import Analysis, split_sentences

__all__ = [
    "ActTagger",
    "act_features",
    "analysis_acts",
    "greeting",
    "message_acts",
    "sentence_acts",
    "tagger",
]

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


_DIGITS = re.compile(r"\d+")


def feature_set(text: str) -> set[str]:
    """``set(act_features(text))``, built with fewer steps in Python: digit runs are made ``0``
    before the words are found (a run of digits is one word either way), and the features are
    made by ``map``."""
    words = _TOKEN.findall(_DIGITS.sub("0", text.lower()))
    if not words:
        return set()
    out = set(map("w:".__add__, words))
    out.update(map("b:{}_{}".format, words, words[1:]))
    out.add("first:" + words[0])
    return out


class ActTagger:
    """The fitted tagger: a weight per (feature, act) and a bias per act."""

    def __init__(self, model: dict[str, object]) -> None:
        acts = model["acts"]
        features = model["features"]
        assert isinstance(acts, list) and isinstance(features, list)
        self.acts: tuple[str, ...] = tuple(str(a) for a in acts)
        self._at = {act: k for k, act in enumerate(self.acts)}
        self.scale = float(str(model["scale"]))
        raw = array("b", base64.b64decode(str(model["weights"])))
        width = len(self.acts)
        self.weights: dict[str, tuple[float, ...]] = {
            str(name): tuple(raw[i * width + k] * self.scale for k in range(width))
            for i, name in enumerate(features)
        }
        # The same weights as whole numbers (the model stores ``int8`` times ``scale``), each
        # feature's row packed into one integer: one field per act holding the weight plus
        # ``_OFFSET`` (never negative), and a last field holding 1 that counts the features.
        # Adding the packed rows of a sentence's features adds every act's weights at once, in
        # C, exactly; the offset is taken off each field afterwards.
        self._packed: dict[str, int] = {
            str(name): sum((raw[i * width + k] + _OFFSET) << (k * _FIELD) for k in range(width))
            + (1 << (width * _FIELD))
            for i, name in enumerate(features)
        }
        # The packed rows again, by what :func:`feature_set` builds each feature from: a word
        # ("w:" + word), a pair of words ("b:" + a + "_" + b) and the first word ("first:" +
        # word), so that a sentence's rows are looked up without making the feature strings.
        # One key per feature (words hold no "_"), so the sum is the same.
        self._by_word: dict[str, int] = {}
        self._by_pair: dict[tuple[str, str], int] = {}
        self._by_first: dict[str, int] = {}
        for name, row in self._packed.items():
            kind, _, rest = name.partition(":")
            if kind == "w":
                self._by_word[rest] = row
            elif kind == "b" and rest.count("_") == 1:
                first, _, second = rest.partition("_")
                self._by_pair[first, second] = row
            elif kind == "first":
                self._by_first[rest] = row
        bias = model["bias"]
        assert isinstance(bias, list)
        self.bias: tuple[float, ...] = tuple(float(b) for b in bias)

    @classmethod
    def load(cls, path: Path = _MODEL) -> ActTagger:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def totals(self, sentence: str) -> list[float]:
        """The log-odds of each act for one sentence (in the order of ``acts``): the bias plus
        ``scale`` times the sum of the sentence's whole-number weights (summed exactly, so the
        result does not depend on the order of the features)."""
        words = _TOKEN.findall(_DIGITS.sub("0", sentence.lower()))  # as feature_set's
        packed = (
            sum(filter(None, map(self._by_word.get, set(words))))
            + sum(filter(None, map(self._by_pair.get, set(itertools.pairwise(words)))))
            + self._by_first.get(words[0], 0)
            if words
            else 0
        )
        width = len(self.acts)
        fields = array("Q", packed.to_bytes(8 * (width + 1), sys.byteorder))
        offset = fields[width] * _OFFSET
        scale = self.scale
        return [
            bias + scale * (field - offset) for bias, field in zip(self.bias, fields, strict=False)
        ]

    def scores(self, sentence: str) -> dict[str, float]:
        """The probability of each act for one sentence."""
        return {act: _logistic(t) for act, t in zip(self.acts, self.totals(sentence), strict=True)}

    def probabilities(self, sentence: str, acts: Sequence[str]) -> tuple[float, ...]:
        """``scores(sentence)[act]`` of each of ``acts`` (0 for an act the tagger does not
        know), without working out the others."""
        totals = self.totals(sentence)
        at = self._at
        return tuple(_logistic(totals[at[act]]) if act in at else 0.0 for act in acts)

    def tag(self, sentence: str) -> frozenset[str]:
        """The acts of one sentence (probability at least one half; the likeliest when none is)."""
        totals = self.totals(sentence)
        # Away from zero the sign of the log-odds decides; near it, the probability as computed.
        found = frozenset(
            act
            for act, t in zip(self.acts, totals, strict=True)
            if t > _SURE or (t >= -_SURE and _logistic(t) >= 0.5)
        )
        if found:
            return found
        scores = {act: _logistic(t) for act, t in zip(self.acts, totals, strict=True)}
        return frozenset({max(scores, key=scores.__getitem__)})


def _logistic(t: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, t))))


_SURE = 1e-6
"""Log-odds this far from zero give a probability on the same side of one half."""
_OFFSET = 128
"""Added to every ``int8`` weight in a packed row, so that a field is never negative."""
_FIELD = 64
"""Bits per act in a packed row (read back as an array of unsigned 64-bit numbers): room for the
sum of 2**56 features' weights."""


@lru_cache(maxsize=1)
def tagger() -> ActTagger:
    """The shipped tagger (loaded once)."""
    return ActTagger.load()


@lru_cache(maxsize=32_768)
def message_acts(text: str) -> frozenset[str]:
    """The acts of a whole message: those of its sentences."""
    acts: set[str] = set()
    for sentence in split_sentences(text):
        acts |= sentence_acts(sentence.text)
    return frozenset(acts)


def analysis_acts(analysis: Analysis) -> frozenset[str]:
    """:func:`message_acts` of ``analysis.text``, from the sentences the analysis already cut:
    each claim knows its sentence, and a sentence's claims run from its start to its end, so
    the text is not split again. A partial analysis (over a budget) covers only part of the text:
    its text is split as :func:`message_acts` splits it."""
    if analysis.partial:
        return message_acts(analysis.text)
    text = analysis.text
    acts: set[str] = set()
    claims = analysis.claims
    count = len(claims)
    k = 0
    while k < count:
        first = claims[k]
        last = k
        while last + 1 < count and claims[last + 1].sentence == first.sentence:
            last += 1
        acts |= sentence_acts(text[first.span.start : claims[last].span.end])
        k = last + 1
    return frozenset(acts)


@lru_cache(maxsize=32_768)
def sentence_acts(sentence: str) -> frozenset[str]:
    """The shipped tagger's acts of one sentence (cached: closers and relayed answers recur in
    many messages)."""
    return tagger().tag(sentence)


def greeting(text: str) -> bool:
    """The message opens with a greeting: a salutation or a welcome ("Hi there, welcome to ...",
    "Good morning!") or the bot introducing itself ("I'm Ava, the energy assistant")."""
    return bool(_GREETING.search(text[:200]))
