"""What a request and a bot sentence mean, for the missed-request check under ``--semantic``.

The shipped check judges by words, kinds of value and an association table counted on SGD; an
answer in another user's words for the same request ("what is latin for i love you" / "in
spanish, meet me tomorrow is said how") shares nothing it can read, and is flagged. With the
``embeddings`` extra's WordLlama or the ``minilm`` extra's MiniLM (an
:class:`~harness.detect.embeddings.Embedder` whose ``meaning_model`` names its own fitted
confidence in :data:`MEANING_MODELS`), the check reads how close in meaning each request is to
each sentence the bot sent, and a second finding confidence (:class:`SemanticConfidence`,
``_models/answers-semantic.json`` for WordLlama, ``_models/answers-semantic-minilm.json`` for
MiniLM, fitted by ``tools/detector/fit_answers.py --semantic [--embedder minilm]``) reads that
closeness beside the shipped :data:`~harness.detect.answers.FINDING_FEATURES`:

- ``meant_free``: the closest sentence the matching gave no request (a free sentence) to the
  request left out;
- ``meant_margin``: that sentence's closeness to this request less its closeness to the
  message's closest other request (the answer closest to request A is no evidence for B);
- ``meant_own``: some free sentence is closer to this request than to any other request, one
  sentence per request (a per-message assignment by meaning);
- ``meant_any``: the closest sentence of all, taken or free;
- ``meant_message`` and ``meant_message_margin``: the closest message none of whose sentences
  the matching took, and its margin over the other requests.

WordLlama's confidence is a logistic regression over them; MiniLM's (since s50-check) is
gradient-boosted trees, which read how the features go together (a free sentence close in meaning
counts when no rival request is as close to it), its two levels chosen on out-of-fold confidences.
The matcher (which sentence may answer which request) is the shipped one, unchanged: meaning
only says how sure a request it leaves out is unanswered, so a finding can be withheld but never
made. Without an embedder nothing here runs and the check is the default one.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import mul
from pathlib import Path

from harness.detect._answer_findings import FINDING_FEATURES
from harness.detect._bound import Node, compile_forest, parse_tree
from harness.detect.answers import _logistic

__all__ = [
    "MEANING_FEATURES",
    "MEANING_MODELS",
    "Closeness",
    "Meanings",
    "SemanticConfidence",
    "WantedTexts",
    "meaning_features",
    "messages_of",
    "semantic_confidence",
]

_MODELS = Path(__file__).resolve().parent / "_models"
_MODEL = _MODELS / "answers-semantic.json"

MEANING_MODELS = {"wordllama": _MODEL, "minilm": _MODELS / "answers-semantic-minilm.json"}
"""The fitted semantic finding confidence of each embedder the check reads (its
``meaning_model``): each was fitted on its own model's cosines, whose scales differ."""

MEANING_FEATURES = (
    "meant_free",
    "meant_margin",
    "meant_own",
    "meant_any",
    "meant_message",
    "meant_message_margin",
)
"""The features of meaning appended to the finding features (see the module's docstring)."""

Encode = Callable[[Sequence[str]], Sequence[Sequence[float]]]
"""Texts to vectors, in order, synchronously."""


class Meanings:
    """Unit vectors of texts: looked up in ``vectors`` (embedded beforehand, as ``detect``
    does for a transcript), else made by ``encode`` and kept (a measurement's many turns).

    ``strict``: a text neither embedded nor encodable raises :class:`KeyError` (``detect``
    embeds exactly the texts the check judges, so one it did not is a fault, which would
    otherwise read as a text that means nothing: cosine 0, a surer finding). ``model``: the
    embedder the vectors come from (a key of :data:`MEANING_MODELS`), which says which fitted
    confidence reads them."""

    def __init__(
        self,
        vectors: Mapping[str, Sequence[float]] | None = None,
        *,
        encode: Encode | None = None,
        strict: bool = False,
        model: str = "wordllama",
    ) -> None:
        if model not in MEANING_MODELS:
            raise ValueError(
                f"no semantic finding confidence for {model!r}: {list(MEANING_MODELS)}"
            )
        self.model = model
        self._vectors: dict[str, Sequence[float]] = {
            text: _unit(vector) for text, vector in (vectors or {}).items()
        }
        self._encode = encode
        self._strict = strict

    def vectors(self, texts: Sequence[str]) -> list[Sequence[float]]:
        """The unit vector of each text (not strict: an empty vector, so cosine 0, for a text
        neither embedded nor encodable)."""
        wanted = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if wanted and self._encode is not None:
            for text, vector in zip(wanted, self._encode(wanted), strict=True):
                self._vectors[text] = _unit(vector)
        elif wanted and self._strict:
            raise KeyError(f"no vector for {len(wanted)} text(s) the check reads: {wanted[0]!r}")
        return [self._vectors.get(t, ()) for t in texts]

    def cosines(self, requests: Sequence[str], claims: Sequence[str]) -> list[list[float]]:
        """``c[i][j]``: the cosine of request ``i`` and sentence ``j``."""
        rows = self.vectors(requests)
        columns = self.vectors(claims)
        return [[sum(map(mul, r, c)) for c in columns] for r in rows]


class WantedTexts(Meanings):
    """A stand-in :class:`Meanings` that notes each text the check asks the vector of and
    answers with an empty one (cosine 0): run the check with it to learn which texts it reads
    (only turns where the matching leaves a request out read any), then embed only those."""

    def __init__(self, *, model: str = "wordllama") -> None:
        super().__init__(model=model)
        self.wanted: dict[str, None] = {}
        """The texts asked for, once each, in the order first asked."""

    def vectors(self, texts: Sequence[str]) -> list[Sequence[float]]:
        self.wanted.update(dict.fromkeys(texts))
        return [() for _ in texts]


def _unit(vector: Sequence[float]) -> array[float]:
    # Kept as doubles in an array (8 bytes each, not a 32-byte float object and its pointer):
    # the same values, summed in the same order by ``cosines``, so the same findings.
    norm = sum(x * x for x in vector) ** 0.5 or 1.0
    return array("d", [x / norm for x in vector])


def messages_of(claims: Sequence[str], opens: Sequence[bool]) -> tuple[list[str], list[int]]:
    """The bot's messages as the check reads them (their sentences joined), and the message of
    each sentence (``opens[j]``: sentence ``j`` opens its message)."""
    texts: list[list[str]] = []
    groups: list[int] = []
    for claim, first in zip(claims, opens, strict=True):
        if first or not texts:
            texts.append([])
        texts[-1].append(claim)
        groups.append(len(texts) - 1)
    return [" ".join(parts) for parts in texts], groups


@dataclass(frozen=True, slots=True)
class Closeness:
    """How close in meaning each request of a turn is to each sentence and each message."""

    sentences: list[list[float]]
    """``sentences[i][j]``: the cosine of request ``i`` and sentence ``j``."""
    messages: list[list[float]]
    """``messages[i][g]``: the cosine of request ``i`` and message ``g``."""
    groups: list[int]
    """The message of each sentence."""

    @classmethod
    def of(
        cls,
        meanings: Meanings,
        requests: Sequence[str],
        claims: Sequence[str],
        opens: Sequence[bool],
    ) -> Closeness:
        texts, groups = messages_of(claims, opens)
        return cls(meanings.cosines(requests, claims), meanings.cosines(requests, texts), groups)


def meaning_features(closeness: Closeness, owner: Mapping[int, int], row: int) -> list[float]:
    """The :data:`MEANING_FEATURES` of request ``row``, left out by the matching ``owner``
    (sentence -> request)."""
    cosines = closeness.sentences
    mine = cosines[row]
    columns = range(len(mine))
    free = [j for j in columns if j not in owner]
    others = [k for k in range(len(cosines)) if k != row]

    def rival(j: int) -> float:
        return max((cosines[k][j] for k in others), default=0.0)

    best_free = max(free, key=lambda j: mine[j], default=None)
    own = 0.0
    if free:
        # Free sentences go to the request each is closest to; this one's, if any, is its own.
        closest = {j: max(range(len(cosines)), key=lambda k: cosines[k][j]) for j in free}
        own = 1.0 if any(k == row for k in closest.values()) else 0.0
    # A message none of whose sentences the matching took: the answer of a request left out,
    # or a closer, or a message about something else.
    taken = {closeness.groups[j] for j in owner}
    whole = closeness.messages
    free_messages = [g for g in range(len(whole[row])) if g not in taken]
    best_message = max(free_messages, key=lambda g: whole[row][g], default=None)
    message_rival = (
        max((whole[k][best_message] for k in others), default=0.0)
        if best_message is not None
        else 0.0
    )
    return [
        mine[best_free] if best_free is not None else 0.0,
        mine[best_free] - rival(best_free) if best_free is not None else 0.0,
        own,
        max(mine, default=0.0),
        whole[row][best_message] if best_message is not None else 0.0,
        whole[row][best_message] - message_rival if best_message is not None else 0.0,
    ]


_SIZE = len(FINDING_FEATURES) + len(MEANING_FEATURES)
"""The length of the vector the confidence reads."""


def _number(raw: object, where: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ValueError(f"{where}: {raw!r} is not a finite number")
    return float(raw)


@dataclass(frozen=True, slots=True)
class SemanticConfidence:
    """The finding confidence under ``--semantic``: a logistic regression over the shipped
    finding features followed by :data:`MEANING_FEATURES`, or gradient-boosted trees over them
    (``trees``: their log-odds summed from ``base``), and its two levels."""

    weights: tuple[float, ...]
    bias: float
    release_threshold: float
    """Below this confidence a request left out is not reported at all under ``--semantic``
    (the every-finding check), chosen on the development sets for the fewest false alarms plus
    drops missed."""
    report_threshold: float
    """The abstaining ("sure") check's level under ``--semantic``: at most 1 % of the
    development sets' fully answered turns flagged, taken together."""
    trees: tuple[Node, ...] = ()
    """Gradient-boosted trees over the same features (none: the logistic regression is read).
    Trees read how the features go together: a free sentence close in meaning to the request
    says more when no other request is as close and the matching left nothing else out."""
    base: float = 0.0
    """The trees' starting log-odds."""
    _forest: Callable[[Sequence[float]], float] | None = field(
        default=None, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if self.trees and self._forest is None:  # compiled once, not at every call
            object.__setattr__(self, "_forest", compile_forest(self.trees))

    @classmethod
    def load(cls, path: Path = _MODEL) -> SemanticConfidence:
        """The fitted file: exactly one of non-empty ``trees`` or ``weights`` (one a feature), and
        both levels. A malformed file raises :class:`ValueError` naming it and the bad part."""
        raw = json.loads(path.read_text(encoding="utf-8"))
        try:
            return cls._parsed(raw)
        except KeyError as error:
            raise ValueError(f"{path}: missing key {error}") from None
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}: {error}") from None

    @classmethod
    def _parsed(cls, raw: object) -> SemanticConfidence:
        if not isinstance(raw, dict):
            raise ValueError("the file must hold an object")
        if raw.get("features") != [*FINDING_FEATURES, *MEANING_FEATURES]:
            raise ValueError(f"fitted on other features: {raw.get('features')}")
        trees, weights = raw.get("trees") or [], raw.get("weights") or []
        if not isinstance(trees, list) or not isinstance(weights, list):
            raise ValueError("trees and weights must be lists")
        if bool(trees) == bool(weights):
            raise ValueError("it needs exactly one of non-empty trees or weights")
        if weights and len(weights) != _SIZE:
            raise ValueError(f"{len(weights)} weights for {_SIZE} features")
        return cls(
            weights=tuple(_number(w, "weights") for w in weights),
            bias=_number(raw.get("bias", 0.0), "bias"),
            release_threshold=_number(raw["release_threshold"], "release_threshold"),
            report_threshold=_number(raw["report_threshold"], "report_threshold"),
            trees=tuple(parse_tree(t, _SIZE, f"trees[{i}]") for i, t in enumerate(trees)),
            base=_number(raw.get("base", 0.0), "base"),
        )

    def __call__(self, x: Sequence[float]) -> float:
        """How sure a request left out (its finding and meaning features) is unanswered."""
        if self._forest is not None:
            if len(x) != _SIZE:  # the trees index the vector: a short one would misread
                raise ValueError(f"{len(x)} features given, the trees read {_SIZE}")
            return _logistic(self.base + self._forest(x))
        return _logistic(self.bias + sum(w * v for w, v in zip(self.weights, x, strict=True)))


@cache
def semantic_confidence(model: str = "wordllama") -> SemanticConfidence:
    """The shipped semantic finding confidence of one embedder (:data:`MEANING_MODELS`)."""
    return SemanticConfidence.load(MEANING_MODELS[model])
