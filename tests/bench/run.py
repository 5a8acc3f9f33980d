"""``make bench``: the project's performance figures, each measured next to a peer in the same run.

Run it from the repository root (the ``bench`` extra adds the peers: ``pip install -e ".[bench]"``)::

    .venv/bin/python tests/bench/run.py            # the full run (a few minutes on 2 cores)
    .venv/bin/python tests/bench/run.py --quick    # a shorter run with fewer repetitions
    .venv/bin/python tests/bench/run.py --json     # machine-readable JSON on stdout
    .venv/bin/python tests/bench/run.py --only turn --only lint

Figures (issue 8), each the median of several runs:

1. ``turn``: one three-intent turn (a silent, a direct and a conversational sub-agent) on scripted
   models, ours vs the OpenAI Agents SDK's agents-as-tools doing the same work
   (``bench_peer_agents.py``). Target: ours at most 0.5 of theirs.
2. ``simulator``: turns per second for 1,000 scripted multi-intent conversations through
   ``run_scenario`` with every lexical detector on, pinned to one core (``bench_simulator.py``).
   Target: at least 2,000 turns/s.
3. ``detect``: the ``harness detect`` command on 10,000 and 100,000 generated messages, and how
   the detectors' time grows with messages per conversation and per turn
   (``bench_detect.py``, ``bench_detect_scale.py``). Target: 100,000 messages under 10 s, and no
   growth of the per-message time with the conversation's length (linear, not quadratic).
4. ``lint``: ``lint_paths`` and the ``harness lint`` command on 1,000 sub-agent configs
   (``bench_lint.py``). Target: under 1 s. No peer.
5. ``hosting``: requests/s and p50/p99 latency of ``harness serve`` at 50 concurrent conversations
   vs a bare botbuilder echo bot (``bench_hosting.py``). Target: at least 0.8 of the echo bot.
6. ``workers``: requests/s of 3 ``harness serve`` workers on one Redis vs 1, at 50 concurrent
   conversations, and the stored state after 2,000 turns with and without the window
   (``bench_workers.py``; needs ``redis-server``). No target: on a machine with fewer cores than
   processes the ratio shows contention, not scaling.

Every figure runs in its own Python process (a fresh heap, no imports or pinning shared between
figures). The table: figure, ours, peer, ratio (ours / peer, or ours / target when the target is
the only yardstick), target, result. Exit status 0, or 1 with ``--strict`` when a target is missed.
Nothing here is a test: timed assertions stay out of ``make test``. Measured figures, with the date
and the machine, are recorded in ``tests/bench/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (str(ROOT), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

Row = dict[str, Any]

FIGURES = ("turn", "simulator", "detect", "lint", "hosting", "workers")


def row(
    id: str,
    figure: str,
    *,
    ours: float | None,
    unit: str,
    peer: float | None = None,
    peer_name: str | None = None,
    target: float | None = None,
    target_text: str = "—",
    compare: str | None = None,
    ratio_of: str = "peer",
    note: str = "",
) -> Row:
    """One line of the table.

    Args:
        compare: how the target is checked: ``ratio<=`` / ``ratio>=`` (the ratio ours / peer
            against ``target``), ``<=`` / ``>=`` (ours against ``target``), or None (information).
        ratio_of: ``peer`` (ours / peer) or ``target`` (ours / target, when there is no peer).
    """
    ratio: float | None = None
    if ours is not None:
        if ratio_of == "peer" and peer:
            ratio = ours / peer
        elif ratio_of == "target" and target:
            ratio = ours / target
    passed: bool | None = None
    if compare is not None and target is not None:
        value = ratio if compare.startswith("ratio") else ours
        if value is not None:
            passed = value <= target if compare.endswith("<=") else value >= target
    return {
        "id": id,
        "figure": figure,
        "unit": unit,
        "ours": ours,
        "peer": peer,
        "peer_name": peer_name,
        "ratio": ratio,
        "ratio_of": ratio_of if ratio is not None else None,
        "target": target,
        "target_text": target_text,
        "passed": passed,
        "note": note,
    }


def not_measured(id: str, figure: str, why: str) -> Row:
    """A row for a figure that could not be measured (never a faked number)."""
    out = row(id, figure, ours=None, unit="", note=f"not measured: {why}")
    out["passed"] = None
    return out


# --- the figures (each runs in a child process) -------------------------------------------------


def figure_turn(quick: bool) -> list[Row]:
    import asyncio

    import bench_peer_agents

    turns, warmup, rounds = (100, 20, 1) if quick else (300, 30, 3)
    report = asyncio.run(bench_peer_agents.measure(turns, warmup, rounds))
    name = "one 3-intent turn, 10 scripted model calls"
    if report["peer"] is None:
        out = row("turn", name, ours=report["ours_ms"], unit="ms/turn")
        out["note"] = f"peer not measured: {report['skipped']}"
        return [out]
    return [
        row(
            "turn",
            name,
            ours=report["ours_ms"],
            unit="ms/turn",
            peer=report["peer_ms"],
            peer_name=report["peer"] + " (agents as tools)",
            target=0.5,
            target_text="≤ 0.5 × peer",
            compare="ratio<=",
            note=f"median of {report['turns']} turns per side",
        )
    ]


def figure_simulator(quick: bool) -> list[Row]:
    import bench_simulator

    pinned = bench_simulator.pin_one_core()
    conversations, runs = (200, 1) if quick else (1000, 3)
    report = bench_simulator.measure(conversations, runs)
    names = {
        "function": "simulator, FunctionModel bot, async tools",
        "function-sync-tools": "simulator, FunctionModel bot, sync tools",
        "rules": "simulator, RulesModel bot, async tools",
    }
    out = []
    for label, name in names.items():
        data = report[label]
        note = (
            f"{data['turns_per_cpu_s']:,.0f} turns per CPU-second (wall clock is lower when the "
            f"core is shared); {conversations} conversations × 3 turns, {pinned}, "
            f"{data['findings']} findings"
        )
        if label == "function-sync-tools":
            note += "; a sync tool call is a worker-thread hop"
        out.append(
            row(
                f"simulator.{label}",
                name,
                ours=data["turns_per_s"],
                unit="turns/s",
                target=2000,
                target_text="≥ 2,000 turns/s",
                compare=">=",
                ratio_of="target",
                note=note,
            )
        )
    return out


def _harness_cli() -> list[str]:
    script = Path(sys.executable).with_name("harness")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from harness.cli import main; sys.exit(main())"]


def _time_command(command: Sequence[str], runs: int) -> tuple[float, int]:
    times = []
    code = 0
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, cwd=ROOT
        )
        times.append(time.perf_counter() - started)
        code = done.returncode
        if code not in (0, 1):  # 1 means "findings", as designed
            raise RuntimeError(f"{' '.join(command)} exited {code}: {done.stderr.decode()[-500:]}")
    return statistics.median(times), code


def figure_detect(quick: bool) -> list[Row]:
    import bench_detect
    import bench_detect_scale

    runs = 1 if quick else 3
    out: list[Row] = []
    seconds: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (10_000, 100_000):
            path = Path(tmp, f"detect-{size}.jsonl")
            bench_detect.generate(size).write_jsonl(path)
            seconds[size], _ = _time_command(
                [*_harness_cli(), "detect", str(path), "--format", "json"], runs
            )
            out.append(
                row(
                    f"detect.{size}.json",
                    f"harness detect, {size:,} messages, --format json",
                    ours=seconds[size],
                    unit="s",
                    target=10.0 if size == 100_000 else None,
                    target_text="< 10 s" if size == 100_000 else "—",
                    compare="<=" if size == 100_000 else None,
                    ratio_of="target",
                    note=f"whole command (start-up, load, detect, report), median of {runs}",
                )
            )
        text_size = 10_000 if quick else 100_000
        path = Path(tmp, f"detect-{text_size}.jsonl")
        text_seconds, _ = _time_command([*_harness_cli(), "detect", str(path)], 1)
        out.append(
            row(
                f"detect.{text_size}.text",
                f"harness detect, {text_size:,} messages, text report (default)",
                ours=text_seconds,
                unit="s",
                target=10.0 if text_size == 100_000 else None,
                target_text="< 10 s" if text_size == 100_000 else "—",
                compare="<=" if text_size == 100_000 else None,
                ratio_of="target",
                note="whole command, one run",
            )
        )
    growth = math_exponent(seconds[10_000], seconds[100_000], 10)
    out.append(
        row(
            "detect.command_growth",
            "harness detect growth, 10k → 100k messages (exponent)",
            ours=growth,
            unit="",
            note="time ∝ messages^exponent; 1 = linear, 2 = quadratic (start-up time included)",
        )
    )
    total = 10_000 if quick else 50_000
    scale = bench_detect_scale.measure(total, runs)
    small, large = scale["conversation_sizes"]
    out.append(
        row(
            "detect.conversation_growth",
            f"detect per-message time, {large:,}- vs {small:,}-message conversations",
            ours=scale["conversation_growth"],
            unit="×",
            target=1.5,
            target_text="≤ 1.5× (linear)",
            compare="<=",
            ratio_of="target",
            note=f"{total:,} messages either way; a quadratic detector would show ≈ {large // small}×",
        )
    )
    out.append(
        row(
            "detect.turn_growth",
            "detect per-message time, 16 vs 2 bot messages per turn",
            ours=scale["turn_growth"],
            unit="×",
            note=(
                f"exponent {scale['turn_growth_exponent']:.2f} (pairs within a turn are compared; "
                "bounded by the turn, not the transcript)"
            ),
        )
    )
    return out


def math_exponent(small: float, large: float, factor: float) -> float:
    import math

    return math.log(large / small) / math.log(factor)


def figure_lint(quick: bool) -> list[Row]:
    import bench_lint

    runs = 3 if quick else 5
    out: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        many, one = Path(tmp, "many"), Path(tmp, "one")
        many.mkdir()
        one.mkdir()
        bench_lint.write_many_files(many, 1000)
        bench_lint.write_one_file(one, 1000)
        bench_lint.lint_paths([one])  # warm up imports and compiled patterns
        for id, name, folder in (
            ("lint.files", "lint_paths, 1,000 config files × 1 sub-agent", many),
            ("lint.one_file", "lint_paths, 1 config file × 1,000 sub-agents", one),
        ):
            median, files, agents, findings = bench_lint.measure(folder, runs)
            out.append(
                row(
                    id,
                    name,
                    ours=median,
                    unit="s",
                    target=1.0,
                    target_text="< 1 s",
                    compare="<=",
                    ratio_of="target",
                    note=f"in-process, {files} files, {agents} agents, {findings} findings; no peer",
                )
            )
        seconds, _ = _time_command([*_harness_cli(), "lint", str(many), "--format", "json"], runs)
        out.append(
            row(
                "lint.command",
                "harness lint, 1,000 config files (whole command)",
                ours=seconds,
                unit="s",
                target=1.0,
                target_text="< 1 s",
                compare="<=",
                ratio_of="target",
                note=f"start-up included, median of {runs}; no peer",
            )
        )
    return out


def figure_hosting(quick: bool) -> list[Row]:
    import asyncio

    import bench_hosting

    conversations, rounds, runs = (50, 1, 1) if quick else (50, 2, 3)
    args = argparse.Namespace(
        conversations=conversations,
        rounds=rounds,
        warmup=20,
        adapters=["botbuilder", "agents-sdk"],
        no_cached_echo=False,
    )
    results: list[list[dict[str, Any]]] = [
        asyncio.run(bench_hosting.main_async(args)) for _ in range(runs)
    ]
    by_bot: dict[str, dict[str, float]] = {}
    for bot in (r["bot"] for r in results[0]):
        rows = [next(r for r in result if r["bot"] == bot) for result in results]
        by_bot[bot] = {
            key: statistics.median(r[key] for r in rows)
            for key in ("rps", "p50_ms", "p99_ms", "unanswered", "replies_per_request")
        }
    echo, cached = by_bot["botbuilder echo bot"], by_bot["echo bot, cached connectors"]
    load = f"{conversations} concurrent conversations, {conversations * rounds * 5} requests per run, median of {runs}"
    out: list[Row] = []
    for adapter in ("botbuilder", "agents-sdk"):
        ours = by_bot[f"harness serve ({adapter})"]
        note = (
            f"{load}; replies per request: ours {ours['replies_per_request']:.2f}, echo bots "
            f"{echo['replies_per_request']:.2f} (each reply is one more POST to the channel)"
        )
        if ours["unanswered"]:
            note += f"; {ours['unanswered']:.0f} request(s) got no reply"
        for base_name, base, label in (
            ("bare botbuilder echo bot", echo, "echo"),
            ("echo bot with cached connectors", cached, "cached-echo"),
        ):
            out.append(
                row(
                    f"hosting.{adapter}.{label}.rps",
                    f"harness serve ({adapter}) requests/s",
                    ours=ours["rps"],
                    unit="req/s",
                    peer=base["rps"],
                    peer_name=base_name,
                    target=0.8,
                    target_text="≥ 0.8 × peer",
                    compare="ratio>=",
                    note=note,
                )
            )
        for key, label in (("p50_ms", "p50"), ("p99_ms", "p99")):
            out.append(
                row(
                    f"hosting.{adapter}.{label}",
                    f"harness serve ({adapter}) {label} latency",
                    ours=ours[key],
                    unit="ms",
                    peer=echo[key],
                    peer_name="bare botbuilder echo bot",
                    note="lower is better; no target in the issue",
                )
            )
    return out


def figure_workers(quick: bool) -> list[Row]:
    import asyncio

    import bench_workers

    report = asyncio.run(bench_workers.measure(50, 1 if quick else 2))
    one, three = report["one"], report["three"]
    load = f"50 concurrent conversations, {three['requests']} requests, {os.cpu_count()} CPUs"
    return [
        row(
            "workers.rps",
            "harness serve, 3 workers on Redis vs 1",
            ours=three["rps"],
            unit="req/s",
            peer=one["rps"],
            peer_name="1 worker on Redis",
            note=f"{load}; p50 {three['p50_ms']} vs {one['p50_ms']} ms; every process shares "
            "the cores, the load generator included",
        ),
        row(
            "workers.state",
            f"stored state after {report['state_turns']:,} turns, window 50 vs none",
            ours=report["state_bytes_window_50"],
            unit="bytes",
            peer=report["state_bytes_no_window"],
            peer_name="no window (the whole transcript)",
            note="one conversation; the full transcript is in the store's log either way",
        ),
    ]


RUNNERS: dict[str, Callable[[bool], list[Row]]] = {
    "turn": figure_turn,
    "simulator": figure_simulator,
    "detect": figure_detect,
    "lint": figure_lint,
    "hosting": figure_hosting,
    "workers": figure_workers,
}


# --- the parent: run each figure in a child process, print the table ---------------------------


def run_child(name: str, quick: bool) -> tuple[list[Row], float]:
    """Run one figure in a fresh interpreter; a failure becomes a 'not measured' row."""
    command = [sys.executable, str(Path(__file__).resolve()), "--figure", name]
    if quick:
        command.append("--quick")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    env.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    seconds = time.perf_counter() - started
    if done.returncode == 0:
        try:
            return json.loads(done.stdout.strip().splitlines()[-1]), seconds
        except (json.JSONDecodeError, IndexError):
            pass
    tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
    return [not_measured(name, name, f"exit {done.returncode}: {tail[0][:200]}")], seconds


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "—"
    if abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}"
    return (
        f"{text} {unit}".strip() if unit and unit != "×" else (f"{text}×" if unit == "×" else text)
    )


def render_table(rows: Sequence[Row], *, quick: bool, seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table

    # A pipe or a CI log gets 80 columns by default, too narrow for this table.
    console = Console() if sys.stdout.isatty() else Console(width=170)
    title = (
        f"make bench{' --quick' if quick else ''}: Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {seconds:.0f} s"
    )
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("figure")
    table.add_column("ours", justify="right")
    table.add_column("peer", justify="right")
    table.add_column("ratio", justify="right")
    table.add_column("target")
    table.add_column("result")
    for r in rows:
        peer = _fmt(r["peer"], r["unit"]) if r["peer"] is not None else "—"
        if r["peer_name"]:
            peer = f"{peer}\n[dim]{r['peer_name']}[/dim]"
        ratio = "—"
        if r["ratio"] is not None:
            ratio = f"{r['ratio']:.2f}" + (" of target" if r["ratio_of"] == "target" else "")
        if r["passed"] is True:
            result = "[green]pass[/green]"
        elif r["passed"] is False:
            result = "[red]FAIL[/red]"
        elif r["ours"] is None:
            result = "[yellow]not measured[/yellow]"
        else:
            result = "info"
        table.add_row(
            r["figure"], _fmt(r["ours"], r["unit"]), peer, ratio, r["target_text"], result
        )
    console.print(table)
    for r in rows:
        if r["note"]:
            console.print(f"[dim]{r['id']}: {r['note']}[/dim]", highlight=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (about 2 minutes)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument(
        "--only", action="append", choices=FIGURES, help="run only these figures (repeatable)"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--figure", choices=FIGURES, help=argparse.SUPPRESS)  # child mode
    args = parser.parse_args(argv)
    if args.figure:
        print(json.dumps(RUNNERS[args.figure](args.quick)))
        return 0
    started = time.perf_counter()
    rows: list[Row] = []
    timings: dict[str, float] = {}
    for name in args.only or FIGURES:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        figure_rows, seconds = run_child(name, args.quick)
        rows.extend(figure_rows)
        timings[name] = round(seconds, 1)
        print(f"bench: {name} done in {seconds:.0f} s", file=sys.stderr, flush=True)
    total = time.perf_counter() - started
    if args.json:
        report = {
            "version": 1,
            "quick": args.quick,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "seconds": round(total, 1),
            "figure_seconds": timings,
            "rows": rows,
            "summary": {
                "passed": sum(1 for r in rows if r["passed"] is True),
                "failed": sum(1 for r in rows if r["passed"] is False),
                "not_measured": sum(1 for r in rows if r["ours"] is None),
            },
        }
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        render_table(rows, quick=args.quick, seconds=total)
    failed = any(r["passed"] is False for r in rows)
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
