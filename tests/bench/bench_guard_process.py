"""The duplicate guard's worker process decides as the check in this process does, on real bot
messages: every bot message of the dev corpus (``tests/fixtures/duplicates-dev``) and every system
turn of SGD dev, each checked as a draft against the conversation before it, both ways.

Run it from the repository root (SGD dev is read from ``../shared/data/sgd``)::

    .venv/bin/python tests/bench/bench_guard_process.py

It prints, per source, the drafts checked, the identical decisions and the drafts with findings.
The worker is asked directly (``_WORKER.call``), whatever the texts' length: the serve path sends
only long texts there.
"""

from __future__ import annotations

import gzip
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness.detect.guard import DuplicateGuard  # noqa: E402
from harness.detect.readers import load_transcript  # noqa: E402
from harness.detect.transcript import Message  # noqa: E402
from harness.runtime import guard_process  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "duplicates-dev"
SGD_DEV = ROOT.parent / "shared" / "data" / "sgd" / "sgd-dev.jsonl.gz"


def dev_corpus() -> Iterator[tuple[Message, list[Message]]]:
    for path in sorted(CORPUS.glob("*.transcript")):
        for transcript in load_transcript(path):
            messages = list(transcript.messages)
            for i, message in enumerate(messages):
                if message.role == "bot":
                    yield message, messages[:i]


def sgd_dev() -> Iterator[tuple[Message, list[Message]]]:
    with gzip.open(SGD_DEV, "rt") as lines:
        for line in lines:
            messages: list[Message] = []
            turn = 0
            for n, item in enumerate(json.loads(line)["turns"]):
                user = item["speaker"] == "USER"
                turn += user
                message = Message(
                    id=str(n),
                    turn=turn,
                    role="user" if user else "bot",
                    sender="user" if user else "bot",
                    text=item["text"],
                )
                if not user:
                    yield message, list(messages)
                messages.append(message)


def compare(drafts: Iterator[tuple[Message, list[Message]]]) -> tuple[int, int, int]:
    guard = DuplicateGuard("drop")
    checked = identical = with_findings = 0
    for draft, sent in drafts:
        here = guard.check(draft.text, sent=sent, turn=draft.turn)
        there, _records = guard_process._WORKER.call((guard, draft.text, sent, draft.turn))
        checked += 1
        identical += here == there
        with_findings += bool(here.findings)
    return checked, identical, with_findings


def main() -> None:
    logging.disable(logging.WARNING)  # the findings' warnings, thousands of them
    for name, drafts in (("dev corpus", dev_corpus()), ("SGD dev", sgd_dev())):
        checked, identical, with_findings = compare(drafts)
        print(
            f"{name}: {checked} drafts, {identical} identical decisions, {with_findings} with findings"
        )


if __name__ == "__main__":
    main()
