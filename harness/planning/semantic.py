"""Optional: routing by sentence embeddings, for the offline planner (``RulesPlanner(embedder=...)``).

The agent texts of ``harness.planning.match.agent_texts`` are embedded once per set of agents; a
request goes to the agent whose three closest texts are closest on average, with the lexical
matcher's score added at ``LEXICAL_WEIGHT`` (it still separates agents that the embedding puts
side by side). Any embedder with ``async embed(texts)`` works, such as
``harness.detect.embeddings.LocalEmbedder`` (the ``embeddings`` extra: WordLlama, offline) or
``MiniLMEmbedder`` (the ``minilm`` extra). Two models' cosines are on different scales, so the
lexical weight is the embedder's own where one was chosen for it (``LEXICAL_WEIGHTS``, by its
``meaning_model``). Without the extra the planner keeps routing with the lexical matcher alone
(``RulesPlanner`` says so once, in a warning).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from harness.models.base import AgentCard
from harness.planning.concepts import ConceptTable
from harness.planning.match import AgentMatcher, agent_matcher, agent_texts

__all__ = [
    "LEXICAL_WEIGHT",
    "LEXICAL_WEIGHTS",
    "SemanticMatcher",
    "TextEmbedder",
    "lexical_weight_for",
]

LEXICAL_WEIGHT = 1.0
"""How much the lexical matcher's score (its per-bot classifier and concept table included) adds to
the embedding score: the best mean accuracy over the two development sets, CLINC dev and SGD train,
with ``python -m tests.planning.routing_eval --embeddings --tune-lexical`` (WordLlama, the
``embeddings`` extra's model; 0.25 before the concept table, 0.05 when it was chosen on CLINC dev
alone, before the classifier). The weight for an embedder ``LEXICAL_WEIGHTS`` does not name."""

LEXICAL_WEIGHTS: Mapping[str, float] = {"minilm": 0.5}
"""The lexical weight per embedder, by its ``meaning_model`` (``harness.detect.embeddings``):
all-MiniLM-L6-v2's cosines are on another scale than WordLlama's, and it tells the agents of a bot
whose subject the concept table never saw apart better than the words do, so its weight is lower
(the best mean accuracy over the two development sets, CLINC dev and SGD train, on
``routing_eval``'s grid of 0.0 to 1.0; docs/journal/models.md, "A new bot with MiniLM: its own
lexical weight"). An embedder this table does not name gets ``LEXICAL_WEIGHT``; ``RulesPlanner(...,
lexical_weight=)`` sets one of your own."""

_TOP = 3


class TextEmbedder(Protocol):
    """Turns texts into vectors (``harness.detect.embeddings.Embedder`` is one)."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...


def lexical_weight_for(embedder: object) -> float:
    """The lexical weight for ``embedder``: its ``meaning_model``'s in ``LEXICAL_WEIGHTS``, else
    ``LEXICAL_WEIGHT``."""
    name = getattr(embedder, "meaning_model", None)
    return LEXICAL_WEIGHTS.get(name, LEXICAL_WEIGHT) if isinstance(name, str) else LEXICAL_WEIGHT


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class SemanticMatcher:
    """Picks the agent of each request by embeddings plus the lexical matcher (module docstring).

    Build it with ``await SemanticMatcher.build(cards, embedder)``.
    """

    def __init__(
        self,
        cards: Sequence[AgentCard],
        vectors: Sequence[Sequence[Sequence[float]]],
        embedder: TextEmbedder,
        lexical: AgentMatcher,
        *,
        lexical_weight: float | None = None,
    ) -> None:
        if lexical_weight is None:
            lexical_weight = lexical_weight_for(embedder)
        self.lexical_weight = lexical_weight
        """How much the lexical matcher's score adds (by default the embedder's own,
        ``lexical_weight_for``)."""
        self._names = [card.name for card in cards]
        self._vectors = [[_unit(v) for v in per_agent] for per_agent in vectors]
        self.vectors = vectors
        """Per agent, the embeddings of its texts (as given)."""
        self._embedder = embedder
        self._lexical = lexical

    @classmethod
    async def build(
        cls,
        cards: Sequence[AgentCard],
        embedder: TextEmbedder,
        *,
        concepts: ConceptTable | bool = True,
        lexical_weight: float | None = None,
    ) -> SemanticMatcher:
        """Embed every agent's texts (one ``embed`` call); ``concepts`` as for ``AgentMatcher``,
        ``lexical_weight`` the embedder's own (``lexical_weight_for``) unless given."""
        texts = [agent_texts(card) for card in cards]
        flat = await embedder.embed([t for per_agent in texts for t in per_agent])
        vectors: list[list[list[float]]] = []
        start = 0
        for per_agent in texts:
            vectors.append(flat[start : start + len(per_agent)])
            start += len(per_agent)
        lexical = agent_matcher(tuple(cards), concepts=concepts)
        return cls(cards, vectors, embedder, lexical, lexical_weight=lexical_weight)

    async def scores(self, requests: Sequence[str]) -> list[list[tuple[str, float]]]:
        """(name, score) per agent, best first, for each request (one ``embed`` call)."""
        if not requests:
            return []
        embedded = await self._embedder.embed(list(requests))
        out = []
        for text, vector in zip(requests, embedded, strict=True):
            unit = _unit(vector)
            lexical = dict(self._lexical.scores(text))
            ranked = []
            for name, texts in zip(self._names, self._vectors, strict=True):
                cosines = sorted(
                    (sum(a * b for a, b in zip(unit, t, strict=True)) for t in texts), reverse=True
                )
                semantic = sum(cosines[:_TOP]) / _TOP if cosines else 0.0
                ranked.append((name, semantic + self.lexical_weight * lexical.get(name, 0.0)))
            ranked.sort(key=lambda item: -item[1])
            out.append(ranked)
        return out
