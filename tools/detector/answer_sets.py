"""Development sets for the answer matcher made from real request -> answer pairs of SGD *train*.

The joined sets the matcher was first fitted on (``dev``, ``sgd-train``) answer each request with
a whole system turn or with another user's words, and join requests of different domains. They
do not teach what answers what in a bot's own words ("Where is the event?" / "It is at 3800
Montlake Boulevard"), nor two requests of one service told apart ("where is it" beside "when
does it start"). Two sets do:

- :func:`slot_messages`: real SGD train user turns that ask for one slot (one ``REQUEST`` act
  and no other act), each answered by the sentences of the system turn after it that hold that
  slot's value (its spans), joined two to four of one service into a message, so that the
  requests are of one domain and their answers are real replies in the system's words;
- :func:`real_turns`: the real multi-request turns of ``sgd-real-train.jsonl`` (SGD train, with
  the real reply and the reply with one request's answer taken out), as the check reads them.

Both are development data: SGD train only (the dev split is held out).
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from harness.detect.requests import needs_answer, segment_requests

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "multi_intent" / "sgd-real-train.jsonl"
SEED = 3801
SIZE = 600

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

Example = tuple[str, str]
"""A request as the check segments it and the sentences of the reply that answer it."""


def slot_answers(sgd: Path) -> dict[str, dict[str, list[Example]]]:
    """Per SGD service, per requested slot: the user's request (the one part of its turn that
    needs an answer, as :func:`~harness.detect.requests.segment_requests` reads it) and the
    sentences of the next system turn that hold the slot's spans."""
    out: dict[str, dict[str, list[Example]]] = defaultdict(lambda: defaultdict(list))
    with gzip.open(sgd / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            turns = json.loads(line)["turns"]
            for user, system in itertools.pairwise(turns):
                if user["speaker"] != "USER" or system["speaker"] != "SYSTEM":
                    continue
                acts = [a for frame in user["frames"] for a in frame["actions"]]
                if len(acts) != 1 or acts[0][0] != "REQUEST":
                    continue
                slot = acts[0][1]
                answer = _holding(system, slot)
                parts = [r.text for r in segment_requests(" ".join(user["text"].split()))]
                asked = [p for p in parts if needs_answer(p)]
                if answer and len(asked) == 1:
                    out[user["frames"][0]["service"]][slot].append((asked[0], answer))
    return out


def _holding(system: dict[str, Any], slot: str) -> str:
    """The sentences of a system turn that hold a span of ``slot`` (none: empty)."""
    text = system["text"]
    spans = [(a, b) for f in system["frames"] for s, a, b in f["spans"] if s == slot]
    kept, start = [], 0
    for piece in _SENTENCE_END.split(text):
        begin = text.index(piece, start)
        start = begin + len(piece)
        if any(a < start and b > begin for a, b in spans):
            kept.append(piece)
    return " ".join(kept)


def _join(parts: Sequence[str], rng: random.Random) -> str:
    """Requests joined as people write them: sentences, a comma list, or "and"."""
    style = rng.random()
    if style < 0.5:
        return " ".join(
            p[0].upper() + p[1:] + ("?" if not p.endswith(("?", ".")) else "") for p in parts
        )
    joined = [p.rstrip("?.!") for p in parts]
    joined = [joined[0]] + [
        p[0].lower() + p[1:] if not p.startswith("I ") else p for p in joined[1:]
    ]
    if style < 0.8:
        return ", ".join(joined[:-1]) + ", and " + joined[-1] + "?"
    return " and ".join(joined) + "?"


def slot_messages(sgd: Path, *, size: int = SIZE, seed: int = SEED) -> list[dict[str, Any]]:
    """``size`` messages of two to four requests for different slots of one SGD service, each
    request answered by the real reply sentences that give its slot (the format of
    ``tests/fixtures/multi_intent``: ``text`` and ``requests`` with ``text`` and ``answer``)."""
    rng = random.Random(seed)
    table = slot_answers(sgd)
    services = sorted(s for s, slots in table.items() if len(slots) >= 2)
    out: list[dict[str, Any]] = []
    while len(out) < size:
        service = rng.choice(services)
        slots = sorted(table[service])
        chosen = rng.sample(slots, min(len(slots), rng.choice((2, 2, 3, 4))))
        picked = [rng.choice(table[service][slot]) for slot in chosen]
        if len({p[1] for p in picked}) < len(picked):
            continue  # one reply sentence for two slots: not one answer each
        out.append(
            {
                "id": f"sgd-slots-{len(out) + 1:04d}",
                "text": _join([request for request, _ in picked], rng),
                "requests": [{"text": q, "answer": a} for q, a in picked],
            }
        )
    return out


def real_turns(
    matrix: Callable[[str, list[str]], Any], path: Path = REAL
) -> tuple[list[Any], list[Any]]:
    """The real multi-request turns of SGD train as ``matrix(message, said)`` reads them: every
    fully answered turn, and every turn with one request's answer taken out."""
    full, drop = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        full.append(matrix(record["text"], [record["reply"]]))
        drop += [matrix(record["text"], [d["reply"]]) for d in record["drops"]]
    return full, drop
