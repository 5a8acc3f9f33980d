"""Routing on a bot the planner was never developed on: a development evaluation over SGD train.

A user's bot is new to the planner: its agents are known only by a name, a one-line description
and a few examples. This builds such bots from Schema-Guided Dialogue **train** (Rastogi et al.,
AAAI 2020, CC BY-SA 4.0) and routes real requests to them with the whole offline planner
(``RulesPlanner``: its gates and its matcher):

- one agent per SGD domain, named by the domain in lower case, with a description written here
  (``DESCRIPTIONS``, one line each, as an author would write it) and ``EXAMPLES`` example requests
  drawn at random (``SEEDS``, one bot per seed) from the opening user turns of the other fold's
  dialogues;
- the requests: every ``STRIDE``-th opening user turn (a turn that opens an intent) of one fold's
  dialogues (the folds of ``build_concepts``: by dialogue id), the domain as the gold agent.

Whatever the planner learnt from real requests (the concept table) must not have seen what it
routes. Two figures:

- **all domains**: each request routed with the table built without its fold (the table knows
  every domain of the bot from the other fold's dialogues: a bot whose subject the table knows);
- **leave one domain out**: each request routed with a table built also without every dialogue of
  its gold domain (the table has never seen that domain: a user's new bot, as far as one domain
  can say).

SGD dev and CLINC are never routed here. Print the figures::

    PYTHONPATH=. .venv/bin/python -m tests.planning.new_bot_eval \\
        [--embeddings] [--minilm] [--matcher] [--stages]

(``--embeddings``: also with ``harness.detect.embeddings.LocalEmbedder``, the ``embeddings``
extra; ``--minilm``: also with ``MiniLMEmbedder``, the ``minilm`` extra; ``--matcher``: also the
matcher's own pick, with no gate before it, and with ``--minilm`` the embedding matcher's own
pick at MiniLM's lexical weight and at 0.0, MiniLM alone; ``--stages``: the leave-one-domain-out
requests by the first stage of the planner that lost them, ``stage``.)
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from harness.detect.transcript import PlannedRequest
from harness.models._choice import agent_router
from harness.models.base import AgentCard
from harness.planning.base import PlanInput
from harness.planning.concepts import ConceptTable
from harness.planning.match import agent_matcher
from harness.planning.rules import RulesPlanner, _requests
from harness.planning.semantic import SemanticMatcher, TextEmbedder
from tests.detect.planner_baseline import coverage
from tests.planning.build_concepts import _fold, fold_tables, sourced
from tests.planning.routing_eval import SGD

PARENT = "assistant"
EXAMPLES = 4
STRIDE = 12
SEEDS = (0, 1, 2)
DESCRIPTIONS = {
    "Banks": "Checks account balances and moves money between accounts or to other people.",
    "Buses": "Searches coach and bus schedules between two cities and purchases seats.",
    "Calendar": "Looks up what is on your schedule, finds open slots and creates new entries.",
    "Events": "Finds concerts, games and live performances nearby and gets tickets for them.",
    "Flights": "Searches airline flights, one way or return, and reserves seats.",
    "Homes": "Helps find an apartment to rent or buy and sets up a viewing.",
    "Hotels": "Searches for hotel rooms or vacation rentals and makes the reservation.",
    "Media": "Finds films available online and starts playing one.",
    "Movies": "Finds what is showing at nearby theaters, show times, and buys cinema tickets.",
    "Music": "Searches for songs and albums by artist or genre and plays them on a speaker.",
    "RentalCars": "Finds cars available for hire at a pickup location and reserves one.",
    "Restaurants": "Finds places to eat by cuisine and city and reserves a table.",
    "RideSharing": "Orders a taxi or shared ride to a destination.",
    "Services": "Finds a doctor, dentist, hair stylist or therapist and books a visit.",
    "Travel": "Suggests attractions and things to see in a city.",
    "Weather": "Gives the forecast: temperature, rain and wind for a place and day.",
}
"""One line per SGD train domain, written for this evaluation (not the ``unseen`` set's cards)."""


@dataclass(frozen=True, slots=True)
class Opening:
    fold: int
    domain: str
    text: str


@cache
def openings() -> tuple[Opening, ...]:
    """Every SGD train user turn that opens an intent, with its dialogue's fold and its domain."""
    out = []
    with gzip.open(SGD / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            dialogue = json.loads(line)
            fold = _fold(dialogue["id"])
            for turn in dialogue["turns"]:
                if turn["speaker"] != "USER":
                    continue
                for frame in turn["frames"]:
                    if any(a[0] == "INFORM_INTENT" and a[2] for a in frame["actions"]):
                        domain = frame["service"].split("_")[0]
                        out.append(Opening(fold=fold, domain=domain, text=turn["text"]))
                        break
    return tuple(out)


@cache
def bot(fold: int, seed: int) -> tuple[AgentCard, ...]:
    """The agents for routing ``fold``'s requests: examples from the other fold's openings."""
    rng = random.Random(f"{seed}:{fold}")
    pool: dict[str, list[str]] = {}
    for o in openings():
        if o.fold != fold:
            pool.setdefault(o.domain, []).append(o.text)
    return tuple(
        AgentCard(
            name=domain.lower(),
            description=DESCRIPTIONS[domain],
            mode="silent",
            examples=tuple(rng.sample(sorted(set(pool[domain])), EXAMPLES)),
        )
        for domain in sorted(DESCRIPTIONS)
    )


@cache
def requests(fold: int) -> tuple[tuple[str, str], ...]:
    """(text, gold agent) for every ``STRIDE``-th opening of ``fold``'s dialogues."""
    mine = [o for o in openings() if o.fold == fold]
    return tuple((o.text, o.domain.lower()) for o in mine[::STRIDE])


@cache
def table(fold: int, without: str | None = None) -> ConceptTable:
    """The concept table built without ``fold`` (and without every dialogue of the domain
    ``without``, when given)."""
    if without is None:
        return fold_tables()[0][fold]
    return ConceptTable.build(
        (text, intent)
        for text, intent, f, domains in sourced()
        if f != fold and without not in domains
    )


@dataclass
class Tally:
    right: int = 0
    parent: int = 0
    wrong: int = 0
    dropped: int = 0
    uses_concepts: int = 0
    bots: int = 0

    @property
    def total(self) -> int:
        return self.right + self.parent + self.wrong + self.dropped

    def describe(self) -> str:
        n = self.total or 1
        return (
            f"{self.right / n:.1%} right of {self.total} (kept with the parent "
            f"{self.parent / n:.1%}, another agent {self.wrong / n:.1%}, cut over entries "
            f"{self.dropped / n:.1%}); the table used by {self.uses_concepts}/{self.bots} bots"
        )


Route = Callable[[tuple[AgentCard, ...], ConceptTable | bool, Sequence[str]], list[str | None]]


def planner_route(embedder: TextEmbedder | None = None) -> Route:
    """Route each text as a message of its own through ``RulesPlanner``: the agent of the plan
    entry that covers it (None when none does)."""

    def route(
        cards: tuple[AgentCard, ...], concepts: ConceptTable | bool, texts: Sequence[str]
    ) -> list[str | None]:
        planner = RulesPlanner(concepts=concepts, embedder=embedder)

        async def run() -> list[str | None]:
            out: list[str | None] = []
            for text in texts:
                plan = await planner.plan(PlanInput(parent=PARENT, message=text, agents=cards))
                entries = [PlannedRequest(request=e.request, agent=e.agent) for e in plan.entries]
                entry, _ = coverage([text], entries)[0]
                out.append(None if entry is None else entry.agent)
            return out

        return asyncio.run(run())

    return route


def matcher_route(
    cards: tuple[AgentCard, ...], concepts: ConceptTable | bool, texts: Sequence[str]
) -> list[str | None]:
    """The matcher's own pick for each text, with no gate before it."""
    matcher = agent_matcher(cards, concepts=concepts)
    return [matcher.best(text) or PARENT for text in texts]


def semantic_matcher_route(embedder: TextEmbedder, lexical_weight: float | None = None) -> Route:
    """The embedding matcher's own pick for each text (``SemanticMatcher`` over the same concept
    table, the lexical score added at ``lexical_weight``, the embedder's own when None), with no
    gate before it."""

    def route(
        cards: tuple[AgentCard, ...], concepts: ConceptTable | bool, texts: Sequence[str]
    ) -> list[str | None]:
        async def run() -> list[str | None]:
            matcher = await SemanticMatcher.build(
                cards, embedder, concepts=concepts, lexical_weight=lexical_weight
            )
            return [ranked[0][0] if ranked else PARENT for ranked in await matcher.scores(texts)]

        return asyncio.run(run())

    return route


def evaluate(route: Route, *, leave_out: bool, concepts: bool = True) -> Tally:
    """Route every fold's requests over every seed's bot (see the module docstring)."""
    tally = Tally()
    for fold in (0, 1):
        for seed in SEEDS:
            cards = bot(fold, seed)
            groups: dict[str | None, list[tuple[str, str]]] = {}
            for text, gold in requests(fold):
                key = gold if leave_out else None
                groups.setdefault(key, []).append((text, gold))
            for key, pairs in groups.items():
                domain = next((d for d in DESCRIPTIONS if d.lower() == key), None)
                used: ConceptTable | bool = table(fold, domain) if concepts else False
                got = route(cards, used, [t for t, _ in pairs])
                tally.bots += 1
                tally.uses_concepts += (
                    concepts and agent_matcher(cards, concepts=used).uses_concepts
                )
                for agent, (_, gold) in zip(got, pairs, strict=True):
                    if agent is None:
                        tally.dropped += 1
                    elif agent == gold:
                        tally.right += 1
                    elif agent == PARENT:
                        tally.parent += 1
                    else:
                        tally.wrong += 1
    return tally


def confusions(*, leave_out: bool) -> Counter[tuple[str, str]]:
    """(gold, routed) counts of the planner's errors (development data: its errors may be read)."""
    out: Counter[tuple[str, str]] = Counter()
    route = planner_route()
    for fold in (0, 1):
        cards = bot(fold, SEEDS[0])
        for text, gold in requests(fold):
            domain = next(d for d in DESCRIPTIONS if d.lower() == gold)
            used = table(fold, domain) if leave_out else table(fold)
            agent = route(cards, used, [text])[0]
            if agent != gold:
                out[(gold, str(agent))] += 1
    return out


STAGES = ("right", "split", "first gate", "scope gate", "matcher")
"""Where the planner lost a request (``stage``), in the order of its stages."""


@dataclass(frozen=True, slots=True)
class Staged:
    """One request as ``stage`` placed it."""

    stage: str
    """One of ``STAGES``."""
    whole: bool
    """Whether the matcher, on the whole request, picks its gold agent (no gate before it)."""


def stage(
    cards: tuple[AgentCard, ...], concepts: ConceptTable | bool, text: str, gold: str
) -> Staged:
    """The first stage of ``RulesPlanner`` that lost ``text`` (a message of its own whose one
    request is ``gold``'s): ``right`` when its plan entry goes to ``gold``; ``split`` when the
    message was planned as two entries or more; else, planned as one, ``first gate`` when no
    agent's words or meaning reach it (``rules._requests`` routes it nowhere), ``scope gate``
    when the out-of-scope gate keeps it with the parent, ``matcher`` when another agent was
    picked."""
    planner = RulesPlanner(concepts=concepts)
    matcher = agent_matcher(cards, concepts=concepts)
    whole = matcher.best(text) == gold
    plan = asyncio.run(planner.plan(PlanInput(parent=PARENT, message=text, agents=cards)))
    entries = [PlannedRequest(request=e.request, agent=e.agent) for e in plan.entries]
    entry, _ = coverage([text], entries)[0]
    if entry is not None and entry.agent == gold:
        return Staged("right", whole)
    if len(entries) > 1:
        return Staged("split", whole)
    found, to_route = _requests(
        text,
        agent_router(cards),
        planner.route_threshold,
        planner._meant(cards),
        planner._scoped(cards),
    )
    asks = to_route.get(found[0]) if found else None
    if asks is None:
        return Staged("first gate", whole)
    if not matcher.sent_on(asks, planner.scope_threshold):
        return Staged("scope gate", whole)
    return Staged("matcher", whole)


def stages() -> Counter[Staged]:
    """Every leave-one-domain-out request of ``evaluate`` placed by ``stage``."""
    out: Counter[Staged] = Counter()
    for fold in (0, 1):
        for seed in SEEDS:
            cards = bot(fold, seed)
            for text, gold in requests(fold):
                domain = next(d for d in DESCRIPTIONS if d.lower() == gold)
                out[stage(cards, table(fold, domain), text, gold)] += 1
    return out


def main(argv: Sequence[str]) -> None:
    routes: dict[str, Route] = {"planner": planner_route()}
    if "--matcher" in argv:
        routes["matcher, no gate"] = matcher_route
    if "--embeddings" in argv:
        from harness.detect.embeddings import LocalEmbedder

        routes["planner, embeddings"] = planner_route(LocalEmbedder())
    if "--minilm" in argv:
        from harness.detect.embeddings import MiniLMEmbedder

        minilm = MiniLMEmbedder()
        routes["planner, minilm"] = planner_route(minilm)
        if "--matcher" in argv:
            routes["matcher with minilm, no gate"] = semantic_matcher_route(minilm)
            routes["minilm alone, no gate"] = semantic_matcher_route(minilm, 0.0)
    for name, route in routes.items():
        print(f"{name}, no table: {evaluate(route, leave_out=False, concepts=False).describe()}")
        print(f"{name}, all domains: {evaluate(route, leave_out=False).describe()}")
        print(f"{name}, leave one domain out: {evaluate(route, leave_out=True).describe()}")
    if "--stages" in argv:
        placed = stages()
        total = sum(placed.values())
        print(f"leave one domain out, {total} requests, by the first stage that lost them:")
        for name in STAGES:
            lost = sum(k for s, k in placed.items() if s.stage == name)
            whole = sum(k for s, k in placed.items() if s.stage == name and s.whole)
            print(
                f"  {name}: {lost} ({lost / total:.1%}); the matcher right on the whole "
                f"request for {whole}"
            )
    if "--confusions" in argv:
        for (gold, got), k in confusions(leave_out=True).most_common(25):
            print(f"  {gold} -> {got}: {k}")


if __name__ == "__main__":
    main(sys.argv[1:])
