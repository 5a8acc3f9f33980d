"""The planner's out-of-scope gate on development data: requests for no agent sent on, and requests
for an agent refused, at each scope threshold.

Two kinds of bot, each routed with a concept table built without every text routed on it (all are
table sources: CLINC train, SGD train):

- **helpdesk**: the seven agents of ``tests/fixtures/multi_intent/agents.json``. In scope: the gold
  requests of the ``dev`` split (``routing_eval.clinc("dev")``, CLINC train). Out of scope: the
  ``sgd-domain`` rows of ``tests/fixtures/out_of_scope/dev.jsonl`` (``build_out_of_scope``).
- **agent left out**: the same bot without one agent, once per agent. In scope: the ``dev``
  requests of the six other agents. Out of scope: the ``agent-left-out`` rows of that agent.

The out-of-scope side is out of sample: no text of the set is a row of the scope fit
(``tests.planning.fit_scope``). The in-scope side is not: the ``dev`` split's gold requests are
the fit's own in-scope rows, on which its threshold was picked, so their "refused" figures are on
fitting data. The unfitted in-scope figure is **SGD agents**: the bot of ``routing_eval.sgd
("train")`` (agents built from SGD train, never fitted on), its development requests each routed
with the table of the other fold (``build_concepts.fold_tables``); in scope only (the new set's
SGD subjects are its own agents').

Each bot but the SGD one with two tables (``TABLES``): ``unseen``, built also without every source
of the out-of-scope subject (every SGD train dialogue of a ``NO_AGENT_DOMAINS`` domain; every CLINC
train utterance of the left-out agent's intents), as CLINC's own out-of-scope requests are subjects
the table has never seen; and ``known``, built without only the texts routed here, as a request
on a subject the table learnt (restaurants, songs) meets the shipped table.

Each text is planned once as a message of its own by ``RulesPlanner`` with the gate all but off;
the probability the scope model gives each request it checks is recorded with its figures
(``scope.SCOPE_FEATURES``). A message is **sent on** at threshold ``t`` when some request of it
that the matcher routes to an agent has a probability of at least ``t`` (exactly the planner's
decision); an in-scope request is **routed right** at ``t`` when its plan entry goes to its agent
with the gate off and it is sent on at ``t`` (exact for a message planned as one request, as all
but a few are). Print the figures at the shipped threshold and the trade-off curve (``CURVE``;
``figures`` takes any ``ScopeModel``, so a refit's constants can be weighed the same way)::

    PYTHONPATH=. .venv/bin/python -m tests.planning.out_of_scope_eval

Nothing here reads a held-out set.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from harness.detect.transcript import PlannedRequest
from harness.models.base import AgentCard
from harness.planning import scope
from harness.planning.base import PlanInput
from harness.planning.concepts import ConceptTable
from harness.planning.match import AgentMatcher
from harness.planning.rules import RulesPlanner
from tests.detect.build_multi_intent import AGENTS
from tests.detect.planner_baseline import PARENT, cards, coverage
from tests.detect.planner_baseline import plan as plan_message
from tests.planning.build_concepts import fold_tables, sourced
from tests.planning.build_out_of_scope import NO_AGENT_DOMAINS, OUT
from tests.planning.routing_eval import clinc, sgd

TABLES = ("unseen", "known")
CURVE = (0.0, 0.02, 0.04, 0.055, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5)
_ALMOST_OFF = 1e-12


def load(path: Path = OUT) -> list[dict[str, Any]]:
    """The rows of the out-of-scope development set."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


@dataclass(frozen=True, slots=True)
class Checked:
    """One text as the planner saw it with the gate all but off."""

    asks: tuple[tuple[tuple[float, ...], bool, bool, bool], ...]
    """Per request the scope model checked: its figures, whether the matcher has an agent for it,
    whether its words are all its best agent's described words (``AgentMatcher.described``,
    sent on at any threshold), and whether the concept table is blind to it
    (``AgentMatcher.blind``: judged by ``scope.PLAIN``)."""
    right: bool
    """For an in-scope text: its plan entry went to its agent (gate off)."""

    def sent(self, threshold: float | None, model: scope.ScopeModel) -> bool:
        """Whether some request of the text goes on at ``threshold`` (None: the threshold of
        the model that judges each request, as the planner's default), judged by ``model`` or,
        for a request the table is blind to, by ``scope.PLAIN``."""
        for f, routed, described, blind in self.asks:
            judge = scope.PLAIN if blind else model
            limit = judge.threshold if threshold is None else threshold
            if routed and (described or scope.in_scope_probability(f, judge) >= limit):
                return True
        return False


@dataclass(frozen=True, slots=True)
class Bot:
    """One bot, its table, and its texts as the planner saw them."""

    name: str
    inside: tuple[Checked, ...]
    outside: tuple[Checked, ...]


@contextmanager
def _recording(log: list[tuple[tuple[float, ...], bool, bool, bool]]) -> Iterator[None]:
    """Record the figures of every text ``AgentMatcher.in_scope`` is asked about: each request the
    planner routes, and a statement its scene rule weighs (``rules._with_scene``)."""
    original = AgentMatcher.in_scope

    def in_scope(self: AgentMatcher, text: str) -> float:
        log.append(
            (
                self.scope_figures(text),
                self.best(text) is not None,
                self.described(text),
                self.blind(text),
            )
        )
        return original(self, text)

    AgentMatcher.in_scope = in_scope  # type: ignore[method-assign]
    try:
        yield
    finally:
        AgentMatcher.in_scope = original  # type: ignore[method-assign]


def _check(
    agents: tuple[AgentCard, ...],
    table: ConceptTable | bool,
    texts: Sequence[tuple[str, str | None]],
) -> tuple[Checked, ...]:
    planner = RulesPlanner(concepts=table, scope_threshold=_ALMOST_OFF)
    log: list[tuple[tuple[float, ...], bool, bool, bool]] = []
    out = []

    async def run() -> None:
        for text, gold in texts:
            log.clear()
            result = await planner.plan(PlanInput(parent=PARENT, message=text, agents=agents))
            entries = [PlannedRequest(request=e.request, agent=e.agent) for e in result.entries]
            entry, _ = coverage([text], entries)[0]
            right = gold is not None and entry is not None and entry.agent == gold
            out.append(Checked(asks=tuple(log), right=right))

    with _recording(log):
        asyncio.run(run())
    return tuple(out)


def _table(
    leave_out: frozenset[str],
    *,
    domains: frozenset[str] = frozenset(),
    intents: frozenset[str] = frozenset(),
) -> ConceptTable:
    """The table without the texts ``leave_out`` and without every source of ``domains`` (SGD)
    or ``intents`` (CLINC)."""
    return ConceptTable.build(
        (text, intent)
        for text, intent, _, of in sourced()
        if text not in leave_out
        and not (of & domains)
        and intent.removeprefix("clinc:") not in intents
    )


@cache
def bots(table: str) -> tuple[Bot, ...]:
    """The helpdesk bot and the seven agent-left-out bots, with the ``table`` variant."""
    rows = load()
    unseen = table == "unseen"
    inside = clinc("dev").requests
    inside_texts = frozenset(t for t, _ in inside)
    agents = cards()
    out = []
    outside = [r["text"] for r in rows if r["made"] == "sgd-domain"]
    used = _table(
        inside_texts | frozenset(outside), domains=NO_AGENT_DOMAINS if unseen else frozenset()
    )
    out.append(
        Bot(
            name="helpdesk",
            inside=_check(agents, used, inside),
            outside=_check(agents, used, [(t, None) for t in outside]),
        )
    )
    for removed, intents in AGENTS.items():
        outside = [r["text"] for r in rows if r.get("removed") == removed]
        used = _table(
            inside_texts | frozenset(outside), intents=frozenset(intents) if unseen else frozenset()
        )
        six = tuple(c for c in agents if c.name != removed)
        mine = [(t, g) for t, g in inside if g != removed]
        out.append(
            Bot(
                name=f"without {removed}",
                inside=_check(six, used, mine),
                outside=_check(six, used, [(t, None) for t in outside]),
            )
        )
    return tuple(out)


@cache
def sgd_bot() -> Bot:
    """The SGD agents' bot (``routing_eval.sgd("train")``), in scope only: each development
    request routed with the concept table of the other fold, which never saw it."""
    data = sgd("train")
    tables, fold = fold_tables()
    checked: dict[int, Checked] = {}
    for k, table in tables.items():
        mine = [n for n, (t, _) in enumerate(data.requests) if fold(t) == k]
        got = _check(data.cards, table, [data.requests[n] for n in mine])
        checked.update(zip(mine, got, strict=True))
    return Bot(name="SGD agents", inside=tuple(checked[n] for n in sorted(checked)), outside=())


@dataclass(frozen=True, slots=True)
class Figures:
    inside: int
    right: int
    refused: int
    """In-scope requests sent to no agent."""
    outside: int
    sent: int
    """Out-of-scope requests sent to some agent."""

    def describe(self) -> str:
        inside = f"in scope {self.inside}: routed right {self.right}, refused {self.refused}"
        if not self.outside:
            return inside
        return (
            f"{inside}; out of scope {self.outside}: sent on {self.sent} "
            f"({self.sent / self.outside:.1%})"
        )


def figures(
    group: Sequence[Bot], threshold: float | None, model: scope.ScopeModel = scope.CONCEPTS
) -> Figures:
    """The figures of ``group``'s bots at ``threshold``, summed."""
    inside = [c for b in group for c in b.inside]
    outside = [c for b in group for c in b.outside]
    return Figures(
        inside=len(inside),
        right=sum(c.right and c.sent(threshold, model) for c in inside),
        refused=sum(not c.sent(threshold, model) for c in inside),
        outside=len(outside),
        sent=sum(c.sent(threshold, model) for c in outside),
    )


def groups(table: str) -> dict[str, tuple[Bot, ...]]:
    made = bots(table)
    return {"helpdesk, SGD domains no agent has": made[:1], "agent left out (7 bots)": made[1:]}


def _show(label: str, group: Sequence[Bot], model: scope.ScopeModel) -> None:
    print(f"{label}: {figures(group, None, model).describe()}")
    for t in CURVE:
        f = figures(group, t, model)
        print(f"   threshold {t}: right {f.right}, refused {f.refused}, sent on {f.sent}")


def check_against_planner(sample: int = 200) -> tuple[int, int]:
    """(sent on as recorded, sent on by the planner itself) for the first ``sample`` helpdesk
    out-of-scope rows with the shipped table and constants: the recording's sanity check."""
    rows = [r["text"] for r in load() if r["made"] == "sgd-domain"][:sample]
    planner = RulesPlanner()
    real = sum(any(e.agent != PARENT for e in asyncio.run(plan_message(t, planner))) for t in rows)
    checked = _check(cards(), True, [(t, None) for t in rows])
    return sum(c.sent(None, scope.CONCEPTS) for c in checked), real


def main() -> None:
    model = scope.CONCEPTS
    for table in TABLES:
        for name, group in groups(table).items():
            _show(f"[{table} table] {name} (in scope: the fit's rows)", group, model)
    _show("[fold tables] SGD agents (in scope, unfitted)", (sgd_bot(),), model)


if __name__ == "__main__":
    main()
