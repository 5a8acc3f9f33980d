"""The runtime duplicate guard: the turn pipeline's guard step (docs/architecture.md).

Before the parent sends its own message, the guard runs the simulator's duplicate detector on the
draft against what was already sent this turn and in recent turns. By policy it lets the draft through
(``off``), keeps it and reports the duplicates (``warn``), or removes only the duplicated sentences
(``drop``), so a parent that relays a sub-agent's answer among new content keeps the new content.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

from harness.detect._candidates import _entry, _Index
from harness.detect._users import _User, _Users
from harness.detect.duplicates import compare_entry, thresholds
from harness.detect.findings import DetectorConfig, Finding, Highlight
from harness.detect.transcript import Message
from harness.exceptions import ConfigError
from harness.text import (
    CLAIM_BUDGET,
    Span,
    analyse,
    analysed_part,
    content_words,
    normalise,
    split_claims,
    split_sentences,
)

__all__ = ["DuplicateGuard", "GuardDecision", "GuardPolicy"]

log = logging.getLogger("harness.guard")

GuardPolicy = Literal["off", "warn", "drop"]

DRAFT_ID = "draft"


@dataclass(frozen=True, slots=True, kw_only=True)
class GuardDecision:
    """What to send, and why."""

    text: str
    """The message to send: the draft, or the draft without its duplicated sentences ("" when
    nothing new is left)."""
    dropped: tuple[str, ...] = ()
    """The sentences (or clauses) removed from the draft."""
    findings: tuple[Finding, ...] = ()
    """The duplicates found; the draft's id in them is ``"draft"``."""


class DuplicateGuard:
    """Checks the parent's draft message against the messages already sent.

    Args:
        policy: ``off`` (send as is), ``warn`` (send as is, log and return the findings) or
            ``drop`` (remove the duplicated sentences).
        config: the detector's thresholds, window and boilerplate.
    """

    def __init__(self, policy: GuardPolicy = "warn", *, config: DetectorConfig | None = None):
        if policy not in ("off", "warn", "drop"):
            raise ConfigError(
                "the duplicate guard policy must be off, warn or drop", field="policy"
            )
        self.policy: GuardPolicy = policy
        self.config = config or DetectorConfig()
        self._closers = frozenset(normalise(p) for p in self.config.boilerplate)
        # A sentence much longer than every closer is not one (no need to normalise it to know).
        self._closer_length = 2 * max((len(p) for p in self.config.boilerplate), default=0) + 20

    def check(
        self,
        draft: str,
        *,
        sent: Sequence[Message],
        turn: int,
        sender: str = "parent",
        answers: Sequence[str] = (),
    ) -> GuardDecision:
        """Compare ``draft`` with the messages sent this turn and in the recent turns.

        Args:
            draft: the parent's message before it is sent.
            sent: the conversation so far; pass user messages too, so that an answer the user
                asked for again is not taken for a duplicate.
            turn: the current turn.
            sender: the draft's sender, as named in the findings.
            answers: what the sub-agents answered this turn to the requests the user made in
                it; an earlier message the draft restates only through them was asked for
                again (the plan routed the request again), and is no duplicate.
        """
        if self.policy == "off" or not draft.strip():
            return GuardDecision(text=draft)
        config = self.config
        window = config.cross_turn_window
        index = _Index()
        users = _Users()
        current: list[Message] = []
        for position, message in enumerate(sent):
            if message.id == DRAFT_ID or message.turn > turn:
                continue
            if window is not None and message.turn < turn - window:
                continue
            if message.role == "user":
                users.add(_User.of(message))
            elif message.text.strip():
                index.add(_entry(position, message))
                if message.turn == turn:
                    current.append(message)
        message = Message(id=DRAFT_ID, turn=turn, role="bot", sender=sender, text=draft)
        entry = _entry(len(sent), message)
        findings: list[Finding] = []
        drop: list[Span] = []
        asked = [normalise(a) for a in answers if a.strip()]
        user = users.of_turn(turn)
        for pair in compare_entry(entry, index, users, thresholds(config), closers=self._closers):
            found = pair.found
            matches = found.matches
            if pair.scope == "cross_turn" and asked and user is not None:
                # What a sub-agent answered again this turn, when the user asked again ("again",
                # "repeat") or asked about it, was asked for again: no duplicate. A passage the
                # user's words do not touch (an old fact restated inside the answer to another
                # question) still is one.
                matches = tuple(
                    m
                    for m in matches
                    if not (
                        _answered(m.later.span.text, asked)
                        and (
                            user.reask
                            or not user.words.isdisjoint(content_words(m.later.span.text))
                        )
                    )
                )
                if found.matches and not matches:
                    continue
            findings.append(
                Finding(
                    kind="duplicate",
                    scope=pair.scope,
                    method=found.method,
                    turn=turn,
                    message_ids=(pair.earlier.message.id, DRAFT_ID),
                    senders=(pair.earlier.message.sender, sender),
                    score=found.score,
                    evidence=_evidence(found.method, [m.later.span.text for m in matches]),
                    highlights=tuple(
                        Highlight(message_id=DRAFT_ID, text=m.later.span.text) for m in matches
                    ),
                )
            )
            if not found.matches or (found.later_cover >= 1.0 and matches == found.matches):
                drop.extend(_claims_of(draft))
            else:
                drop.extend(m.later.span for m in matches)
        closers = self._closers_of(draft)
        earlier_closer = next((m for m in current if self._closers_of(m.text)), None)
        if closers and earlier_closer is not None:
            findings.append(
                Finding(
                    kind="duplicate",
                    scope="same_turn",
                    method="exact",
                    turn=turn,
                    message_ids=(earlier_closer.id, DRAFT_ID),
                    senders=(earlier_closer.sender, sender),
                    evidence="a closer twice in one turn",
                )
            )
            drop.extend(closers)
        if not findings:
            return GuardDecision(text=draft)
        for finding in findings:
            log.warning("duplicate in the draft (%s): %s", finding.method, finding.evidence)
        if self.policy == "warn":
            return GuardDecision(text=draft, findings=tuple(findings))
        text, dropped = _remove(draft, drop)
        return GuardDecision(text=text, dropped=dropped, findings=tuple(findings))

    def _closers_of(self, text: str) -> list[Span]:
        """The closing sentences of ``text`` ("Anything else?"): within the analysis budget,
        and, in a longer text, among its last characters (where closers stand)."""
        part = analysed_part(text)
        sentences = list(split_sentences(part))
        if len(part) < len(text):
            tail = max(len(part), len(text) - 4 * self._closer_length)
            sentences += [
                Span(s.start + tail, s.end + tail, s.text)
                for s in split_sentences(text[tail:])[1:]  # the first may be cut
            ]
        return [
            s
            for s in sentences
            if len(s.text) <= self._closer_length and normalise(s.text) in self._closers
        ]


def _answered(passage: str, asked: Sequence[str]) -> bool:
    """The passage is part of an answer the user asked for this turn (``asked``: normalised)."""
    text = normalise(passage)
    return bool(text) and any(text in a for a in asked)


_QUOTE = 200
"""The most characters of a restated passage quoted in a finding's evidence (and the log)."""


def _evidence(method: str, restated: list[str]) -> str:
    quoted = "; ".join(f'"{_shorten(" ".join(t[: 4 * _QUOTE].split()))}"' for t in restated[:3])
    return f"{method}: the draft restates {quoted or 'an earlier message'}"


def _shorten(text: str) -> str:
    return text if len(text) <= _QUOTE else text[: _QUOTE - 1] + "…"


def _claims_of(draft: str) -> list[Span]:
    """The draft's claims within the analysis budget (where anything can be found), and the rest
    of a longer draft as one piece."""
    part = analysed_part(draft)
    claims = list(split_claims(part))
    if len(part) < len(draft):
        claims.append(Span(len(part), len(draft), draft[len(part) :]))
    return claims


def _remove(draft: str, drop: Sequence[Span]) -> tuple[str, tuple[str, ...]]:
    """The draft without the dropped claims; "" when no claim with content is left."""
    gone = sorted({(s.start, s.end) for s in drop})
    dropped = tuple(draft[a:b] for a, b in gone)
    # The furthest end among the dropped spans that start at or before each start: a claim is
    # gone when a dropped span that starts at or before it reaches past its start.
    starts = [a for a, _ in gone]
    reach = list(accumulate((b for _, b in gone), max))
    kept = [
        c
        for c in _claims_of(draft)
        if (i := bisect_right(starts, c.start)) == 0 or reach[i - 1] <= c.start
    ]
    if not kept or (
        len(kept) <= CLAIM_BUDGET
        and all(not analyse(c.text).facts and len(analyse(c.text).words) <= 8 for c in kept)
    ):
        return "", dropped + tuple(c.text for c in kept)  # nothing but a closer is left
    text = " ".join(_sentence(c.text) for c in kept)
    return text, dropped


def _sentence(text: str) -> str:
    text = text.strip().rstrip(",;")
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?":
        text += "."
    return text
