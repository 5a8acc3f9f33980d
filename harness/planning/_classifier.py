"""A per-bot text classifier with the sub-agents as its classes, fitted on the bot's own texts.

The matcher (``harness.planning.match``) compares a request with each agent's texts one by one. This
classifier learns from the same texts which words tell the agents apart: a multinomial logistic
regression over TF-IDF vectors of stemmed words (function words included: "when" and "how much"
ask different things) and of adjacent word pairs. It is fitted once per set of agents, when the
matcher is built, by stochastic gradient descent with a fixed number of passes and a fixed order, so
the same bot always gets the same weights. Pure Python: a bot of 217 texts over seven agents fits in about 0.1 s of CPU (once, cached with
the matcher), and a request costs one sparse dot product per feature.

Each agent's texts weigh the same in total, whatever their number: an agent with six examples is
not outvoted by one with forty-five.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from harness.models._text import content_tokens
from harness.text.words import stem

__all__ = ["AgentClassifier"]

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

L2 = 1e-3
"""L2 regularisation strength (picked on the development split of the labelled set)."""
PASSES = 5
"""Passes of stochastic gradient descent over the texts."""
STEP = 0.5
"""The first step size; it decays as ``STEP / (1 + STEP * L2 * t)``."""
_SKIP = 1e-4  # a class whose gradient is smaller than this is not updated (sparse updates)


def features(text: str) -> Counter[str]:
    """Stemmed words (bare numbers dropped) and adjacent pairs of them."""
    words = [stem(w.split("'")[0]) for w in _WORD.findall(text.lower().replace("’", "'"))]
    words = [w for w in words if w and not w.isdigit()]
    out: Counter[str] = Counter(words)
    out.update(f"{a} {b}" for a, b in pairwise(words))
    return out


class AgentClassifier:
    """Which of ``classes`` a text belongs to, learnt from ``texts`` (see the module docstring).

    Args:
        texts: (class index, text) pairs: each agent's own texts.
        classes: how many classes (agents) there are.
    """

    def __init__(self, texts: Sequence[tuple[int, str]], classes: int) -> None:
        self.classes = classes
        rows = [(label, features(text)) for label, text in texts]
        rows = [(label, counts) for label, counts in rows if counts]
        df: Counter[str] = Counter(f for _, counts in rows for f in counts)
        n = len(rows)
        self._idf = {f: math.log((n + 1) / (k + 1)) + 1.0 for f, k in df.items()}
        self._weights: dict[str, list[float]] = {}
        self._bias = [0.0] * classes
        if n and classes > 1:
            self._fit([(label, self._vector(counts)) for label, counts in rows])

    def _vector(self, counts: Counter[str]) -> dict[str, float]:
        vector = {
            f: (1.0 + math.log(k)) * self._idf[f] for f, k in counts.items() if f in self._idf
        }
        norm = math.sqrt(sum(x * x for x in vector.values())) or 1.0
        return {f: x / norm for f, x in vector.items()}

    def _fit(self, rows: list[tuple[int, dict[str, float]]]) -> None:
        classes = self.classes
        per_class = Counter(label for label, _ in rows)
        balance = {c: len(rows) / (classes * k) for c, k in per_class.items()}
        weights = self._weights
        for _, vector in rows:
            for f in vector:
                weights.setdefault(f, [0.0] * classes)
        bias = self._bias
        # L2 shrinkage as one running scale (the stored weights times ``scale`` are the weights).
        scale = 1.0
        order = list(range(len(rows)))
        shuffle = random.Random(0).shuffle
        t = 0
        for _ in range(PASSES):
            shuffle(order)
            for i in order:
                label, vector = rows[i]
                t += 1
                eta = STEP / (1.0 + STEP * L2 * t)
                scale *= 1.0 - eta * L2
                logits = list(bias)
                for f, x in vector.items():
                    column = weights[f]
                    for c in range(classes):
                        logits[c] += scale * column[c] * x
                top = max(logits)
                exps = [math.exp(z - top) for z in logits]
                total = sum(exps)
                for c in range(classes):
                    gradient = (exps[c] / total - (c == label)) * balance[label]
                    if -_SKIP < gradient < _SKIP:
                        continue
                    step = eta * gradient / scale
                    for f, x in vector.items():
                        weights[f][c] -= step * x
                    bias[c] -= 0.1 * eta * gradient
                if scale < 1e-6:
                    for column in weights.values():
                        for c in range(classes):
                            column[c] *= scale
                    scale = 1.0
        for column in weights.values():
            for c in range(classes):
                column[c] *= scale

    def probabilities(self, text: str) -> list[float]:
        """The probability of each class for ``text``; all 0 when none of its content words (the
        words ``harness.models._text.content_tokens`` keeps) occurs in the bot's texts."""
        vector = self._vector(features(text))
        if not any(t in vector for t in content_tokens(text)):
            # Function words alone ("what is my") are no evidence: in a small bot they may
            # all come from one agent's examples.
            return [0.0] * self.classes
        logits = list(self._bias)
        for f, x in vector.items():
            column = self._weights.get(f)
            if column is not None:
                for c in range(self.classes):
                    logits[c] += column[c] * x
        top = max(logits, default=0.0)
        exps = [math.exp(z - top) for z in logits]
        total = sum(exps) or 1.0
        return [e / total for e in exps]
