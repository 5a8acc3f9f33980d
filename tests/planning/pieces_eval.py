"""Pieces of one request the offline planner refuses beside that request's own answer.

A plan entry for the parent (no agent) whose reply would say "I can't help with ..."
(``harness.composing.rules._own_reply``) is a *refused piece*. Each plan entry is laid on the gold
request holding most of its words (at least half); a refused piece laid on a request another
entry routes to an agent is *beside its own request's answer*: the user reads a refusal of a
part of a request that was answered. A gold request for the parent (no agent serves it) counts
as *refused* when a refused piece lies on it. Messages are folded by a hash of their id into a
``fit`` and a ``check`` half (development splits only).

``python -m tests.planning.pieces_eval [SPLIT ...] [--show fit]`` prints per split and half:
requests, routed right, refused pieces beside their own request's answer, parent requests
refused; ``--show fit`` prints the fit half's cases.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter

from harness.composing.rules import _own_reply
from tests.detect.multi_intent import load
from tests.detect.planner_baseline import PARENT, coverage, plans

SPLITS = ("dev", "styled", "ways-dev", "own", "sgd-train")
_WORD = re.compile(r"[a-z0-9']+")


def half(message_id: str) -> str:
    """``fit`` or ``check``, from a hash of the message's id."""
    return "fit" if hashlib.sha256(message_id.encode()).digest()[0] % 2 == 0 else "check"


def _owner(entry: str, gold: list[str]) -> int | None:
    words = set(_WORD.findall(entry.lower()))
    best, owner = 0.0, None
    for index, text in enumerate(gold):
        share = len(words & set(_WORD.findall(text.lower()))) / len(words) if words else 0.0
        if share > best:
            best, owner = share, index
    return owner if best >= 0.5 else None


def measure(split: str, show: str = "") -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {"fit": Counter(), "check": Counter()}
    for message, entries in zip(load(split), plans(split), strict=True):
        part = half(message["id"])
        count = out[part]
        gold = [r["text"] for r in message["requests"]]
        agents = [r["agent"] for r in message["requests"]]
        covered = coverage(gold, entries)
        count["requests"] += len(gold)
        count["right"] += sum(
            e is not None and e.agent == a for (e, _), a in zip(covered, agents, strict=True)
        )
        refused = [
            e for e in entries if e.agent == PARENT and _own_reply(e.request, asked=False)[1]
        ]
        routed = {_owner(e.request, gold) for e in entries if e.agent != PARENT}
        beside = []
        for e in refused:
            owner = _owner(e.request, gold)
            if owner is not None and owner in routed and agents[owner] != PARENT:
                beside.append((e, owner))
        count["beside"] += len(beside)
        parent_requests = [i for i, a in enumerate(agents) if a == PARENT]
        count["parent requests"] += len(parent_requests)
        count["parent refused"] += sum(
            any(_owner(e.request, gold) == i for e in refused) for i in parent_requests
        )
        if show == part and beside:
            print(f"{message['id']} {message['text']!r}")
            for e, owner in beside:
                print(f"   REFUSED {e.request!r}  (of {gold[owner]!r})")
            for e in entries:
                print(f"   plan: {e.agent}: {e.request!r}")
    return out


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = sys.argv[sys.argv.index("--show") + 1] if "--show" in sys.argv else ""
    args = [a for a in args if a != show]
    for split in args or SPLITS:
        for part, c in measure(split, show).items():
            print(
                f"{split:10} {part:5} requests {c['requests']} right {c['right']} "
                f"beside {c['beside']} parent-refused {c['parent refused']}/{c['parent requests']}"
            )
