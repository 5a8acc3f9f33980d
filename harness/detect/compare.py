"""Two runs' JSON reports side by side: what a change to a bot added, fixed and left alone.

A regression is a change against a baseline, so ``harness compare BASE.json NEW.json`` reads two
reports written by ``harness simulate --format json`` or ``harness detect --format json`` and says,
per conversation and per finding kind, which findings are new, which are gone and which remain.

Findings are matched by what they are, not by their evidence text, which a model words anew each
run: the kind, the method, the turn and the senders. Two findings of one kind in one turn between
the same senders count as two (matched as a multiset).

A comparison is a regression when NEW has an error-level finding BASE did not have, a conversation
that completed in BASE failed to complete in NEW, or a conversation's pass rate fell (reports of
repeated runs carry ``pass_rate``).

Conversations are matched by ``file: conversation``; a file written differently in the two runs
(``./s.yaml``, ``s.yaml`` and ``$GITHUB_WORKSPACE/s.yaml``; the same file name in another folder,
when only one conversation of that name and file name is left on each side) still matches. A
comparison that matched nothing, or that lost conversations of BASE (gone from NEW, or in a file
NEW could not read), is **incomplete**: it cannot say "no regression", so its exit code is 3
(``allow_missing``: conversations gone from NEW are listed only, as for a renamed scenario; a
comparison with no conversation in common stays incomplete).
"""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from harness._files import read_text
from harness.exceptions import ConfigError

__all__ = [
    "Comparison",
    "ConversationChange",
    "compare_reports",
    "load_report",
    "render_comparison",
]

ComparisonFormat = Literal["text", "json", "markdown"]
EXIT_INCOMPLETE = 3
"""``harness compare``'s exit code when the comparison is incomplete (see :class:`Comparison`)."""
MAX_REPORT_BYTES = 200_000_000
"""The largest report read (as for transcripts)."""

_Key = tuple[str, str | None, int | None, tuple[str, ...]]
"""A finding's identity across runs: kind, method, turn and senders."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ConversationChange:
    """What changed in one conversation between the two reports."""

    name: str
    """``file: conversation`` of the scenario or transcript (as NEW names it)."""
    base_name: str | None = None
    """BASE's name for it, when BASE wrote its file differently (another folder or path)."""
    added: tuple[dict[str, Any], ...] = ()
    """Findings in NEW that BASE did not have."""
    fixed: tuple[dict[str, Any], ...] = ()
    """Findings in BASE that NEW does not have."""
    unchanged: tuple[dict[str, Any], ...] = ()
    """Findings in both (as NEW has them)."""
    base_error: str | None = None
    """Why the conversation did not complete in BASE, if it did not."""
    new_error: str | None = None
    """Why the conversation did not complete in NEW, if it did not."""
    base_pass_rate: float | None = None
    new_pass_rate: float | None = None

    @property
    def regressed(self) -> bool:
        """An added error-level finding, a newly failed run, or a lower pass rate."""
        if any(f.get("severity") == "error" for f in self.added):
            return True
        if self.new_error is not None and self.base_error is None:
            return True
        return (
            self.base_pass_rate is not None
            and self.new_pass_rate is not None
            and self.new_pass_rate < self.base_pass_rate
        )

    @property
    def changed(self) -> bool:
        return bool(
            self.added
            or self.fixed
            or self.base_error != self.new_error
            or self.base_pass_rate != self.new_pass_rate
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """The whole comparison: one entry per conversation present in both reports."""

    conversations: tuple[ConversationChange, ...]
    only_in_base: tuple[str, ...] = ()
    """Conversations BASE has and NEW lacks."""
    only_in_new: tuple[str, ...] = ()
    """Conversations NEW has and BASE lacks."""
    kinds: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per finding kind: counts of ``added``, ``fixed`` and ``unchanged``."""
    unread_in_new: tuple[str, ...] = ()
    """NEW's files and table rows that ``harness detect`` could not read (its ``unread``)."""
    allow_missing: bool = False
    """Conversations of BASE missing from NEW are listed only (a renamed scenario), not an
    incomplete comparison."""

    @property
    def regressed(self) -> bool:
        return any(c.regressed for c in self.conversations)

    @property
    def incomplete(self) -> str | None:
        """Why this comparison cannot say "no regression", or None: no conversation in common,
        BASE's conversations missing from NEW (unless ``allow_missing``), or files NEW could not
        read."""
        if not self.conversations:
            return "no conversation of BASE is in NEW" + (
                "" if self.only_in_base or self.only_in_new else " (both reports are empty)"
            )
        if self.unread_in_new:
            return f"NEW could not read {len(self.unread_in_new)} file(s) or row(s)"
        if self.only_in_base and not self.allow_missing:
            return f"{len(self.only_in_base)} conversation(s) of BASE are missing from NEW"
        return None

    @property
    def exit_code(self) -> int:
        """1 on a regression; else 3 when incomplete (:attr:`incomplete`); else 0."""
        if self.regressed:
            return 1
        return EXIT_INCOMPLETE if self.incomplete is not None else 0


def load_report(path: str | Path) -> dict[str, Any]:
    """A JSON report written by ``simulate`` or ``detect`` (``--format json``).

    Raises:
        ConfigError: the file is missing, not JSON, or not such a report.
    """
    text = read_text(path, max_bytes=MAX_REPORT_BYTES)
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ConfigError(f"not a JSON report: {exc}", file=str(path)) from None
    if not isinstance(document, dict) or not isinstance(document.get("transcripts"), list):
        raise ConfigError(
            "not a harness JSON report (no 'transcripts' list); write one with "
            "`harness simulate --format json` or `harness detect --format json`",
            file=str(path),
        )
    for index, record in enumerate(document["transcripts"]):
        if not isinstance(record, dict) or not isinstance(record.get("findings", []), list):
            raise ConfigError(f"transcripts[{index}] is not a transcript record", file=str(path))
    return document


def compare_reports(
    base: Mapping[str, Any], new: Mapping[str, Any], *, allow_missing: bool = False
) -> Comparison:
    """Compare two loaded reports (see :func:`load_report`); ``allow_missing``: see
    :attr:`Comparison.allow_missing`."""
    base_records = _by_name(base)
    new_records = _by_name(new)
    pairs = _matched(base_records, new_records)
    changes = []
    kinds: dict[str, Counter[str]] = {}
    for new_name, base_name in pairs.items():
        change = _compare(new_name, base_records[base_name], new_records[new_name])
        if base_name != new_name:
            change = _renamed(change, base_name)
        changes.append(change)
        for what in ("added", "fixed", "unchanged"):
            for finding in getattr(change, what):
                kinds.setdefault(str(finding.get("kind")), Counter())[what] += 1
    taken = set(pairs.values())
    return Comparison(
        conversations=tuple(changes),
        only_in_base=tuple(n for n in base_records if n not in taken),
        only_in_new=tuple(n for n in new_records if n not in pairs),
        kinds={
            kind: {w: counts[w] for w in ("added", "fixed", "unchanged")}
            for kind, counts in sorted(kinds.items())
        },
        unread_in_new=_unread(new),
        allow_missing=allow_missing,
    )


def _renamed(change: ConversationChange, base_name: str) -> ConversationChange:
    return replace(change, base_name=base_name)


def _unread(report: Mapping[str, Any]) -> tuple[str, ...]:
    """What the report says it could not read: its ``unread`` entries, else ``totals.unread``."""
    entries = report.get("unread")
    if isinstance(entries, list) and entries:
        return tuple(
            str(e.get("error") or e.get("file")) if isinstance(e, dict) else str(e) for e in entries
        )
    totals = report.get("totals")
    count = totals.get("unread") if isinstance(totals, dict) else None
    if isinstance(count, int) and not isinstance(count, bool) and count > 0:
        return tuple("a file or row not read" for _ in range(count))
    return ()


def _by_name(report: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    records: dict[str, Mapping[str, Any]] = {}
    for record in report["transcripts"]:
        records[_name(record)] = record
    return records


def _name(record: Mapping[str, Any]) -> str:
    return f"{record.get('file', '')}: {record.get('conversation', '')}"


def _parts(file: str) -> tuple[str, ...]:
    """A file path's folders and name, written the same way whatever way the run was given it:
    ``/`` for ``\\``, ``./`` and ``a/../`` resolved; an absolute path keeps a leading ``/``."""
    path = file.replace("\\", "/")
    if not path:
        return ()
    normal = posixpath.normpath(path)
    parts = tuple(p for p in normal.split("/") if p and p != ".")
    return ("/", *parts) if normal.startswith("/") or path[1:3] == ":/" else parts


def _same_file(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same path, or a relative one that is the end of the other (``s.yaml`` and
    ``/ci/work/s.yaml``: a run from the repository, another given its absolute path)."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return bool(short) and short[0] != "/" and long[len(long) - len(short) :] == short


def _matched(
    base: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]]
) -> dict[str, str]:
    """NEW's name -> BASE's name of each conversation the two reports share: the same name;
    else the same path written differently; else the same file name (in another folder). A
    looser match is taken only when it is the only one on both sides."""
    pairs = {name: name for name in new if name in base}
    records = {
        side: {
            name: (_parts(str(r.get("file", ""))), str(r.get("conversation", "")))
            for name, r in names.items()
        }
        for side, names in (("base", base), ("new", new))
    }

    def path(b: tuple[tuple[str, ...], str], n: tuple[tuple[str, ...], str]) -> bool:
        return b[1] == n[1] and _same_file(b[0], n[0])

    def file_name(b: tuple[tuple[str, ...], str], n: tuple[tuple[str, ...], str]) -> bool:
        return b[1] == n[1] and b[0][-1:] == n[0][-1:] and bool(b[0])

    rules: tuple[Callable[[Any, Any], bool], ...] = (path, file_name)
    for rule in rules:
        taken = set(pairs.values())
        base_left = {k: v for k, v in records["base"].items() if k not in taken}
        new_left = {k: v for k, v in records["new"].items() if k not in pairs}
        for new_name, n in new_left.items():
            candidates = [b for b, record in base_left.items() if rule(record, n)]
            if len(candidates) != 1:
                continue
            rivals = [m for m, other in new_left.items() if rule(base_left[candidates[0]], other)]
            if rivals == [new_name]:
                pairs[new_name] = candidates[0]
    return pairs


def _key(finding: Mapping[str, Any]) -> _Key:
    turn = finding.get("turn")
    return (
        str(finding.get("kind")),
        finding.get("method"),
        turn if isinstance(turn, int) else None,
        tuple(str(s) for s in finding.get("senders") or ()),
    )


def _compare(name: str, base: Mapping[str, Any], new: Mapping[str, Any]) -> ConversationChange:
    remaining: dict[_Key, list[Mapping[str, Any]]] = {}
    for finding in base.get("findings") or ():
        remaining.setdefault(_key(finding), []).append(finding)
    added, unchanged = [], []
    for finding in new.get("findings") or ():
        matches = remaining.get(_key(finding))
        if matches:
            matches.pop(0)
            unchanged.append(dict(finding))
        else:
            added.append(dict(finding))
    fixed = [dict(f) for found in remaining.values() for f in found]
    return ConversationChange(
        name=name,
        added=tuple(added),
        fixed=tuple(fixed),
        unchanged=tuple(unchanged),
        base_error=_text(base.get("error")),
        new_error=_text(new.get("error")),
        base_pass_rate=_rate(base.get("pass_rate")),
        new_pass_rate=_rate(new.get("pass_rate")),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _rate(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


# --- rendering --------------------------------------------------------------------------------


def render_comparison(comparison: Comparison, fmt: ComparisonFormat = "text") -> str:
    """The comparison as ``text``, ``json`` or ``markdown`` (for a pull-request comment)."""
    if fmt == "json":
        return json.dumps(_as_json(comparison), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _markdown(comparison)
    return _text_report(comparison)


def _as_json(comparison: Comparison) -> dict[str, Any]:
    return {
        "version": 1,
        "regressed": comparison.regressed,
        "kinds": comparison.kinds,
        "conversations": [
            {
                "name": c.name,
                "base_name": c.base_name,
                "regressed": c.regressed,
                "added": list(c.added),
                "fixed": list(c.fixed),
                "unchanged": len(c.unchanged),
                "base_error": c.base_error,
                "new_error": c.new_error,
                "base_pass_rate": c.base_pass_rate,
                "new_pass_rate": c.new_pass_rate,
            }
            for c in comparison.conversations
        ],
        "only_in_base": list(comparison.only_in_base),
        "only_in_new": list(comparison.only_in_new),
        "unread_in_new": list(comparison.unread_in_new),
        "incomplete": comparison.incomplete,
    }


def _describe(finding: Mapping[str, Any]) -> str:
    senders = ", ".join(str(s) for s in finding.get("senders") or ())
    method = f"/{finding['method']}" if finding.get("method") else ""
    where = f" [{senders}]" if senders else ""
    return f"turn {finding.get('turn')}: {finding.get('kind')}{method}{where}"


def _rate_change(change: ConversationChange) -> str | None:
    if change.base_pass_rate is None and change.new_pass_rate is None:
        return None
    return f"pass rate {_percent(change.base_pass_rate)} -> {_percent(change.new_pass_rate)}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _lines(comparison: Comparison) -> list[tuple[str, list[str]]]:
    """(heading, detail lines) per changed conversation."""
    out = []
    for change in comparison.conversations:
        if not change.changed:
            continue
        status = "REGRESSED" if change.regressed else "changed"
        details = [f"added {_describe(f)} ({f.get('severity', '?')})" for f in change.added]
        details += [f"fixed {_describe(f)}" for f in change.fixed]
        if change.base_error != change.new_error:
            details.append(
                f"completed: {'no' if change.base_error else 'yes'} -> "
                f"{'no' if change.new_error else 'yes'}"
                + (f" ({change.new_error})" if change.new_error else "")
            )
        rate = _rate_change(change)
        if rate is not None and change.base_pass_rate != change.new_pass_rate:
            details.append(rate)
        if change.base_name is not None:
            details.append(f"matched BASE's {change.base_name}")
        out.append((f"{change.name}: {status}", details))
    return out


def _summary(comparison: Comparison) -> str:
    added = sum(len(c.added) for c in comparison.conversations)
    fixed = sum(len(c.fixed) for c in comparison.conversations)
    same = sum(len(c.unchanged) for c in comparison.conversations)
    incomplete = comparison.incomplete
    if comparison.regressed:
        verdict = "regression"
    elif incomplete is not None:
        verdict = "incomplete"
    else:
        verdict = "no regression"
    line = (
        f"{verdict}: {added} finding(s) added, {fixed} fixed, {same} unchanged "
        f"in {len(comparison.conversations)} conversation(s)"
    )
    if incomplete is not None:
        line += f"; {incomplete}, so a regression there would not show"
    return line


def _text_report(comparison: Comparison) -> str:
    lines = []
    for heading, details in _lines(comparison):
        lines.append(heading)
        lines.extend(f"  {d}" for d in details)
    lines.extend(f"only in BASE: {name}" for name in comparison.only_in_base)
    lines.extend(f"only in NEW: {name}" for name in comparison.only_in_new)
    lines.extend(f"unread in NEW: {' '.join(e.split())}" for e in comparison.unread_in_new)
    lines.append(_summary(comparison))
    return "\n".join(lines) + "\n"


def _markdown(comparison: Comparison) -> str:
    icon = "❌" if comparison.regressed else "⚠️" if comparison.incomplete else "✅"
    lines = [f"### {icon} {_summary(comparison)}", ""]
    if comparison.kinds:
        lines += ["| finding kind | added | fixed | unchanged |", "|---|---:|---:|---:|"]
        lines += [
            f"| `{kind}` | {c['added']} | {c['fixed']} | {c['unchanged']} |"
            for kind, c in comparison.kinds.items()
        ]
        lines.append("")
    for heading, details in _lines(comparison):
        lines.append(f"- **{_escape(heading)}**")
        lines.extend(f"  - {_escape(d)}" for d in details)
    for name in comparison.only_in_base:
        lines.append(f"- only in BASE: {_escape(name)}")
    for name in comparison.only_in_new:
        lines.append(f"- only in NEW: {_escape(name)}")
    for error in comparison.unread_in_new:
        lines.append(f"- unread in NEW: {_escape(' '.join(error.split()))}")
    return "\n".join(lines).rstrip() + "\n"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")
