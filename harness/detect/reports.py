"""Reports of detector findings: a readable text table, one line per finding for logs, GitHub
Actions annotations, JSON for tools, JUnit XML for CI.

One :class:`DetectionResult` per checked conversation (a transcript's conversation, or a simulated
scenario). The JSON shape is the one docs/simulate.md (Reports) describes; JUnit has one test case
per result, failing when it has an error-level finding. ``harness detect`` also gives every format
what it could not read (``unread``) and what its readers noticed (``notes``: a Web API answer that
is one page of a longer result).
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from harness._github import annotation
from harness.detect.findings import Finding
from harness.detect.report_parts import (
    KIND_ORDER,
    all_notes,
    confidence_note,
    finding_json,
    finding_line,
    junit_case,
    junit_notes,
    plural,
    xml_document,
)
from harness.detect.results import DetectionResult, exit_code, group_runs
from harness.detect.runs_report import (
    junit_repeated,
    runs_headline,
    runs_json,
    runs_summary,
    runs_totals,
    stopped,
)
from harness.detect.transcript import Message

if TYPE_CHECKING:
    from rich.table import Table

    from harness.detect.readers import ReadNote
    from harness.exceptions import ConfigError

__all__ = [
    "DetectionResult",
    "ReportFormat",
    "exit_code",
    "github_error",
    "render",
    "render_github",
    "render_json",
    "render_junit",
    "render_lines",
    "render_text",
    "short_id",
    "summary_line",
]

ReportFormat = Literal["text", "lines", "github", "json", "junit", "html"]
"""``text``: a table per conversation; ``lines``: one finding per line (for CI logs);
``github``: GitHub Actions annotations; ``json``, ``junit`` and ``html``."""


def render(
    results: Sequence[DetectionResult],
    fmt: ReportFormat = "text",
    *,
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
    settings: Mapping[str, Any] | None = None,
) -> str:
    """The report in the given format (``min_pass_rate``: see :func:`exit_code`; ``unread``: the
    files and table rows that could not be read, and ``notes``: what the readers noticed, in
    every format; JSON counts both in ``totals``; ``settings``: see :func:`render_json`)."""
    if fmt == "json":
        return render_json(
            results, min_pass_rate=min_pass_rate, unread=unread, notes=notes, settings=settings
        )
    if fmt == "junit":
        return render_junit(results, min_pass_rate=min_pass_rate, unread=unread, notes=notes)
    if fmt == "html":
        from harness.detect.html import render_html

        return render_html(results, min_pass_rate=min_pass_rate, unread=unread, notes=notes)
    if fmt == "lines":
        return render_lines(results, min_pass_rate=min_pass_rate, unread=unread, notes=notes)
    if fmt == "github":
        return render_github(results, min_pass_rate=min_pass_rate, unread=unread, notes=notes)
    return render_text(results, min_pass_rate=min_pass_rate, unread=unread, notes=notes)


# --- JSON -------------------------------------------------------------------------------------


def _transcript_json(result: DetectionResult) -> dict[str, Any]:
    record: dict[str, Any] = {
        "file": result.file,
        "conversation": result.conversation,
        "turns": result.transcript.turn_count,
        "messages": len(result.transcript),
        "errors": len(result.errors),
        "warnings": len(result.warnings),
        "findings": [finding_json(f) for f in result.findings],
        "completed": not stopped(result),
    }
    if result.error is not None:
        record["error"] = result.error
    return record


def render_json(
    results: Sequence[DetectionResult],
    *,
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
    settings: Mapping[str, Any] | None = None,
) -> str:
    """``{"version": 1, "transcripts": [...], "summary": {"<kind>": count}, "totals": {...}}``.

    Each finding carries its ``severity`` (``error`` or ``warning``); each transcript its
    ``errors`` and ``warnings`` counts; ``totals`` counts conversations, findings, errors,
    warnings and the conversations that ``failed`` (a record with an ``error``: it stopped
    before its end, or ran to it with a failed call; its ``completed`` says which) over the
    whole report; ``errors`` or ``failed`` above 0 is what makes the command exit 1. Given
    ``unread`` (``harness detect``), ``totals.unread`` counts the files and table rows that
    could not be read (the command exits 2), and ``unread`` lists each (``file``, ``line``,
    ``field``, ``error``) when there are any. Given ``notes``, ``totals.notes`` counts
    what the readers noticed about files read whole (a Web API answer that is one page of a
    longer result), and ``notes`` lists each (``file``, ``title``, ``note``) when there are any;
    ``totals.undecided`` counts the borderline pairs a ``--judge`` model could not decide (each
    such note also has ``undecided``; the command exits 1).

    A repeated scenario (``--repeat``) is one transcript record for all its runs, with ``runs``,
    ``passed``, ``pass_rate``, ``kind_pass_rates``, each distinct finding once with the ``runs``
    it came up in, and ``failed_runs`` (each failed run's number, whether it ``completed``, its
    ``error`` if it stopped or had a failed call, and its error-level findings); ``totals``
    then adds the same over every run and ``min_pass_rate``, and ``passed`` says whether every
    scenario reached it.

    ``settings`` (the command's options that change what is reported: ``min_confidence``) are
    written as ``settings``, after ``totals``, so ``harness compare`` can refuse to read two
    runs with different ones as a change of the bot.
    """
    notes = all_notes(results, notes)
    summary: Counter[str] = Counter({kind: 0 for kind in KIND_ORDER})
    transcripts: list[dict[str, Any]] = []
    groups = group_runs(results)
    for group in groups:
        summary.update(f.kind for r in group.results for f in r.findings)
        transcripts.append(runs_json(group) if group.repeated else _transcript_json(group.first))
    totals: dict[str, Any] = {
        "conversations": len(results),
        "findings": sum(len(r.findings) for r in results),
        "errors": sum(len(r.errors) for r in results),
        "warnings": sum(len(r.warnings) for r in results),
        "failed": sum(1 for r in results if r.error is not None),
    }
    if unread is not None:
        totals["unread"] = len(unread)
    if notes is not None:
        totals["notes"] = len(notes)
        totals["undecided"] = _undecided(notes)
    if any(group.repeated for group in groups):
        totals |= runs_totals(results, groups, min_pass_rate=min_pass_rate)
    document = {
        "version": 1,
        "transcripts": transcripts,
        "summary": dict(summary),
        "totals": totals,
    }
    if settings is not None:
        document["settings"] = dict(settings)
    if unread:
        document["unread"] = [
            {"file": e.file, "line": e.line, "field": e.field, "error": str(e)} for e in unread
        ]
    if notes:
        document["notes"] = [
            {"file": n.file, "title": n.title, "note": n.message}
            | ({"undecided": n.undecided} if n.undecided else {})
            for n in notes
        ]
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# --- JUnit ------------------------------------------------------------------------------------


def render_junit(
    results: Sequence[DetectionResult],
    *,
    suite: str = "harness detect",
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
) -> str:
    """JUnit XML: one ``<testcase>`` per result, a ``<failure>`` listing its error findings and
    warnings in ``<system-out>``; one more with an ``<error>`` per file or table row in
    ``unread`` (it could not be read, so its conversations were not checked) and per note of
    pairs a judge could not decide (``ReadNote.undecided``), and a ``<skipped>`` one per other
    note (``notes``: a Web API page whose later rows were not read).

    A repeated scenario is one ``<testcase>`` for all its runs, with ``runs``, ``passed`` and
    ``pass_rate`` properties; it fails when its pass rate is below ``min_pass_rate``, and its
    failure (or, above the threshold, its ``<system-out>``) lists each failed run and why.
    """
    notes = all_notes(results, notes) or ()
    groups = group_runs(results)
    if any(group.repeated for group in groups):
        return junit_repeated(groups, suite=suite, min_pass_rate=min_pass_rate, notes=notes)
    unread = unread or ()
    failures = sum(1 for r in results if r.errors and r.error is None)
    judged = [n for n in notes if n.undecided]
    notes = [n for n in notes if not n.undecided]
    broken = sum(1 for r in results if r.error is not None) + len(unread) + len(judged)
    total = sum(r.seconds for r in results)
    tests = len(results) + len(unread) + len(judged)
    root = ET.Element(
        "testsuites", name=suite, tests=str(tests), failures=str(failures), errors=str(broken)
    )
    testsuite = ET.SubElement(
        root,
        "testsuite",
        name=suite,
        tests=str(tests),
        failures=str(failures),
        errors=str(broken),
        skipped="0",
        time=f"{total:.3f}",
    )
    for result in results:
        case = junit_case(testsuite, result, seconds=result.seconds)
        errors = result.errors
        if result.error is not None:
            error = ET.SubElement(case, "error", message=result.error, type="conversation")
            error.text = "\n".join(
                [result.error, *("finding before it: " + finding_line(f) for f in errors)]
            )
        elif errors:
            kinds = sorted({f.kind for f in errors}, key=KIND_ORDER.index)
            failure = ET.SubElement(
                case,
                "failure",
                message=f"{plural(len(errors), 'error finding')}: {', '.join(kinds)}",
                type=kinds[0],
            )
            failure.text = "\n".join(finding_line(f) for f in errors)
        if result.warnings:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join("warning: " + finding_line(f) for f in result.warnings)
    for problem in unread:
        where = problem.field or (f"line {problem.line}" if problem.line else "the file")
        case = ET.SubElement(
            testsuite, "testcase", classname=problem.file or "-", name=f"unread: {where}"
        )
        ET.SubElement(case, "error", message=str(problem), type="unread").text = str(problem)
    for note in judged:
        case = ET.SubElement(testsuite, "testcase", classname=note.file, name=note.title)
        ET.SubElement(case, "error", message=note.message, type="judge").text = str(note)
    junit_notes(root, testsuite, notes)
    return xml_document(root)


def _read_lines(
    unread: Sequence[ConfigError] | None, notes: Sequence[ReadNote] | None
) -> list[str]:
    """The lines of the plain reports for what ``harness detect`` could not read (``unread:
    FILE:LINE: field: why; conversation X is not checked ...``) and what its readers noticed
    (``note: FILE: ...``), each on one line."""
    return [
        *(" ".join(f"unread: {problem}".split()) for problem in unread or ()),
        *(
            " ".join(f"{'error' if note.undecided else 'note'}: {note}".split())
            for note in notes or ()
        ),
    ]


# --- text -------------------------------------------------------------------------------------


_CODE = re.compile(r"\x1b\[[0-9;]*m")


def _without_trailing_spaces(text: str) -> str:
    """Every line without spaces at its end, colour codes kept (rich pads titles to the width)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        codes = ""
        while line.endswith("m"):
            start = line.rfind("\x1b[")
            if start < 0 or not _CODE.fullmatch(line, start):
                break
            codes = line[start:] + codes
            line = line[:start]
        lines[index] = line.rstrip(" ") + codes
    return "\n".join(lines)


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_ID_LIMIT = 28
"""Message ids longer than this are cut from the middle in the text report (never in JSON)."""


def short_id(message_id: str, limit: int = _ID_LIMIT) -> str:
    """``naive-parent-…-baggage``: a long id with its middle cut, so both ends still tell it
    apart."""
    if len(message_id) <= limit:
        return message_id
    head = (limit - 1) // 2
    tail = limit - 1 - head
    return f"{message_id[:head]}…{message_id[-tail:]}"


def _cell(message: Message | None, message_id: str, sender: str) -> str:
    text = _shorten(message.text, 160) if message is not None else "(not in the transcript)"
    return f"[{short_id(message_id)}] {sender}: {text}"


def _plan_line(result: DetectionResult, turn: int) -> str:
    """The plan of ``turn`` as ``plan: pto <- 'days left'; payroll <- 'payday'`` (empty if
    unknown)."""
    for record in result.transcript.turns:
        if record.turn == turn and record.plan:
            return "plan: " + "; ".join(f"{p.agent} <- {p.request!r}" for p in record.plan)
    return ""


def _evidence(finding: Finding, result: DetectionResult) -> str:
    """The evidence cell: the evidence, a missed request's confidence and the turn's plan, the
    cause hint."""
    lines = [finding.evidence]
    sure = confidence_note(finding)
    if sure:
        lines.append(sure)
    if finding.kind == "missed_request":
        plan = _plan_line(result, finding.turn)
        if plan:
            lines.append(plan)
    if finding.cause:
        lines.append(f"cause: {finding.cause}")
    return "\n".join(lines)


_TABLE_ROWS = 50
"""A conversation with more findings than this is listed one finding per line, not as a table."""
_TABLE_TOTAL = 500
"""With more findings than this in all, every conversation is listed one finding per line (laying
out a table costs about a millisecond a row)."""


def render_text(
    results: Sequence[DetectionResult],
    *,
    width: int = 120,
    color: bool = False,
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
) -> str:
    """A table per conversation: each finding's kind, turn, the messages side by side with their
    senders, and the evidence; then the files and rows not read (``unread``) and the readers'
    ``notes``, a line each; then a summary line.

    Large reports (more than 50 findings in a conversation, or more than 500 in all) list each
    finding of such a conversation on one aligned line instead (turn, kind, scope, message ids with
    their senders, evidence), so that 100,000 messages report in well under a second.

    A repeated scenario gets one line with its pass rate, then the table of each failed run
    (``name (run 2 of 5)``); the runs that passed are not shown. The summary adds the pass rate
    over all runs and per finding kind.
    """
    from rich.console import Console
    from rich.text import Text

    notes = all_notes(results, notes)
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="standard" if color else None,
        highlight=False,
        soft_wrap=False,
    )
    as_lines = sum(len(r.findings) for r in results) > _TABLE_TOTAL
    shown: list[DetectionResult] = []
    for group in group_runs(results):
        if not group.repeated:
            shown.append(group.first)
            continue
        text, style = runs_headline(group, min_pass_rate=min_pass_rate)
        console.print(Text(text, style=style))
        shown.extend(group.failed)
    for result in shown:
        counts = (
            f"{plural(result.transcript.turn_count, 'turn')}, "
            f"{plural(len(result.transcript), 'message')}"
        )
        if result.error is not None:
            console.print(Text(f"{result.title}: failed ({counts}): {result.error}", style="red"))
        if not result.findings:
            if result.error is None:
                console.print(Text(f"{result.title}: no findings ({counts})", style="green"))
        elif as_lines or len(result.findings) > _TABLE_ROWS:
            console.print(
                Text(
                    f"{result.title} ({counts}): {plural(len(result.findings), 'finding')}",
                    style="bold",
                )
            )
            buffer.write(_finding_lines(result.findings, color=color, result=result))
        else:
            console.print(_table(result, counts))
    for line in _read_lines(unread, notes):  # one line each, however wide (grep finds it whole)
        style = "red" if line.startswith(("unread", "error")) else "yellow"
        console.print(Text(line, style=style), soft_wrap=True)
    summary = _closing_line(results, min_pass_rate, unread, notes)
    bad = exit_code(results, min_pass_rate=min_pass_rate) != 0 or bool(unread)
    bad = bad or _undecided(notes) > 0
    console.print(Text(summary, style="bold red" if bad else "bold green"))
    return _without_trailing_spaces(buffer.getvalue())


def summary_line(
    results: Sequence[DetectionResult],
    *,
    min_pass_rate: float = 1.0,
    unread: int = 0,
    undecided: int = 0,
) -> str:
    """The report's closing line: ``3 conversations: 1 error, 0 warnings (1 duplicate)``; with
    repeated scenarios, the pass rate over all runs and per finding kind follows; ``unread``
    files and table rows that could not be read (``harness detect``) add ``; 1 not read``, and
    ``undecided`` pairs a judge could not decide ``; 1 pair the judge could not decide``."""
    errors = sum(len(r.errors) for r in results)
    warnings = sum(len(r.warnings) for r in results)
    kinds: Counter[str] = Counter(f.kind for r in results for f in r.findings)
    detail = ", ".join(f"{kinds[k]} {k}" for k in KIND_ORDER if kinds[k])
    summary = (
        f"{plural(len(results), 'conversation')}: {plural(errors, 'error')}, "
        f"{plural(warnings, 'warning')}" + (f" ({detail})" if detail else "")
    )
    failed = sum(1 for r in results if r.error is not None and not r.completed)
    if failed:
        summary += f"; {failed} failed to complete"
    calls = sum(1 for r in results if r.error is not None and r.completed)
    if calls:
        summary += f"; {calls} with a failed call"
    if unread:
        summary += f"; {unread} not read"
    if undecided:
        summary += f"; {plural(undecided, 'pair')} the judge could not decide"
    return summary + runs_summary(results, min_pass_rate)


def _closing_line(
    results: Sequence[DetectionResult],
    min_pass_rate: float,
    unread: Sequence[ConfigError] | None,
    notes: Sequence[ReadNote] | None,
) -> str:
    """:func:`summary_line` as the text, lines and GitHub reports close with it."""
    return summary_line(
        results, min_pass_rate=min_pass_rate, unread=len(unread or ()), undecided=_undecided(notes)
    )


def _undecided(notes: Sequence[ReadNote] | None) -> int:
    """The borderline pairs a judge could not decide, over ``notes``."""
    return sum(n.undecided for n in notes or ())


def _table(result: DetectionResult, counts: str) -> Table:
    """The findings of one conversation as a rich table, the messages quoted."""
    from rich.table import Table
    from rich.text import Text

    by_id = {m.id: m for m in result.transcript.messages}
    table = Table(
        title=Text(f"{result.title} ({counts})", style="bold"),
        title_justify="left",
        show_lines=True,
        expand=True,
    )
    table.add_column("kind", no_wrap=True)
    table.add_column("turn", justify="right", no_wrap=True)
    table.add_column("message", ratio=3)
    table.add_column("repeated by / also", ratio=3)
    table.add_column("evidence", ratio=3)
    for finding in result.findings:
        kind: str = finding.kind
        if finding.method:
            kind += f"\n{finding.method}"
        if finding.scope:
            kind += f"\n{finding.scope.replace('_', ' ')}"
        cells = [
            _cell(by_id.get(i), i, s)
            for i, s in zip(finding.message_ids, finding.senders, strict=False)
        ]
        if not cells:
            cells = [_no_message(finding)]
        first = Text(cells[0])
        second = Text("\n".join(cells[1:]))
        style = "yellow" if finding.severity == "warning" else "red"
        table.add_row(
            Text(kind, style=style),
            str(finding.turn),
            first,
            second,
            Text(_evidence(finding, result)),
        )
    return table


def _no_message(finding: Finding) -> str:
    """The messages cell of a finding about a message that was never sent (a missed request)."""
    if finding.senders:
        return f"(none) expected from {', '.join(finding.senders)}"
    return "(none)"


# --- one line per finding, and GitHub annotations ---------------------------------------------

_EXCERPT = 100
"""A message quoted on a finding's line is cut to this many characters."""


def _quoted(finding: Finding, by_id: dict[str, Message]) -> str:
    """The finding's messages as ``[b1] pto: "You have 12 vacation days…"``, `` / ``-joined."""
    quoted = []
    for message_id, sender in zip(finding.message_ids, finding.senders, strict=False):
        message = by_id.get(message_id)
        text = "(not in the transcript)" if message is None else message.text
        quoted.append(f'[{message_id}] {sender}: "{_shorten(text, _EXCERPT)}"')
    return " / ".join(quoted)


def finding_text(
    finding: Finding, result: DetectionResult, by_id: dict[str, Message] | None = None
) -> str:
    """One finding on one line, without where it is: ``error duplicate/near (same turn):
    [b1] pto: "..." / [b2] helpdesk: "..."; evidence: restates "..."`` (the plan and the cause
    hint follow the evidence, as in the table). ``by_id``: the result's messages by id (built
    when not given)."""
    what = finding.kind + (f"/{finding.method}" if finding.method else "")
    if finding.scope:
        what += f" ({finding.scope.replace('_', ' ')})"
    evidence = _evidence(finding, result).replace("\n", "; ")
    if not finding.message_ids:  # a missed request: the evidence says what and from whom
        return f"{finding.severity} {what}: {evidence}"
    if by_id is None:
        by_id = {m.id: m for m in result.transcript.messages}
    return f"{finding.severity} {what}: {_quoted(finding, by_id)}; evidence: {evidence}"


def _shown(
    results: Sequence[DetectionResult], min_pass_rate: float
) -> list[tuple[str | None, DetectionResult | None]]:
    """What the text reports list, in order: a repeated scenario's headline (with no result),
    then each result shown (a scenario run once, a failed run of a repeated one)."""
    shown: list[tuple[str | None, DetectionResult | None]] = []
    for group in group_runs(results):
        if not group.repeated:
            shown.append((None, group.first))
            continue
        shown.append((runs_headline(group, min_pass_rate=min_pass_rate)[0], None))
        shown.extend((None, result) for result in group.failed)
    return shown


def _where(result: DetectionResult) -> str:
    """``FILE::CONVERSATION`` of a finding's line (a scenario's file and name)."""
    return result.title if result.name is None else f"{result.file}::{result.title}"


def render_lines(
    results: Sequence[DetectionResult],
    *,
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
) -> str:
    """The report for a log (CI, a pipe, a file): one line per finding, then the summary line.

    ``FILE::CONVERSATION: turn N: SEVERITY KIND[/METHOD] [(SCOPE)]: [ID] SENDER: "excerpt" / ...;
    evidence: ...`` (a scenario: ``FILE::NAME``); a conversation without
    findings is one ``... : no findings (2 turns, 5 messages)`` line, one that failed a
    ``...: failed (...)`` line; a file or table row that could not be read an ``unread: FILE:LINE:
    ...`` line, a reader's note a ``note: FILE: ...`` one. Nothing wraps, so every line can be
    searched (``grep error``).
    """
    notes = all_notes(results, notes)
    lines: list[str] = []
    for headline, result in _shown(results, min_pass_rate):
        if result is None:
            lines.append(headline or "")
            continue
        counts = (
            f"{plural(result.transcript.turn_count, 'turn')}, "
            f"{plural(len(result.transcript), 'message')}"
        )
        if result.error is not None:
            error = " ".join(result.error.split())
            lines.append(f"{_where(result)}: failed ({counts}): {error}")
        elif not result.findings:
            lines.append(f"{_where(result)}: no findings ({counts})")
        by_id = {m.id: m for m in result.transcript.messages} if result.findings else {}
        lines.extend(
            f"{_where(result)}: turn {f.turn}: {finding_text(f, result, by_id)}"
            for f in result.findings
        )
    lines += _read_lines(unread, notes)
    lines.append(_closing_line(results, min_pass_rate, unread, notes))
    return "\n".join(lines) + "\n"


def _repository_path(file: str) -> str:
    """``file`` relative to the working directory when it is an absolute path under it (the
    checkout, on a CI runner), as GitHub places annotations; otherwise as given."""
    path = Path(file)
    if not path.is_absolute():
        return file
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return file


def github_error(file: str, title: str, message: str) -> str:
    """One ``::error`` workflow command on ``file`` (relative to the working directory when under
    it), its title and message escaped as the Actions toolkit escapes them, so no text of a
    message can end the line or start a command of its own."""
    return annotation("error", message, file=_repository_path(file), title=title)


def render_github(
    results: Sequence[DetectionResult],
    *,
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
) -> str:
    """The report as GitHub Actions workflow commands: one annotation per finding (``::error`` or
    ``::warning``, on the transcript or scenario file), one ``::error`` per conversation that
    failed, one ``::error`` (title ``unread``, on its file and line) per file or table row that
    could not be read, one ``::warning`` per reader's note, then the summary line.

    ``::error file=F,title=KIND::CONVERSATION: turn N: ...`` (the line of :func:`render_lines`,
    the file given by ``file=``, relative to the working directory when under it), escaped as the
    Actions toolkit escapes them.
    """
    notes = all_notes(results, notes)
    lines: list[str] = []
    for headline, result in _shown(results, min_pass_rate):
        if result is None:
            lines.append(headline or "")
            continue
        if result.error is not None:
            message = f"{result.title}: {result.error}"
            title = "failed call" if result.completed else "could not complete"
            lines.append(github_error(result.file, title, message))
        file = _repository_path(result.file)
        by_id = {m.id: m for m in result.transcript.messages} if result.findings else {}
        for f in result.findings:
            level = "warning" if f.severity == "warning" else "error"
            title = f.kind + (f"/{f.method}" if f.method else "")
            line = f"{result.title}: turn {f.turn}: {finding_text(f, result, by_id)}"
            lines.append(annotation(level, line, file=file, title=title))
    for problem in unread or ():
        where: dict[str, str | int] = {"file": _repository_path(problem.file or "-")}
        if problem.line:
            where["line"] = problem.line
        what = f"{problem.field}: {problem.message}" if problem.field else problem.message
        lines.append(annotation("error", what, **where, title="unread"))
    for note in notes or ():
        file = _repository_path(note.file)
        level = "error" if note.undecided else "warning"
        lines.append(annotation(level, note.message, file=file, title=note.title))
    lines.append(_closing_line(results, min_pass_rate, unread, notes))
    return "\n".join(lines) + "\n"


_MESSAGES_WIDTH = 48
"""The messages column of the one-line listing pads to at most this (longer ids overflow)."""


def _finding_lines(
    findings: Sequence[Finding], *, color: bool, result: DetectionResult | None = None
) -> str:
    """Every finding on one line, in aligned columns: turn, kind, scope, messages, evidence."""
    header = ("turn", "finding", "scope", "messages", "evidence")
    rows: list[tuple[str, str, str, str, str]] = []
    for f in findings:
        messages = ", ".join(
            f"{short_id(i)} ({s})" for i, s in zip(f.message_ids, f.senders, strict=False)
        )
        rows.append(
            (
                str(f.turn),
                f.kind + (f"/{f.method}" if f.method else ""),
                f.scope.replace("_", " ") if f.scope else "-",
                messages or _no_message(f),
                f.evidence if result is None else _evidence(f, result).replace("\n", "; "),
            )
        )
    turn_w, kind_w, scope_w, messages_w = (
        max(len(header[column]), *(len(row[column]) for row in rows)) for column in range(4)
    )
    messages_w = min(messages_w, _MESSAGES_WIDTH)
    out = [
        f"  {header[0]:>{turn_w}}  {header[1]:<{kind_w}}  {header[2]:<{scope_w}}  "
        f"{header[3]:<{messages_w}}  {header[4]}\n"
    ]
    for finding, (turn, kind, scope, messages, evidence) in zip(findings, rows, strict=True):
        padded = f"{kind:<{kind_w}}"
        if color:  # the kind in red (an error) or yellow (a warning), as in the table
            code = "33" if finding.severity == "warning" else "31"
            padded = f"\x1b[{code}m{kind}\x1b[0m{padded[len(kind) :]}"
        out.append(
            f"  {turn:>{turn_w}}  {padded}  {scope:<{scope_w}}  {messages:<{messages_w}}  "
            f"{evidence}\n"
        )
    return "".join(out)
