"""A scenario's per-turn checks, run on the conversation it produced: what the bot's messages
must (not) say, and which tools each request's agent must (not) call.

Text checks read the turn's bot messages, compared case-insensitively with white space squashed:

- ``expect``: some message contains the text; ``not``: no message contains it;
- ``regex``: some message matches the pattern (``re.search``; add ``(?i)`` to ignore case);
- ``equals``: some message is the text, whole;
- ``bot``: the turn's messages one by one, in order, each against its own checks; an ``optional``
  entry that the next message does not satisfy is skipped. Messages after the last entry are
  not checked.

Tool checks compare the tools a request's agent called in the turn (``TurnRecord.tools_of``) with
the expected ones, as agentevals' trajectory match does: ``strict`` (the same calls in the same
order), ``unordered`` (the same calls, any order), ``subset`` (no call outside the expected ones),
``superset`` (at least the expected ones); ``never_calls`` names tools it must not call.

A failed check is a :class:`~harness.detect.findings.Finding` of kind ``failed_check`` whose
``method`` names the check (``expect``, ``not``, ``regex``, ``equals``, ``tools``,
``never_calls``), so the reports, exit codes, pass rates and ``harness compare`` treat it like
any other finding. Its evidence says which check failed on which message. A tool check on a
conversation whose tool calls were not recorded (a deployed bot, a handler function) cannot be
made: it is a ``failed_check`` warning that says so, never a pass.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from harness.detect.detectors import quote
from harness.detect.findings import Finding, Severity
from harness.detect.transcript import Message, Transcript, TurnRecord

__all__ = [
    "CallMatch",
    "MessageCheck",
    "TextCheck",
    "TextCheckKind",
    "ToolCheck",
    "TurnChecks",
    "run_checks",
]

TextCheckKind = Literal["expect", "not", "regex", "equals"]
CallMatch = Literal["strict", "unordered", "subset", "superset"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TextCheck:
    """One check of a message's text."""

    kind: TextCheckKind
    """``expect`` (contains), ``not`` (does not contain), ``regex`` (matches) or ``equals``."""
    value: str
    """The text, or the regular expression."""

    def holds(self, text: str) -> bool:
        """True when ``text`` passes this check (``not``: when it does not contain the value)."""
        if self.kind == "regex":
            return _pattern(self.value).search(text) is not None
        if self.kind == "equals":
            return _squash(text) == _squash(self.value)
        contains = _squash(self.value) in _squash(text)
        return not contains if self.kind == "not" else contains

    def describe(self) -> str:
        return f"{self.kind} {_show(self.value)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageCheck:
    """One entry of a turn's ``bot:`` list: what the next bot message must satisfy."""

    checks: tuple[TextCheck, ...] = ()
    """Every check the message must pass (none: any message will do)."""
    optional: bool = False
    """The message may be missing: when the next message does not pass, the entry is skipped."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCheck:
    """The tool calls expected of one request's agent in one turn."""

    agent: str
    """The sub-agent expected to handle the request."""
    tools: tuple[str, ...] | None = None
    """The tools it is expected to call; None: no check of what it calls."""
    calls: CallMatch = "superset"
    """How its calls are compared with ``tools``."""
    never_calls: tuple[str, ...] = ()
    """Tools it must not call."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnChecks:
    """Every check of one turn."""

    texts: tuple[TextCheck, ...] = ()
    """Checks over all the turn's bot messages (``expect``, ``not``, ``regex``, ``equals``)."""
    bot: tuple[MessageCheck, ...] = ()
    """Checks of the turn's bot messages one by one, in order."""
    tools: tuple[ToolCheck, ...] = ()
    """Tool checks, one per request that has them."""

    def __bool__(self) -> bool:
        return bool(self.texts or self.bot or self.tools)


@lru_cache(maxsize=16_384)
def _squash(text: str) -> str:
    return " ".join(text.replace("’", "'").lower().split())


@lru_cache(maxsize=1024)
def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(value)


def _show(text: str) -> str:
    return quote(text, limit=80)


def _where(message: Message, index: int) -> str:
    return f"bot message {index} ({message.id} from {message.sender})"


def _failed(
    turn: int,
    check: str,
    evidence: str,
    *,
    messages: Sequence[Message] = (),
    senders: Sequence[str] = (),
    severity: Severity = Severity.ERROR,
) -> Finding:
    return Finding(
        kind="failed_check",
        method=check,
        turn=turn,
        message_ids=tuple(m.id for m in messages),
        senders=tuple(senders) or tuple(m.sender for m in messages),
        evidence=evidence,
        severity=severity,
    )


def _text_findings(turn: int, bots: Sequence[Message], check: TextCheck) -> list[Finding]:
    """A turn-wide check: some message passes it (``not``: every message passes it)."""
    if check.kind == "not":
        out = []
        for index, message in enumerate(bots, start=1):
            if not check.holds(message.text):
                out.append(
                    _failed(
                        turn,
                        "not",
                        f"turn {turn}, {_where(message, index)}: says "
                        f"{_show(check.value)}, which the turn must not",
                        messages=[message],
                    )
                )
        return out
    if any(check.holds(m.text) for m in bots):
        return []
    said = "; ".join(f"{m.id}: {_show(m.text)}" for m in bots) or "none"
    return [
        _failed(
            turn,
            check.kind,
            f"turn {turn}: no bot message passes {check.describe()} (messages: {said})",
        )
    ]


def _message_findings(
    turn: int, bots: Sequence[Message], entries: Sequence[MessageCheck]
) -> list[Finding]:
    """The ``bot:`` list: each entry against the next message, optional entries skipped when
    the next message does not pass them."""
    out: list[Finding] = []
    position = 0
    for number, entry in enumerate(entries, start=1):
        if position >= len(bots):
            if not entry.optional:
                wanted = ", ".join(c.describe() for c in entry.checks) or "any text"
                out.append(
                    _failed(
                        turn,
                        entry.checks[0].kind if entry.checks else "expect",
                        f"turn {turn}: bot message {position + 1} ({wanted}, entry {number} of "
                        f"bot:) is missing: the turn has {len(bots)} bot message(s)",
                    )
                )
            continue
        message = bots[position]
        failing = [c for c in entry.checks if not c.holds(message.text)]
        if failing and entry.optional:
            continue  # the optional message is not there: the same message meets the next entry
        position += 1
        for check in failing:
            out.append(
                _failed(
                    turn,
                    check.kind,
                    f"turn {turn}, {_where(message, position)}: fails {check.describe()} "
                    f"(entry {number} of bot:): {_show(message.text)}",
                    messages=[message],
                )
            )
    return out


def _compare_calls(expected: Sequence[str], called: Sequence[str], how: CallMatch) -> bool:
    if how == "strict":
        return tuple(called) == tuple(expected)
    if how == "unordered":
        return Counter(called) == Counter(expected)
    if how == "subset":
        return set(called) <= set(expected)
    return set(called) >= set(expected)


_MEANING = {
    "strict": "exactly these calls, in this order",
    "unordered": "exactly these calls, in any order",
    "subset": "no tool outside these",
    "superset": "at least these",
}


def _tool_findings(turn: int, record: TurnRecord | None, check: ToolCheck) -> list[Finding]:
    agent = check.agent
    names = [name for name in ("tools", "never_calls") if _wants(check, name)]
    called = None if record is None else record.tools_of(agent)
    if record is None or record.tool_calls is None or called is None:
        why = (
            f"{agent}'s tool calls are not known (a handler function, or a host that does not "
            "report them)"
            if record is not None and record.tool_calls is not None
            else "the conversation has no record of its tool calls (a deployed bot or a "
            "transcript file)"
        )
        return [
            _failed(
                turn,
                name,
                f"turn {turn}: not checkable: {why}",
                senders=[agent],
                severity=Severity.WARNING,
            )
            for name in names
        ]
    out: list[Finding] = []
    shown = ", ".join(called) or "no tool"
    if check.tools is not None and not _compare_calls(check.tools, called, check.calls):
        not_called = "" if record.called(agent) else f" ({agent} was not called this turn)"
        out.append(
            _failed(
                turn,
                "tools",
                f"turn {turn}: {agent} called {shown}{not_called}; expected {check.calls} "
                f"[{', '.join(check.tools)}] ({_MEANING[check.calls]})",
                senders=[agent],
            )
        )
    forbidden = [name for name in check.never_calls if name in called]
    if forbidden:
        out.append(
            _failed(
                turn,
                "never_calls",
                f"turn {turn}: {agent} called {', '.join(forbidden)}, which it must never call "
                f"(its calls: {shown})",
                senders=[agent],
            )
        )
    return out


def _wants(check: ToolCheck, name: str) -> bool:
    return check.tools is not None if name == "tools" else bool(check.never_calls)


def run_checks(transcript: Transcript, checks: Mapping[int, TurnChecks]) -> list[Finding]:
    """Run a scenario's per-turn checks on the conversation it produced.

    Args:
        transcript: the conversation.
        checks: the checks of each turn, by 1-based turn number.

    Returns:
        A ``failed_check`` finding for every check that failed (an error), or that could not be
        made (a warning), ordered by turn.
    """
    records = {r.turn: r for r in transcript.turns}
    out: list[Finding] = []
    for turn in sorted(checks):
        spec = checks[turn]
        bots = transcript.bot_messages(turn)
        for check in spec.texts:
            out.extend(_text_findings(turn, bots, check))
        if spec.bot:
            out.extend(_message_findings(turn, bots, spec.bot))
        for tool in spec.tools:
            out.extend(_tool_findings(turn, records.get(turn), tool))
    return out
