"""A learned second look at the check's segmenter: whether two neighbouring pieces of a user's
message are one request cut in two.

The segmenter (:func:`~harness.detect.requests.segment_requests`) cuts by closed classes of
English and keeps a statement and what it leads to together by rules (``_together``). Some cuts
it makes still fall inside one request: a refinement after a comma ("I'd like a taxi for two
please, a shared ride"), a question that points back at the request before it ("tell me about my
application; did it go through"), a statement of why before what is asked ("I'm going to travel
soon, and I need a ticket ..."). Each such cut makes a piece the bot's answer may not address, a
false "missed request" on a turn that answered everything.

A logistic regression over a few features of the cut (the first words after it, the last word
before it, the punctuation and "and" between, a word pointing back, the pieces' lengths, shared
content words) gives how likely the two pieces are one request; pieces at least
:attr:`RejoinModel.threshold` likely are joined. The weights ship in ``_models/rejoin.json``,
fitted by ``tools/detector/fit_rejoin.py`` on the multi-intent development sets' labelled
requests (the builders know the true cuts), the threshold chosen on folds that share no request;
docs/journal/simulate.md gives the figures. Inference is a dictionary lookup per feature."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from harness.text import content_words

if TYPE_CHECKING:
    from harness.detect.requests import Request

__all__ = ["RejoinModel", "cut_features", "rejoin_model", "rejoined"]

_MODEL = Path(__file__).resolve().parent / "_models" / "rejoin.json"

_WORD = re.compile(r"[a-z0-9']+")
_MARKS = frozenset(",.;?!:-")
# Words that point back at something said before them.
_BACK = frozenset(
    [
        "it",
        "its",
        "that",
        "this",
        "there",
        "them",
        "they",
        "their",
        "one",
        "those",
        "these",
        "he",
        "she",
        "him",
        "her",
    ]
)


def cut_features(message: str, before: Request, after: Request) -> list[str]:
    """The features of the cut between two neighbouring pieces of ``message``."""
    left = message[before.start : before.end].lower()
    right = message[after.start : after.end].lower()
    between = message[before.end : after.start].lower()
    lw = _WORD.findall(left)
    rw = _WORD.findall(right)
    marks = "".join(ch for ch in between if ch in _MARKS)[:2]
    out = [
        "b1:" + (rw[0] if rw else ""),
        "b2:" + " ".join(rw[:2]),
        "a1:" + (lw[-1] if lw else ""),
        "bt:" + marks + ("+and" if "and" in _WORD.findall(between) else ""),
        f"rlen:{min(len(rw), 8)}",
        f"llen:{min(len(lw), 12)}",
    ]
    if _BACK.intersection(rw):
        out.append("back")
    if rw and rw[0] in _BACK:
        out.append("back0")
    if content_words(left) & content_words(right):
        out.append("shared")
    if right.rstrip().endswith("?"):
        out.append("rq")
    return out


@dataclass(frozen=True, slots=True)
class RejoinModel:
    """A fitted logistic regression over :func:`cut_features` and the level it joins from."""

    weights: dict[str, float]
    bias: float
    threshold: float
    """The least probability at which two pieces are joined."""

    @classmethod
    def load(cls, path: Path = _MODEL) -> RejoinModel:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            weights={str(k): float(v) for k, v in raw["weights"].items()},
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
        )

    def probability(self, message: str, before: Request, after: Request) -> float:
        """How likely ``before`` and ``after`` (neighbours in ``message``) are one request."""
        weights = self.weights
        z = self.bias + sum(weights.get(f, 0.0) for f in cut_features(message, before, after))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def rejoin_model() -> RejoinModel:
    """The shipped model (``_models/rejoin.json``)."""
    return RejoinModel.load()


def rejoined(
    message: str, requests: Sequence[Request], model: RejoinModel | None = None
) -> list[Request]:
    """``requests`` (of ``message``, in order) with each piece the model finds likely enough to
    be one request with the piece before it joined to it. Words said once for two requests
    (carried over or back) keep their pieces apart."""
    model = model or rejoin_model()
    out: list[Request] = []
    last: Request | None = None  # the piece before, as cut (the run's last)
    for after in requests:
        if (
            out
            and last is not None
            and not (last.carried_after or after.carried or after.carried_after)
            and model.probability(message, last, after) >= model.threshold
        ):
            first = out[-1]
            out[-1] = replace(
                first, text=first.text + message[first.end : after.end], end=after.end
            )
        else:
            out.append(after)
        last = after
    return out
