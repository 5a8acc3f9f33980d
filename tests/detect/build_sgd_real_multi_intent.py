"""Build ``tests/fixtures/multi_intent/sgd-real-{train,dev}.jsonl``: real user turns of the
Schema-Guided Dialogue dataset that ask for two or more things at once, each with the real system
turn that answered it, and that answer with one request's answer taken out.

Run ``python -m tests.detect.build_sgd_real_multi_intent`` from the repository root (needs
``../shared/data/sgd``); it rewrites both files, byte for byte the same on every run.

Data: the Schema-Guided Dialogue dataset (Rastogi et al., AAAI 2020), licence CC BY-SA 4.0. The
two files hold SGD user and system turns (some shortened, as below) and are shared under the
same licence. ``sgd-real-train.jsonl`` comes from SGD's train split (look at it, read its
errors), ``sgd-real-dev.jsonl`` from its dev split (measure on it; aggregates only).

What counts as a request (from the dialogue acts, not from the wording): a user turn's
``REQUEST`` act asks for one slot's value, and the system must answer it with that value. A turn
is taken when it has two or more ``REQUEST`` acts and the next system turn ``INFORM``\\ s every
requested slot (so every request was answered: the dataset's system always does, unless a
booking failed). Other acts that want an answer (``INFORM_INTENT``, ``REQUEST_ALTS``,
``AFFIRM_INTENT``) never stand beside a ``REQUEST`` or a second intent in one SGD user turn, so
every message here has slot requests only. Each gold request has the slot, a short ``text``
made from the slot's name (SGD has no per-request span in the user's words, so this is not what
the user said), the frame's service as ``agent`` and ``words``: the value texts the system's
slot spans mark in its reply (empty for categorical slots without spans, such as yes/no ones).

Mutations (``drops``): for each request whose value the spans locate, when the other requests'
values are located too, the reply without that request's answer:

- ``sentence``: the reply's sentences that hold a span of the dropped slot are removed, when
  none of them holds a span of another request's slot;
- ``clause``: when a sentence holds both, and every span of the dropped slot in it comes after
  every span of the others, the sentence is cut at the last ``and``, ``with`` or semicolon
  between them and ends with a full stop (only trailing clauses are cut, so the part kept is
  the sentence's own beginning; so a request answered first in such a sentence is never
  dropped).

Sentences are split after ``.``, ``!`` or ``?`` followed by a space, never inside a slot span. A
drop is kept only when no value of the dropped slot is left anywhere in the reply and every
value of the other requests still is (``test_sgd_real_multi_intent.py`` checks both).

A planner that *merges* two requests and answers one of them leaves the same reply as a drop
when there is no plan to look at, so no separate merge mutation is made.

Train has more such turns than a test should read; a seeded sample of ``TRAIN_SIZE`` is kept.
Dev is kept whole.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SGD = ROOT.parent / "shared" / "data" / "sgd"
OUT = HERE.parent / "fixtures" / "multi_intent"
SEED = 3425
TRAIN_SIZE = 1200
MAX_DEV = 1500

_BOUNDARY = re.compile(r"[.!?]+\s+")
_CUT = re.compile(r"\s*,?\s+(?:and|with)\s+|\s*;\s+", re.IGNORECASE)

Span = tuple[int, int]


def sentences(text: str, spans: list[Span]) -> list[Span]:
    """The reply's sentences as character ranges (trailing space left out), never split
    inside a slot span."""
    out: list[Span] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        cut = m.start() + len(m.group().rstrip())
        if any(a < cut < b for a, b in spans):
            continue
        out.append((start, cut))
        start = m.end()
    if start < len(text) and text[start:].strip():
        out.append((start, len(text.rstrip())))
    return out


def _holds(sentence: Span, spans: list[Span]) -> bool:
    return any(a < sentence[1] and b > sentence[0] for a, b in spans)


def drop(text: str, dropped: list[Span], kept: list[Span], every: list[Span]) -> tuple[str, str]:
    """The reply without the answer at ``dropped``: (kind, text), or ("", "") when it cannot be
    taken out without touching ``kept``."""
    parts = sentences(text, every)
    out: list[str] = []
    kind = "sentence"
    for s in parts:
        if not _holds(s, dropped):
            out.append(text[s[0] : s[1]])
            continue
        if not _holds(s, kept):
            continue
        mine = [sp for sp in dropped if _holds(s, [sp])]
        theirs = [sp for sp in kept if _holds(s, [sp])]
        lo = max(b for _, b in theirs)
        hi = min(a for a, _ in mine)
        if lo >= hi:
            return "", ""
        cuts = list(_CUT.finditer(text, lo, hi))
        if not cuts:
            return "", ""
        head = text[s[0] : cuts[-1].start()].rstrip(" ,;")
        out.append(head + ".")
        kind = "clause"
    return kind, " ".join(out)


def _words(slot: str) -> str:
    return slot.replace("_", " ")


def candidates(split: str) -> Iterator[dict[str, Any]]:
    """Every user turn of ``split`` with two or more requests that the next system turn
    answered, in the file's order."""
    path = SGD / f"sgd-{split}.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            dialogue = json.loads(line)
            turns = dialogue["turns"]
            for i, user in enumerate(turns[:-1]):
                if user["speaker"] != "USER":
                    continue
                asked = [
                    (frame["service"], act[1])
                    for frame in user["frames"]
                    for act in frame["actions"]
                    if act[0] == "REQUEST"
                ]
                if len(asked) < 2:
                    continue
                reply = turns[i + 1]
                record = _record(dialogue["id"], i, user, reply, asked)
                if record is not None:
                    yield record


def _record(
    dialogue: str,
    index: int,
    user: dict[str, Any],
    reply: dict[str, Any],
    asked: list[tuple[str, str]],
) -> dict[str, Any] | None:
    text = reply["text"]
    frames = {frame["service"]: frame for frame in reply["frames"]}
    every: list[Span] = [(a, b) for frame in reply["frames"] for _, a, b in frame["spans"]]
    requests: list[dict[str, Any]] = []
    located: list[list[Span]] = []
    for service, slot in asked:
        frame = frames.get(service)
        if frame is None or not any(
            act[0] == "INFORM" and act[1] == slot for act in frame["actions"]
        ):
            return None  # not every request answered
        spans = [(a, b) for name, a, b in frame["spans"] if name == slot]
        words = sorted({text[a:b] for a, b in spans})
        located.append(spans)
        requests.append({"slot": slot, "text": _words(slot), "agent": service, "words": words})
    drops: list[dict[str, Any]] = []
    if all(located):
        for k, request in enumerate(requests):
            kept = [sp for j, spans in enumerate(located) if j != k for sp in spans]
            kind, mutated = drop(text, located[k], kept, every)
            if not kind:
                continue
            low = mutated.lower()
            others = [w for j, r in enumerate(requests) if j != k for w in r["words"]]
            if any(w.lower() in low for w in request["words"]) or not all(
                w in mutated for w in others
            ):
                continue
            drops.append({"request": k, "kind": kind, "reply": mutated})
    return {
        "id": f"{dialogue}/{index}",
        "text": user["text"],
        "acts": sorted({act[0] for frame in user["frames"] for act in frame["actions"]}),
        "reply": text,
        "requests": requests,
        "drops": drops,
    }


def build(split: str) -> list[dict[str, Any]]:
    """The records of one file: SGD train sampled to ``TRAIN_SIZE`` (seeded), SGD dev whole."""
    records = list(candidates(split))
    size = TRAIN_SIZE if split == "train" else MAX_DEV
    if len(records) > size:
        keep = sorted(random.Random(f"{SEED}-{split}").sample(range(len(records)), size))
        records = [records[i] for i in keep]
    return records


def render(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)


def main() -> None:
    for split in ("train", "dev"):
        records = build(split)
        path = OUT / f"sgd-real-{split}.jsonl"
        path.write_text(render(records), encoding="utf-8")
        drops = sum(len(r["drops"]) for r in records)
        print(f"{path.name}: {len(records)} messages, {drops} drop mutations")


if __name__ == "__main__":
    main()
