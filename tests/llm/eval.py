"""``make eval-llm``: the helpdesk's good and naive variants against a real local model.

Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) served by llama-cpp-python's OpenAI-compatible server on
127.0.0.1 with 2 threads (see :mod:`tests.llm.qwen` for how both are installed). Each variant runs
the multi-intent scenarios of ``tests/llm/scenarios.yaml`` ``--repeat`` times through the SDK's
OpenAI backend (``harness simulate --model openai:... --base-url ...``). Every run samples at the
given temperature with its own seed (run 1 has seed 1, ...), so the runs differ from each other and
the whole evaluation can be repeated; a single ``harness simulate --repeat N`` would send the same
seed N times, which at a fixed seed gives the same answers N times. The variants alternate run by
run, so a run cut short leaves both with the same number of runs.

The table it writes (``.cache/llm/eval/table.md``, also printed) gives per variant: the share of
conversations with at least one duplicate message, the share of requests missed (a request the
plan or the expected answer shows unanswered), the share of conversations with a silent-mode
leak, and the conversations that could not be completed; with the date, the model, the hardware
(cores, CPU model, the load average before and after) and the wall time of each step. Run it from
the repository root::

    .venv/bin/python -m tests.llm.eval --repeat 2

``--variant naive`` runs one variant only (with ``--out DIR``, a second process can run the other
on its own server, side by side), ``--scenarios FILE`` another scenario file, and
``--tally DIR ...`` runs nothing and prints the table of the reports already in those folders.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.llm import qwen
from tests.llm.server import LlamaServer

ROOT = qwen.ROOT
WORK = qwen.WORK / "eval"
SCENARIOS = Path(__file__).with_name("scenarios.yaml")
SAMPLE = ROOT / "samples" / "helpdesk"
VARIANTS = {"good": SAMPLE / "helpdesk.yaml", "naive": SAMPLE / "helpdesk-naive.yaml"}
SLOW = 3600
"""Seconds a sub-agent and a model request may take, instead of the sample's 30: on 2 cores shared
with other work, one request with a 1,500-token prompt can take minutes."""
KINDS = ("duplicate", "missed_request", "silent_leak")


def bot_copy(variant: str, work: Path) -> Path:
    """A copy of the variant's config (and its tools) whose sub-agents wait for a slow server."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    source = VARIANTS[variant]
    config = yaml.load(source.read_text(encoding="utf-8"))
    for agent in config["subagents"]:
        agent["timeout"] = SLOW
    copy = work / f"helpdesk-{variant}.yaml"
    with copy.open("w", encoding="utf-8") as out:
        yaml.dump(config, out)
    (work / "tools.py").write_text((SAMPLE / "tools.py").read_text(encoding="utf-8"), "utf-8")
    return copy


def simulate_command(
    base_url: str,
    bot: Path,
    report: Path,
    *,
    seed: int,
    temperature: float,
    scenarios: Path = SCENARIOS,
) -> list[str]:
    settings = {
        "temperature": temperature,
        "seed": seed,
        "max_concurrency": 1,  # the server serves one request at a time
        "max_tokens": 256,
        "timeout": SLOW,
    }
    command = [sys.executable, "-c", "import sys; from harness.cli import main; sys.exit(main())"]
    command += ["simulate", str(scenarios), "--bot", str(bot)]
    command += ["--model", f"openai:{qwen.MODEL.stem}", "--base-url", base_url]
    command += ["--format", "json", "--output", str(report)]
    for key, value in settings.items():
        command += ["--model-setting", f"{key}={value}"]
    return command


def requests_per_conversation(path: Path = SCENARIOS) -> dict[str, int]:
    from harness.simulate.scenarios import load_scenarios

    scenarios = load_scenarios(path).scenarios
    return {s.name: sum(len(turn.requests) for turn in s.turns) for s in scenarios}


def tally(reports: list[Path], scenarios: Path = SCENARIOS) -> dict[str, Any]:
    """Per variant: conversations, incomplete ones, and the three rates' counts."""
    asked = requests_per_conversation(scenarios)
    counts = {"runs": 0, "conversations": 0, "incomplete": 0, "requests": 0, "missed": 0}
    counts |= {"duplicate": 0, "silent_leak": 0}
    for report in reports:
        counts["runs"] += 1
        if not report.exists():
            counts["incomplete"] += len(asked)
            continue
        data = json.loads(report.read_text(encoding="utf-8"))
        for transcript in data["transcripts"]:
            if transcript["conversation"] not in asked:
                continue  # tallied over a subset of the scenarios
            if transcript.get("error"):
                counts["incomplete"] += 1
                continue
            counts["conversations"] += 1
            findings = transcript["findings"]
            kinds = {f["kind"] for f in findings}
            counts["duplicate"] += "duplicate" in kinds
            counts["silent_leak"] += "silent_leak" in kinds
            requests = asked[transcript["conversation"]]
            missed = {
                (f["turn"], tuple(f["senders"])) for f in findings if f["kind"] == "missed_request"
            }
            counts["requests"] += requests
            counts["missed"] += min(len(missed), requests)
    return counts


def _rate(part: int, whole: int) -> str:
    return f"{part / whole:.0%} ({part}/{whole})" if whole else "n/a"


def hardware() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores (nproc), {model}"


def load() -> str:
    return " / ".join(f"{value:.1f}" for value in os.getloadavg())


def table(results: dict[str, dict[str, Any]], facts: dict[str, str]) -> str:
    lines = [f"- **{key}:** {value}" for key, value in facts.items()]
    lines += [
        "",
        "| variant | conversations | duplicate rate | missed-request rate | silent-leak rate "
        "| not completed |",
        "|---|---|---|---|---|---|",
    ]
    for variant, c in results.items():
        done = c["conversations"]
        lines.append(
            f"| {variant} | {done} | {_rate(c['duplicate'], done)} | "
            f"{_rate(c['missed'], c['requests'])} | {_rate(c['silent_leak'], done)} | "
            f"{c['incomplete']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.llm.eval", description=__doc__)
    parser.add_argument("--repeat", type=int, default=2, help="runs per variant (default 2)")
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--threads", type=int, default=2, help="the server's threads (default 2)")
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="minutes after which no further pair of runs starts (the table says how many ran)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        choices=sorted(VARIANTS),
        help="run only this variant (repeatable; default: both)",
    )
    parser.add_argument(
        "--scenarios", type=Path, default=SCENARIOS, help="the scenario file (default: the set)"
    )
    parser.add_argument("--out", type=Path, default=WORK, help="where the reports and the table go")
    parser.add_argument(
        "--tally",
        type=Path,
        nargs="+",
        metavar="DIR",
        help="run nothing: the table of the reports already in these folders",
    )
    args = parser.parse_args(argv)
    if args.tally:
        found = {
            v: sorted(p for d in args.tally for p in d.glob(f"{v}-run*.json")) for v in VARIANTS
        }
        sources = ", ".join(str(d) for d in args.tally)
        print(table({v: tally(paths) for v, paths in found.items()}, {"reports": sources}))
        return 0
    work: Path = args.out
    variants = args.variant or list(VARIANTS)
    started = time.perf_counter()
    date = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load()
    work.mkdir(parents=True, exist_ok=True)
    timings: list[tuple[str, float]] = []

    step = time.perf_counter()
    fresh = qwen.ensure_server() | qwen.ensure_model()
    timings.append((f"install ({'cold' if fresh else 'warm: cached'})", time.perf_counter() - step))

    reports: dict[str, list[Path]] = {variant: [] for variant in variants}
    bots = {variant: bot_copy(variant, work) for variant in variants}
    log = work / "server.log"
    step = time.perf_counter()
    # --cache: the server keeps evaluated prompts in RAM, so the instructions every request of a
    # run shares are read once rather than per request.
    with LlamaServer(
        qwen.venv_python(), qwen.MODEL, log, threads=args.threads, extra=("--cache", "true")
    ) as server:
        timings.append(("server start", time.perf_counter() - step))
        for run in range(1, args.repeat + 1):
            spent = (time.perf_counter() - started) / 60
            if args.budget is not None and run > 1 and spent > args.budget:
                print(
                    f"-- {spent:.0f} of {args.budget:.0f} minutes spent: no run {run}", flush=True
                )
                break
            for variant, bot in bots.items():
                report = work / f"{variant}-run{run}.json"
                report.unlink(missing_ok=True)
                command = simulate_command(
                    f"{server.url}/v1",
                    bot,
                    report,
                    seed=run,
                    temperature=args.temperature,
                    scenarios=args.scenarios,
                )
                step = time.perf_counter()
                print(f"-- {variant}, run {run} of {args.repeat} (seed {run})", flush=True)
                env = dict(os.environ, PYTHONPATH=str(ROOT))
                code = subprocess.run(command, cwd=ROOT, env=env, check=False).returncode
                seconds = time.perf_counter() - step
                timings.append((f"{variant} run {run} (exit {code})", seconds))
                print(f"   {seconds:.0f} s, exit {code}", flush=True)
                reports[variant].append(report)
    wall = time.perf_counter() - started
    results = {variant: tally(paths, args.scenarios) for variant, paths in reports.items()}
    shown = [
        shlex.quote(part)
        for part in simulate_command(
            "URL", bots[variants[0]], Path("R"), seed=1, temperature=args.temperature
        )[3:]
    ]
    facts = {
        "date": date,
        "model": f"{qwen.MODEL_NAME} ({qwen.MODEL.name}, {qwen.SIZE:,} bytes), llama-cpp-python "
        f"{qwen.LLAMA.split('==')[1]} server, {args.threads} threads, temperature "
        f"{args.temperature}, seed = run number",
        "hardware": hardware(),
        "load average (1/5/15 min)": f"{load_before} before, {load()} after",
        "scenarios": f"{args.scenarios} ({len(requests_per_conversation(args.scenarios))} "
        f"conversations), {len(reports[variants[0]])} runs per variant"
        + (
            f" ({args.repeat} asked for; the time budget ended it)"
            if len(reports[variants[0]]) < args.repeat
            else ""
        ),
        "each run": "harness " + " ".join(shown).replace(str(ROOT) + "/", ""),
        "wall time": f"{wall / 60:.1f} min; "
        + "; ".join(f"{name} {seconds:.0f} s" for name, seconds in timings),
    }
    text = table(results, facts)
    (work / "table.md").write_text(text, encoding="utf-8")
    (work / "results.json").write_text(json.dumps({"facts": facts, "results": results}, indent=1))
    print("\n" + text)
    return 0


if __name__ == "__main__":
    # A terminated run still stops its server (the ``with`` block's exit runs on SystemExit).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
