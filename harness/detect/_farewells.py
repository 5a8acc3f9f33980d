"""User farewells: whether a user's words only say goodbye ("See you", "Have a nice day").

A logistic regression over the act tagger's features (:func:`harness.detect.acts.act_features`),
fitted on CLINC150's ``goodbye`` utterances and Schema-Guided Dialogue's closing user turns and
closing bot turns (about half of the farewells: users' farewells in SGD are mostly "that's all,
thanks", and users say what bots say when they leave) against every other CLINC150 utterance and
SGD user turn (train
splits; ``tools/detector/fit_goodbyes.py`` fits it and gives its figures). The weights ship as
``_models/goodbyes.json`` beside the words that two or more of those farewells hold.

Real farewells and real requests seldom share a phrase, so a phrase of one used in the other is
where a bag of words errs: "take care" is a farewell, "please take care of the refund" a request.
A text therefore reads as a farewell only when the model gives it at least one half *and* every
word of it is a farewell's word: a word no two farewells of the training material hold
("refund", "invoice") means the text asks for something a farewell does not. A request made only
of farewells' words still reads as one ("take care of my booking": users thank bots "for
booking").
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from harness.detect.acts import ActTagger

__all__ = ["FarewellReader", "farewell_words", "farewells"]

_MODEL = Path(__file__).resolve().parent / "_models" / "goodbyes.json"
_WORD = re.compile(r"[a-z]+|\d+")
_LEVEL = 0.5
"""The model's probability from which a text can read as a farewell."""


def farewell_words(text: str) -> list[str]:
    """The words of ``text`` as the tagger reads them (lower case, a run of digits as ``0``)."""
    return ["0" if w[0].isdigit() else w for w in _WORD.findall(text.lower())]


class FarewellReader:
    """The fitted farewell model and the farewells' words."""

    level = _LEVEL
    """The model's probability from which a text can read as a farewell."""

    def __init__(self, model: dict[str, object]) -> None:
        self.tagger = ActTagger(model)
        words = model["words"]
        assert isinstance(words, list)
        self.words = frozenset(str(w) for w in words)

    @classmethod
    def load(cls, path: Path = _MODEL) -> FarewellReader:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def probability(self, text: str) -> float:
        """The model's probability that ``text`` is a farewell."""
        (p,) = self.tagger.probabilities(text, ("GOODBYE",))
        return p

    def reads(self, text: str) -> bool:
        """``text`` reads as a farewell: the model gives it at least one half and every word of
        it is a farewell's."""
        words = farewell_words(text)
        return bool(words) and set(words) <= self.words and self.probability(text) >= self.level


@cache
def farewells() -> FarewellReader:
    """The shipped reader (loaded once)."""
    return FarewellReader.load()
