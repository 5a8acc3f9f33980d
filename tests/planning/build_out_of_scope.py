"""Build ``tests/fixtures/out_of_scope/dev.jsonl``: out-of-scope development requests for the planner.

The offline planner's out-of-scope gate (``harness.planning.scope``) had one development set of
requests that belong to no agent: CLINC's 100 ``oos_train`` utterances, which its fit also uses.
This set is larger, comes from train splits only (never from CLINC ``val``/``test`` or SGD
``dev``, which are held out: ``tests.held_out``) and is never fitted on: none of its texts is a row
of the scope fit (``tests.planning.fit_scope``). Every request is real user text, one a line,
labelled with how it was made (``made``):

- ``sgd-domain``: Schema-Guided Dialogue **train** user turns (Rastogi et al., AAAI 2020, CC BY-SA
  4.0) of dialogues whose services all belong to domains no agent of the seven helpdesk agents
  (``tests/fixtures/multi_intent/agents.json``) covers: ``NO_AGENT_DOMAINS``. The SGD domains an
  agent covers (``COVERED``: Banks, Calendar, Flights, Hotels, RentalCars, Travel) and those an
  author could read either way (``EITHER_WAY``: Buses and RideSharing, near "business travel") are
  left out. Two kinds of turn (``kind``): a turn that opens an intent ("I'm hungry, find me a place
  to eat") and a question about an offer ("what's their address?"); a turn that also accepts,
  declines or picks an offer, or only says yes, no, thanks or a slot value, is left out.
- ``agent-left-out``: CLINC150 **train** utterances (Larson et al., EMNLP 2019, CC-BY-3.0) of one
  agent's intents (``tests.detect.build_multi_intent.AGENTS``), for the bot of the six other agents
  (``removed`` names the agent). These are close to the other agents' subjects (a lost card for a
  bot with banking but no cards agent), the hardest kind of out-of-scope request. The agents' own
  examples are left out, and so are the gold requests of the labelled ``dev`` split
  (``routing_eval.clinc("dev")``, also CLINC train): the scope fit's in-scope rows.

Both come from concept-table sources (``tests.planning.build_concepts``): an evaluation must route
them with a table built without them (``tests.planning.out_of_scope_eval`` does). Deterministic;
rebuild with::

    PYTHONPATH=. .venv/bin/python -m tests.planning.build_out_of_scope
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.detect.build_multi_intent import AGENTS, CLINC
from tests.planning.routing_eval import SGD, clinc

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "out_of_scope" / "dev.jsonl"
AGENTS_FILE = ROOT / "tests" / "fixtures" / "multi_intent" / "agents.json"

NO_AGENT_DOMAINS = frozenset(
    {"Events", "Homes", "Media", "Movies", "Music", "Restaurants", "Services", "Weather"}
)
"""SGD train domains no helpdesk agent covers: concerts and games, homes to rent, films online and
at the cinema, songs, restaurants, salons and doctors, the weather."""
COVERED = frozenset({"Banks", "Calendar", "Flights", "Hotels", "RentalCars", "Travel"})
"""SGD train domains a helpdesk agent covers (banking, calendar and travel: flights, hotels, rental
cars, places to see)."""
EITHER_WAY = frozenset({"Buses", "RideSharing"})
"""Bus tickets and taxis: the travel agent's "business travel" may or may not cover them."""
OPENING_STRIDE = 6
QUESTION_STRIDE = 7
CLINC_STRIDE = 5
_NOT_A_REQUEST = frozenset({"AFFIRM", "AFFIRM_INTENT", "NEGATE", "NEGATE_INTENT", "SELECT"})


def _kind(acts: set[str]) -> str | None:
    """``opening``, ``question`` or None (a turn that is no request of its own)."""
    if acts & _NOT_A_REQUEST:
        return None
    if "INFORM_INTENT" in acts:
        return "opening"
    if "REQUEST" in acts:
        return "question"
    return None


def sgd_rows() -> Iterator[dict[str, Any]]:
    """The ``sgd-domain`` rows (see the module docstring)."""
    picked: dict[str, list[dict[str, Any]]] = {"opening": [], "question": []}
    seen: set[str] = set()
    with gzip.open(SGD / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            dialogue = json.loads(line)
            domains = {s.split("_")[0] for s in dialogue["services"]}
            if not domains <= NO_AGENT_DOMAINS:
                continue
            for turn in dialogue["turns"]:
                if turn["speaker"] != "USER" or not turn["frames"]:
                    continue
                kind = _kind({a[0] for f in turn["frames"] for a in f["actions"]})
                text = " ".join(turn["text"].split())
                if kind is None or text.lower() in seen:
                    continue
                seen.add(text.lower())
                picked[kind].append(
                    {
                        "text": text,
                        "made": "sgd-domain",
                        "kind": kind,
                        "source": f"sgd-train:{dialogue['id']}",
                        "domain": turn["frames"][0]["service"].split("_")[0],
                    }
                )
    yield from picked["opening"][::OPENING_STRIDE]
    yield from picked["question"][::QUESTION_STRIDE]


def _plain(text: str) -> str:
    return " ".join(text.replace("’", "'").split())


def fitted() -> frozenset[str]:
    """The scope fit's in-scope texts (``fit_scope``: the ``dev`` split's gold requests), as
    ``clinc_rows`` writes a text."""
    return frozenset(_plain(text) for text, _ in clinc("dev").requests)


def clinc_rows() -> Iterator[dict[str, Any]]:
    """The ``agent-left-out`` rows (see the module docstring)."""
    data = json.loads(CLINC.read_text(encoding="utf-8"))
    examples = {e for a in json.loads(AGENTS_FILE.read_text("utf-8")) for e in a["examples"]}
    used = fitted()
    for agent, intents in AGENTS.items():
        texts = [(_plain(text), intent) for text, intent in data["train"] if intent in intents]
        mine = [(t, i) for t, i in texts if t not in examples]
        for text, intent in mine[::CLINC_STRIDE]:
            if text in used:
                continue
            yield {
                "text": text,
                "made": "agent-left-out",
                "kind": "request",
                "source": "clinc-train",
                "intent": intent,
                "removed": agent,
            }


def rows() -> list[dict[str, Any]]:
    """Every row, numbered."""
    out = [*sgd_rows(), *clinc_rows()]
    return [{"id": f"oos-dev-{n:04d}", **row} for n, row in enumerate(out, 1)]


def main() -> None:
    built = rows()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in built), "utf-8")
    print(f"{OUT}: {len(built)} requests")


if __name__ == "__main__":
    main()
