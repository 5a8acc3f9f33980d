"""Build ``holdout.jsonl``: a multi-intent set kept apart from all tuning of the request check.

``test``, ``sgd-dev`` and ``fresh`` had their errors read while the check was developed, so they
are tuning data now. This set was built (2026-12-02) before the segmenter and the matcher were
changed, and is measured once, at the end of a change, never iterated on:

- 300 messages from Schema-Guided Dialogue **dev** user turns that ``sgd-dev.jsonl`` does not
  use, each answered by the system turn that really followed it;
- 300 messages from CLINC150 **test** utterances that neither ``test.jsonl`` nor ``fresh.jsonl``
  uses, each answered as ``build_multi_intent`` answers (another user's words for the intent,
  from CLINC's val split).

Each join between two requests takes a joining style drawn at random from :data:`JOINS`, a list
written before any message of the set was looked at: styles the earlier sets use and styles
they do not. Gold requests per message are the utterances it was joined from. Deterministic::

    .venv/bin/python -m tests.detect.build_holdout_multi_intent
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tests.detect.build_fresh_multi_intent import _clause, sgd_requests
from tests.detect.build_multi_intent import AGENT_OF, CLINC, OUT, SOURCE, _answers, message_record

SEED = 2532
HALF = 300

# How one request is joined to the next ("{a}" the text so far, "{b}" the next request). Written
# before looking at the set; a message draws one per join.
JOINS = (
    "{a} and {b}",
    "{a}, and {b}",
    "{a}, {b}",
    "{a}. Also {b}",
    "{a} and also {b}",
    "{a}. And {b}",
    "{a} & {b}",
    "{a}. Another question: {b}",
    "{a}. Besides that, {b}",
    "{a}, and additionally {b}",
    "{a}. Also: {b}",
    "{a} - also {b}",
    "{a}? and {b}",
    "{a}, as well as {b}",
    "{a} + {b}",
    "{a}. btw {b}",
    "{a}\n- {b}",
    "{a}. Plus, {b}",
    "{a}; {b}",
    "{a}. Oh, and {b}",
    "{a}, then {b}",
    "{a}. Next, {b}",
    "{a}. Secondly, {b}",
    "{a}... and {b}",
)


def join(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """``parts`` joined into one message, and the styles used (their indexes in :data:`JOINS`)."""
    text = parts[0]
    styles = []
    for part in parts[1:]:
        k = rng.randrange(len(JOINS))
        styles.append(str(k))
        head = text.rstrip("?.!") if JOINS[k].startswith("{a}?") else text
        text = JOINS[k].format(a=head, b=part)
    if "\n- " in text:
        text = "- " + text
    return text, "joins-" + "-".join(styles)


def build_sgd(rng: random.Random) -> list[dict[str, Any]]:
    used = {
        r["text"]
        for line in (OUT / "sgd-dev.jsonl").read_text(encoding="utf-8").splitlines()
        for r in json.loads(line)["requests"]
    }
    pool = {
        d: [(u, a) for u, a in items if u not in used] for d, items in sgd_requests("dev").items()
    }
    domains = sorted(d for d, items in pool.items() if len(items) >= 5)
    messages = []
    for index in range(HALF):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        chosen = [(d, *rng.choice(pool[d])) for d in rng.sample(domains, n)]
        text, shape = join([_clause(u) for _, u, _ in chosen], rng)
        messages.append(
            {
                "id": f"holdout-sgd-{index + 1:04d}",
                "text": text,
                "shape": shape,
                "requests": [
                    {"text": u, "intent": d, "agent": d.lower(), "answer": a} for d, u, a in chosen
                ],
            }
        )
    return messages


def build_clinc(data: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    used = {
        r["text"]
        for split in ("test", "fresh")
        for line in (OUT / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
        for r in json.loads(line)["requests"]
    }
    pool: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data[SOURCE["test"]]:
        text = " ".join(utterance.replace("’", "'").split())
        if intent in AGENT_OF and text not in used:
            pool[intent].append(text)
    val: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["val"]:
        if intent in AGENT_OF:
            val[intent].append(" ".join(utterance.replace("’", "'").split()))
    paraphrases, own = _answers(val)
    intents = sorted(i for i, items in pool.items() if items)
    messages = []
    for index in range(HALF):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        chosen = [(i, rng.choice(pool[i])) for i in rng.sample(intents, n)]
        text, shape = join([u for _, u in chosen], rng)
        messages.append(
            message_record(f"holdout-clinc-{index + 1:04d}", text, shape, chosen, paraphrases, own)
        )
    return messages


def main() -> None:
    rng = random.Random(SEED)
    messages = build_sgd(rng) + build_clinc(json.loads(CLINC.read_text(encoding="utf-8")), rng)
    lines = [json.dumps(m, ensure_ascii=False) + "\n" for m in messages]
    (OUT / "holdout.jsonl").write_text("".join(lines), encoding="utf-8")
    print(f"holdout: {len(lines)} messages -> {OUT / 'holdout.jsonl'}")


if __name__ == "__main__":
    main()
