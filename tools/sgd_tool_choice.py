"""Which tool the offline model calls for SGD **train** user turns that open an intent.

    python -m tools.sgd_tool_choice PATH/TO/sgd-train.jsonl.gz

Each SGD train service with two or more intents is an agent whose tools are its intents, by name
(snake_case; the compact copy has no intent descriptions, and ``harness.models._actions`` reads
names only). Which intents change something is written here by hand from the intent names, after
SGD's ``is_transactional`` schema flag (the compact copy does not carry the flag). For the turns of
intents that do not change anything (``reads``) and those that do (``acts``) it prints how many
called their own intent's tool, a tool that changes something, and no tool.

Only the train file: SGD dev is held out. Development material, so the figures are in sample.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import re
from pathlib import Path

from harness.models.base import ActContext, ToolDefinition
from harness.models.rules import RulesModel

TRANSACTIONAL = frozenset(
    [
        "TransferMoney",
        "BuyBusTicket",
        "AddEvent",
        "BuyEventTickets",
        "ReserveOnewayFlight",
        "ReserveRoundtripFlights",
        "ScheduleVisit",
        "ReserveHotel",
        "BookHouse",
        "PlayMovie",
        "PlaySong",
        "PlayMedia",
        "ReserveCar",
        "GetRide",
        "BookAppointment",
        "ReserveRestaurant",
    ]
)
_PARAMETERS = {
    "type": "object",
    "properties": {"request": {"type": "string"}},
    "required": ["request"],
}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def intent_turns(path: Path) -> tuple[dict[str, set[str]], list[tuple[str, str, str]]]:
    """Every service's intents and every (service, intent, user text) that informs an intent."""
    intents: dict[str, set[str]] = collections.defaultdict(set)
    turns: list[tuple[str, str, str]] = []
    with gzip.open(path, "rt") as lines:
        for line in lines:
            for turn in json.loads(line)["turns"]:
                if turn["speaker"] != "USER":
                    continue
                for frame in turn["frames"]:
                    for act in frame["actions"]:
                        if act[0] == "INFORM_INTENT":
                            intents[frame["service"]].add(act[2][0])
                            turns.append((frame["service"], act[2][0], turn["text"]))
    return intents, turns


def count(path: Path) -> collections.Counter[tuple[str, str]]:
    """(reads|acts, what was called) counts over the train turns."""
    intents, turns = intent_turns(path)
    model = RulesModel()
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for service, intent, text in turns:
        names = sorted(intents[service])
        if len(names) < 2:
            continue
        tools = [
            ToolDefinition(name=_snake(n), description="", parameters=_PARAMETERS) for n in names
        ]
        context = ActContext(
            agent=service,
            mode="direct",
            scoped_request=text,
            history=None,
            required_outputs=(),
            can_message_user=True,
        )
        # The tool choice alone, without running a turn: the private step is what is measured.
        called = {c.name for c in model._pick_tools(tools, context)}
        acting = {_snake(n) for n in names if n in TRANSACTIONAL}
        kind = "acts" if intent in TRANSACTIONAL else "reads"
        counts[kind, "turns"] += 1
        counts[kind, "own tool"] += _snake(intent) in called
        counts[kind, "a tool that acts"] += bool(called & acting)
        counts[kind, "no tool"] += not called
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train", type=Path, help="sgd-train.jsonl.gz (never the dev file)")
    args = parser.parse_args()
    if "dev" in args.train.name:
        parser.error("SGD dev is held out; give the train file")
    for key, value in sorted(count(args.train).items()):
        print(*key, value)


if __name__ == "__main__":
    main()
