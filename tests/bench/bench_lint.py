"""Benchmark ``harness lint`` on a folder of 1,000 sub-agent configs (target: under 1 second).

Run by hand (pytest does not collect tests/bench):

    .venv/bin/python tests/bench/bench_lint.py [--agents 1000] [--runs 5]

It writes two layouts into a temporary folder and prints the median of the runs for each:
1,000 config files with one sub-agent each (this SDK's YAML, a realistic mix of modes, kinds and
faults), and one config file with 1,000 sub-agents (which also exercises HC013's pairwise
comparison of descriptions). Times are for ``lint_paths`` in-process, imports excluded.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harness.lint import lint_paths

TOPICS = [
    "paid time off balances",
    "payroll dates and paychecks",
    "password resets and account unlocks",
    "laptop and monitor orders",
    "health insurance enrolment",
    "expense report approvals",
    "VPN connection problems",
    "W-2 tax forms",
    "parental leave policy",
    "office badge access",
]

MODES = ["direct", "silent", "conversational"]


def _agent(i: int, indent: str) -> str:
    topic = TOPICS[i % len(TOPICS)]
    mode = MODES[i % 3]
    kind = "child" if i % 2 else "connected"
    lines = [
        f"- name: agent_{i}",
        f"  kind: {kind}",
        f"  mode: {mode}",
        f"  description: Answers questions about {topic} for team {i}.",
        "  instructions: |",
        "    Treat the scopedRequest as your initial request and ignore any other requests.",
        f"    Use the tools for {topic}; never guess a number.",
        f'  examples: ["question {i} about {topic}", "another question {i}"]',
        f'  tools: ["tools.py:lookup_{i}"]',
    ]
    if i % 4 == 0:
        lines += [
            "  generated_instructions: false",
            "  inputs: []",
            "  outputs:",
            "    - {name: answered, description: True when the user already has the answer.}",
        ]
    return "".join(f"{indent}{line}\n" for line in lines)


def _parent(name: str) -> str:
    return (
        "# generated for the lint benchmark\n"
        "parent:\n"
        f"  name: {name}\n"
        '  instructions: "You are the helpdesk. Check the answered output before you reply."\n'
        "  model: rules\n"
        "subagents:\n"
    )


def _write_tools(folder: Path, count: int) -> None:
    """The tools the configs name, so every reference resolves (the linter parses, never imports)."""
    body = "".join(f"def lookup_{i}() -> str:\n    return 'ok'\n\n\n" for i in range(count))
    (folder / "tools.py").write_text(body)


def write_many_files(folder: Path, count: int) -> None:
    _write_tools(folder, count)
    for i in range(count):
        (folder / f"bot_{i:04d}.yaml").write_text(_parent(f"bot_{i}") + _agent(i, "  "))


def write_one_file(folder: Path, count: int) -> None:
    _write_tools(folder, count)
    body = "".join(_agent(i, "  ") for i in range(count))
    (folder / "big.yaml").write_text(_parent("big") + body)


def measure(folder: Path, runs: int) -> tuple[float, int, int, int]:
    times: list[float] = []
    report = None
    for _ in range(runs):
        start = time.perf_counter()
        report = lint_paths([folder])
        times.append(time.perf_counter() - start)
    assert report is not None
    return statistics.median(times), report.files, report.agents, len(report.findings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        many = Path(tmp, "many")
        one = Path(tmp, "one")
        many.mkdir()
        one.mkdir()
        write_many_files(many, args.agents)
        write_one_file(one, args.agents)
        lint_paths([one])  # warm up imports and caches of the regex engine
        for label, folder in (
            (f"{args.agents} files x 1 sub-agent", many),
            (f"1 file x {args.agents} sub-agents", one),
        ):
            median, files, agents, findings = measure(folder, args.runs)
            print(
                f"{label}: median {median:.3f} s over {args.runs} runs "
                f"({files} files, {agents} agents, {findings} findings)"
            )


if __name__ == "__main__":
    main()
