"""How the offline planner (``harness.planning.RulesPlanner``) routes the labelled multi-intent set: a baseline for planner work.

Each gold request counts as routed right when the plan entry holding most of its content words
(at least half of them) goes to the request's agent (``AGENTS`` in ``build_multi_intent.py``
maps CLINC intents to seven helpdesk-like agents; ``agents.json`` gives their descriptions and
routing examples from CLINC's train split). A request no entry covers was dropped (cut over
several entries, none holding half of it); an entry that covers two or more requests merged them.
A request with a content word in no entry at all was left out in silence (``Routing.lost``), and
an entry that covers no request was planned from a piece that is no request of its own. Print the figures with
``python -m tests.detect.planner_baseline [dev|test|styled|ways-dev|...] [--embeddings|--minilm]``
(``ways-dev``/``ways-held``: CLINC and SGD train requests, an SGD request for the parent when no
agent has its service; ``--embeddings``: the planner
picks agents with ``harness.detect.embeddings.LocalEmbedder``, the ``embeddings`` extra;
``--minilm``: with ``MiniLMEmbedder``, the ``minilm`` extra), and the
planner's CPU time per message (median, ``time.process_time``, the agents' matcher built before).

``python -m tests.detect.planner_baseline out-of-scope [val|test]`` prints how often the planner
sends a request that belongs to no agent to some agent anyway: CLINC's own out-of-scope utterances
(``oos_val`` / ``oos_test``) and the utterances of the CLINC intents no agent has (from ``val`` or
``test``), one message each, over the same seven agents (needs ``../shared/data/clinc150``).
"""

from __future__ import annotations

import asyncio
import json
import re
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from harness.detect.answers import all_words_of, words_of
from harness.detect.transcript import PlannedRequest
from harness.models._text import content_tokens
from harness.models.base import AgentCard
from harness.planning.base import PlanInput
from harness.planning.concepts import ConceptTable
from harness.planning.match import agent_matcher
from harness.planning.rules import RulesPlanner
from tests import held_out
from tests.detect.build_multi_intent import AGENT_OF, CLINC
from tests.detect.multi_intent import FIXTURES, load

PARENT = "helpdesk"
_WORD = re.compile(r"[a-z0-9']+")
DEVELOPMENT = ("dev", "styled", "ways-dev")
"""The development splits made of CLINC train utterances (and SGD train turns), sources of the
shipped concept table."""
TRAIN_MADE = (*DEVELOPMENT, "ways-held")
"""Every split made of concept-table sources: routed with a table built without its requests."""


@cache
def cards(name: str = "agents") -> tuple[AgentCard, ...]:
    """The agents a message is planned over: ``agents.json`` (the seven helpdesk-like agents), or
    the file a message names in its ``agents`` field (``agents-sgd.json``: SGD's domains, for the
    SGD messages of ``unseen.jsonl``)."""
    raw: list[dict[str, Any]] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    return tuple(
        AgentCard(
            name=a["name"],
            description=a["description"],
            mode="silent",
            examples=tuple(a["examples"]),
        )
        for a in raw
    )


async def plan(
    text: str, planner: RulesPlanner | None = None, *, agents: str = "agents"
) -> tuple[PlannedRequest, ...]:
    """The offline planner's plan for one message (over the agents of :func:`cards`)."""
    given = PlanInput(parent=PARENT, message=text, agents=cards(agents))
    result = await (planner or RulesPlanner()).plan(given)
    return tuple(PlannedRequest(request=e.request, agent=e.agent) for e in result.entries)


@dataclass(frozen=True)
class Routing:
    requests: int
    routed_right: int
    dropped: int
    merged: int
    messages: int
    planned_in_full: int
    entries: int = 0
    """Plan entries in all."""
    extra: int = 0
    """Plan entries that cover no request: a lead-in ("I have a few questions") or a piece of a
    request cut off ("pounds" from "between rubles and pounds") planned as a request."""
    lost: int = 0
    """Requests with a content word in no plan entry at all: left out of the plan in silence (a
    request "in no plan entry" above may still be whole in the plan, cut over several entries)."""
    foreign: int = 0
    """Requests for an agent their message is not planned over (neither one of its agents nor the
    parent), which no plan can route right: the SGD requests of ``holdout``, ``sgd-dev`` and
    ``own``, sets built for the missed-request check and planned over the seven helpdesk agents.
    Their routing figure is a floor, not a measure."""

    def describe(self) -> str:
        return (
            f"requests {self.requests}: routed to the right agent {self.routed_right} "
            f"({self.routed_right / self.requests:.1%}), in no plan entry {self.dropped}, "
            f"merged with another {self.merged}; messages with every request in an entry of "
            f"its own to the right agent {self.planned_in_full}/{self.messages}; plan entries "
            f"{self.entries}, covering no request {self.extra}; requests with a word in no "
            f"entry {self.lost}"
            + (
                f"; requests for an agent not planned over {self.foreign} (counted routed wrong)"
                if self.foreign
                else ""
            )
        )


def concepts(split: str) -> ConceptTable | bool:
    """The planner's concept table: on ``TRAIN_MADE`` splits (CLINC and SGD train, sources of
    the shipped table) one built without the split's requests, so the figures stay out of
    sample; else the shipped one."""
    if split not in TRAIN_MADE:
        return True
    from tests.planning.build_concepts import dev_table

    return dev_table(split)


@cache
def plans(split: str, *, embeddings: bool | str = False) -> tuple[tuple[PlannedRequest, ...], ...]:
    """The offline planner's plan of every message of ``split`` (with the ``embeddings`` extra's
    embedder when ``embeddings``; with the ``minilm`` extra's when it is ``"minilm"``)."""
    planner = RulesPlanner(concepts=concepts(split))
    if embeddings:
        from harness.detect.embeddings import LocalEmbedder, MiniLMEmbedder

        embedder = MiniLMEmbedder() if embeddings == "minilm" else LocalEmbedder()
        planner = RulesPlanner(embedder=embedder, concepts=concepts(split))
    return tuple(
        asyncio.run(plan(message["text"], planner, agents=message.get("agents", "agents")))
        for message in load(split)
    )


def _words(text: str) -> frozenset[str]:
    """A request's words for coverage: its content words, else (a request such as "when will I
    be off again" has none that are not generic) all its content words, else all its words."""
    return words_of(text) or all_words_of(text) or frozenset(_WORD.findall(text.lower()))


def coverage(
    requests: Sequence[str], entries: Sequence[PlannedRequest]
) -> list[tuple[PlannedRequest | None, bool]]:
    """Per request, the plan entry that covers it (None: dropped) and whether that entry covers
    another request too (merged).

    The entry holding most of the request's words covers it, when it holds at least half of them;
    of two entries holding as much of a request, the one more of whose own words are the
    request's ("did I get my day off" is covered by its own entry, not by "how many days are
    left" before it, which holds "day" as well). As ``harness.detect.missed.plan_gaps`` (which
    took the same tie-break after this measure did), but for one difference about the
    measurement, not the plan: a request whose words are all generic is matched by ``_words``
    instead of being counted as dropped.
    """
    held = [_words(e.request) for e in entries]
    owners: list[int | None] = []
    for text in requests:
        words = _words(text)
        best: tuple[float, float] = (0.0, 0.0)
        owner = None
        for index, entry in enumerate(held):
            shared = len(words & entry)
            key = (shared / len(words), shared / len(entry)) if words and entry else (0.0, 0.0)
            if key > best:
                best, owner = key, index
        owners.append(owner if best[0] >= 0.5 else None)
    return [
        (None, False) if owner is None else (entries[owner], owners.count(owner) > 1)
        for owner in owners
    ]


def legacy_coverage(
    requests: Sequence[str], entries: Sequence[PlannedRequest]
) -> list[tuple[PlannedRequest | None, bool]]:
    """``coverage`` as the figures before 2026-12-02 13:00 measured it (``plan_gaps`` as it was
    then): the first entry holding most of a request's content words, at least half of them,
    covers it, and a request with no content word counts as dropped."""
    held = [words_of(e.request) for e in entries]
    owners: list[int | None] = []
    for text in requests:
        words = words_of(text)
        best, share = None, 0.0
        for index, entry in enumerate(held):
            covered = len(words & entry) / len(words) if words else 0.0
            if covered > share:
                best, share = index, covered
        owners.append(best if share >= 0.5 else None)
    return [
        (None, False) if owner is None else (entries[owner], owners.count(owner) > 1)
        for owner in owners
    ]


@cache
def routing(split: str, *, embeddings: bool | str = False, legacy: bool = False) -> Routing:
    """How the planner routes ``split`` (``legacy``: measured as before, ``legacy_coverage``)."""
    right = dropped = merged = full = total = planned = extra = lost = foreign = 0
    measure = legacy_coverage if legacy else coverage
    names: dict[str, frozenset[str]] = {}
    for message, entries in zip(load(split), plans(split, embeddings=embeddings), strict=True):
        gold = message["requests"]
        file = message.get("agents", "agents")
        if file not in names:
            names[file] = frozenset(card.name for card in cards(file)) | {PARENT}
        foreign += sum(r["agent"] not in names[file] for r in gold)
        ok = True
        covered = measure([r["text"] for r in gold], entries)
        words = {t for e in entries for t in content_tokens(e.request)}
        lost += sum(not set(content_tokens(r["text"])) <= words for r in gold)
        planned += len(entries)
        extra += sum(all(e is not entry for entry, _ in covered) for e in entries)
        for request, (entry, shared) in zip(gold, covered, strict=True):
            total += 1
            if entry is None:
                dropped += 1
                ok = False
                continue
            merged += shared
            right += entry.agent == request["agent"]
            ok = ok and not shared and entry.agent == request["agent"]
        full += ok
    return Routing(
        requests=total,
        routed_right=right,
        dropped=dropped,
        merged=merged,
        messages=len(load(split)),
        planned_in_full=full,
        entries=planned,
        extra=extra,
        lost=lost,
        foreign=foreign,
    )


def gaps(split: str) -> list[str]:
    """The messages of a development split with a request in no plan entry or merged with
    another, each with its plan (held-out splits are refused: their errors stay unseen)."""
    if split not in (*DEVELOPMENT, "own", "sgd-train"):
        raise ValueError(f"{split!r} is held out: only its aggregate figures may be looked at")
    out = []
    for message, entries in zip(load(split), plans(split), strict=True):
        gold = [r["text"] for r in message["requests"]]
        wrong = [
            f"   {'MERGED' if entry else 'DROPPED'}: {text!r}"
            for text, (entry, shared) in zip(gold, coverage(gold, entries), strict=True)
            if entry is None or shared
        ]
        if wrong:
            planned = [f"   plan: {e.agent}: {e.request!r}" for e in entries]
            out.append(
                "\n".join(
                    [f"{message['id']} [{message['shape']}] {message['text']!r}", *wrong, *planned]
                )
            )
    return out


@dataclass(frozen=True)
class OutOfScope:
    own: int
    own_sent: int
    other: int
    other_sent: int

    def describe(self) -> str:
        return (
            f"sent to some agent: CLINC out-of-scope {self.own_sent}/{self.own} "
            f"({self.own_sent / self.own:.1%}), intents no agent has {self.other_sent}/{self.other} "
            f"({self.other_sent / self.other:.1%})"
        )


@cache
def out_of_scope(split: str) -> OutOfScope:
    """How many requests that belong to no agent the planner sends to one (see the docstring)."""
    if split != "train":
        held_out.guard(f"CLINC150 {split}")
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    own = [text for text, _ in data[f"oos_{split}"]]
    other = [text for text, intent in data[split] if intent not in AGENT_OF]
    planner = RulesPlanner()

    def sent(texts: list[str]) -> int:
        return sum(any(e.agent != PARENT for e in asyncio.run(plan(t, planner))) for t in texts)

    return OutOfScope(own=len(own), own_sent=sent(own), other=len(other), other_sent=sent(other))


def cpu_per_message(split: str) -> float:
    """The median CPU time (user + system) of one message's plan, in seconds (the agents' matcher
    built before; run it first in a process, before anything else planned these messages)."""
    agent_matcher(cards(), concepts=concepts(split))
    planner = RulesPlanner(concepts=concepts(split))

    async def run() -> list[float]:
        times = []
        for message in load(split):
            start = time.process_time()
            await plan(message["text"], planner)
            times.append(time.process_time() - start)
        return times

    return statistics.median(asyncio.run(run()))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    if args[:1] == ["gaps"]:
        print("\n".join(gaps(args[1])))
    elif args[:1] == ["out-of-scope"]:
        print(out_of_scope(args[1] if len(args) > 1 else "test").describe())
    else:
        split = args[0] if args else "test"
        # First, while nothing about these messages is remembered yet.
        cpu = cpu_per_message(split)
        embeddings: bool | str = "minilm" if "--minilm" in sys.argv else "--embeddings" in sys.argv
        print(routing(split, embeddings=embeddings).describe())
        print(
            f"measured as before: {routing(split, embeddings=embeddings, legacy=True).describe()}"
        )
        print(f"CPU per message (median, first time each): {cpu * 1000:.2f} ms")
