"""How the offline planner picks the agent for one request: the request against each sub-agent's
own words, with no model.

A sub-agent is known by what its author wrote: its name, its description, the sentences of its
instructions that say what it does (negated sentences, "never handle refunds", are left out), its
tools' names and descriptions, and its example requests. Each of those is a short text of the
agent's. A request is compared with every text in two ways, both general:

- TF-IDF cosine over content words (stemmed, stop words dropped), the IDF computed over this bot's
  own texts, so a word every agent uses weighs little and a word one agent owns weighs a lot;
- character-trigram overlap of the same words, so "calander", "vacations" and "W2" still meet
  "calendar", "vacation" and "W-2".

Per agent, the best text and the mean of its three best texts count (one lucky example is weaker
evidence than several close ones), plus the cosine with all of the agent's words together and the
share of the request's distinctive words the agent uses at all. ``WEIGHTS`` combine these seven
figures into one score (``CONCEPT_WEIGHTS`` for a bot the concept table knows; for such a bot a
word's IDF is also multiplied by how much of its use in real requests is one intent's,
``FOCUS_POWER``, so a word many topics share weighs less between agents whose topics overlap, and
an agent's closeness by meaning is scaled by how close its own texts are to each other,
``COHERENCE_POWER``, so an agent whose subject the table never saw is not outshone by a neighbour
it knows well; a request that uses a word of the bot's own texts the table never saw is scored
with ``WEIGHTS``, ``AgentMatcher.blind``); they were tuned on the development half of the labelled
multi-intent set only
(docs/journal/models.md, "Which agent: the matcher", gives the held-out figures and how they
were measured; docs/models.md the current ones).

A request that shares nothing with any agent (every score 0, or the best under ``minimum``) goes
nowhere here: the planner then gives it to the parent, as a visible entry of its own. Whether a
request goes to a sub-agent at all is decided before (``RulesPlanner``): by the rules model's router,
then by ``harness.planning.scope`` over the matcher's ``scope_figures``; the matcher picks which one.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from harness.models._choice import agent_router
from harness.models.base import AgentCard
from harness.planning._classifier import AgentClassifier
from harness.planning.concepts import ConceptTable, leave_one_out, shipped_table, tokens, unit
from harness.planning.scope import CONCEPTS, PLAIN, ScopeModel, in_scope_probability
from harness.planning.split import asks_something
from harness.text import split_sentences
from harness.text.words import NEGATIONS, keyword_texts, words_of_name

__all__ = [
    "COHERENCE_POWER",
    "CONCEPT_WEIGHTS",
    "FEATURES",
    "FOCUS_POWER",
    "WEIGHTS",
    "AgentMatcher",
    "agent_matcher",
    "agent_texts",
    "coherence",
]

FEATURES = (
    "agent_words_share",
    "best_text_cosine",
    "top3_text_cosine",
    "agent_cosine",
    "best_text_trigrams",
    "top3_text_trigrams",
    "agent_trigram_share",
    "classifier_probability",
    "top3_text_concepts",
)
"""The figures compared per agent, in the order of ``WEIGHTS``."""

WEIGHTS = (0.2, 0.4, 0.0, 1.6, 0.45, 0.25, 0.3, 0.7, 0.0)
"""How much each of ``FEATURES`` counts for a bot the concept table does not know (coordinate
search on the development split only, before the table)."""

CONCEPT_WEIGHTS = (0.0, 0.0, 0.0, 1.5, 0.5, 0.25, 0.0, 0.7, 1.5)
"""How much each of ``FEATURES`` counts for a bot the concept table knows (``concepts``)."""

COHERENCE_POWER = 0.5
"""For a bot the concept table knows, each agent's ``top3_text_concepts`` is scaled by (the bot's
mean coherence / the agent's own) to this power: an agent's coherence is how close in meaning its
texts are to each other (``coherence``). The texts of an agent whose subject the table never saw
point at whatever intents their words happen to share, so they are far from each other and from
its requests alike; without the scaling, a neighbour the table knows well (a cinema agent beside a
streaming one) wins its requests (chosen on the development sets: a new bot's domain left out of
the table 79.4 to 83.4 % routed right by the matcher, CLINC dev and SGD train unchanged; 1.0 gave
CLINC dev 97.6 %, SGD train 89.5 %; docs/journal/models.md)."""

FOCUS_POWER = 0.75
"""For a bot the concept table knows, each of its words weighs its IDF times the word's
``ConceptTable.focus`` to this power: "card", used by the requests of many intents, counts less than
"fraudulent", used by one (chosen on the two development sets, CLINC dev and SGD train: 0.5 to 1
all gain there, docs/journal/models.md)."""

_TOP = 3
_LEAST_COHERENCE = 0.05
_SHARE = FEATURES.index("agent_words_share")
_BEST_COSINE = FEATURES.index("best_text_cosine")
_PROBABILITY = FEATURES.index("classifier_probability")
_WORD = re.compile(r"[a-z0-9']+")


def agent_texts(card: AgentCard) -> list[str]:
    """The short texts that say what ``card``'s agent does, as its author wrote them."""
    texts = [words_of_name(card.name), card.description]
    for sentence in split_sentences(card.instructions):
        words = set(_WORD.findall(sentence.text.lower()))
        if not words & NEGATIONS:
            texts.append(sentence.text)
    texts += [t for k in card.keywords for t in keyword_texts(k)]
    texts += [_asking_part(e) for e in card.examples]
    return [t for t in texts if t and t.strip()]


def _described_texts(card: AgentCard) -> list[str]:
    """What ``card``'s author wrote to say what its agent does: its name, its description and
    its tools' names and descriptions (``agent_texts`` without the instructions and examples)."""
    return [
        words_of_name(card.name),
        card.description,
        *(t for k in card.keywords for t in keyword_texts(k)),
    ]


def _asking_part(example: str) -> str:
    """An example request without its sentences that ask nothing: one taken from a real turn
    often opens with an acknowledgement ("That sounds great. Can you find me a bus?"), whose
    words say nothing about the agent (the whole example when no sentence asks anything)."""
    sentences = split_sentences(example)
    if len(sentences) < 2:
        return example
    kept = [s.text for s in sentences if asks_something(s.text, reactions=False)]
    return " ".join(kept) if kept else example


def _trigrams(words: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for token in words:
        padded = f" {token} "
        out.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(out)


def _cosine(a: dict[str, float], b: dict[str, float], norm_b: float) -> float:
    if len(a) > len(b):
        dot = sum(w * a[t] for t, w in b.items() if t in a)
    else:
        dot = sum(w * b[t] for t, w in a.items() if t in b)
    if not dot:
        return 0.0
    norm_a = math.sqrt(sum(w * w for w in a.values()))
    return dot / (norm_a * norm_b)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def _top_mean(values: list[float]) -> float:
    best = sorted(values, reverse=True)[:_TOP]
    return sum(best) / _TOP if best else 0.0


@dataclass(frozen=True, slots=True)
class _Text:
    vector: dict[str, float]
    norm: float
    grams: frozenset[str]


class AgentMatcher:
    """Scores a request against each sub-agent's texts (``agent_texts``); see the module docstring.

    Args:
        cards: the sub-agents.
        minimum: the lowest score that still routes to a sub-agent.
    """

    def __init__(
        self,
        cards: Sequence[AgentCard],
        *,
        minimum: float = 0.0,
        concepts: ConceptTable | bool = True,
    ) -> None:
        self.minimum = minimum
        self._names = [card.name for card in cards]
        per_agent = [[tokens(t) for t in agent_texts(card)] for card in cards]
        documents = [words for texts in per_agent for words in texts]
        df: Counter[str] = Counter(t for words in documents for t in set(words))
        n = len(documents)
        self._idf = {t: math.log((n + 1) / (k + 1)) + 1.0 for t, k in df.items()}
        self._unseen = math.log(n + 1) + 1.0
        agents_df: Counter[str] = Counter(
            t for texts in per_agent for t in {t for words in texts for t in words}
        )
        count = max(len(cards), 1)
        self._agent_idf = {t: math.log(1 + count / k) for t, k in agents_df.items()}
        self._texts: list[list[_Text]] = []
        self._agents: list[_Text] = []
        self._bags = [frozenset(t for words in texts for t in words) for texts in per_agent]
        self._described = [
            frozenset(t for text in _described_texts(card) for t in tokens(text)) for card in cards
        ]
        self._index = {name: i for i, name in enumerate(self._names)}
        self._build(per_agent)
        self._classifier = AgentClassifier(
            [(i, text) for i, card in enumerate(cards) for text in agent_texts(card)], len(cards)
        )
        self._router = agent_router(tuple(cards))
        self._memo: dict[str, tuple[tuple[str, float, tuple[float, ...]], ...]] = {}
        self._concepts: ConceptTable | None = None
        # Per intent, the (agent, text, weight) of every agent text that has it: a request's
        # closeness to all texts is then one pass over its own intents.
        self._postings: dict[int, list[tuple[int, int, float]]] = {}
        self._sizes: list[int] = []
        self._scale: list[float] = []
        self.weights = WEIGHTS
        """The ``FEATURES`` weights this bot's scores use (``CONCEPT_WEIGHTS`` when the concept
        table knows the bot, else ``WEIGHTS``)."""
        table = shipped_table() if concepts is True else concepts or None
        if table is not None and len(cards) > 1:
            vectors = [
                [v for v in (table.vector(words, self._weight) for words in texts) if v]
                for texts in per_agent
            ]
            lexical = [[unit(t.vector) for t in texts] for texts in self._texts]
            if leave_one_out(vectors) > leave_one_out(lexical):
                self._use(table, per_agent)

    def _build(self, per_agent: Sequence[Sequence[Sequence[str]]]) -> None:
        """Each text's and each agent's word vector under the current word weights."""
        self._texts = [[self._text(words) for words in texts if words] for texts in per_agent]
        self._agents = [self._text([t for words in texts for t in words]) for texts in per_agent]

    def _use(self, table: ConceptTable, per_agent: Sequence[Sequence[Sequence[str]]]) -> None:
        """Route with ``table``: its ``focus`` sharpens the word weights (a word the bot's texts
        use weighs its IDF times its focus to the power ``FOCUS_POWER``), and every text gets its
        vector over the table's intents."""
        self._idf = {t: x * table.focus(t) ** FOCUS_POWER for t, x in self._idf.items()}
        self._build(per_agent)
        vectors = [
            [v for v in (table.vector(words, self._weight) for words in texts) if v]
            for texts in per_agent
        ]
        self._concepts, self._sizes = table, [len(per) for per in vectors]
        for a, per in enumerate(vectors):
            for i, vector in enumerate(per):
                for k, x in vector.items():
                    self._postings.setdefault(k, []).append((a, i, x))
        own = [None if c is None else max(c, _LEAST_COHERENCE) for c in coherence(vectors)]
        known = [c for c in own if c is not None]
        mean = sum(known) / len(known) if known else 1.0
        # An agent with one text has no coherence to go by: its closeness is left as it is.
        self._scale = [1.0 if c is None else (mean / c) ** COHERENCE_POWER for c in own]
        self.weights = CONCEPT_WEIGHTS

    @property
    def uses_concepts(self) -> bool:
        """Whether the concept table knows this bot (``harness.planning.concepts``): it tells the
        bot's own texts apart better than their words do, so ``top3_text_concepts`` counts."""
        return self._concepts is not None

    def _weight(self, word: str) -> float:
        return self._idf.get(word, self._unseen)

    def _vector(self, words: Sequence[str]) -> dict[str, float]:
        counts = Counter(words)
        return {t: k * self._idf.get(t, self._unseen) for t, k in counts.items()}

    def _text(self, words: Sequence[str]) -> _Text:
        vector = self._vector(words)
        norm = math.sqrt(sum(w * w for w in vector.values())) or 1.0
        return _Text(vector=vector, norm=norm, grams=_trigrams(words))

    def features(self, text: str) -> list[tuple[str, tuple[float, ...]]]:
        """(name, the ``FEATURES`` figures) per sub-agent, in the cards' order."""
        words = tokens(text)
        if not words:
            return [(name, (0.0,) * len(FEATURES)) for name in self._names]
        vector = self._vector(words)
        grams = _trigrams(words)
        distinct = set(words)
        concepts = self._closeness(words)
        if self._scale:
            concepts = [c * x for c, x in zip(concepts, self._scale, strict=True)]
        # Sums over a set of words are made exactly (``math.fsum``): a plain sum would follow
        # the set's order, which follows the process's string hashing (``PYTHONHASHSEED``).
        mass = math.fsum([self._agent_idf.get(t, 0.0) for t in distinct]) or 1.0
        out: list[tuple[str, tuple[float, ...]]] = []
        for name, texts, agent, bag, probability, closeness in zip(
            self._names,
            self._texts,
            self._agents,
            self._bags,
            self._classifier.probabilities(text),
            concepts,
            strict=True,
        ):
            cosines = [_cosine(vector, t.vector, t.norm) for t in texts]
            overlaps = [_jaccard(grams, t.grams) for t in texts]
            shared = math.fsum([self._agent_idf.get(t, 0.0) for t in distinct & bag])
            out.append(
                (
                    name,
                    (
                        shared / mass,
                        max(cosines, default=0.0),
                        _top_mean(cosines),
                        _cosine(vector, agent.vector, agent.norm),
                        max(overlaps, default=0.0),
                        _top_mean(overlaps),
                        len(grams & agent.grams) / len(grams),
                        probability,
                        closeness,
                    ),
                )
            )
        return out

    def _ranked(self, text: str) -> tuple[tuple[str, float, tuple[float, ...]], ...]:
        """(name, score, figures) per sub-agent, best first (remembered for recent texts)."""
        known = self._memo.get(text)
        if known is None:
            if len(self._memo) >= 2048:
                self._memo.clear()
            weights = WEIGHTS if self.blind(text) else self.weights
            ranked = [
                (name, sum(w * x for w, x in zip(weights, figures, strict=True)), figures)
                for name, figures in self.features(text)
            ]
            ranked.sort(key=lambda item: -item[1])
            known = self._memo[text] = tuple(ranked)
        return known

    def scores(self, text: str) -> list[tuple[str, float]]:
        """(name, score) for every sub-agent, best first; 0 means nothing in common."""
        return [(name, score) for name, score, _ in self._ranked(text)]

    def scope_figures(self, text: str) -> tuple[float, ...]:
        """The ``harness.planning.scope.SCOPE_FEATURES`` figures of ``text``."""
        ranked = self._ranked(text)
        if not ranked:
            return (0.0,) * 8
        _, top, figures = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0.0
        words = tokens(text)
        known = sum(t in self._idf for t in words) / len(words) if words else 0.0
        routed = self._router.scores(text)
        return (
            top,
            top - second,
            figures[_PROBABILITY],
            figures[_BEST_COSINE],
            figures[_SHARE],
            known,
            self.meaning(text),
            routed[0][1] if routed else 0.0,
        )

    def meaning(self, text: str) -> float:
        """The best agent's ``top3_text_concepts``: how close ``text``'s meaning is to some
        agent's texts (0 when the concept table does not know this bot)."""
        if self._concepts is None:
            return 0.0
        return max(self._closeness(tokens(text)), default=0.0)

    def closest_in_meaning(self, text: str) -> tuple[str | None, float]:
        """The agent whose texts ``text``'s meaning is closest to, and how close (``meaning``);
        (None, 0.0) when the concept table does not know this bot."""
        if self._concepts is None:
            return None, 0.0
        closeness = self._closeness(tokens(text))
        best = max(range(len(closeness)), key=closeness.__getitem__, default=None)
        return (None, 0.0) if best is None else (self._names[best], closeness[best])

    def _closeness(self, words: Sequence[str]) -> list[float]:
        """Per agent, the mean of the three closest of its texts to ``words`` by meaning."""
        if self._concepts is None:
            return [0.0] * len(self._names)
        meaning = self._concepts.vector(words, self._weight)
        sums = [[0.0] * size for size in self._sizes]
        postings = self._postings
        for k, x in meaning.items():
            for a, i, y in postings.get(k, ()):
                sums[a][i] += x * y
        return [_top_mean(per) for per in sums]

    @property
    def scope(self) -> ScopeModel:
        """The out-of-scope model for this bot (``harness.planning.scope``)."""
        return CONCEPTS if self.uses_concepts else PLAIN

    def blind(self, text: str) -> bool:
        """Whether the concept table has never seen some word of ``text`` that this bot's own
        texts use ("dentist", for a bot with a dentists' agent, when no source request of the
        table named one): the table knows the bot, but not what this request is about, so its
        closeness by meaning says nothing here. Such a request is scored as for a bot the table
        does not know (``WEIGHTS``, and ``scope.PLAIN`` for the out-of-scope decision). False
        when the table is not used."""
        table = self._concepts
        if table is None:
            return False
        seen, own = table.words, self._idf
        return any(t in own and t not in seen for t in tokens(text))

    def scope_for(self, text: str) -> ScopeModel:
        """The out-of-scope model that judges ``text``: this bot's (``scope``), or ``PLAIN`` for a
        request the concept table is ``blind`` to."""
        return PLAIN if self.blind(text) else self.scope

    def in_scope(self, text: str) -> float:
        """The probability that ``text`` is for one of the sub-agents at all
        (``harness.planning.scope``; the model of ``scope_for``)."""
        return in_scope_probability(self.scope_figures(text), self.scope_for(text))

    def described(self, text: str) -> bool:
        """Whether every content word of ``text`` (numbers, ids and codes left aside,
        ``concepts.tokens``) is a word of the best agent's name, description or tools, what its
        author wrote to say what it does ("is DL402 delayed" for an agent that "tells whether a
        flight is on time, delayed or cancelled"): its examples and instructions do not count,
        as their words are often about other things ("find me a restaurant near the hotel")."""
        words = tokens(text)
        ranked = self._ranked(text)
        if not words or not ranked or ranked[0][1] <= 0.0:
            return False
        return self._described[self._index[ranked[0][0]]].issuperset(words)

    def sent_on(self, text: str, threshold: float | None = None) -> bool:
        """Whether the out-of-scope gate lets ``text`` go to a sub-agent at ``threshold`` (0 lets
        every request on; None: the threshold of the model that judges it, ``scope_for``): its
        in-scope probability (``in_scope``) is at least ``threshold``, or it says nothing but its
        best agent's own described words (``described``), however short (the scope model, fitted
        on longer requests, judges a request of one or two words by how little it says)."""
        if threshold is not None and threshold <= 0.0:
            return True
        limit = self.scope_for(text).threshold if threshold is None else threshold
        return self.in_scope(text) >= limit or self.described(text)

    def best(self, text: str) -> str | None:
        """The best-scoring sub-agent, or None when no score reaches ``minimum``."""
        ranked = self.scores(text)
        if not ranked or ranked[0][1] <= 0.0 or ranked[0][1] < self.minimum:
            return None
        return ranked[0][0]


def coherence(vectors: Sequence[Sequence[Mapping[int, float]]]) -> list[float | None]:
    """Per agent, how close in meaning its texts are to each other: the mean over its texts of
    the mean similarity of the (up to) three closest of its other texts, never itself
    (``vectors``: per agent, its texts' unit vectors over the table's intents). None for an
    agent with one text or none: nothing to compare, so no evidence either way."""
    out: list[float | None] = []
    for per in vectors:
        others = min(_TOP, len(per) - 1)
        if others < 1:
            out.append(None)
            continue
        postings: dict[int, list[tuple[int, float]]] = {}
        for i, vector in enumerate(per):
            for k, x in vector.items():
                postings.setdefault(k, []).append((i, x))
        values = []
        for i, vector in enumerate(per):
            sums = [0.0] * len(per)
            for k, x in vector.items():
                for j, y in postings[k]:
                    sums[j] += x * y
            del sums[i]  # itself
            values.append(sum(sorted(sums, reverse=True)[:others]) / others)
        out.append(sum(values) / len(values))
    return out


@functools.lru_cache(maxsize=64)
def agent_matcher(
    cards: tuple[AgentCard, ...], minimum: float = 0.0, concepts: ConceptTable | bool = True
) -> AgentMatcher:
    """The matcher for one bot's sub-agents (built once per set of cards and concept table)."""
    return AgentMatcher(cards, minimum=minimum, concepts=concepts)
