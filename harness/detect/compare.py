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

Conversations are matched by ``file: conversation``. A file written differently in the two runs
still matches through ONE prefix rewrite of BASE's paths into NEW's, derived from the paths the
two reports do not share and applied to every conversation: ``./s.yaml``, ``s.yaml`` and
``$GITHUB_WORKSPACE/s.yaml`` (a relative path that is the end of the other), or two checkouts'
absolute roots (``/home/runner/work/r/r/`` -> ``/tmp/build/``, their common part at least a
folder and the file name). Two different files are never paired by their file name alone
(``logs/day1/t.jsonl`` and ``logs/day2/t.jsonl`` are two conversations).

A comparison is **incomplete** when it cannot say "no regression": no conversation in common,
conversations of BASE missing from NEW (``allow_missing``: listed only, as after a renamed or
removed scenario), files or rows NEW could not read that BASE read, borderline pairs a
``--judge`` model could not decide in either report, or runs with different
``--min-confidence``. Its exit code is 3 (a regression found is still 1).
"""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from collections.abc import Iterable, Mapping
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
    """NEW's files and table rows that ``harness detect`` could not read (its ``unread``) and
    BASE read."""
    unread_in_both: tuple[str, ...] = ()
    """Files and rows neither run could read (the same file, line and field): listed, not a
    reason to call the comparison incomplete."""
    allow_missing: bool = False
    """Conversations of BASE missing from NEW are listed only (a renamed or removed scenario), not
    an incomplete comparison. It covers nothing else (unread files, undecided pairs)."""
    rewrite: tuple[str, str] | None = None
    """The prefix of BASE's paths and NEW's for it, when the two runs wrote their files
    differently (BASE's, NEW's; ``""`` for a relative path's missing prefix)."""
    undecided: tuple[int, int] = (0, 0)
    """Borderline pairs a ``--judge`` model could not decide, in BASE and in NEW (JSON
    ``totals.undecided``)."""
    min_confidence: tuple[Any, Any] = (0.0, 0.0)
    """The ``--min-confidence`` of BASE's run and NEW's (their ``settings``; 0 when not
    recorded)."""

    @property
    def regressed(self) -> bool:
        return any(c.regressed for c in self.conversations)

    @property
    def incomplete(self) -> str | None:
        """Why this comparison cannot say "no regression", or None (see the module's text)."""
        if not self.conversations:
            return "no conversation of BASE is in NEW" + (
                "" if self.only_in_base or self.only_in_new else " (both reports are empty)"
            )
        if self.min_confidence[0] != self.min_confidence[1]:
            return (
                f"BASE and NEW were run with different --min-confidence "
                f"({self.min_confidence[0]} and {self.min_confidence[1]}), so findings one "
                "withheld look fixed or added"
            )
        for side, count in zip(("BASE", "NEW"), self.undecided, strict=True):
            if count:
                return f"{side}'s judge could not decide {count} borderline pair(s)"
        if self.unread_in_new:
            return f"NEW could not read {len(self.unread_in_new)} file(s) or row(s) BASE read"
        if self.only_in_base and not self.allow_missing:
            return (
                f"{len(self.only_in_base)} conversation(s) of BASE are missing from NEW "
                "(--allow-missing after removing or renaming them on purpose)"
            )
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
    pairs, rewrite = _matched(base_records, new_records)
    changes = []
    kinds: dict[str, Counter[str]] = {}
    for new_name, base_name in pairs.items():
        change = _compare(new_name, base_records[base_name], new_records[new_name])
        if base_name != new_name:
            change = replace(change, base_name=base_name)
        changes.append(change)
        for what in ("added", "fixed", "unchanged"):
            for finding in getattr(change, what):
                kinds.setdefault(str(finding.get("kind")), Counter())[what] += 1
    taken = set(pairs.values())
    unread_new, unread_both = _unread(base, new, rewrite)
    return Comparison(
        conversations=tuple(changes),
        only_in_base=tuple(n for n in base_records if n not in taken),
        only_in_new=tuple(n for n in new_records if n not in pairs),
        kinds={
            kind: {w: counts[w] for w in ("added", "fixed", "unchanged")}
            for kind, counts in sorted(kinds.items())
        },
        unread_in_new=unread_new,
        unread_in_both=unread_both,
        allow_missing=allow_missing,
        rewrite=None if rewrite is None else (_joined(rewrite[0]), _joined(rewrite[1])),
        undecided=(_undecided(base), _undecided(new)),
        min_confidence=(_level(base), _level(new)),
    )


def _undecided(report: Mapping[str, Any]) -> int:
    totals = report.get("totals")
    count = totals.get("undecided") if isinstance(totals, dict) else None
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def _level(report: Mapping[str, Any]) -> Any:
    """The report's ``settings.min_confidence``: ``sure`` or a number; 0 when not recorded
    (a report written before the option, or by a run without it)."""
    settings = report.get("settings")
    level = settings.get("min_confidence") if isinstance(settings, dict) else None
    if isinstance(level, int | float) and not isinstance(level, bool):
        return float(level)
    return level if isinstance(level, str) else 0.0


_Unread = tuple[tuple[str, ...], Any, Any]
"""An unread entry's identity: its file (as parts), line and field."""


def _unread(
    base: Mapping[str, Any], new: Mapping[str, Any], rewrite: _Rewrite | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """NEW's unread entries that BASE did not have, and those both had (the same file, its path
    rewritten as the conversations', line and field). A report that gives only
    ``totals.unread`` counts: NEW's count beyond BASE's is unread in NEW alone."""
    base_entries, base_count = _unread_entries(base)
    new_entries, new_count = _unread_entries(new)
    if new_entries is None or base_entries is None:
        return tuple("a file or row not read" for _ in range(max(0, new_count - base_count))), ()
    seen = Counter(
        (_rewritten(parts, rewrite), line, field) for (parts, line, field), _ in base_entries
    )
    only: list[str] = []
    both: list[str] = []
    for key, text in new_entries:
        if seen[key] > 0:
            seen[key] -= 1
            both.append(text)
        else:
            only.append(text)
    return tuple(only), tuple(both)


def _unread_entries(report: Mapping[str, Any]) -> tuple[list[tuple[_Unread, str]] | None, int]:
    """The report's ``unread`` entries (identity, text) and count; None for the entries when it
    gives only ``totals.unread``."""
    entries = report.get("unread")
    if isinstance(entries, list) and entries:
        out = []
        for e in entries:
            if isinstance(e, dict):
                key = (_parts(str(e.get("file") or "")), e.get("line"), e.get("field"))
                out.append((key, str(e.get("error") or e.get("file"))))
            else:
                out.append((((), None, str(e)), str(e)))
        return out, len(out)
    totals = report.get("totals")
    count = totals.get("unread") if isinstance(totals, dict) else None
    if isinstance(count, int) and not isinstance(count, bool) and count > 0:
        return None, count
    return [], 0


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


def _joined(parts: tuple[str, ...]) -> str:
    if parts[:1] == ("/",):  # a Windows drive (``D:``) without the ``/`` put before it
        return (
            "/".join(parts[1:])
            if parts[1:2] and parts[1].endswith(":")
            else "/" + "/".join(parts[1:])
        )
    return "/".join(parts)


_Rewrite = tuple[tuple[str, ...], tuple[str, ...]]
"""A prefix of BASE's paths and what NEW has in its place."""


def _rewrite(
    base_files: Iterable[tuple[str, ...]], new_files: set[tuple[str, ...]]
) -> _Rewrite | None:
    """The one prefix rewrite that turns most of BASE's files into NEW's, or None (the paths are
    the same, or no rewrite is clearly the one).

    Each BASE file NEW lacks votes for the rewrite its longest common end with exactly one of
    NEW's files implies; each file both have votes for none. A vote counts only when it is not a
    guess from a file name: the BASE or NEW part is a relative path that is the other's end, or
    both prefixes are absolute and the common end holds a folder and the file name. The rewrite
    with most votes wins, when it has more than any other (and than the files already shared)."""
    ends: dict[tuple[str, ...], tuple[tuple[str, ...], int]] = {}
    for file in new_files:
        for start in range(len(file)):
            end = file[start:]
            first, count = ends.get(end, (file, 0))
            ends[end] = (first, count + 1)
    votes: Counter[_Rewrite | None] = Counter()
    for file in base_files:
        if file in new_files:
            votes[None] += 1
            continue
        for start in range(len(file)):
            found = ends.get(file[start:])
            if found is None:
                continue
            other, count = found
            if count == 1:
                rewrite = (file[:start], other[: len(other) - (len(file) - start)])
                if _plausible(rewrite, len(file) - start):
                    votes[rewrite] += 1
            break
    ranked = votes.most_common(2)
    if not ranked or ranked[0][0] is None:
        return None
    if len(ranked) == 2 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def _plausible(rewrite: _Rewrite, common: int) -> bool:
    """Whether two paths with these prefixes and ``common`` parts in common name one file."""
    before, after = rewrite
    if not before or not after:  # a relative path given whole, the other its absolute form
        return True
    return before[:1] == ("/",) and after[:1] == ("/",) and common >= 2


def _rewritten(parts: tuple[str, ...], rewrite: _Rewrite | None) -> tuple[str, ...]:
    if rewrite is None:
        return parts
    before, after = rewrite
    if parts[: len(before)] != before or (not before and parts[:1] == ("/",)):
        return parts
    return after + parts[len(before) :]


def _matched(
    base: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]]
) -> tuple[dict[str, str], _Rewrite | None]:
    """NEW's name -> BASE's name of each conversation the two reports share (the same name, or
    the same file written another way: :func:`_rewrite`), and the rewrite used."""
    pairs = {name: name for name in new if name in base}
    base_left = {
        name: (_parts(str(r.get("file", ""))), str(r.get("conversation", "")))
        for name, r in base.items()
        if name not in new
    }
    new_left: dict[tuple[tuple[str, ...], str], str | None] = {}
    for name, r in new.items():
        if name not in pairs:
            key = (_parts(str(r.get("file", ""))), str(r.get("conversation", "")))
            new_left[key] = None if key in new_left else name  # two of one: ambiguous
    shared = {_parts(str(base[name].get("file", ""))) for name in pairs}
    rewrite = _rewrite(
        {parts for parts, _ in base_left.values()} | shared,
        {parts for parts, _ in new_left} | shared,
    )
    for base_name, (parts, conversation) in base_left.items():
        new_name = new_left.get((_rewritten(parts, rewrite), conversation))
        if new_name is not None and new_name not in pairs:
            pairs[new_name] = base_name
    return pairs, rewrite


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
        "unread_in_both": list(comparison.unread_in_both),
        "rewrite": None
        if comparison.rewrite is None
        else {"base": comparison.rewrite[0], "new": comparison.rewrite[1]},
        "undecided": {"base": comparison.undecided[0], "new": comparison.undecided[1]},
        "min_confidence": {
            "base": comparison.min_confidence[0],
            "new": comparison.min_confidence[1],
        },
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


def _also(comparison: Comparison) -> list[str]:
    """The lines on how the comparison was made: the path rewrite, what neither run read."""
    lines = []
    if comparison.rewrite is not None:
        before, after = comparison.rewrite
        if not before:
            line = f"BASE's relative paths are NEW's under {after}/"
        elif not after:
            line = f"BASE's paths under {before}/ are NEW's relative ones"
        else:
            line = f"BASE's {before}/... is NEW's {after}/..."
        lines.append(f"paths rewritten: {line}")
    lines.extend(
        f"unread in BASE and NEW (not counted as incomplete): {' '.join(e.split())}"
        for e in comparison.unread_in_both
    )
    return lines


def _text_report(comparison: Comparison) -> str:
    lines = []
    for heading, details in _lines(comparison):
        lines.append(heading)
        lines.extend(f"  {d}" for d in details)
    lines.extend(f"only in BASE: {name}" for name in comparison.only_in_base)
    lines.extend(f"only in NEW: {name}" for name in comparison.only_in_new)
    lines.extend(f"unread in NEW: {' '.join(e.split())}" for e in comparison.unread_in_new)
    lines.extend(_also(comparison))
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
    lines.extend(f"- {_escape(line)}" for line in _also(comparison))
    return "\n".join(lines).rstrip() + "\n"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")
