"""The runtime duplicate guard (DESIGN.md section 4, step 4).

Before the parent sends its own message, the guard runs the simulator's duplicate detector on the
draft against what was already sent this turn and in recent turns. By policy it lets the draft through
(``off``), keeps it and reports the duplicates (``warn``), or removes only the duplicated sentences
(``drop``), so a parent that relays a sub-agent's answer among new content keeps the new content.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from harness.exceptions import ConfigError
from harness.simulate._duplicates import (
    MessageText,
    Turn,
    Window,
    limits,
    match_against,
    restated_units,
    turns_of,
)
from harness.simulate._text import BoilerplateIndex, Sentence, features, split_sentences
from harness.simulate.detectors import DetectorConfig, Finding
from harness.transcript import Message, Transcript

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
        self._boilerplate = BoilerplateIndex(self.config.boilerplate)

    def check(
        self, draft: str, *, sent: Sequence[Message], turn: int, sender: str = "parent"
    ) -> GuardDecision:
        """Compare ``draft`` with the messages sent this turn and in the recent turns.

        Args:
            draft: the parent's message before it is sent.
            sent: the conversation so far; pass user messages too, so that an answer the user
                asked for again is not taken for a duplicate.
            turn: the current turn.
            sender: the draft's sender, as named in the findings.
        """
        if self.policy == "off" or not draft.strip():
            return GuardDecision(text=draft)
        config = self.config
        window_start = turn - config.cross_turn_window
        earlier = [m for m in sent if window_start <= m.turn <= turn and m.id != DRAFT_ID]
        window = Window(config.cross_turn_window)
        current = Turn(number=turn)
        for past in turns_of(Transcript.from_messages(earlier), self._boilerplate):
            if past.number == turn:
                current = past
                continue
            items, past.items = past.items, []
            window.start(past)
            for item in items:
                window.add(item)
        items, current.items = current.items, []
        window.start(current)
        for item in items:
            window.add(item)
        message = Message(id=DRAFT_ID, turn=turn, role="bot", sender=sender, text=draft)
        item = MessageText(
            index=len(earlier), message=message, text=features(draft, self._boilerplate)
        )
        matches = match_against(item, window, config)
        findings: list[Finding] = []
        drop: list[Sentence] = []
        for other, match, scope in matches:
            findings.append(
                Finding(
                    kind="duplicate",
                    scope=scope,
                    method=match.method,
                    turn=turn,
                    message_ids=(other.message.id, DRAFT_ID),
                    senders=(other.message.sender, sender),
                    score=match.score,
                    evidence=match.evidence,
                )
            )
            drop.extend(restated_units(other.text, item.text, limits(config)))
            if match.method in ("exact", "near", "semantic"):
                drop.extend(item.text.sentences)
        closers = item.text.boilerplate
        twice = next((o for o in current.items if o.text.boilerplate), None)
        if closers and twice is not None:
            findings.append(
                Finding(
                    kind="duplicate",
                    scope="same_turn",
                    method="exact",
                    turn=turn,
                    message_ids=(twice.message.id, DRAFT_ID),
                    senders=(twice.message.sender, sender),
                    evidence="a boilerplate closer twice in one turn",
                )
            )
            drop.extend(closers)
        if not findings:
            return GuardDecision(text=draft)
        for finding in findings:
            log.warning("duplicate in the draft (%s): %s", finding.method, finding.evidence)
        if self.policy == "warn":
            return GuardDecision(text=draft, findings=tuple(findings))
        text, dropped = _remove(draft, drop, self._boilerplate)
        return GuardDecision(text=text, dropped=dropped, findings=tuple(findings))


def _remove(
    draft: str, drop: Sequence[Sentence], boilerplate: BoilerplateIndex
) -> tuple[str, tuple[str, ...]]:
    """The draft without the dropped sentences and clauses; "" when no content is left."""
    gone = {unit.text for unit in drop}
    kept: list[str] = []
    dropped: list[str] = []
    for raw in split_sentences(draft):
        if raw in gone:
            dropped.append(raw)
            continue
        parts = features(raw, boilerplate).sentences
        clauses = parts[0].clauses if parts else ()
        if clauses and any(c.text in gone for c in clauses):
            rest = [c.text for c in clauses if c.text not in gone]
            dropped.extend(c.text for c in clauses if c.text in gone)
            if rest:
                kept.append(_sentence(", ".join(rest)))
            continue
        kept.append(raw)
    text = " ".join(kept)
    if not features(text, boilerplate).sentences:
        return "", tuple(dropped) + tuple(kept)
    return text, tuple(dropped)


def _sentence(text: str) -> str:
    text = text.strip().rstrip(",;")
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?":
        text += "."
    return text
