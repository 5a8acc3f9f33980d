"""Measure ``aggregate``'s semantic-deduplication threshold with the local embedder.

    HF_HUB_OFFLINE=1 python -m tools.aggregate_threshold --sgd PATH/TO/sgd

Two kinds of pairs from SGD system turns with slot values (Schema-Guided Dialogue, CC BY-SA 4.0):
*paraphrases* (another crowd worker's wording of the same acts and slots, with the same values) and
*other values* (the same wording with another dialogue's values). For each threshold it prints the
share of each kind that ``aggregate`` would merge (cosine at or above the threshold and the same
numbers), on SGD train and, separately, on SGD dev. Merging an other-values pair loses a fact from
the answer; merging a paraphrase only removes a repeat. Needs the ``embeddings`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from pathlib import Path

from harness.aggregate import _cosine, _numbers
from harness.detect.embeddings import LocalEmbedder
from tools.detector.sgd import SystemTurn, Templates, _has_values, read_dialogues, system_turns

THRESHOLDS = (0.80, 0.85, 0.88, 0.90, 0.92, 0.94, 0.96, 0.98)


def pairs(path: Path, n: int, seed: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Up to ``n`` paraphrase pairs and ``n`` other-values pairs from the dialogues in ``path``."""
    dialogues = list(read_dialogues(path))
    rng = random.Random(seed)
    templates = Templates(dialogues)
    turns: list[SystemTurn] = [
        t
        for d in dialogues
        for t in system_turns(d)
        if t is not None and _has_values(t) and t.located() is not None
    ]
    rng.shuffle(turns)
    same: list[tuple[str, str]] = []
    other: list[tuple[str, str]] = []
    for turn in turns:
        if len(same) >= n and len(other) >= n:
            break
        paraphrase, changed = templates.paraphrase(turn, rng), templates.other_values(turn, rng)
        if paraphrase:
            same.append((turn.text, paraphrase))
        if changed:
            other.append((turn.text, changed))
    return same[:n], other[:n]


async def merged(pairs: list[tuple[str, str]], embedder: LocalEmbedder) -> list[tuple[float, bool]]:
    """Each pair's cosine and whether its numbers agree."""
    vectors = await embedder.embed([a for a, _ in pairs] + [b for _, b in pairs])
    k = len(pairs)
    return [
        (_cosine(vectors[i], vectors[k + i]), _numbers(a) == _numbers(b))
        for i, (a, b) in enumerate(pairs)
    ]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sgd", type=Path, required=True, help="the folder with sgd-*.jsonl.gz")
    parser.add_argument("--pairs", type=int, default=3000, help="pairs of each kind per split")
    args = parser.parse_args()
    embedder = LocalEmbedder()
    for split, seed in (("train", 1), ("dev", 2)):
        same, other = pairs(args.sgd / f"sgd-{split}.jsonl.gz", args.pairs, seed)
        same_scores, other_scores = await merged(same, embedder), await merged(other, embedder)
        print(f"SGD {split}: {len(same)} paraphrase pairs, {len(other)} other-values pairs")
        for threshold in THRESHOLDS:
            p = sum(c >= threshold and ok for c, ok in same_scores) / len(same_scores)
            o = sum(c >= threshold and ok for c, ok in other_scores) / len(other_scores)
            print(f"  {threshold:.2f}: paraphrases merged {p:.1%}, other values merged {o:.2%}")


if __name__ == "__main__":
    asyncio.run(main())
