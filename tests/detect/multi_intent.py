"""The labelled multi-intent set and the measurements on it (used by the tests and printed by
``python -m tests.detect.multi_intent SPLIT``; ``--curve`` prints the trade-off of the report
threshold instead).

``tests/fixtures/multi_intent/{dev,test}.jsonl`` are written by ``build_multi_intent.py``: ``dev``
from CLINC150's train split (develop on it), ``test`` from its test split (report on it).
``build_fresh_multi_intent.py`` writes ``sgd-train.jsonl`` (develop on it) and the two sets nobody
tuned on: ``sgd-dev.jsonl`` (SGD dev user turns, answered by the real system turn that followed
each) and ``fresh.jsonl`` (CLINC test utterances, another seed, other joining styles).
Development sets: ``dev``, ``sgd-train``; held out: ``test``, ``sgd-dev``, ``fresh``.
``build_val_multi_intent.py`` writes ``val.jsonl``: CLINC150 **val** utterances (never a request of
another set), joined in styles counted from real multi-request SGD user turns; built blind to the
planner and measured once (``tests/planning/test_val_routing.py``), the clean held-out set for
routing now that ``test`` and ``sgd-dev`` have been looked at while the planner was tuned.
"""

from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from harness.detect._meaning import Meanings, semantic_confidence
from harness.detect.answers import matcher
from harness.detect.findings import Finding
from harness.detect.missed import DeclaredRequest, _missing, _segmented
from harness.detect.missed import missed_requests as _missed_requests
from harness.detect.requests import segment_requests
from harness.detect.transcript import Message, Transcript
from harness.text import content_words
from tests import held_out

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "multi_intent"


def load(split: str) -> tuple[dict[str, Any], ...]:
    """The messages of one split (a held-out split skips the test under ``HARNESS_SKIP_HELD_OUT``)."""
    if split in held_out.MULTI_INTENT:
        held_out.guard(f"the multi-intent split {split!r}")
    return _load(split)


@cache
def _load(split: str) -> tuple[dict[str, Any], ...]:
    path = FIXTURES / f"{split}.jsonl"
    return tuple(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())


def same_request(predicted: str, gold: str) -> bool:
    """A predicted request matches a gold one when they have the same content words."""
    return content_words(predicted) == content_words(gold)


@dataclass(frozen=True)
class Segmentation:
    messages: int
    exact_count: int
    all_matched: int
    requests: int
    matched: int
    by_shape: dict[str, tuple[int, int]]

    def describe(self) -> str:
        lines = [
            f"messages {self.messages}: request count right {self.exact_count} "
            f"({self.exact_count / self.messages:.1%}), every request matched {self.all_matched} "
            f"({self.all_matched / self.messages:.1%})",
            f"requests {self.requests}: matched {self.matched} ({self.matched / self.requests:.1%})",
        ]
        for shape, (n, ok) in sorted(self.by_shape.items()):
            lines.append(f"  {shape:13} {ok}/{n} messages fully right")
        return "\n".join(lines)


def segmentation(split: str) -> Segmentation:
    exact = full = total = matched = 0
    by_shape: dict[str, list[int]] = {}
    for message in load(split):
        predicted = [r.text for r in segment_requests(message["text"])]
        gold = [r["text"] for r in message["requests"]]
        exact += len(predicted) == len(gold)
        hits = sum(any(same_request(p, g) for p in predicted) for g in gold)
        total += len(gold)
        matched += hits
        ok = hits == len(gold) and len(predicted) == len(gold)
        full += ok
        counts = by_shape.setdefault(message["shape"], [0, 0])
        counts[0] += 1
        counts[1] += ok
    return Segmentation(
        messages=len(load(split)),
        exact_count=exact,
        all_matched=full,
        requests=total,
        matched=matched,
        by_shape={k: (v[0], v[1]) for k, v in by_shape.items()},
    )


def failures(split: str, limit: int = 40) -> list[str]:
    out = []
    for message in load(split):
        predicted = [r.text for r in segment_requests(message["text"])]
        gold = [r["text"] for r in message["requests"]]
        if len(predicted) != len(gold) or not all(
            any(same_request(p, g) for p in predicted) for g in gold
        ):
            out.append(f"{message['text']}\n   got  {predicted}\n   gold {gold}")
    return out[:limit]


Semantic = bool | str
"""How a measurement's check reads meaning: False, the default check; True, ``--semantic``
(WordLlama); a model's name (``"minilm"``: ``--meaning minilm``)."""


def meaning_model(semantic: Semantic) -> str | None:
    """The embedder a measurement's check reads meaning with (None: the default check)."""
    if semantic is False:
        return None
    return "wordllama" if semantic is True else str(semantic)


@cache
def meanings(model: str = "wordllama") -> Meanings:
    """The check's meanings under ``--semantic``: WordLlama (the ``embeddings`` extra), or
    MiniLM (``model="minilm"``, the ``minilm`` extra), each text embedded once per process."""
    from harness.detect.embeddings import LocalEmbedder, MiniLMEmbedder

    if model == "minilm":
        return Meanings(encode=MiniLMEmbedder().encode, model=model)
    return Meanings(encode=LocalEmbedder(batch_size=256).encode, model=model)


def report_level(*, semantic: Semantic = False) -> float:
    """The abstaining check's calibrated level (the default or the ``--semantic`` one)."""
    model = meaning_model(semantic)
    if model is None:
        return matcher().report_threshold
    return semantic_confidence(model).report_threshold


def semantic_option(argv: list[str]) -> Semantic:
    """``--semantic`` (WordLlama) or ``--meaning MODEL`` on a measurement's command line."""
    if "--meaning" in argv:
        return argv[argv.index("--meaning") + 1]
    return "--semantic" in argv


# --- the mutation test ------------------------------------------------------------------------


def turn(message: dict[str, Any], said: list[str], *, composed: bool) -> Transcript:
    """One turn: the user's message and the bot's answers (one message each, or composed into
    one message as a parent relaying silent agents does)."""
    texts = [" ".join(said)] if composed and said else said
    messages = [Message(id="u", turn=1, role="user", sender="user", text=message["text"])]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(texts)
    ]
    return Transcript(conversation=message["id"], messages=messages)


@cache
def fillers(split: str) -> tuple[str, ...]:
    """Real SGD system turns that answer nothing ("Is there anything else?", a goodbye): from SGD
    train for the development sets, from SGD dev for the held-out ones
    (:data:`tests.held_out.MULTI_INTENT`)."""
    name = "dev" if split in held_out.MULTI_INTENT else "train"
    path = FIXTURES / f"fillers-{name}.txt"
    return tuple(path.read_text(encoding="utf-8").splitlines())


@cache
def questions_back(split: str) -> tuple[tuple[str, str], ...]:
    """Real SGD system turns that only ask the user for a detail of their own domain's task
    ("How many people will be dining?"), each with its domain ("Restaurants"): from SGD train for
    the development sets, from SGD dev for the held-out ones (``build_questions_back.py``)."""
    name = "dev" if split in held_out.MULTI_INTENT else "train"
    path = FIXTURES / f"questions-{name}.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple((domain, text) for domain, _, text in (line.partition("\t") for line in lines))


def question_back_for(
    request: dict[str, Any], questions: tuple[tuple[str, str], ...], rng: random.Random
) -> str:
    """A question back about another task, to stand in for ``request``'s answer: drawn (with
    ``rng``) from the ``questions`` of another domain than the request's (no word of the domain's
    name, "RentalCars" -> rental, car, is a word of the request, its intent or its agent, and
    the domain is not its agent) that share no content word with the request; from all of them
    when none does."""
    own = content_words(
        " ".join((request["text"], request.get("intent", ""), request.get("agent", ""))).replace(
            "_", " "
        )
    )
    agent = request.get("agent", "").lower()

    def other(domain: str, text: str) -> bool:
        named = content_words(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", domain)) | {domain.lower()}
        return domain.lower() != agent and not named & own and not content_words(text) & own

    kept = [text for domain, text in questions if other(domain, text)]
    return rng.choice(kept or [text for _, text in questions])


@dataclass(frozen=True)
class Mutation:
    full_turns: int
    full_flagged: int
    dropped_turns: int
    dropped_flagged: int
    dropped_named: int
    merged_turns: int
    merged_flagged: int
    filler_flagged: int = 0
    """Turns with one answer replaced by a sentence that answers nothing, flagged (of
    ``dropped_turns``)."""
    asked_flagged: int = 0
    """Turns with one answer replaced by a question back about another task (a real SGD question
    for a detail of another domain, :func:`question_back_for`), in a message of its own, flagged
    (of ``dropped_turns``): a bot that leaves a request out and asks about another instead."""

    def describe(self) -> str:
        return (
            f"every request answered: {self.full_flagged}/{self.full_turns} turns flagged "
            f"({self.full_flagged / self.full_turns:.1%}); one request dropped: "
            f"{self.dropped_flagged}/{self.dropped_turns} flagged "
            f"({self.dropped_flagged / self.dropped_turns:.1%}), the dropped one named in "
            f"{self.dropped_named}; two merged: {self.merged_flagged}/{self.merged_turns} flagged "
            f"({self.merged_flagged / self.merged_turns:.1%}); one answer replaced by a closer: "
            f"{self.filler_flagged}/{self.dropped_turns} flagged "
            f"({self.filler_flagged / self.dropped_turns:.1%}); one answer replaced by a "
            f"question back about another task: {self.asked_flagged}/{self.dropped_turns} "
            f"flagged ({self.asked_flagged / self.dropped_turns:.1%})"
        )


@cache
def mutation(
    split: str,
    *,
    answer: str = "answer",
    composed: bool = False,
    declared: bool = False,
    sure: bool = False,
    semantic: Semantic = False,
) -> Mutation:
    """The independent check on turns where every request was answered, and on turns of a
    planner that dropped one request (each request in turn) or merged two neighbours (the agent
    answering only the first); each answer in turn also replaced by a closer and by a question
    back about another task (:attr:`Mutation.filler_flagged`, :attr:`Mutation.asked_flagged`).
    ``sure``: count only the findings the check is sure of (at least the calibrated
    ``report_threshold``). ``semantic``: the check under ``--semantic``
    (needs the ``embeddings`` extra), or a model's name (``"minilm"``)."""
    model = meaning_model(semantic)
    meaning = meanings(model) if model is not None else None

    def missed_requests(transcript: Transcript, **kwargs: Any) -> list[Finding]:
        floor = report_level(semantic=semantic) if sure else 0.0
        return _missed_requests(transcript, min_confidence=floor, meanings=meaning, **kwargs)

    full = dropped = named = merged = filled = asked = 0
    n_dropped = n_merged = 0
    rng = random.Random(25)
    closers = fillers(split)
    # its own generator, so the closers drawn are the ones drawn before the questions were added
    asking = random.Random(66)
    questions = questions_back(split)
    for message in load(split):
        gold = message["requests"]
        answers = [r[answer] for r in gold]
        requests = (
            {1: [DeclaredRequest(text=r["text"], agent=r["agent"]) for r in gold]}
            if declared
            else None
        )
        full += bool(missed_requests(turn(message, answers, composed=composed), declared=requests))
        for k in range(len(gold)):
            said = answers[:k] + answers[k + 1 :]
            found = missed_requests(turn(message, said, composed=composed), declared=requests)
            n_dropped += 1
            dropped += bool(found)
            named += any(same_request(_quoted(f.evidence), gold[k]["text"]) for f in found)
            said = [*answers[:k], rng.choice(closers), *answers[k + 1 :]]
            filled += bool(
                missed_requests(turn(message, said, composed=composed), declared=requests)
            )
            question = question_back_for(gold[k], questions, asking)
            said = [*answers[:k], question, *answers[k + 1 :]]
            asked += bool(
                missed_requests(turn(message, said, composed=composed), declared=requests)
            )
        for k in range(len(gold) - 1):
            said = answers[: k + 1] + answers[k + 2 :]
            found = missed_requests(turn(message, said, composed=composed), declared=requests)
            n_merged += 1
            merged += bool(found)
    return Mutation(
        full_turns=len(load(split)),
        full_flagged=full,
        dropped_turns=n_dropped,
        dropped_flagged=dropped,
        dropped_named=named,
        merged_turns=n_merged,
        merged_flagged=merged,
        filler_flagged=filled,
        asked_flagged=asked,
    )


@dataclass(frozen=True)
class Sureness:
    """Per simulated turn of :func:`mutation`, the confidence of its surest finding (0 when it
    has none): turns where every request was answered, with one request dropped, with two
    merged."""

    full: tuple[float, ...]
    dropped: tuple[float, ...]
    merged: tuple[float, ...]

    def rates(self, level: float) -> tuple[float, float, float]:
        """The shares of each kind of turn flagged when reporting from ``level`` up."""
        return (
            sum(c >= level for c in self.full) / len(self.full),
            sum(c >= level for c in self.dropped) / len(self.dropped),
            sum(c >= level for c in self.merged) / len(self.merged),
        )


@cache
def sureness(split: str, *, declared: bool = False, semantic: Semantic = False) -> Sureness:
    """The turns of :func:`mutation` (answers one message each), each as its surest finding's
    confidence, so one pass gives the whole trade-off curve of the report threshold."""
    model = meaning_model(semantic)
    meaning = meanings(model) if model is not None else None

    def surest(message: dict[str, Any], said: list[str], requests: Any) -> float:
        # missed_requests' decision for one turn, with the confidence kept
        asked = requests[1] if requests else _segmented(message["text"])
        found = _missing(asked, said, declared=bool(requests), meanings=meaning)
        return max(found.values(), default=-1.0)

    full: list[float] = []
    dropped: list[float] = []
    merged: list[float] = []
    for message in load(split):
        gold = message["requests"]
        answers = [r["answer"] for r in gold]
        requests = (
            {1: [DeclaredRequest(text=r["text"], agent=r["agent"]) for r in gold]}
            if declared
            else None
        )
        full.append(surest(message, answers, requests))
        for k in range(len(gold)):
            dropped.append(surest(message, answers[:k] + answers[k + 1 :], requests))
        for k in range(len(gold) - 1):
            merged.append(surest(message, answers[: k + 1] + answers[k + 2 :], requests))
    return Sureness(tuple(full), tuple(dropped), tuple(merged))


CURVE = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.96, 0.97, 0.975, 0.978, 0.98, 0.985, 0.99)


def curve(
    split: str,
    levels: tuple[float, ...] = CURVE,
    *,
    declared: bool = False,
    semantic: Semantic = False,
) -> str:
    """The trade-off of the report threshold on ``split``: per level, the share of fully
    answered turns flagged, of drops flagged and of merges flagged."""
    s = sureness(split, declared=declared, semantic=semantic)
    lines = ["level  fully answered flagged  drops flagged  merges flagged"]
    for level in levels:
        fa, drops, merges = s.rates(level)
        lines.append(f"{level:5.3f}  {fa:22.1%}  {drops:13.1%}  {merges:14.1%}")
    return "\n".join(lines)


def _quoted(evidence: str) -> str:
    return evidence.split('"')[1] if '"' in evidence else ""


if __name__ == "__main__":
    split = sys.argv[1] if len(sys.argv) > 1 else "dev"
    if split.startswith("sgd-real-"):
        # Its labelled requests are slot names, not pieces of the user's message.
        sys.exit(
            f"{split}: measured by `python -m tests.detect.sgd_real_multi "
            f"{split.removeprefix('sgd-real-')}`, not by this module"
        )
    print(segmentation(split).describe())
    if "-v" in sys.argv:
        print("\n".join(failures(split)))
    answers = (
        ("answer", "answer_own_terms")
        if "answer_own_terms" in load(split)[0]["requests"][0]
        else ("answer",)
    )
    semantic = semantic_option(sys.argv)
    if "--curve" in sys.argv:
        print(curve(split, semantic=semantic))
        sys.exit()
    for answer in answers:
        for composed in (False, True):
            for declared in (False, True):
                m = mutation(
                    split, answer=answer, composed=composed, declared=declared, semantic=semantic
                )
                print(f"{answer} composed={composed} declared={declared}: {m.describe()}")
