"""Where the wall time of one ``harness detect`` run goes, process by process.

Run it from the repository root::

    .venv/bin/python tests/bench/bench_detect_stages.py FILE.jsonl [--jobs N] [--real N] [--output R]

It runs ``harness detect FILE --format json -q`` in this process, as the console script does
(the JSON report goes to ``--output``, else to a temporary file), and prints, for each process of the run (the parent,
the worker doing the other checks beside the analysis, the comparison's worker), when each stage
started and ended: seconds of wall time since the start, and that process's CPU time then.
``--real N`` first writes ``N`` messages of real text to FILE (``bench_detect.generate_real``:
the dev corpus, then SGD dialogues; for timing only, no findings are read).

The comparison is timed where it runs: each process's share of the slices when it is spread over
processes, the whole of it when it runs in the parent (``--jobs 1``, or a conversation under
``PARALLEL_MESSAGES`` bot messages), where the missed-request check then follows it.

The last lines sum it up: the serial start (reading and imports, before the first worker forks),
the serial end (after the comparison: "no comparison timed" when none ran), every process's CPU
time (at its last logged event: a process whose exit was not logged is marked, its CPU after its
last stage not counted), and the core-seconds no process used (``jobs`` times the wall time, less
the CPU time): on a machine with no other work, what a better schedule of the stages could win at
most. On a busy machine the wall time stretches and
this figure means nothing; the CPU times still do.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_START = time.perf_counter()
_EVENTS_FILE: list[Path] = []


def _log(stage: str) -> None:
    """One line per event, appended to the events file by whichever process it happens in."""
    line = (
        f"{os.getpid()}\t{time.perf_counter() - _START:.3f}\t{time.process_time():.3f}\t{stage}\n"
    )
    with _EVENTS_FILE[0].open("a", encoding="utf-8") as out:
        out.write(line)


def _timed(stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    # Named as ``fn`` (functools.wraps): a worker pool pickles the comparison's function by name.
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _log(f"{stage} start")
        try:
            return fn(*args, **kwargs)
        finally:
            _log(f"{stage} end")

    return wrapper


def _hook(jobs: int) -> None:
    """The stages wrapped where the pipeline looks them up (module attributes, at call time);
    the summary printed as the parent process ends (the console script ends it with
    ``os._exit``, after its workers have ended; when it does not, :func:`main` prints it)."""
    from harness.detect import _meanwhile, detectors, duplicates

    duplicates.steps = _timed("analysis", duplicates.steps)
    # The comparison: spread over processes, each process's share of slices; in one process (a
    # short conversation, or one job), the whole of it. A slice is compared with ``progress``.
    duplicates._compare_slices = _timed("comparison", duplicates._compare_slices)
    pairs = duplicates._Run.pairs
    timed_pairs = _timed("comparison", pairs)

    @functools.wraps(pairs)
    def _pairs(*args: Any, **kwargs: Any) -> Any:
        return (pairs if kwargs.get("progress") is not None else timed_pairs)(*args, **kwargs)

    duplicates._Run.pairs = _pairs  # type: ignore[method-assign]
    check = detectors.MissedRequests.check
    detectors.MissedRequests.check = _timed("missed-request check", check)  # type: ignore[method-assign]
    collect = _meanwhile.Aside.collect
    _meanwhile.Aside.collect = _timed("waiting for the checks", collect)  # type: ignore[method-assign]
    end = os._exit
    parent = os.getpid()

    def _exit(code: int) -> None:
        _log("exit")
        if os.getpid() == parent:
            _finish(jobs)
        end(code)

    os._exit = _exit  # type: ignore[assignment]


_FINISHED: list[bool] = []
"""Set once the summary is printed (the parent's ``os._exit``, or :func:`main` after it)."""


def _finish(jobs: int) -> None:
    """The summary printed and the scratch folder removed, once."""
    if _FINISHED:
        return
    _FINISHED.append(True)
    events_file = _EVENTS_FILE[0]
    if events_file.exists():
        rows = [line.split("\t") for line in events_file.read_text().splitlines()]
        events = [(int(p), float(w), float(c), what) for p, w, c, what in rows]
        print("\n".join(_summary(events, jobs)), flush=True)
    shutil.rmtree(events_file.parent, ignore_errors=True)


def _summary(events: list[tuple[int, float, float, str]], jobs: int) -> list[str]:
    parent = events[0][0]
    lines = [f"{'pid':>8} {'wall s':>8} {'cpu s':>7}  event"]
    lines += [f"{pid:>8} {wall:8.2f} {cpu:7.2f}  {what}" for pid, wall, cpu, what in events]
    last: dict[int, float] = {}
    ended: set[int] = set()
    for pid, _, cpu, what in events:
        last[pid] = cpu
        if what == "exit":
            ended.add(pid)
    wall = max(w for _, w, _, _ in events)
    forked = [w for p, w, _, what in events if p != parent or what == "analysis start"]
    first_fork = min(forked, default=wall)
    comparison_ends = [w for _, w, _, what in events if what == "comparison end"]
    total = sum(last.values())
    lines += [
        f"serial start (reading, imports; until the analysis): {first_fork:.2f} s wall",
        f"serial end (after the comparison): {wall - max(comparison_ends):.2f} s wall"
        if comparison_ends
        else "serial end (after the comparison): no comparison timed",
        "CPU by process: "
        + ", ".join(
            f"{pid} {cpu:.2f} s"
            + ("" if pid in ended else " (until its last stage; no exit logged)")
            for pid, cpu in last.items()
        ),
        f"wall {wall:.2f} s, CPU {total:.2f} s, core-seconds unused with {jobs} cores: "
        f"{jobs * wall - total:.2f}",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--jobs", type=int, default=0, help="as harness detect's (0: its default)")
    parser.add_argument("--real", type=int, default=0, help="write this many real messages first")
    parser.add_argument("--output", type=Path, help="where to write the JSON report (kept)")
    args = parser.parse_args(argv)
    if args.real:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_detect import generate_real

        generate_real(args.real).write_jsonl(args.file)
    from harness.cli import main as harness

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    jobs = args.jobs or cores or 1
    scratch = Path(tempfile.mkdtemp(prefix="bench-stages-"))
    _EVENTS_FILE[:] = [scratch / "events.tsv"]
    report = args.output or scratch / "report.json"
    command = ["detect", str(args.file), "--format", "json", "-q", "-o", str(report)]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    _hook(jobs)
    sys.argv = ["harness", *command]
    try:
        harness()
    except SystemExit as done:  # a run that did not end the process itself (a usage error, or
        # a thread or a message left: ``process_end`` returns and the usual exit follows)
        return done.code if isinstance(done.code, int) else 1
    finally:
        _log("exit")
        _finish(jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
