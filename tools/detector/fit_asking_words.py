"""Write ``harness/detect/_models/asking_words.json``: which kind of task (SGD domain) the words
of a request or of a question back belong to, read by the missed-request check
(:mod:`harness.detect._asked_about`) so that a question back about another task does not stand in
for a request's answer.

Counted on the Schema-Guided Dialogue **train** dialogues (CC BY-SA 4.0), every turn with one
frame, by the domain of its service, slot values left out (the turn's spans and the values of its
acts: "Delta", "San Jose", "the 20th" name no task). For each word (stem, the matcher's
:func:`~harness.detect.answers.words_of`) seen at least :data:`LEAST` times, the share of its uses
in each domain with at least :data:`TRACE` of them, and each domain's share of all word uses
(``base``). Asking words are the words of the system turns
whose only act is ``REQUEST``, seen :data:`LEAST` times there, whose share of all their uses in
one domain is at least :data:`CONCENTRATED`, and that domain also the one they are most asked in:
"bedroom", "cuisine", "account" are kept; "city", "much", "long", "back", "call", "seat" (asked
by rides, buses and flights alike) are spread over several domains and are not. Subjects are
the words those system turns ask about, seen :data:`LEAST` times there, :data:`CONCENTRATED`
of whose asking uses fall in one or two domains, each with a share of its own (at least
:data:`SHARE`: "movie": media and movies; "passenger": ride sharing), with that share per
domain; a word CLINC150's train utterances spread over their domains is everyday language, not
a subject, however few SGD domains ask about it ("long": rental cars in SGD, cooking, commuting
and cards in CLINC150; "back", "happen", "leave", "amount", "hear"). Deterministic::

    PYTHONPATH=. python -m tools.detector.fit_asking_words --sgd PATH [--clinc data_full.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from harness.detect.answers import words_of

OUT = Path(__file__).resolve().parents[2] / "harness" / "detect" / "_models" / "asking_words.json"
LEAST = 10
# A word used this much in one domain is of that domain's task.
CONCENTRATED = 0.8
# A domain with less than this share of a subject's asking uses is not one it is asked about in.
SHARE = 0.2
# Less than this share of a word's uses in a domain is noise (a stray turn), left out.
TRACE = 0.02


def _said(turn: dict[str, Any], frame: dict[str, Any]) -> frozenset[str]:
    text = turn["text"]
    for _, start, end in sorted(frame.get("spans", []), key=lambda s: -s[1]):
        text = text[:start] + " " + text[end:]
    values: set[str] = set()
    for act in frame["actions"]:
        for value in act[2]:
            values |= words_of(value)
    return words_of(text) - values


def _spread_in_clinc(clinc: Path) -> frozenset[str]:
    """The words CLINC150's **train** utterances (150 intents in 10 domains, none of them
    SGD's) use at least :data:`LEAST` times, less than :data:`CONCENTRATED` of them in any one
    or two domains: everyday words ("long", "back", "happen", "amount", "hear"), not subjects,
    however few of SGD's domains ask about them."""
    raw = json.loads(clinc.read_text(encoding="utf-8"))
    domain_of = {
        intent: domain
        for domain, intents in json.loads((clinc.parent / "domains.json").read_text()).items()
        for intent in intents
    }
    used: dict[str, Counter[str]] = defaultdict(Counter)
    for text, intent in raw["train"]:
        for word in words_of(text):
            used[word][domain_of[intent]] += 1
    return frozenset(
        word
        for word, counts in used.items()
        if sum(counts.values()) >= LEAST
        and sum(k for _, k in counts.most_common(2)) < CONCENTRATED * sum(counts.values())
    )


def asking_words(sgd: Path, clinc: Path | None = None) -> dict[str, object]:
    used: dict[str, Counter[str]] = defaultdict(Counter)
    asked: dict[str, Counter[str]] = defaultdict(Counter)
    with gzip.open(sgd / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            for turn in json.loads(line)["turns"]:
                if len(turn["frames"]) != 1:
                    continue
                frame = turn["frames"][0]
                domain = frame["service"].split("_")[0]
                said = _said(turn, frame)
                for word in said:
                    used[word][domain] += 1
                acts = frame["actions"]
                if turn["speaker"] == "SYSTEM" and acts and all(a[0] == "REQUEST" for a in acts):
                    for word in said:
                        asked[word][domain] += 1
    every = Counter(d for counts in used.values() for d in counts.elements())
    total = sum(every.values())
    shares: dict[str, dict[str, float]] = {}
    for word, counts in sorted(used.items()):
        n = sum(counts.values())
        if n < LEAST:
            continue
        kept = {d: round(k / n, 3) for d, k in sorted(counts.items()) if k / n >= TRACE}
        shares[word] = kept
    asking: dict[str, str] = {}
    for word, counts in sorted(asked.items()):
        if sum(counts.values()) < LEAST or word not in shares:
            continue
        top, share = max(shares[word].items(), key=lambda item: (item[1], item[0]))
        if share >= CONCENTRATED and counts.most_common(1)[0][0] == top:
            asking[word] = top
    spread = _spread_in_clinc(clinc or sgd.parent / "clinc150" / "data_full.json")
    subjects: dict[str, dict[str, float]] = {}
    for word, counts in sorted(asked.items()):
        n = sum(counts.values())
        if n < LEAST or word in spread:
            continue
        # each domain with a real share of its own, one or two of them, together concentrated
        real = {d: k / n for d, k in counts.most_common(2) if k / n >= SHARE}
        if sum(real.values()) >= CONCENTRATED:
            subjects[word] = {d: round(s, 3) for d, s in sorted(real.items())}
    return {
        "source": "SGD train, turns with one frame, slot values left out",
        "least_seen": LEAST,
        "concentrated": CONCENTRATED,
        "trace": TRACE,
        "subject_share": SHARE,
        "subjects_source": "kept out: words CLINC150 train spreads over its domains",
        "asking": asking,
        "base": {d: round(k / total, 3) for d, k in sorted(every.items())},
        "shares": shares,
        "subjects": subjects,
    }


def _dumped(record: dict[str, object]) -> str:
    """JSON with one entry of each table a line (a reviewable diff, a tenth of the lines)."""
    parts = []
    for key, value in sorted(record.items()):
        if isinstance(value, dict):
            rows = ",\n".join(
                f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in value.items()
            )
            parts.append(f" {json.dumps(key)}: {{\n{rows}\n }}")
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgd", type=Path, required=True, help="the folder of sgd-train.jsonl.gz")
    parser.add_argument(
        "--clinc", type=Path, help="CLINC150's data_full.json (default: beside the SGD folder)"
    )
    args = parser.parse_args(argv)
    record = asking_words(args.sgd, args.clinc)
    OUT.write_text(_dumped(record), encoding="utf-8")
    print(f"{len(record['asking'])} asking words, {len(record['shares'])} words -> {OUT}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
