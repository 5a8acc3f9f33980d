"""False alarms of the missed-request check on real dialogues: per 1,000 user messages.

The Schema-Guided Dialogue data (SGD, CC BY-SA 4.0) holds real crowd-written dialogues whose system
turns answer the user by design (each system turn was written for the user turn before it, to its
annotated acts). So every ``missed_request`` the check reports on an SGD dialogue left as it was
is, with rare exceptions, a false alarm. Each dialogue becomes one transcript (a user turn, then
the system turn that followed it); the check runs on it as ``harness detect`` would run it.

Develop on ``train`` (``--every N`` takes every N-th train dialogue), report on ``dev``::

    .venv/bin/python -m tools.detector.missed_sgd --split train --every 4 --show 40
    .venv/bin/python -m tools.detector.missed_sgd --split dev

``--show N`` prints N findings with the user turn's annotated acts (train only: dev is for
figures, its errors are not read).
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harness.detect.answers import matcher
from harness.detect.missed import missed_requests
from harness.detect.transcript import Message, Transcript

ROOT = Path(__file__).resolve().parents[2]
SGD = ROOT.parent / "shared" / "data" / "sgd"


def dialogues(split: str, every: int = 1, folder: Path = SGD) -> Iterator[dict[str, Any]]:
    """The dialogues of an SGD split, every ``every``-th one."""
    with gzip.open(folder / f"sgd-{split}.jsonl.gz", "rt", encoding="utf-8") as lines:
        for k, line in enumerate(lines):
            if k % every == 0:
                yield json.loads(line)


def acts(turn: dict[str, Any]) -> list[str]:
    """The dialogue acts of one SGD turn, in order."""
    return [a[0] for frame in turn["frames"] for a in frame["actions"]]


def transcript(dialogue: dict[str, Any]) -> Transcript:
    """One SGD dialogue as a transcript: each user turn opens a turn, the system answers it."""
    messages = []
    number = 0
    for k, t in enumerate(dialogue["turns"]):
        user = t["speaker"] == "USER"
        number += user
        messages.append(
            Message(
                id=f"m{k + 1}",
                turn=number,
                role="user" if user else "bot",
                sender="user" if user else "assistant",
                text=t["text"],
            )
        )
    return Transcript.from_messages(messages, conversation=dialogue["id"])


def measure(
    split: str, *, every: int = 1, sure: bool = False, show: int = 0, folder: Path = SGD
) -> dict[str, Any]:
    """Findings per 1,000 user messages on ``split`` (see the module's docstring)."""
    floor = matcher().report_threshold if sure else 0.0
    users = findings = turns_flagged = 0
    by_acts: Counter[str] = Counter()
    shown: list[str] = []
    before = resource.getrusage(resource.RUSAGE_SELF)
    for dialogue in dialogues(split, every, folder):
        t = transcript(dialogue)
        users += sum(1 for m in t.messages if m.role == "user")
        found = missed_requests(t, min_confidence=floor)
        findings += len(found)
        turns_flagged += len({f.turn for f in found})
        user_turns = [x for x in dialogue["turns"] if x["speaker"] == "USER"]
        for f in found:
            user = user_turns[f.turn - 1]
            by_acts["+".join(sorted(set(acts(user))))] += 1
            if len(shown) < show:
                index = dialogue["turns"].index(user)
                reply = (
                    dialogue["turns"][index + 1]["text"]
                    if index + 1 < len(dialogue["turns"])
                    else ""
                )
                shown.append(
                    f"{dialogue['id']} [{' '.join(acts(user))}] {user['text']}\n"
                    f"    bot: {reply}\n    {f.evidence}"
                )
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "split": split,
        "every": every,
        "sure": sure,
        "user_messages": users,
        "findings": findings,
        "turns_flagged": turns_flagged,
        "per_1000": round(1000 * findings / max(users, 1), 2),
        "cpu_seconds": round(cpu, 2),
        "by_acts": dict(by_acts.most_common(12)),
        "shown": shown,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("train", "dev"), default="train")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--sure", action="store_true", help="only findings at the report threshold")
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--sgd", type=Path, default=SGD)
    args = parser.parse_args()
    if args.show and args.split != "train":
        parser.error("--show reads errors: train only")
    result = measure(args.split, every=args.every, sure=args.sure, show=args.show, folder=args.sgd)
    for line in result.pop("shown"):
        print(line)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
