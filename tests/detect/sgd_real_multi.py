"""The independent missed-request check on real multi-request turns of the Schema-Guided Dialogue
dataset (``tests/fixtures/multi_intent/sgd-real-{train,dev}.jsonl``, written by
``build_sgd_real_multi_intent.py``, which says what counts as a request and how the drops are
made).

``python -m tests.detect.sgd_real_multi SPLIT`` (``train`` or ``dev``) prints the set's size, the
requests per message, and per way of running the check: the share of the real, fully answered
turns it flags, and the share of turns with one request's answer taken out it flags. The check
runs through its public entry points only: ``missed_requests`` (every finding, and only those at
the calibrated ``report_threshold``) and ``detect`` (the missed-request detector alone, as
``harness detect`` runs it). Each way runs three times: the check segmenting the message itself,
with the requests declared by ``text`` (the slot's name, not the user's words) and declared with
their ``words`` too (the values the real reply gave; a sentence with one of them answers).

Develop on ``train``; ``dev`` is for one look at the aggregates.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from harness.detect import DetectorConfig, Finding, detect
from harness.detect.answers import matcher
from harness.detect.missed import DeclaredRequest, missed_requests
from harness.detect.transcript import Message, Transcript
from tests import held_out

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "multi_intent"
DECLARED = ("segmented", "declared text", "declared words")
CHECKS = ("every finding", "sure findings", "detect()")

Declared = Mapping[int, Sequence[DeclaredRequest]] | None


def load(split: str) -> tuple[dict[str, Any], ...]:
    """The records of one split (``dev`` skips the test under ``HARNESS_SKIP_HELD_OUT``)."""
    if f"sgd-real-{split}" in held_out.MULTI_INTENT:
        held_out.guard(f"the multi-intent split 'sgd-real-{split}'")
    return _load(split)


@cache
def _load(split: str) -> tuple[dict[str, Any], ...]:
    path = FIXTURES / f"sgd-real-{split}.jsonl"
    return tuple(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())


def turn(record: dict[str, Any], reply: str) -> Transcript:
    """One turn: the user's real message and one bot message."""
    return Transcript(
        conversation=record["id"],
        messages=[
            Message(id="u", turn=1, role="user", sender="user", text=record["text"]),
            Message(id="b", turn=1, role="bot", sender="bot", text=reply),
        ],
    )


def declared(record: dict[str, Any], how: str) -> Declared:
    if how == "segmented":
        return None
    requests = [
        DeclaredRequest(
            text=r["text"],
            agent=r["agent"],
            words=tuple(r["words"]) if how == "declared words" else (),
        )
        for r in record["requests"]
    ]
    return {1: requests}


def checker(
    check: str, *, semantic: bool | str = False
) -> Callable[[Transcript, Declared], list[Finding]]:
    """The check's way ``check`` (``semantic``: under ``--semantic``, WordLlama; or a model's
    name, ``"minilm"``: ``--meaning minilm``)."""
    if semantic:
        from harness.detect.embeddings import LocalEmbedder, MiniLMEmbedder
        from tests.detect.multi_intent import meaning_model, meanings, report_level

        model = meaning_model(semantic) or "wordllama"
        meaning = meanings(model)
        if check == "every finding":
            return lambda t, d: missed_requests(t, declared=d, meanings=meaning)
        if check == "sure findings":
            level = report_level(semantic=semantic)
            return lambda t, d: missed_requests(
                t, declared=d, min_confidence=level, meanings=meaning
            )
        config = DetectorConfig(kinds=frozenset({"missed_request"}))
        embedder = MiniLMEmbedder() if model == "minilm" else LocalEmbedder()
        return lambda t, d: detect(t, config=config, requests=d, meaning=embedder)
    if check == "every finding":
        return lambda t, d: missed_requests(t, declared=d)
    if check == "sure findings":
        level = matcher().report_threshold
        return lambda t, d: missed_requests(t, declared=d, min_confidence=level)
    config = DetectorConfig(kinds=frozenset({"missed_request"}))
    return lambda t, d: detect(t, config=config, requests=d)


@dataclass(frozen=True)
class Result:
    full_turns: int
    full_flagged: int
    drops: Counter[str]
    """Drop mutations by kind (``sentence``, ``clause``)."""
    drops_flagged: Counter[str]

    def describe(self) -> str:
        n, k = self.drops.total(), self.drops_flagged.total()
        kinds = ", ".join(
            f"{kind} {self.drops_flagged[kind]}/{self.drops[kind]}" for kind in sorted(self.drops)
        )
        return (
            f"fully answered flagged {self.full_flagged}/{self.full_turns} "
            f"({self.full_flagged / self.full_turns:.1%}); one dropped flagged {k}/{n} "
            f"({k / n:.1%}; {kinds})"
        )


@cache
def measure(
    split: str, how: str, check: str, limit: int | None = None, *, semantic: bool | str = False
) -> Result:
    """The check (``check``, one of :data:`CHECKS`) with the requests given ``how`` (one of
    :data:`DECLARED`) on the first ``limit`` messages of ``split`` (all when None);
    ``semantic``: the check under ``--semantic`` (needs the ``embeddings`` extra)."""
    run = checker(check, semantic=semantic)
    full = 0
    drops: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    records = load(split)[:limit]
    for record in records:
        requests = declared(record, how)
        full += bool(run(turn(record, record["reply"]), requests))
        for mutation in record["drops"]:
            drops[mutation["kind"]] += 1
            flagged[mutation["kind"]] += bool(run(turn(record, mutation["reply"]), requests))
    return Result(full_turns=len(records), full_flagged=full, drops=drops, drops_flagged=flagged)


def summary(split: str) -> str:
    records = load(split)
    per_message = Counter(len(r["requests"]) for r in records)
    located = sum(all(q["words"] for q in r["requests"]) for r in records)
    beside = Counter(a for r in records for a in r["acts"] if a != "REQUEST")
    return "\n".join(
        [
            f"sgd-real-{split}: {len(records)} messages, requests per message "
            + ", ".join(f"{k}: {v}" for k, v in sorted(per_message.items())),
            f"every request's value located by the spans: {located}; drop mutations: "
            f"{sum(len(r['drops']) for r in records)} (from {sum(bool(r['drops']) for r in records)}"
            " messages)",
            "other user acts in the message: "
            + ", ".join(f"{a} {n}" for a, n in sorted(beside.items())),
        ]
    )


if __name__ == "__main__":
    split = sys.argv[1] if len(sys.argv) > 1 else "train"
    from tests.detect.multi_intent import semantic_option

    semantic = semantic_option(sys.argv)
    print(summary(split))
    for check in CHECKS:
        for how in DECLARED:
            result = measure(split, how, check, semantic=semantic)
            print(f"{check:13} {how:14} {result.describe()}")
