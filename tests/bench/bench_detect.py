"""Benchmark ``harness detect`` on large generated transcripts (run by hand, not by pytest).

    .venv/bin/python tests/bench/bench_detect.py            # 10,000 and 100,000 messages
    .venv/bin/python tests/bench/bench_detect.py --sizes 10000 --runs 3
    .venv/bin/python tests/bench/bench_detect.py --real --sizes 100000 --runs 3   # real text
    .venv/bin/python tests/bench/bench_detect.py --real --runs 3 --jobs 1         # one process
    .venv/bin/python tests/bench/bench_detect.py --real --sizes 10000 --count     # pairs compared
    .venv/bin/python tests/bench/bench_detect.py --real --sizes 10000 --comparison --runs 3
                                                       # CPU of the comparison stage alone
    .venv/bin/python tests/bench/bench_detect.py --real --sizes 10000 --analysis --runs 3
                                                       # CPU of the analysis stage alone

Each transcript is helpdesk-like: a user message per turn, then two or three bot messages (a
sub-agent's answer with sampled facts, the parent's relay of it with new content, sometimes a holding
message or a closer), so the detector does real work: about one bot message in three is a duplicate.
Prints the median of the runs (each cold) for loading the JSONL, detecting, and the whole command
in-process (load + detect + JSON report), and the wall and CPU time of one ``harness detect``
subprocess (Python start-up and imports included; its CPU time counts its worker processes, see
``--jobs``). The in-process figures are one process (the library's default). Other work on the
machine inflates wall times: the line ends with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.detect import DetectionResult, detect, load_transcript, render_json
from harness.detect.transcript import Message, Transcript
from harness.text import analyse, extract_facts, split_claims, split_sentences

ANSWERS = [
    ("pto", "You have {n} vacation days left for 2026."),
    ("pto", "You have used {n} vacation days so far in 2026."),
    ("payroll", "Your next payday is Friday, March {d}."),
    ("payroll", "Your federal tax withholding so far in 2026 is ${amount}."),
    ("benefits", "You are enrolled in the Aetna PPO medical plan with a ${amount} deductible."),
    ("it", "Ticket INC00{n}{d} is in progress and assigned to the Network team."),
    ("calendar", "I booked room {room} for the design sync on Thursday at {d}:00."),
]
QUESTIONS = [
    "How many vacation days do I have left?",
    "When is payday?",
    "What is my deductible?",
    "What's the status of my ticket?",
    "Can you book a room for the design sync?",
    "How much tax has been withheld?",
]


def generate(messages: int, seed: int = 7) -> Transcript:
    rng = random.Random(seed)
    out: list[Message] = []
    turn = 0
    while len(out) < messages:
        turn += 1
        out.append(
            Message(
                id=f"m{len(out) + 1}",
                turn=turn,
                role="user",
                sender="user",
                text=rng.choice(QUESTIONS),
            )
        )
        agent, template = rng.choice(ANSWERS)
        answer = template.format(
            n=rng.randrange(2, 40),
            d=rng.randrange(1, 28),
            amount=f"{rng.randrange(500, 20000):,}",
            room=rng.choice("ABCDEF"),
        )
        if rng.random() < 0.2:
            out.append(
                Message(
                    id=f"m{len(out) + 1}",
                    turn=turn,
                    role="bot",
                    sender="helpdesk",
                    text="Let me check that for you.",
                )
            )
        out.append(
            Message(
                id=f"m{len(out) + 1}",
                turn=turn,
                role="bot",
                sender=agent,
                text=answer,
                mode="direct",
            )
        )
        if rng.random() < 0.5:
            relay = f"Here's what I found: {answer} Anything else I can help with?"
        else:
            relay = "Is there anything else I can help you with today?"
        out.append(
            Message(id=f"m{len(out) + 1}", turn=turn, role="bot", sender="helpdesk", text=relay)
        )
    return Transcript.from_messages(out[:messages], conversation=f"bench-{messages}")


SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"


def generate_real(messages: int) -> Transcript:
    """``messages`` messages of real text in one conversation: the dev corpus's transcripts, then
    SGD train dialogues (user and system turns), each text used once. SGD dev is held out for the
    detector, so it is never read here."""
    import gzip
    import json

    seen: set[str] = set()
    out: list[Message] = []
    turn = 0

    def add(role: str, sender: str, text: str) -> None:
        nonlocal turn
        if text in seen or not text.strip():
            return
        seen.add(text)
        if role == "user":
            turn += 1
        out.append(
            Message(id=f"m{len(out) + 1}", turn=turn, role=role, sender=sender, text=text)  # type: ignore[arg-type]
        )

    for path in sorted(CORPUS.glob("*.transcript")):
        for conv in load_transcript(path):
            for m in conv.messages:
                add(m.role, m.sender, m.text)
    with gzip.open(SHARED / "sgd" / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            for t in json.loads(line)["turns"]:
                user = t["speaker"] == "USER"
                add("user" if user else "bot", "user" if user else "assistant", t["text"])
            if len(out) >= messages:
                return Transcript.from_messages(out[:messages], conversation="real")
    return Transcript.from_messages(out[:messages], conversation="real")


def median_seconds(fn: object, runs: int) -> float:
    """Median wall time, each run cold (the sentence cache emptied first)."""
    times = []
    for _ in range(runs):
        for cached in (analyse, extract_facts, split_claims, split_sentences):
            cached.cache_clear()
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def count_pairs(transcript: Transcript) -> str:
    """The duplicate detector's work on ``transcript``, counted (not timed): candidate pairs,
    those the pair bound's second stage reads (the first could not rule them out), pairs whose
    claims are compared, and pairs the scorer reads in full."""
    import pytest

    from harness.detect import _candidates, duplicates

    counts = {"candidates": 0, "second stage": 0, "compared": 0, "scored": 0}
    candidates = _candidates._Index.candidates

    def counting_candidates(
        index: object, entry: _candidates.Entry, *, weak: bool = False
    ) -> list[_candidates.Entry]:
        found = candidates(index, entry, weak=weak)  # type: ignore[arg-type]
        counts["candidates"] += len(found) if entry.text.claims else 0
        return found

    def counting(name: str, fn: object) -> object:
        def counted(*args: object, **kwargs: object) -> object:
            counts[name] += 1
            return fn(*args, **kwargs)  # type: ignore[operator]

        return counted

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_candidates._Index, "candidates", counting_candidates)
        patch.setattr(_candidates, "compare", counting("compared", _candidates.compare))
        patch.setattr(duplicates, "pair_features", counting("scored", duplicates.pair_features))
        patch.setattr(duplicates, "user_bounds", counting("second stage", duplicates.user_bounds))
        detect(transcript)
    return ", ".join(f"{value:,} {name}" for name, value in counts.items())


def comparison_cpu(transcript: Transcript, runs: int) -> str:
    """CPU time (user + sys of this process) of the duplicate check's comparison stage alone:
    the messages analysed first, then every bot message compared with its candidates, the
    detector's caches emptied before each run."""
    from harness.detect import _features, _screen, acts, duplicates
    from harness.detect._analysis import steps as analysed
    from harness.detect.findings import DetectorConfig
    from harness.text import normalise

    config = DetectorConfig()
    steps = analysed(transcript, 1)
    run = duplicates._Run(
        steps=steps,
        limits=duplicates.thresholds(config),
        closers=frozenset(normalise(p) for p in config.boilerplate),
        window=config.cross_turn_window,
        semantic=config.semantic_threshold,
        vectors=None,
        pair_model=None,
    )
    times = []
    for _ in range(runs):
        _features._SIDES.clear()
        _screen._SKETCHES.clear()
        acts.message_acts.cache_clear()
        for cached in (
            acts.sentence_acts,
            _features._capitalised,
            _features._days,
            _features._wording,
        ):
            cached.cache_clear()
        start = time.process_time()
        run.pairs(0, len(steps))
        times.append(time.process_time() - start)
    listed = ", ".join(f"{t:.2f}" for t in times)
    return (
        f"comparison stage {statistics.median(times):.2f}s CPU (median of {runs}: {listed}; "
        f"load average {os.getloadavg()[0]:.1f})"
    )


def analysis_cpu(transcript: Transcript, runs: int) -> str:
    """CPU time (user + sys of this process) of the analysis stage alone, in one process: every
    message analysed as the detector does before comparing (a bot message into claims, a user's
    for the fields the detector reads), every cache of the SDK's modules emptied before each
    run, the garbage collector paused as ``harness detect`` pauses it."""
    import gc

    from harness.detect import _analysis

    caches = {
        id(value): value
        for name, module in list(sys.modules.items())
        if name.startswith("harness.")
        for value in list(vars(module).values())
        if hasattr(value, "cache_clear")
    }
    messages = transcript.messages
    times = []
    for _ in range(runs):
        for cached in caches.values():
            cached.cache_clear()
        gc.collect()
        gc.disable()
        start = time.process_time()
        _analysis._analysed(messages, 0, len(messages))
        times.append(time.process_time() - start)
        gc.enable()
    listed = ", ".join(f"{t:.2f}" for t in times)
    return (
        f"analysis stage {statistics.median(times):.2f}s CPU (median of {runs}: {listed}; "
        f"load average {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--real", action="store_true", help="real text (dev corpus, SGD train), unique"
    )
    parser.add_argument(
        "--jobs", type=int, default=0, help="`harness detect --jobs` (0: one per core)"
    )
    parser.add_argument(
        "--count",
        action="store_true",
        help="only count the candidate pairs, those whose claims are compared and those scored",
    )
    parser.add_argument(
        "--comparison",
        action="store_true",
        help="only time the duplicate check's comparison stage (CPU, in-process, one process)",
    )
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="only time the analysis of every message (CPU, in-process, one process)",
    )
    args = parser.parse_args()
    if args.analysis:
        for size in args.sizes:
            transcript = generate_real(size) if args.real else generate(size)
            print(f"{size:>7} messages: {analysis_cpu(transcript, args.runs)}", flush=True)
        return
    if args.comparison:
        for size in args.sizes:
            transcript = generate_real(size) if args.real else generate(size)
            print(f"{size:>7} messages: {comparison_cpu(transcript, args.runs)}", flush=True)
        return
    if args.count:
        for size in args.sizes:
            transcript = generate_real(size) if args.real else generate(size)
            print(f"{size:>7} messages: {count_pairs(transcript)}", flush=True)
        return
    harness = Path(sys.executable).with_name("harness")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            transcript = generate_real(size) if args.real else generate(size)
            path = Path(tmp) / f"bench-{size}.jsonl"
            transcript.write_jsonl(path)
            findings = detect(transcript)

            def whole(path: Path = path) -> None:
                results = []
                for conv in load_transcript(path):
                    results.append(
                        DetectionResult(
                            file=str(path),
                            conversation=conv.conversation,
                            transcript=conv,
                            findings=tuple(detect(conv)),
                        )
                    )
                render_json(results)

            load = median_seconds(lambda path=path: load_transcript(path), args.runs)
            run = median_seconds(lambda t=transcript: detect(t), args.runs)
            total = median_seconds(whole, args.runs)
            line = (
                f"{size:>7} messages, {transcript.turn_count} turns, {len(findings)} findings: "
                f"load {load:.3f}s  detect {run:.3f}s  load+detect+json {total:.3f}s "
                f"(median of {args.runs})"
            )
            if harness.exists():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(
                    [
                        str(harness),
                        "detect",
                        str(path),
                        "--format",
                        "json",
                        "--jobs",
                        str(args.jobs),
                    ],
                    stdout=subprocess.DEVNULL,
                    check=False,
                )
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                line += f"  `harness detect` subprocess {wall:.3f}s wall, {cpu:.3f}s CPU"
            line += f"  (load average {os.getloadavg()[0]:.1f})"
            print(line, flush=True)


if __name__ == "__main__":
    main()
