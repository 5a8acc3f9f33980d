"""Routing single requests with the offline planner's matcher, on two labelled sets.

- **CLINC** (``tests/fixtures/multi_intent``): the gold requests of the multi-intent messages, one
  at a time, over the seven helpdesk-like agents of ``agents.json``. ``dev`` (CLINC train) is where
  ``harness.planning.match.WEIGHTS`` were tuned; ``test`` (CLINC test) is held out.
- **SGD** (``../shared/data/sgd``, CC BY-SA 4.0): a second set nobody tuned on. One agent per SGD
  domain (Banks, Buses, Flights, ...), built the way a bot author would: the domain's name, its
  intents as tools ("ReserveHotel" becomes the tool "reserve hotel", its description the slots users
  give for it) and ``EXAMPLES`` example requests per intent, all from SGD **train**. The requests
  are the SGD **dev** user turns that open an intent (``INFORM_INTENT``), every ``SGD_STRIDE``-th
  one, with the domain as the gold agent; domains with no train dialogues are left out.

Print the figures (with ``--dev-only``, only the two development sets; with ``--tune``, re-run
the coordinate search over the weights on CLINC dev first; with ``--embeddings``, also route by
``harness.planning.semantic`` over ``harness.detect.embeddings.LocalEmbedder``, the
``embeddings`` extra, or with ``--minilm`` (which implies ``--embeddings``) over
``MiniLMEmbedder``, the ``minilm`` extra; with ``--tune-lexical``
as well, first choose the embedder's lexical weight (``harness.planning.semantic.LEXICAL_WEIGHT``,
``LEXICAL_WEIGHTS``) from ``LEXICAL_GRID`` by the
mean accuracy on the two development sets, CLINC dev and SGD train; with ``--planner``, also
route each request through the whole offline planner, its split and gates as well)::

    PYTHONPATH=. .venv/bin/python -m tests.planning.routing_eval \\
        [--dev-only] [--tune] [--planner] [--embeddings | --minilm] [--tune-lexical]
"""

from __future__ import annotations

import asyncio
import gzip
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from harness.models import AgentCard
from harness.models._choice import agent_router
from harness.planning.concepts import ConceptTable
from harness.planning.match import CONCEPT_WEIGHTS, AgentMatcher
from harness.planning.semantic import SemanticMatcher, TextEmbedder
from tests import held_out
from tests.detect.multi_intent import load
from tests.detect.planner_baseline import cards as clinc_cards

ROOT = Path(__file__).resolve().parents[2]
SGD = next(
    (
        p / "shared" / "data" / "sgd"
        for p in (ROOT.parent, ROOT.parent.parent)
        if (p / "shared" / "data" / "sgd").is_dir()
    ),
    ROOT.parent / "shared" / "data" / "sgd",
)
EXAMPLES = 3
SGD_STRIDE = 4
SGD_TRAIN_STRIDE = 40
SLOTS_PER_TOOL = 4


@dataclass(frozen=True)
class Labelled:
    cards: tuple[AgentCard, ...]
    requests: tuple[tuple[str, str], ...]  # (text, gold agent)
    development: bool = False
    """Built from the sources of the concept table (CLINC train, SGD train): routed with the
    table of the other fold (``Matchers``)."""


@cache
def clinc(split: str) -> Labelled:
    """The gold requests of the ``split`` messages; on ``dev``, without the agents' own examples
    (42 of its requests are examples verbatim: both come from CLINC train)."""
    cards = clinc_cards()
    examples = {e for card in cards for e in card.examples}
    requests = tuple(
        (r["text"], r["agent"])
        for m in load(split)
        for r in m["requests"]
        if r["text"] not in examples
    )
    return Labelled(cards=cards, requests=requests, development=split == "dev")


def _dialogues(split: str) -> list[dict[str, Any]]:
    if split == "dev":
        held_out.guard("SGD dev")
    with gzip.open(SGD / f"sgd-{split}.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _openings(split: str) -> list[tuple[str, str, str, list[str]]]:
    """(domain, intent, user text, slots the user gave) for every user turn that opens an intent."""
    out = []
    for dialogue in _dialogues(split):
        for turn in dialogue["turns"]:
            if turn["speaker"] != "USER":
                continue
            for frame in turn["frames"]:
                actions = frame["actions"]
                intents = [a[2][0] for a in actions if a[0] == "INFORM_INTENT" and a[2]]
                slots = [a[1] for a in actions if a[0] == "INFORM"]
                for intent in intents:
                    out.append((frame["service"].split("_")[0], intent, turn["text"], slots))
    return out


@cache
def sgd(split: str = "dev") -> Labelled:
    """SGD agents built from train; requests from ``split``: ``dev`` (held out) or ``train`` (the
    train openings that are not the agents' examples, every ``SGD_TRAIN_STRIDE``-th: a development
    set for bots built this way, never the measured figure)."""
    train = _openings("train")
    examples: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    slots: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    rest: list[tuple[str, str]] = []
    for domain, intent, text, given in train:
        if len(examples[domain][intent]) < EXAMPLES:
            examples[domain][intent].append(text)
        else:
            rest.append((text, domain))
        slots[domain][intent].update(given)
    cards = []
    for domain in sorted(examples):
        keywords: list[str] = []
        for intent in sorted(examples[domain]):
            top = [
                s.replace("_", " ") for s, _ in slots[domain][intent].most_common(SLOTS_PER_TOOL)
            ]
            keywords += [intent, ", ".join(top)]
        cards.append(
            AgentCard(
                name=domain,
                description=f"{domain}: " + ", ".join(sorted(examples[domain])),
                mode="silent",
                examples=tuple(e for i in sorted(examples[domain]) for e in examples[domain][i]),
                keywords=tuple(keywords),
            )
        )
    if split == "train":
        return Labelled(
            cards=tuple(cards), requests=tuple(rest[::SGD_TRAIN_STRIDE]), development=True
        )
    dev = [(text, domain) for domain, _, text, _ in _openings("dev") if domain in examples]
    return Labelled(cards=tuple(cards), requests=tuple(dev[::SGD_STRIDE]))


class Matchers:
    """The matcher for each request of a set: on a development set, the one whose concept table
    never saw the request (``build_concepts.fold_tables``); on a held-out set, the shipped one."""

    def __init__(self, data: Labelled, *, development: bool) -> None:
        from tests.planning.build_concepts import fold_tables

        self._fold = (lambda _: 0) if not development else fold_tables()[1]
        tables: dict[int, ConceptTable | bool] = (
            {0: True} if not development else dict(fold_tables()[0])
        )
        self.matchers = {k: AgentMatcher(data.cards, concepts=t) for k, t in tables.items()}

    def __call__(self, text: str) -> AgentMatcher:
        return self.matchers[self._fold(text)]


def feature_rows(
    data: Labelled,
) -> list[tuple[str, list[tuple[str, tuple[float, ...]]], Sequence[float]]]:
    """(gold, the matcher's figures per agent, the weights that matcher uses) per request."""
    matchers = Matchers(data, development=data.development)
    out = []
    for text, gold in data.requests:
        matcher = matchers(text)
        out.append((gold, matcher.features(text), matcher.weights))
    return out


def accuracy(data: Labelled, weights: Sequence[float] | None = None) -> float:
    """The share of ``data``'s requests the matcher routes right (with ``weights`` instead of the
    matcher's own, when given)."""
    right = 0
    for gold, ranked, own in feature_rows(data):
        use = own if weights is None else weights
        scored = [(sum(w * x for w, x in zip(use, f, strict=True)), n) for n, f in ranked]
        best = max(scored)
        right += best[0] > 0 and best[1] == gold
    return right / len(data.requests)


def semantic_accuracy(
    data: Labelled, embedder: TextEmbedder, lexical_weight: float | None = None
) -> float:
    """Accuracy of ``SemanticMatcher`` (embeddings plus the lexical score) on ``data`` (at the
    embedder's own lexical weight, ``semantic.lexical_weight_for``, unless one is given)."""

    async def run() -> float:
        lexical = Matchers(data, development=data.development)
        per_fold = {}
        for fold, matcher in lexical.matchers.items():
            semantic = await SemanticMatcher.build(data.cards, embedder)
            per_fold[fold] = SemanticMatcher(
                data.cards, semantic.vectors, embedder, matcher, lexical_weight=lexical_weight
            )
        right = 0
        for fold, semantic in per_fold.items():
            mine = [(t, g) for t, g in data.requests if lexical.matchers[fold] is lexical(t)]
            ranked = await semantic.scores([text for text, _ in mine])
            right += sum(r[0][0] == gold for r, (_, gold) in zip(ranked, mine, strict=True))
        return right / len(data.requests)

    return asyncio.run(run())


LEXICAL_GRID = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0)


def tune_lexical_weight(
    sets: Sequence[Labelled], embedder: TextEmbedder
) -> tuple[float, tuple[float, ...]]:
    """The lexical weight of ``LEXICAL_GRID`` with the best mean accuracy over ``sets`` (the
    development sets; the lowest weight on a tie), and its accuracy on each."""
    scored = []
    for weight in LEXICAL_GRID:
        got = tuple(semantic_accuracy(data, embedder, weight) for data in sets)
        scored.append((sum(got) / len(got), -weight, got))
    _, weight, got = max(scored)
    return -weight, got


def baseline(data: Labelled, minimum: float = 0.9) -> float:
    """The router the planner used before the matcher (``harness.models._text.Router``)."""
    router = agent_router(data.cards)
    right = sum(router.best(t, minimum=minimum) == g for t, g in data.requests)
    return right / len(data.requests)


def tune(sets: Sequence[Labelled], start: Sequence[float]) -> tuple[float, ...]:
    """Coordinate search over the weights (steps 0.5 down to 0.05), maximising the mean accuracy
    over ``sets`` (development sets) for the matchers that use the concept table."""
    rows = [[(gold, ranked) for gold, ranked, _ in feature_rows(data)] for data in sets]

    def score(weights: Sequence[float]) -> float:
        got = 0.0
        for per in rows:
            right = 0
            for gold, ranked in per:
                best = max(
                    (sum(w * x for w, x in zip(weights, f, strict=True)), n) for n, f in ranked
                )
                right += best[1] == gold
            got += right / len(per)
        return got / len(rows)

    weights, best = list(start), score(start)
    for step in (0.5, 0.2, 0.1, 0.05):
        improved = True
        while improved:
            improved = False
            for i in range(len(weights)):
                for delta in (step, -step):
                    trial = list(weights)
                    trial[i] = round(max(0.0, trial[i] + delta), 3)
                    got = score(trial)
                    if got > best + 1e-9:
                        weights, best, improved = trial, got, True
    return tuple(weights)


def planner_accuracy(data: Labelled) -> float:
    """The share of ``data``'s requests the whole offline planner routes right, each request a
    message of its own (``new_bot_eval.planner_route``: its split and gates as well as the
    matcher); on a development set, with the table of the request's fold as ``Matchers``."""
    from tests.planning.new_bot_eval import planner_route

    route = planner_route()
    matchers = Matchers(data, development=data.development)
    groups: dict[int, list[tuple[str, str]]] = {}
    for text, gold in data.requests:
        fold = next(k for k, m in matchers.matchers.items() if m is matchers(text))
        groups.setdefault(fold, []).append((text, gold))
    tables: dict[int, ConceptTable | bool] = {0: True}
    if data.development:
        from tests.planning.build_concepts import fold_tables

        tables = dict(fold_tables()[0])
    right = 0
    for fold, pairs in groups.items():
        got = route(data.cards, tables[fold], [text for text, _ in pairs])
        right += sum(agent == gold for agent, (_, gold) in zip(got, pairs, strict=True))
    return right / len(data.requests)


def main(argv: Sequence[str]) -> None:
    weights: Sequence[float] | None = None
    if "--tune" in argv:
        weights = tune([clinc("dev"), sgd("train")], start=CONCEPT_WEIGHTS)
        print("CONCEPT_WEIGHTS tuned on CLINC dev and SGD train:", weights)
    sets = {"CLINC dev (tuning)": clinc("dev"), "SGD train (development)": sgd("train")}
    if "--dev-only" not in argv:
        sets |= {"CLINC test": clinc("test"), "SGD dev": sgd()}
    embedder: TextEmbedder | None = None
    lexical_weight: float | None = None
    if "--embeddings" in argv or "--minilm" in argv:
        from harness.detect.embeddings import LocalEmbedder, MiniLMEmbedder

        embedder = MiniLMEmbedder() if "--minilm" in argv else LocalEmbedder()
        if "--tune-lexical" in argv:
            lexical_weight, got = tune_lexical_weight([clinc("dev"), sgd("train")], embedder)
            print(
                f"lexical weight tuned on CLINC dev and SGD train: {lexical_weight} "
                f"({got[0]:.1%}, {got[1]:.1%})"
            )
    for name, data in sets.items():
        semantic = (
            f", with embeddings {semantic_accuracy(data, embedder, lexical_weight):.1%}"
            if embedder
            else ""
        )
        planner = f", whole planner {planner_accuracy(data):.1%}" if "--planner" in argv else ""
        print(
            f"{name}: {len(data.requests)} requests, {len(data.cards)} agents: matcher "
            f"{accuracy(data, weights):.1%}, previous router {baseline(data):.1%}{semantic}"
            f"{planner}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
