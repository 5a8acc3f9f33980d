"""Build ``own.jsonl``: a development set of multi-request messages in joining styles no other
set uses.

The other development sets (``dev``, ``sgd-train``) share their joining styles with the held-out
sets built the same way, so a segmenter developed on them learns little about styles it has not
seen. This set is built from the same *train* material (CLINC150 train utterances, each answered
with another user's words for the same intent from the val split and in the bot's own terms;
Schema-Guided Dialogue train user turns, each answered by the system turn that followed it), but
every join is drawn from :data:`JOINS`, a list written for this set, none of whose templates a
builder of a held-out set uses (``build_multi_intent``, ``build_fresh_multi_intent``,
``build_holdout_multi_intent``). Develop on it; it is no held-out set::

    .venv/bin/python -m tests.detect.build_own_multi_intent
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tests.detect.build_fresh_multi_intent import _clause, sgd_requests
from tests.detect.build_multi_intent import AGENT_OF, CLINC, OUT, _answers, message_record

SEED = 3306
HALF = 300

# How one request is joined to the next ("{a}" the text so far, "{b}" the next request).
JOINS = (
    "{a}, and also {b}",
    "{a}! {b}",
    "{a} -- {b}",
    "{a}. and {b}",
    "{a}, and next {b}",
    "{a}. Additionally, {b}",
    "{a}. Then {b}",
    "{a}, also, {b}",
    "{a} and, {b}",
    "{a}. PS {b}",
    "{a} / {b}",
    "{a}, plus also {b}",
    "{a} and then, {b}",
    "{a}. Last thing, {b}",
    "{a} also {b}",
    "{a}; and {b}",
    "{a}. oh also, {b}",
    "{a}!! {b}",
    "{a}, and what's more, {b}",
    "{a}, and by the way {b}",
)


def join(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """``parts`` joined into one message, and the styles used (their indexes in :data:`JOINS`)."""
    text = parts[0]
    styles = []
    for part in parts[1:]:
        k = rng.randrange(len(JOINS))
        styles.append(str(k))
        text = JOINS[k].format(a=text.rstrip("?.! "), b=part)
    return text, "own-" + "-".join(styles)


def build_sgd(rng: random.Random) -> list[dict[str, Any]]:
    pool = sgd_requests("train")
    domains = sorted(d for d, items in pool.items() if len(items) >= 5)
    messages = []
    for index in range(HALF):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        chosen = [(d, *rng.choice(pool[d])) for d in rng.sample(domains, n)]
        text, shape = join([_clause(u) for _, u, _ in chosen], rng)
        messages.append(
            {
                "id": f"own-sgd-{index + 1:04d}",
                "text": text,
                "shape": shape,
                "requests": [
                    {"text": u, "intent": d, "agent": d.lower(), "answer": a} for d, u, a in chosen
                ],
            }
        )
    return messages


def build_clinc(data: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    pool: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["train"]:
        if intent in AGENT_OF:
            pool[intent].append(" ".join(utterance.replace("’", "'").split()))
    val: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["val"]:
        if intent in AGENT_OF:
            val[intent].append(" ".join(utterance.replace("’", "'").split()))
    paraphrases, own = _answers(val)
    intents = sorted(pool)
    messages = []
    for index in range(HALF):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        chosen = [(i, rng.choice(pool[i])) for i in rng.sample(intents, n)]
        text, shape = join([u for _, u in chosen], rng)
        messages.append(
            message_record(f"own-clinc-{index + 1:04d}", text, shape, chosen, paraphrases, own)
        )
    return messages


def main() -> None:
    rng = random.Random(SEED)
    messages = build_sgd(rng) + build_clinc(json.loads(CLINC.read_text(encoding="utf-8")), rng)
    lines = [json.dumps(m, ensure_ascii=False) + "\n" for m in messages]
    (OUT / "own.jsonl").write_text("".join(lines), encoding="utf-8")
    print(f"own: {len(lines)} messages -> {OUT / 'own.jsonl'}")


if __name__ == "__main__":
    main()
