"""Measure the duplicate detector on the labelled calibration set (``pairs.jsonl``).

Each pair becomes a small conversation (the user message, then message ``a``; message ``b`` in the same
turn or, for a cross-turn pair, after a second user message), and the pair counts as detected when a
``duplicate`` finding names both messages. Prints precision, recall and F1 overall and per method, the
detection rate per category, and the false positives on pairs that state different facts.

    python tests/simulate/calibration/measure.py                 # lexical detectors
    python tests/simulate/calibration/measure.py --semantic      # plus the local embedder
    python tests/simulate/calibration/measure.py --pairs /tmp/dev.jsonl -v
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[2]))

from harness.detect import DetectorConfig, Finding, detect  # noqa: E402
from harness.detect.transcript import Message, Transcript  # noqa: E402

PAIRS = HERE / "pairs.jsonl"
METHODS = ("exact", "near", "containment", "semantic")


def load_pairs(path: Path = PAIRS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def conversation(pair: dict[str, Any]) -> Transcript:
    users = pair["users"]
    messages = [Message(id="u1", turn=1, role="user", sender="user", text=users[0])]

    def bot(key: str, turn: int) -> Message:
        record = pair[key]
        return Message(
            id=key,
            turn=turn,
            role="bot",
            sender=record["sender"],
            text=record["text"],
            mode=record.get("mode"),
            request=record.get("request"),
        )

    messages.append(bot("a", 1))
    if pair["scope"] == "cross_turn":
        messages.append(Message(id="u2", turn=2, role="user", sender="user", text=users[1]))
        messages.append(bot("b", 2))
    else:
        messages.append(bot("b", 1))
    return Transcript.from_messages(messages, conversation=pair["id"])


def predict(pair: dict[str, Any], config: DetectorConfig, embedder: Any = None) -> Finding | None:
    for finding in detect(conversation(pair), config=config, embedder=embedder):
        if finding.kind == "duplicate" and set(finding.message_ids) == {"a", "b"}:
            return finding
    return None


@dataclass
class Scores:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def line(self, name: str) -> str:
        return (
            f"{name:<28} precision {self.precision:.3f}  recall {self.recall:.3f}  "
            f"F1 {self.f1:.3f}  (tp {self.tp}, fp {self.fp}, fn {self.fn}, tn {self.tn})"
        )


@dataclass
class Report:
    overall: Scores = field(default_factory=Scores)
    """Every negative and the positives of the ``lexical`` tier."""
    everything: Scores = field(default_factory=Scores)
    """Every pair, the ``semantic`` tier's paraphrases included."""
    by_method: dict[str, Scores] = field(default_factory=lambda: defaultdict(Scores))
    """Recall per expected method (the positive's category); precision per reported method."""
    categories: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    different_fact_pairs: int = 0
    different_fact_false_positives: int = 0
    errors: list[tuple[dict[str, Any], Finding | None]] = field(default_factory=list)


def measure(
    pairs: list[dict[str, Any]], config: DetectorConfig | None = None, embedder: Any = None
) -> Report:
    config = config or DetectorConfig(kinds=frozenset({"duplicate"}))
    report = Report()
    for pair in pairs:
        finding = predict(pair, config, embedder)
        found, label = finding is not None, bool(pair["label"])
        report.categories[pair["category"]]["flagged" if found else "passed"] += 1
        targets = [report.everything] + (
            [report.overall] if pair["tier"] == "lexical" or not label else []
        )
        for scores in targets:
            if label and found:
                scores.tp += 1
            elif label:
                scores.fn += 1
            elif found:
                scores.fp += 1
            else:
                scores.tn += 1
        if label and pair["category"] in METHODS:
            method_scores = report.by_method[pair["category"]]
            if found:
                method_scores.tp += 1
            else:
                method_scores.fn += 1
        if found and finding is not None and finding.method in METHODS and not label:
            report.by_method[finding.method].fp += 1
        if pair.get("different_facts"):
            report.different_fact_pairs += 1
            report.different_fact_false_positives += int(found)
        if found != label:
            report.errors.append((pair, finding))
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    parser.add_argument("--semantic", action="store_true", help="add the local embedder")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every wrong pair")
    args = parser.parse_args()
    embedder = None
    if args.semantic:
        from harness.detect.embeddings import LocalEmbedder

        embedder = LocalEmbedder()
    pairs = load_pairs(args.pairs)
    report = measure(pairs, embedder=embedder)
    kinds = "lexical + semantic" if embedder else "lexical detectors only"
    print(f"{len(pairs)} pairs from {args.pairs.name} ({kinds})")
    print(report.overall.line("overall (lexical tier)"))
    print(report.everything.line("overall (all tiers)"))
    for method in METHODS:
        if method in report.by_method:
            print(report.by_method[method].line(f"  {method}"))
    print(
        f"different-fact pairs: {report.different_fact_pairs}, "
        f"false positives: {report.different_fact_false_positives}"
    )
    print("per category (flagged / passed):")
    for category, counts in sorted(report.categories.items()):
        print(f"  {category:<24} {counts['flagged']:>4} / {counts['passed']:<4}")
    if args.verbose:
        for pair, finding in report.errors:
            what = "FP" if finding else "FN"
            print(f"\n{what} {pair['id']} {pair['category']} {pair['scope']} users={pair['users']}")
            print(f"   a [{pair['a']['sender']}] {pair['a']['text']}")
            print(f"   b [{pair['b']['sender']}] {pair['b']['text']}")
            if finding:
                print(f"   -> {finding.method} {finding.score}: {finding.evidence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
