"""Build the multi-intent sets the request check is fitted on and the fresh held-out sets.

``build_multi_intent.py`` writes the CLINC150 sets (``dev.jsonl`` from CLINC's train split,
``test.jsonl`` from its test split). The answered-decision of the check is fitted on ``dev.jsonl``
and on ``sgd-train.jsonl`` below; ``test.jsonl`` had been looked at before that fit, so two sets
nobody tuned on are built here too:

- ``sgd-train.jsonl``: messages joined from Schema-Guided Dialogue **train** user turns, each
  answered by the system turn that really followed it (real bot text). Fit on it.
- ``sgd-dev.jsonl``: the same from SGD **dev** dialogues: other crowd workers, and domains the
  CLINC sets lack (restaurants, events, music, homes, buses, ...). Held out.
- ``fresh.jsonl``: CLINC150 **test** utterances again, with another seed and joining styles the
  segmenter was not written for ("oh and", "one more thing:", a semicolon, one request per line).
  Held out.
- ``fillers-train.txt`` / ``fillers-dev.txt``: real SGD system turns that answer nothing (only
  "anything else?" or a goodbye), to put in place of a dropped answer.

A request is a user turn that opens one task ("I'd like to book a table for 2"): its dialogue
acts hold exactly one ``INFORM_INTENT`` or one ``REQUEST`` and no reply to the system (affirm,
negate, select, thanks), it is one sentence, and it names its own subject (no "their", "it",
"that one": a mid-dialogue turn is not a request on its own). The requests of one message come
from different services. Deterministic::

    .venv/bin/python -m tests.detect.build_fresh_multi_intent

SGD: Rastogi et al., "Towards Scalable Multi-domain Conversational Agents: The Schema-Guided
Dialogue Dataset", AAAI 2020, CC BY-SA 4.0. CLINC150: Larson et al., EMNLP 2019, CC-BY-3.0.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from harness.text import split_sentences
from tests.detect.build_multi_intent import (
    AGENT_OF,
    CLINC,
    OUT,
    ROOT,
    SOURCE,
    _answers,
    message_record,
)

SGD = next(
    (
        p / "shared" / "data" / "sgd"
        for p in (ROOT.parent, ROOT.parent.parent)
        if (p / "shared" / "data" / "sgd").is_dir()
    ),
    ROOT.parent / "shared" / "data" / "sgd",
)
SIZE = 600
FILLERS = 300
SEEDS = {"sgd-train": 2511, "sgd-dev": 2512, "fresh": 2513}

_REPLIES = frozenset(
    ["AFFIRM", "NEGATE", "THANK_YOU", "GOODBYE", "SELECT", "AFFIRM_INTENT", "NEGATE_INTENT"]
)
_ANAPHORA = re.compile(
    r"\b(?:it|its|their|they|them|that|this|these|those|there|same|again|also|too|another)\b", re.I
)
_REPLY_START = re.compile(
    r"^(?:yes|yeah|yep|no|nope|ok|okay|sure|great|thanks|thank|perfect)\b", re.I
)
_FILLER_ACTS = frozenset(["REQ_MORE", "GOODBYE"])


def _dialogues(split: str) -> Iterator[dict[str, Any]]:
    with gzip.open(SGD / f"sgd-{split}.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def _acts(turn: dict[str, Any]) -> list[str]:
    return [a[0] for frame in turn["frames"] for a in frame["actions"]]


def sgd_requests(split: str) -> dict[str, list[tuple[str, str]]]:
    """Per service domain ("Restaurants"): (user turn, the system turn that followed it)."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for dialogue in _dialogues(split):
        turns = dialogue["turns"]
        for user, system in itertools.pairwise(turns):
            if user["speaker"] != "USER" or system["speaker"] != "SYSTEM":
                continue
            acts = _acts(user)
            if set(acts) & _REPLIES or acts.count("REQUEST") + acts.count("INFORM_INTENT") != 1:
                continue
            text = " ".join(user["text"].split())
            if (
                len(split_sentences(text)) != 1
                or _ANAPHORA.search(text)
                or _REPLY_START.match(text)
                or len(text) > 140
            ):
                continue
            domain = user["frames"][0]["service"].split("_")[0]
            out[domain].append((text, " ".join(system["text"].split())))
    return out


def sgd_fillers(split: str) -> list[str]:
    """System turns that answer nothing: only "anything else?" or a goodbye."""
    seen: dict[str, None] = {}
    for dialogue in _dialogues(split):
        for turn in dialogue["turns"]:
            if turn["speaker"] == "SYSTEM" and set(_acts(turn)) <= _FILLER_ACTS and _acts(turn):
                seen.setdefault(" ".join(turn["text"].split()), None)
    return list(seen)[:FILLERS]


def _clause(text: str) -> str:
    """A user turn as the part of a longer message: no final full stop, no capital unless
    it is "I" or a name."""
    text = text.rstrip(".!")
    first = text.split()[0]
    capital_only = first[0].isupper() and first.lower() == first[0].lower() + first[1:]
    if capital_only and first != "I" and not first.startswith(("I'", "I’")):
        text = text[0].lower() + text[1:]
    return text


def _sentence(part: str) -> str:
    part = part[0].upper() + part[1:]
    return part if part.endswith(("?", ".", "!")) else part + "."


def join_sgd(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """The ways people write several requests (as ``build_multi_intent``), for SGD turns."""
    parts = [_clause(p) for p in parts]
    bare = [p.rstrip("?") for p in parts]
    if len(parts) == 2:
        shape = rng.choice(["and", "comma_and", "also", "plus", "sentences"])
        a, b = parts
        text = {
            "and": f"{bare[0]} and {b}",
            "comma_and": f"{bare[0]}, and {b}",
            "also": f"{_sentence(a)} Also, {b}",
            "plus": f"{bare[0]}, plus {b}",
            "sentences": f"{_sentence(a)} {_sentence(b)}",
        }[shape]
        return text, shape
    shape = rng.choice(["list", "list_oxford", "and_also", "sentences"])
    head = ", ".join(bare[:-1])
    text = {
        "list": f"{head} and {parts[-1]}",
        "list_oxford": f"{head}, and {parts[-1]}",
        "and_also": " and ".join(bare[:-1]) + f". Also, {parts[-1]}",
        "sentences": " ".join(_sentence(p) for p in parts),
    }[shape]
    return text, shape


def build_sgd(split: str) -> list[dict[str, Any]]:
    rng = random.Random(SEEDS[f"sgd-{split}"])
    pool = sgd_requests(split)
    domains = sorted(d for d, items in pool.items() if len(items) >= 5)
    messages = []
    for index in range(SIZE):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        chosen = [(d, *rng.choice(pool[d])) for d in rng.sample(domains, n)]
        text, shape = join_sgd([u for _, u, _ in chosen], rng)
        messages.append(
            {
                "id": f"sgd-{split}-{index + 1:04d}",
                "text": text,
                "shape": shape,
                "requests": [
                    {"text": u, "intent": d, "agent": d.lower(), "answer": a} for d, u, a in chosen
                ],
            }
        )
    return messages


def join_fresh(parts: Sequence[str], rng: random.Random) -> tuple[str, str]:
    """Joining styles ``build_multi_intent`` does not use (the segmenter was not written for
    them): "oh and", "one more thing:", "and another thing,", a semicolon, one per line."""
    shape = rng.choice(["oh_and", "one_more_thing", "another_thing", "semicolon", "lines"])
    head, last = list(parts[:-1]), parts[-1]
    text = {
        "oh_and": ", ".join(head) + f", oh and {last}",
        "one_more_thing": ", ".join(head) + f". One more thing: {last}",
        "another_thing": " and ".join(head) + f", and another thing, {last}",
        "semicolon": "; ".join(parts),
        "lines": "\n".join(parts),
    }[shape]
    return text, shape


def build_fresh(data: dict[str, Any]) -> list[dict[str, Any]]:
    rng = random.Random(SEEDS["fresh"])
    pool: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data[SOURCE["test"]]:
        if intent in AGENT_OF:
            pool[intent].append(" ".join(utterance.replace("’", "'").split()))
    val: dict[str, list[str]] = defaultdict(list)
    for utterance, intent in data["val"]:
        if intent in AGENT_OF:
            val[intent].append(" ".join(utterance.replace("’", "'").split()))
    paraphrases, own = _answers(val)
    intents = sorted(pool)
    messages = []
    for index in range(SIZE):
        n = rng.choices([2, 3, 4], weights=[5, 3, 2])[0]
        chosen = [(i, rng.choice(pool[i])) for i in rng.sample(intents, n)]
        text, shape = join_fresh([u for _, u in chosen], rng)
        messages.append(
            message_record(f"fresh-{index + 1:04d}", text, shape, chosen, paraphrases, own)
        )
    return messages


def _write(name: str, messages: Sequence[dict[str, Any]]) -> None:
    lines = [json.dumps(m, ensure_ascii=False) + "\n" for m in messages]
    (OUT / f"{name}.jsonl").write_text("".join(lines), encoding="utf-8")
    print(f"{name}: {len(lines)} messages -> {OUT / f'{name}.jsonl'}")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        _write(f"sgd-{split}", build_sgd(split))
        fillers = sgd_fillers(split)
        (OUT / f"fillers-{split}.txt").write_text("\n".join(fillers) + "\n", encoding="utf-8")
        print(f"fillers-{split}: {len(fillers)}")
    _write("fresh", build_fresh(json.loads(CLINC.read_text(encoding="utf-8"))))


if __name__ == "__main__":
    main()
