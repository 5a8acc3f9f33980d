"""Write ``harness/detect/_models/asking_words.json``: the words with which real systems ask the
user for a detail of one kind of task only ("bedrooms", "cuisine", "seats"), read by the
missed-request check (:mod:`harness.detect._asked_about`) so that a question back about another
task does not stand in for a request's answer.

Counted on the Schema-Guided Dialogue **train** dialogues (CC BY-SA 4.0): the system turns whose
only act is ``REQUEST``, by the domain of their service. A word (stem, the matcher's
:func:`~harness.detect.answers.words_of`) of such questions is kept when it is seen at least
:data:`LEAST` times and in at most a quarter of the domains: "city", "date", "time" are asked in
most domains and are not kept. Deterministic::

    PYTHONPATH=. python -m tools.detector.fit_asking_words --sgd PATH
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter, defaultdict
from pathlib import Path

from harness.detect.answers import words_of

OUT = Path(__file__).resolve().parents[2] / "harness" / "detect" / "_models" / "asking_words.json"
LEAST = 10


def asking_words(sgd: Path) -> dict[str, object]:
    """The record written: the kept stems, sorted, and how they were counted."""
    domains_of: dict[str, set[str]] = defaultdict(set)
    seen: Counter[str] = Counter()
    domains: set[str] = set()
    with gzip.open(sgd / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            for turn in json.loads(line)["turns"]:
                if turn["speaker"] != "SYSTEM" or len(turn["frames"]) != 1:
                    continue
                frame = turn["frames"][0]
                if not frame["actions"] or any(a[0] != "REQUEST" for a in frame["actions"]):
                    continue
                domain = frame["service"].split("_")[0]
                domains.add(domain)
                for word in words_of(turn["text"]):
                    domains_of[word].add(domain)
                    seen[word] += 1
    kept = sorted(
        w for w, n in seen.items() if n >= LEAST and 4 * len(domains_of[w]) <= len(domains)
    )
    return {
        "source": "SGD train system turns whose only act is REQUEST",
        "domains": len(domains),
        "least_seen": LEAST,
        "words": kept,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgd", type=Path, required=True, help="the folder of sgd-train.jsonl.gz")
    args = parser.parse_args(argv)
    record = asking_words(args.sgd)
    OUT.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"{len(record['words'])} words of {record['domains']} domains -> {OUT}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
