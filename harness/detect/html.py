"""The HTML report: each conversation as a chat, with the findings drawn on it.

A text table of truncated messages cannot show whether two messages really repeat each other; a
chat can. :func:`render_html` writes one self-contained file (inline CSS and JavaScript, no network)
with the summary first, then filters and the findings, then every conversation as chat bubbles:
the sender and its mode, turn separators with the turn's plan, the repeated or awkward passages
marked, and each finding linked to its messages.

The page stays usable at 100,000 messages because only the summary is HTML: the conversations and
findings are embedded once as JSON (:func:`report_data`) and a conversation's bubbles are drawn
when it is opened. Bot text is untrusted, so the page only ever sets it as text, and the embedded
JSON escapes ``<``, ``>``, ``&`` and U+2028/U+2029 so no message can close its ``<script>``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from harness.detect.detectors import DETECTORS
from harness.detect.findings import CHECK_KIND, CONTRACT_KIND, Finding
from harness.detect.report_parts import KIND_ORDER, all_notes, confidence_note, xml_characters
from harness.detect.results import DetectionResult, exit_code, group_runs
from harness.detect.runs_report import run_failure
from harness.detect.transcript import Transcript

if TYPE_CHECKING:
    from jinja2 import Environment

    from harness.detect.readers import ReadNote
    from harness.exceptions import ConfigError
    from subagents import Usage

__all__ = ["render_html", "report_data"]

DATA_VERSION = 1
"""The version of the JSON embedded in the page (``report_data``)."""

_KIND_LABELS: dict[str, str] = {
    **{str(detector.name): detector.label for detector in DETECTORS},
    CHECK_KIND: "failed check",
    CONTRACT_KIND: "contract",
}
_HIGHLIGHTED_KINDS = frozenset(detector.name for detector in DETECTORS if detector.quotes_passages)
"""Kinds whose quoted evidence names a passage of their messages (used when a finding carries no
``highlights`` of its own)."""
_QUOTED = re.compile(r'"([^"]+)"')
_MIN_QUOTE = 4
"""Shorter quoted evidence is not looked for in the messages (it would mark stray words)."""


def render_html(
    results: Sequence[DetectionResult],
    *,
    title: str = "harness report",
    usage: Usage | None = None,
    min_pass_rate: float = 1.0,
    unread: Sequence[ConfigError] | None = None,
    notes: Sequence[ReadNote] | None = None,
) -> str:
    """One self-contained HTML page of the conversations checked and what was found in them.

    Args:
        results: one result per conversation (``harness detect``, the scenario runner, or the
            pytest plugin).
        title: the page's title and heading.
        usage: the model usage of the run, shown in the summary when given and non-empty.
        min_pass_rate: the share of a repeated scenario's runs that must pass; the summary
            gives each repeated scenario's pass rate and its failed runs (each run is a
            conversation of the page, titled ``name (run 2 of 5)``).
        unread: the files and table rows ``harness detect`` could not read: a section names
            each and why (its conversations were not checked), and the verdict is FAIL.
        notes: what the readers noticed about files read whole (a Web API answer that is one
            page of a longer result): a section lists them.

    Returns:
        The page: summary (conversations, turns, messages, findings by kind and severity, the
        verdict, model usage), filters, the findings and the conversations as chats.
    """
    data = report_data(results, title=title)
    summary = _summary(results, usage, min_pass_rate)
    summary["unread"] = [str(problem) for problem in unread or ()]
    summary["notes"] = [str(note) for note in all_notes(results, notes) or ()]
    summary["failed"] = summary["failed"] or bool(summary["unread"])
    page = (
        _environment()
        .get_template("report.html.j2")
        .render(
            title=title,
            summary=summary,
            kinds=[(kind, _KIND_LABELS[kind]) for kind in KIND_ORDER],
            style=_asset("report.css"),
            script=_asset("report.js"),
            data=_script_json(data),
        )
    )
    # A bot's text may hold controls no HTML parser keeps (a NUL) and lone surrogates.
    return xml_characters(str(page))


def report_data(
    results: Sequence[DetectionResult], *, title: str = "harness report"
) -> dict[str, Any]:
    """The data the page embeds and draws from (a JSON-ready dict).

    ``conversations[i].messages`` holds one row per message, in order:
    ``[id, turn, role, sender, mode, text, request]``, where ``mode`` is the sub-agent's mode,
    ``"parent"`` for the parent's messages when the transcript knows its sub-agents' modes, or
    None. ``plans`` holds ``[turn, [[agent, request], ...], [failed agent, ...]]`` for the turns
    whose plan is known. Each finding keeps the JSON report's keys plus ``conversation`` (its index),
    ``severity``, ``highlights`` (``[{"message_id", "text"}]``: the finding's own, or the quoted
    evidence found in its messages) and, for a missed request the check judged, ``confidence``
    (``"confidence 0.973"``, as the text reports show it:
    :func:`~harness.detect.report_parts.confidence_note`).
    """
    conversations: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    for index, result in enumerate(results):
        transcript = result.transcript
        first = len(findings)
        texts = {m.id: m.text for m in transcript.messages}
        for finding in result.findings:
            record = finding.to_json()
            record["conversation"] = index
            record["severity"] = finding.severity
            record["highlights"] = _highlights(finding, texts)
            sure = confidence_note(finding)
            if sure:
                record["confidence"] = sure
            findings.append(record)
        conversations.append(
            {
                "title": result.title,
                "file": result.file,
                "conversation": result.conversation,
                "turns": transcript.turn_count,
                "messages": _message_rows(transcript),
                "plans": [
                    [t.turn, [[p.agent, p.request] for p in t.plan], list(t.failed)]
                    for t in transcript.turns
                    if t.plan or t.failed
                ],
                "findings": list(range(first, len(findings))),
                "errors": len(result.errors),
                "warnings": len(result.warnings),
            }
        )
    return {
        "version": DATA_VERSION,
        "title": title,
        "kinds": list(KIND_ORDER),
        "conversations": conversations,
        "findings": findings,
    }


def _message_rows(transcript: Transcript) -> list[list[Any]]:
    modes = transcript.agent_modes
    modes_known = bool(modes) or any(m.mode for m in transcript.messages)
    rows: list[list[Any]] = []
    for m in transcript.messages:
        mode = m.mode or modes.get(m.sender)
        if mode is None and m.role == "bot" and modes_known:
            mode = "parent"
        rows.append([m.id, m.turn, m.role, m.sender, mode, m.text, m.request])
    return rows


def _highlights(finding: Finding, texts: dict[str, str]) -> list[dict[str, str]]:
    """The finding's own highlights (those that really occur in their message), else the quoted
    evidence of a duplicate or an awkward acknowledgement, where its messages say it. Matching the
    evidence ignores case; the message's own spelling is kept."""
    if finding.highlights:
        return [
            {"message_id": h.message_id, "text": h.text}
            for h in finding.highlights
            if h.text and h.text in texts.get(h.message_id, "")
        ]
    if finding.kind not in _HIGHLIGHTED_KINDS:
        return []
    out: list[dict[str, str]] = []
    for quoted in _QUOTED.findall(finding.evidence):
        needle = quoted.removesuffix("…").strip()
        if len(needle) < _MIN_QUOTE:
            continue
        pattern = re.compile(re.escape(needle), re.IGNORECASE)
        for message_id in finding.message_ids:
            match = pattern.search(texts.get(message_id, ""))
            if match is not None:
                out.append({"message_id": message_id, "text": match.group()})
    # A passage inside a longer one (or the same one) marked on the same message adds nothing.
    out.sort(key=lambda h: -len(h["text"]))
    kept: list[dict[str, str]] = []
    for h in out:
        if not any(k["message_id"] == h["message_id"] and h["text"] in k["text"] for k in kept):
            kept.append(h)
    order = {message_id: i for i, message_id in enumerate(finding.message_ids)}
    return sorted(kept, key=lambda h: order[h["message_id"]])


def _runs(results: Sequence[DetectionResult], min_pass_rate: float) -> list[dict[str, Any]]:
    """A row per repeated scenario: its pass rate and each failed run with why it failed."""
    rows = []
    for group in group_runs(results):
        if not group.repeated:
            continue
        failed = []
        for run in group.failed:
            failure = run_failure(run)
            why = [failure] if failure else []
            why += [f"turn {f.turn}: {f.kind}: {f.evidence}" for f in run.errors]
            failed.append((run.run, "; ".join(why)))
        rows.append(
            {
                "title": group.title,
                "passed": group.passed,
                "runs": len(group.results),
                "rate": f"{group.pass_rate:.0%}",
                "below": group.pass_rate < min_pass_rate,
                "failed": failed,
            }
        )
    return rows


def _summary(
    results: Sequence[DetectionResult], usage: Usage | None, min_pass_rate: float = 1.0
) -> dict[str, Any]:
    kinds: Counter[str] = Counter(f.kind for r in results for f in r.findings)
    errors = sum(len(r.errors) for r in results)
    warnings = sum(len(r.warnings) for r in results)
    summary: dict[str, Any] = {
        "conversations": len(results),
        "turns": sum(r.transcript.turn_count for r in results),
        "messages": sum(len(r.transcript) for r in results),
        "findings": errors + warnings,
        "errors": errors,
        "warnings": warnings,
        "by_kind": [(kind, _KIND_LABELS[kind], kinds[kind]) for kind in KIND_ORDER],
        "failed": exit_code(results, min_pass_rate=min_pass_rate) != 0,
        "broken": sum(1 for r in results if r.error is not None and not r.completed),
        "calls": sum(1 for r in results if r.error is not None and r.completed),
        "clean": sum(1 for r in results if not r.findings and r.error is None),
        "usage": None,
        "runs": _runs(results, min_pass_rate),
        "pass_rate": "",
    }
    if summary["runs"]:
        ok = sum(row["passed"] for row in summary["runs"])
        total = sum(row["runs"] for row in summary["runs"])
        summary["pass_rate"] = (
            f"{ok} of {total} runs passed ({ok / total:.0%}); minimum per scenario "
            f"{min_pass_rate:.0%}"
        )
    if usage is not None and usage.requests:
        summary["usage"] = {
            "requests": usage.requests,
            "tokens": usage.total_tokens,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cost_usd": None if usage.cost_usd is None else f"${usage.cost_usd:.4f}",
        }
    return summary


_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def _script_json(data: dict[str, Any]) -> Any:
    """``data`` as JSON that is safe inside ``<script type="application/json">``: no ``</script>``,
    ``<!--`` or line separator can appear in it (these characters only occur inside JSON strings,
    where the ``\\uXXXX`` escapes mean the same)."""
    from markupsafe import Markup

    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.translate(_SCRIPT_ESCAPES))  # escaped above


@lru_cache(maxsize=1)
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(
        loader=PackageLoader("harness.detect", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@lru_cache(maxsize=4)
def _asset(name: str) -> Any:
    """A stylesheet or script shipped beside the template, inlined as it is."""
    from markupsafe import Markup

    text = resources.files("harness.detect").joinpath("templates", name).read_text("utf-8")
    if "</" in text:  # would end the inline <style> or <script> early
        raise RuntimeError(f"templates/{name} must not contain '</'")
    return Markup(text)  # our own file, checked above
