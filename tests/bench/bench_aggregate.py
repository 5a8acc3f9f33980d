"""Time to aggregate 50 agent results, the median of many runs.

Run it from the repository root::

    .venv/bin/python tests/bench/bench_aggregate.py [--runs 50] [--agents 50] [--json]

The 50 results mix what a fan-out really returns: valid and partial results, a few invalid and
empty ones, exact duplicates, near-verbatim rewordings, and fields on which agents disagree (so
conflicts are resolved). Three configurations are timed, each on a fresh aggregation per run:

- ``exact``: validation, exact deduplication, conflict resolution by confidence, ranking, local
  synthesis and QA (no embedder, no model);
- ``semantic``: the same plus semantic deduplication with a cheap deterministic bag-of-words
  embedder (so the time is the aggregator's, not an embedding model's);
- ``voting``: ``exact`` with the voting strategy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from harness.aggregate import AgentOutput, aggregate

TOPICS = [
    "payday",
    "pto balance",
    "w2 location",
    "vpn access",
    "benefits enrolment",
    "laptop refresh",
    "expense policy",
    "parking permit",
    "training budget",
    "remote work",
]


class BagOfWords:
    """A deterministic embedder: word counts over the batch's vocabulary."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        words = [re.findall(r"\w+", t.lower()) for t in texts]
        vocab = {w: i for i, w in enumerate(sorted({w for ws in words for w in ws}))}
        vectors = []
        for ws in words:
            vector = [0.0] * len(vocab)
            for w in ws:
                vector[vocab[w]] += 1.0
            vectors.append(vector)
        return vectors


def results(count: int) -> list[AgentOutput]:
    out: list[AgentOutput] = []
    for n in range(count):
        topic = TOPICS[n % len(TOPICS)]
        kind = n % 10
        text = f"Agent {n % 7} reports on the {topic}: figure {n % 3 + 1} applies from week {n % 4 + 2}."
        data: dict[str, Any] = {topic: f"figure {n % 3 + 1}", f"detail_{n}": n}
        confidence = round(0.35 + (n % 13) / 20, 2)
        if kind == 7:  # an exact duplicate of the previous result
            prev = out[-1]
            out.append(prev.model_copy(update={"agent": f"agent{n}"}))
            continue
        if kind == 8:  # a near-verbatim rewording of the previous one
            prev = out[-1]
            out.append(
                prev.model_copy(
                    update={"agent": f"agent{n}", "text": (prev.text or "") + " ", "data": data}
                )
            )
            continue
        status = "complete"
        missing: tuple[str, ...] = ()
        issues: tuple[str, ...] = ()
        if kind == 3:
            missing = ("second half",)
        if kind == 5:
            issues = ("silent_message: a silent agent tried to send 1 message(s)",)
        if kind == 9 and n % 20 == 9:
            out.append(AgentOutput(agent=f"agent{n}", status="timed_out", error="no result in 5s"))
            continue
        out.append(
            AgentOutput(
                agent=f"agent{n}",
                status=status,  # type: ignore[arg-type]
                data=data,
                text=text,
                confidence=confidence,
                missing=missing,
                issues=issues,
                duration_s=0.1 * (n % 9),
            )
        )
    return out


async def measure(runs: int, agents: int) -> dict[str, Any]:
    inputs = results(agents)
    configs = {
        "exact": {},
        "semantic": {"embedder": BagOfWords()},
        "voting": {"strategy": "voting"},
    }
    report: dict[str, Any] = {"agents": agents, "runs": runs}
    for name, options in configs.items():
        await aggregate(inputs, **options)  # warm-up
        times = []
        last = None
        for _ in range(runs):
            started = time.perf_counter()
            last = await aggregate(inputs, **options)
            times.append(time.perf_counter() - started)
        assert last is not None
        report[name] = {
            "median_ms": round(statistics.median(times) * 1000, 3),
            "p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))] * 1000, 3),
            "min_ms": round(min(times) * 1000, 3),
            "conflicts": len(last.conflicts_resolved),
            "exact_duplicates": last.metadata.exact_duplicates,
            "semantic_duplicates": last.metadata.semantic_duplicates,
            "categories": last.metadata.categories,
        }
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 20:
        parser.error("use at least 20 runs for a stable median")
    report = asyncio.run(measure(args.runs, args.agents))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"aggregation of {args.agents} agent results, {args.runs} runs each")
    for name in ("exact", "semantic", "voting"):
        r = report[name]
        print(
            f"  {name:<9} median {r['median_ms']:8.3f} ms   p90 {r['p90_ms']:8.3f} ms   "
            f"conflicts {r['conflicts']:>2}  duplicates exact {r['exact_duplicates']} "
            f"semantic {r['semantic_duplicates']}  {r['categories']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
