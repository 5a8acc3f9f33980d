"""The reports of repeated scenarios (``--repeat``): pass rates, each distinct finding once with
the runs it came up in, and the failed runs, in JSON, JUnit and the text report's lines.

:mod:`harness.detect.reports` calls these when a report holds repeated runs; what a finding looks
like comes from :mod:`harness.detect.report_parts`, the same in either.
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from harness.detect.findings import Finding
from harness.detect.report_parts import (
    KIND_ORDER,
    finding_json,
    finding_line,
    junit_case,
    junit_notes,
    percent,
    plural,
    xml_document,
)
from harness.detect.results import (
    DetectionResult,
    ScenarioRuns,
    exit_code,
    group_runs,
    kind_pass_rates,
)

if TYPE_CHECKING:
    from harness.detect.readers import ReadNote

__all__ = [
    "junit_repeated",
    "run_failure",
    "runs_headline",
    "runs_json",
    "runs_summary",
    "runs_totals",
    "stopped",
]


def stopped(result: DetectionResult) -> bool:
    """True when the conversation stopped before its end (an ``error``, and ``completed`` not
    True); False when it ran to its end, with a failed call or without."""
    return result.error is not None and not result.completed


def run_failure(result: DetectionResult) -> str | None:
    """Why a run failed apart from its findings: ``did not complete: WHY`` when it stopped,
    ``ran with a failed call: WHY`` when it ran to its end with one; None without an error."""
    if result.error is None:
        return None
    how = "did not complete" if stopped(result) else "ran with a failed call"
    return f"{how}: {result.error}"


def _finding_identity(finding: Finding) -> tuple[object, ...]:
    """What makes two runs' findings the same one (as ``harness compare`` matches them)."""
    return (finding.kind, finding.method, finding.turn, finding.senders, finding.severity)


def runs_json(group: ScenarioRuns) -> dict[str, Any]:
    """One repeated scenario: its pass rates, each distinct finding once with the runs it came
    up in, and every failed run with its own findings."""
    first = group.first
    distinct: dict[tuple[object, ...], dict[str, Any]] = {}
    for result in group.results:
        for finding in result.findings:
            entry = distinct.setdefault(_finding_identity(finding), finding_json(finding))
            runs = entry.setdefault("runs", [])
            if result.run not in runs:
                runs.append(result.run)
    record: dict[str, Any] = {
        "file": first.file,
        "conversation": first.conversation,
        "runs": len(group.results),
        "passed": group.passed,
        "pass_rate": round(group.pass_rate, 4),
        "kind_pass_rates": {k: round(v, 4) for k, v in group.kind_pass_rates(KIND_ORDER).items()},
        "turns": max(r.transcript.turn_count for r in group.results),
        "messages": sum(len(r.transcript) for r in group.results),
        "errors": sum(len(r.errors) for r in group.results),
        "warnings": sum(len(r.warnings) for r in group.results),
        "findings": list(distinct.values()),
        "failed_runs": [
            {
                "run": r.run,
                "completed": not stopped(r),
                **({"error": r.error} if r.error is not None else {}),
                "findings": [finding_json(f) for f in r.errors],
            }
            for r in group.failed
        ],
    }
    record["completed"] = not all(stopped(r) for r in group.results)
    if not record["completed"]:  # no run completed
        record["error"] = first.error
    return record


def runs_totals(
    results: Sequence[DetectionResult], groups: Sequence[ScenarioRuns], *, min_pass_rate: float
) -> dict[str, Any]:
    """What the JSON report's ``totals`` add when scenarios were repeated: scenarios, runs, runs
    passed, the pass rate over all runs and per finding kind, ``min_pass_rate`` and ``passed``."""
    runs = sum(len(g.results) for g in groups)
    ok = sum(g.passed for g in groups)
    return {
        "scenarios": len(groups),
        "runs": runs,
        "passed_runs": ok,
        "pass_rate": round(ok / runs, 4) if runs else 1.0,
        "kind_pass_rates": {
            k: round(v, 4) for k, v in kind_pass_rates(results, KIND_ORDER).items()
        },
        "min_pass_rate": min_pass_rate,
        "passed": exit_code(results, min_pass_rate=min_pass_rate) == 0,
    }


def _run_lines(result: DetectionResult) -> list[str]:
    """Why one run of a repeated scenario failed: its run error (whether it stopped or ran with
    a failed call) and its error findings."""
    why = run_failure(result)
    lines = [f"run {result.run}: {why}"] if why else []
    lines += [f"run {result.run}: {finding_line(f)}" for f in result.errors]
    return lines


def _junit_runs(
    testsuite: ET.Element, group: ScenarioRuns, *, min_pass_rate: float
) -> tuple[int, int]:
    """One ``<testcase>`` for every run of a repeated scenario: a ``<failure>`` when its pass
    rate is below ``min_pass_rate``, listing the failed runs; (failures, errors) it adds."""
    first = group.first
    case = junit_case(testsuite, first, seconds=sum(r.seconds for r in group.results))
    properties = ET.SubElement(case, "properties")
    rates = group.kind_pass_rates(KIND_ORDER)
    for name, value in (
        ("runs", len(group.results)),
        ("passed", group.passed),
        ("pass_rate", round(group.pass_rate, 4)),
        *((f"pass_rate.{kind}", round(rate, 4)) for kind, rate in rates.items()),
    ):
        ET.SubElement(properties, "property", name=name, value=str(value))
    lines = [line for r in group.failed for line in _run_lines(r)]
    verdict = (
        f"{group.passed} of {plural(len(group.results), 'run')} passed "
        f"(pass rate {percent(group.pass_rate)}, minimum {percent(min_pass_rate)})"
    )
    if all(stopped(r) for r in group.results):  # no run completed
        error = ET.SubElement(case, "error", message=verdict, type="conversation")
        error.text = "\n".join(lines)
        return 0, 1
    if group.pass_rate < min_pass_rate:
        kinds = sorted({f.kind for r in group.failed for f in r.errors}, key=KIND_ORDER.index)
        failure = ET.SubElement(
            case, "failure", message=verdict, type=kinds[0] if kinds else "conversation"
        )
        failure.text = "\n".join(lines)
        return 1, 0
    warnings = [
        f"run {r.run}: warning: {finding_line(f)}" for r in group.results for f in r.warnings
    ]
    if lines or warnings:
        out = ET.SubElement(case, "system-out")
        out.text = "\n".join([verdict, *lines, *warnings] if lines else warnings)
    return 0, 0


def junit_repeated(
    groups: Sequence[ScenarioRuns],
    *,
    suite: str,
    min_pass_rate: float,
    notes: Sequence[ReadNote] = (),
) -> str:
    """The JUnit report of a run with repeated scenarios: one ``<testcase>`` per scenario, and
    a skipped one per note."""
    root = ET.Element("testsuites", name=suite, tests=str(len(groups)))
    testsuite = ET.SubElement(root, "testsuite", name=suite, tests=str(len(groups)), skipped="0")
    failures = broken = 0
    for group in groups:
        if group.repeated:
            failed, errored = _junit_runs(testsuite, group, min_pass_rate=min_pass_rate)
        else:  # one result among repeated ones (cannot happen from the runner): one run of one
            failed, errored = _junit_runs(
                testsuite,
                ScenarioRuns(results=(dataclasses.replace(group.first, run=1),)),
                min_pass_rate=min_pass_rate,
            )
        failures += failed
        broken += errored
    seconds = sum(r.seconds for g in groups for r in g.results)
    for element in (root, testsuite):
        element.set("failures", str(failures))
        element.set("errors", str(broken))
    testsuite.set("time", f"{seconds:.3f}")
    junit_notes(root, testsuite, notes)
    return xml_document(root)


def runs_summary(results: Sequence[DetectionResult], min_pass_rate: float) -> str:
    """``; 23 of 25 runs passed (92%; duplicate 92%, missed_request 100%, ...)``, and the
    scenarios below ``min_pass_rate``."""
    groups = group_runs(results)
    if not any(g.repeated for g in groups):
        return ""
    ok = sum(g.passed for g in groups)
    rates = kind_pass_rates(results, KIND_ORDER)
    by_kind = ", ".join(f"{kind} {percent(rate)}" for kind, rate in rates.items())
    low = [g for g in groups if g.pass_rate < min_pass_rate]
    text = f"; {ok} of {plural(len(results), 'run')} passed ({percent(ok / len(results))}"
    text += f"; by kind: {by_kind})"
    if low:
        text += f"; {plural(len(low), 'scenario')} below the minimum pass rate "
        text += f"{percent(min_pass_rate)}"
    return text


def runs_headline(group: ScenarioRuns, *, min_pass_rate: float) -> tuple[str, str]:
    """The text report's line for a repeated scenario, ``payday: 2 of 4 runs passed (50%)``, and
    its style: green when every run passed, yellow at or above ``min_pass_rate``, red below."""
    enough = group.pass_rate >= min_pass_rate
    text = (
        f"{group.title}: {group.passed} of {plural(len(group.results), 'run')} passed "
        f"({percent(group.pass_rate)})"
        + ("" if enough else f", below the minimum {percent(min_pass_rate)}")
    )
    return text, "green" if group.pass_rate == 1.0 else ("yellow" if enough else "red")
