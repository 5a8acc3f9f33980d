"""Fit the counts of what each kind of request needs asked back (``harness/detect/_models/
asked-back.json``, read by :mod:`harness.detect._asked_back`).

Data: the Schema-Guided Dialogue *train* dialogues (CC BY-SA 4.0; ``--sgd`` names the folder
holding ``sgd-train.jsonl.gz``). Request side: each user turn with an ``INFORM_INTENT`` act, its
content words counted once each under the act's domain (the service's name before ``_``).
Question side: each system turn whose acts are all ``REQUEST``, its terms
(:func:`~harness.detect._asked_back.question_terms`) counted under its first frame's domain.
Kept: words and terms seen in at least ``frequent`` turns overall, and per domain those seen at
least ``least`` times (the rest count as unseen). Deterministic (sorted output)::

    PYTHONPATH=. .venv/bin/python -m tools.detector.fit_asked_back --sgd ../shared/data/sgd
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.detect._answer_terms import words_of
from harness.detect._asked_back import question_terms

OUT = Path(__file__).resolve().parents[2] / "harness" / "detect" / "_models" / "asked-back.json"


@dataclass
class Counts:
    requests: Counter[str] = field(default_factory=Counter)
    request_words: defaultdict[str, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    questions: Counter[str] = field(default_factory=Counter)
    question_terms: defaultdict[str, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )

    def add(self, other: Counts, sign: int = 1) -> None:
        for mine, theirs in (
            (self.requests, other.requests),
            (self.questions, other.questions),
        ):
            for k, v in theirs.items():
                mine[k] += sign * v
        for mine_d, theirs_d in (
            (self.request_words, other.request_words),
            (self.question_terms, other.question_terms),
        ):
            for d, c in theirs_d.items():
                for k, v in c.items():
                    mine_d[d][k] += sign * v


def _domain(service: str) -> str:
    return service.split("_")[0]


def dialogue_counts(turns: Sequence[dict[str, Any]]) -> Counts:
    """The counts of one dialogue (see the module's docstring)."""
    out = Counts()
    for user, system in itertools.pairwise(turns):
        if user["speaker"] != "USER" or system["speaker"] != "SYSTEM":
            continue
        for frame in user["frames"]:
            if any(a[0] == "INFORM_INTENT" for a in frame["actions"]):
                domain = _domain(frame["service"])
                out.requests[domain] += 1
                out.request_words[domain].update(words_of(user["text"]))
        acts = {a[0] for f in system["frames"] for a in f["actions"]}
        if acts == {"REQUEST"}:
            domain = _domain(system["frames"][0]["service"])
            out.questions[domain] += 1
            out.question_terms[domain].update(question_terms(system["text"]))
    return out


def counts(dialogues: Iterable[Sequence[dict[str, Any]]]) -> Counts:
    out = Counts()
    for turns in dialogues:
        out.add(dialogue_counts(turns))
    return out


def _kept(
    per_domain: Mapping[str, Counter[str]], *, least: int, frequent: int
) -> dict[str, dict[str, int]]:
    overall: Counter[str] = Counter()
    for c in per_domain.values():
        overall.update(c)
    return {
        d: {w: k for w, k in sorted(c.items()) if k >= least and overall[w] >= frequent}
        for d, c in sorted(per_domain.items())
    }


def shipped(found: Counts, *, least: int = 3, frequent: int = 5) -> dict[str, Any]:
    """The file's content: the counts, packed ("word count word count ...")."""

    def pack(row: dict[str, int]) -> str:
        return " ".join(f"{w} {k}" for w, k in row.items())

    return {
        "data": "Schema-Guided Dialogue train dialogues (CC BY-SA 4.0): user turns with an"
        " INFORM_INTENT act and system turns that only REQUEST, by domain",
        "fit": "tools/detector/fit_asked_back.py",
        "requests": dict(sorted((d, n) for d, n in found.requests.items() if n > 0)),
        "request_words": {
            d: pack(r)
            for d, r in _kept(found.request_words, least=least, frequent=frequent).items()
        },
        "questions": dict(sorted((d, n) for d, n in found.questions.items() if n > 0)),
        "question_terms": {
            d: pack(r)
            for d, r in _kept(found.question_terms, least=least, frequent=frequent).items()
        },
    }


def dialogues(sgd: Path) -> list[list[dict[str, Any]]]:
    with gzip.open(sgd / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line)["turns"] for line in f]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sgd", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    content = shipped(counts(dialogues(args.sgd)))
    args.out.write_text(json.dumps(content, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
