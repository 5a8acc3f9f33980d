"""How the detectors' time grows with messages per turn and per conversation (not quadratic).

Run it from the repository root::

    .venv/bin/python tests/bench/bench_detect_scale.py [--total 100000] [--runs 3] [--json]

Two sweeps over generated helpdesk transcripts (the wording and facts of ``bench_detect.py``,
about one bot message in three a duplicate), each at a fixed total number of messages, so a
detector that is linear in the transcript spends the same time per message at every point:

- *per conversation*: the same messages cut into conversations of 1,000, 10,000 and ``--total``
  messages (three bot messages per turn). The per-message time of the longest conversation over
  that of the 1,000-message ones is the figure: about 1 when the cost is linear in the transcript,
  about 100 when it is quadratic.
- *per turn*: 2, 4, 8 and 16 bot messages per turn. Messages of one turn are compared with each
  other, so the per-message time may grow with the turn's size (linearly when every pair of the
  turn is compared); it is reported, with the growth exponent, for information.

Times are for ``detect`` in-process (no loading, no report), the median of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_detect import ANSWERS, QUESTIONS  # noqa: E402

from harness.detect import detect  # noqa: E402
from harness.detect.transcript import Message, Transcript  # noqa: E402


def _answer(rng: random.Random) -> tuple[str, str]:
    agent, template = rng.choice(ANSWERS)
    text = template.format(
        n=rng.randrange(2, 40),
        d=rng.randrange(1, 28),
        amount=f"{rng.randrange(500, 20000):,}",
        room=rng.choice("ABCDEF"),
    )
    return agent, text


def shaped(
    total: int, *, bots_per_turn: int, per_conversation: int, seed: int = 11
) -> list[Transcript]:
    """``total`` messages in conversations of ``per_conversation`` messages, ``bots_per_turn``
    bot messages after each user message; every third bot message relays an earlier one."""
    rng = random.Random(seed)
    conversations: list[Transcript] = []
    made = 0
    while made < total:
        size = min(per_conversation, total - made)
        messages: list[Message] = []
        turn = 0
        while len(messages) < size:
            turn += 1
            messages.append(
                Message(
                    id=f"m{len(messages) + 1}",
                    turn=turn,
                    role="user",
                    sender="user",
                    text=rng.choice(QUESTIONS),
                )
            )
            said: list[str] = []
            for slot in range(bots_per_turn):
                if len(messages) >= size:
                    break
                if said and slot % 3 == 2:
                    text = f"Here's what I found: {rng.choice(said)}"
                    sender, mode = "helpdesk", None
                else:
                    sender, text = _answer(rng)
                    mode = "direct"
                    said.append(text)
                messages.append(
                    Message(
                        id=f"m{len(messages) + 1}",
                        turn=turn,
                        role="bot",
                        sender=sender,
                        text=text,
                        mode=mode,
                    )
                )
        conversations.append(
            Transcript.from_messages(messages, conversation=f"c{len(conversations) + 1}")
        )
        made += size
    return conversations


def seconds_per_message(transcripts: Sequence[Transcript], runs: int) -> float:
    """Median seconds per message to run ``detect`` over every transcript."""
    messages = sum(len(t) for t in transcripts)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for transcript in transcripts:
            detect(transcript)
        times.append(time.perf_counter() - started)
    return statistics.median(times) / messages


def measure(total: int, runs: int) -> dict[str, Any]:
    """Both sweeps; microseconds per message at each point and the growth figures."""
    per_conversation: dict[str, float] = {}
    sizes = sorted({1_000, 10_000, total})
    for size in sizes:
        convs = shaped(total, bots_per_turn=3, per_conversation=size)
        per_conversation[str(size)] = seconds_per_message(convs, runs) * 1e6
    per_turn: dict[str, float] = {}
    counts = [2, 4, 8, 16]
    for count in counts:
        convs = shaped(total // 2, bots_per_turn=count, per_conversation=1_000)
        per_turn[str(count)] = seconds_per_message(convs, runs) * 1e6
    small, large = per_conversation[str(sizes[0])], per_conversation[str(sizes[-1])]
    first, last = per_turn[str(counts[0])], per_turn[str(counts[-1])]
    return {
        "total": total,
        "runs": runs,
        "us_per_message_by_conversation_size": per_conversation,
        "us_per_message_by_bot_messages_per_turn": per_turn,
        "conversation_growth": large / small,
        "conversation_sizes": [sizes[0], sizes[-1]],
        "turn_growth": last / first,
        "turn_growth_exponent": math.log(last / first) / math.log(counts[-1] / counts[0]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--total", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = measure(args.total, args.runs)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"detect, {args.total} messages in total, median of {args.runs} runs (us per message)")
    for size, value in report["us_per_message_by_conversation_size"].items():
        print(f"  conversations of {int(size):>7} messages: {value:7.1f}")
    print(
        f"  growth, {report['conversation_sizes'][1]} vs {report['conversation_sizes'][0]} "
        f"messages per conversation: x{report['conversation_growth']:.2f} per message"
    )
    for count, value in report["us_per_message_by_bot_messages_per_turn"].items():
        print(f"  {int(count):>2} bot messages per turn: {value:7.1f}")
    print(
        f"  growth, 16 vs 2 bot messages per turn: x{report['turn_growth']:.2f} per message "
        f"(exponent {report['turn_growth_exponent']:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
