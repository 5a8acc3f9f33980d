"""Build ``styled.jsonl``: development messages shaped like ``val.jsonl`` from CLINC150's ``train``.

``dev.jsonl`` (CLINC train) is joined in ``build_multi_intent``'s few shapes; the held-out
``val.jsonl`` uses the joining styles counted from real multi-request SGD user turns
(``build_val_multi_intent.JOINS`` and ``LEAD_INS``: "and", sentences, commas, "also", "plus",
"as well as", "too", "as well", "by the way", "&", lead-ins). To develop the planner's splitting
on those styles without looking at ``val``, this set joins CLINC **train** utterances with the
very same ``join`` (another seed, and twice as many messages). The agents' routing examples
(``agents.json``, also CLINC train) are left out of the pool, and the planner baseline routes this
set with a concept table built without its requests (``tests.detect.planner_baseline.concepts``),
so its figures stay out of sample for the matcher; the splitting rules are developed on it.

Deterministic (one seed)::

    PYTHONPATH=. .venv/bin/python -m tests.detect.build_styled_multi_intent

CLINC150: Larson et al., "An Evaluation Dataset for Intent Classification and Out-of-Scope
Prediction", EMNLP 2019, CC-BY-3.0.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

from tests.detect.build_multi_intent import (
    AGENT_OF,
    CLINC,
    EXAMPLES_PER_INTENT,
    OUT,
    _answers,
)
from tests.detect.build_val_multi_intent import compose, render

SEED = 3511
SIZE = 1200


def _normal(utterance: str) -> str:
    return " ".join(utterance.replace("’", "'").split())


def build(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The set's messages from CLINC150's ``data_full.json`` (train utterances only)."""
    rng = random.Random(SEED)
    train: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["train"]:
        if intent in AGENT_OF:
            train[intent].append(_normal(utterance))
    # The agents' routing examples are the first few of each intent (``agent_cards``).
    pool = {i: sorted(set(us[EXAMPLES_PER_INTENT:])) for i, us in train.items()}
    # Answers (for the missed-request check) echo the agents' examples, never a request of the set.
    _, own = _answers(train)
    paraphrases = {i: us[:EXAMPLES_PER_INTENT] for i, us in train.items()}
    return compose(pool, rng, size=SIZE, prefix="styled", paraphrases=paraphrases, own=own)


def main() -> None:
    messages = build(json.loads(CLINC.read_text(encoding="utf-8")))
    (OUT / "styled.jsonl").write_text(render(messages), encoding="utf-8")
    print(f"styled: {len(messages)} messages -> {OUT / 'styled.jsonl'}")


if __name__ == "__main__":
    main()
