"""What the detectors report (``Finding``, ``Highlight``), how serious it is (``Severity``) and how
they are tuned (``DetectorConfig``).

``Severity`` is the one severity scale of the package: the transcript detectors
(``harness.detect.detectors``), the runtime duplicate guard and the config linter
(``harness.lint``) all grade their findings with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ALL_KINDS",
    "CHECK_KIND",
    "CONTRACT_KIND",
    "DEFAULT_BOILERPLATE",
    "DetectorConfig",
    "Finding",
    "FindingKind",
    "Highlight",
    "Scope",
    "Severity",
    "floor_score",
    "request_key",
]

FindingKind = Literal[
    "duplicate",
    "missed_request",
    "silent_leak",
    "wrong_scope",
    "awkward_ack",
    "failed_check",
    "contract",
]
Scope = Literal["same_turn", "cross_turn"]


class Severity(StrEnum):
    """How serious a finding is. Only errors fail a run (exit code 1); warnings and notes are shown.

    A ``StrEnum``: each member equals its value (``Severity.ERROR == "error"``) and reports write
    the value.
    """

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


CHECK_KIND: FindingKind = "failed_check"
"""The kind of a scenario check that failed (``harness.detect.checks``); no detector reports it."""

CONTRACT_KIND: FindingKind = "contract"
"""The kind of a sub-agent result that broke its contract in a simulated conversation (the
runtime's ``SubagentResult.violations``); no detector reports it."""

ALL_KINDS: frozenset[FindingKind] = frozenset(get_args(FindingKind)) - {CHECK_KIND, CONTRACT_KIND}
"""Every kind a detector reports; each is the name of one detector
(``harness.detect.detectors.DETECTORS``)."""

DEFAULT_BOILERPLATE: tuple[str, ...] = (
    "Anything else I can help with?",
    "Is there anything else I can help you with?",
    "Is there anything else I can help you with today?",
    "Is there anything else you need?",
    "Can I help with anything else?",
    "Can I help you with anything else?",
    "What else can I help you with?",
    "Let me know if you need anything else.",
    "Let me know if there's anything else I can do.",
    "Let me know if you have any other questions.",
    "Feel free to ask if you have any other questions.",
    "Do you have any other questions?",
    "Hope that helps!",
    "I hope this helps.",
    "Happy to help!",
    "Glad I could help!",
    "You're welcome!",
    "Have a great day!",
)


class DetectorConfig(BaseModel):
    """Which detectors run and how sensitive the duplicate detector is.

    The duplicate thresholds decide which pairs are candidates, comparing *claims* (sentences,
    list items, clauses) of two messages, not whole messages; a learned pair scorer decides
    which candidates are duplicates (``docs/detector.md`` gives its out-of-sample figures).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kinds: frozenset[FindingKind] = ALL_KINDS
    """The finding kinds to report."""
    near_threshold: float = Field(default=0.6, ge=0.0, le=1.0)
    """Jaccard similarity of two whole messages' content words above which a restatement that
    covers both is ``near`` rather than ``semantic``."""
    sentence_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    """Dice similarity of content words two claims sharing exactly one specific fact (an amount,
    a date, an id) must reach to say the same thing."""
    containment_threshold: float = Field(default=0.6, ge=0.0, le=1.0)
    """Dice similarity of content words two claims without shared specific facts must reach."""
    cover_threshold: float = Field(default=0.75, ge=0.0, le=1.0)
    """The share of a message (by content words and facts) restated claims must make up for the
    message to count as covered; both covered: ``near``/``semantic``, else ``containment``."""
    semantic_threshold: float = Field(default=0.615, ge=0.0, le=1.0)
    """With an embedder: cosine similarity of two messages' embeddings at which, when their
    specific facts agree, they become a ``semantic`` candidate for the pair scorer. The default is
    the best-F1 cosine of the ``embeddings`` extra's model (WordLlama) on paraphrase and
    template-same pairs built from SGD train (``tools/detector/embeddings.py``)."""
    strict_threshold: float = Field(default=0.9, ge=0.0, le=1.0)
    """Two messages tagged with different requests count as duplicates only when every restated
    claim is at least this similar (near-verbatim)."""
    cross_turn_window: int | None = Field(default=None, ge=0)
    """How many earlier turns a message is compared with; None: the whole conversation."""
    min_words: int = Field(default=2, ge=1)
    """Messages with fewer content words are not embedded."""
    boilerplate: tuple[str, ...] = DEFAULT_BOILERPLATE
    """Closers and sign-offs the runtime guard drops when one turn would send two."""
    missed_min_confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    """The missed-request check reports only the requests it is at least this sure are
    unanswered (``missed_requests(..., min_confidence=...)``; ``harness detect/simulate
    --min-confidence``). 0 reports every one; ``matcher().report_threshold`` is the sure level."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Highlight:
    """A passage of one message that a finding is about."""

    message_id: str
    """The message's transcript id."""
    text: str
    """The passage, exactly as it stands in the message's text."""


def floor_score(score: float) -> float:
    """``score`` to 3 decimals, rounded down (by its shortest decimal form): a missed request's
    confidence shown so never reaches a level the score itself is below (0.97395 is 0.973, as
    ``sure``, 0.974, withholds it)."""
    return float(Decimal(repr(score)).quantize(Decimal("0.001"), rounding=ROUND_FLOOR))


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One problem found in a transcript."""

    kind: FindingKind
    """``duplicate``, ``missed_request``, ``silent_leak``, ``wrong_scope``, ``awkward_ack``,
    ``failed_check`` (a scenario's own check) or ``contract`` (a sub-agent broke its contract)."""
    turn: int
    """The turn where it happened (for a cross-turn duplicate, the later turn)."""
    message_ids: tuple[str, ...]
    """The transcript's own ids of the messages involved, earlier first."""
    senders: tuple[str, ...]
    """The sender of each message in ``message_ids``."""
    evidence: str
    """Why: the repeated text, the missing request, the offending phrase."""
    scope: Scope | None = None
    """Duplicates only: ``same_turn`` or ``cross_turn``."""
    method: str | None = None
    """Duplicates: ``exact``, ``near``, ``containment``, ``semantic`` or ``expectation``; failed
    checks: the check (``expect``, ``not``, ``regex``, ``equals``, ``tools``, ``never_calls``);
    contract findings: the violation (``missing_output``, ``invalid_output``, ...)."""
    score: float | None = None
    """Duplicates: the similarity that decided it, when there is one; a missed request: how
    sure the check is (0 to 1) that the request went unanswered (its confidence, the figure
    ``--min-confidence`` compares), when the check judged it."""
    severity: Severity = Severity.ERROR
    """``awkward_ack``, a check that could not be made and an advisory contract violation are
    warnings; everything else is an error."""
    highlights: tuple[Highlight, ...] = ()
    """The exact passages of the messages that are repeated (or awkward), for reports to mark."""
    cause: str | None = None
    """A hint at why it happened, when one can be known from the bot's config (the parent does
    not check ``answered``, generated instructions are off, ...); set by ``harness simulate``
    for an in-process bot (``harness.lint.causes``), None otherwise."""

    def to_json(self) -> dict[str, Any]:
        """The finding as in the ``detect`` JSON report (optional keys left out when unset)."""
        record: dict[str, Any] = {"kind": self.kind}
        if self.scope is not None:
            record["scope"] = self.scope
        if self.method is not None:
            record["method"] = self.method
        record["turn"] = self.turn
        record["message_ids"] = list(self.message_ids)
        record["senders"] = list(self.senders)
        if self.score is not None:
            sure = self.kind == "missed_request"  # a level compares it: never shown above it
            record["score"] = floor_score(self.score) if sure else round(self.score, 3)
        record["evidence"] = self.evidence
        if self.cause is not None:
            record["cause"] = self.cause
        if self.highlights:
            record["highlights"] = [
                {"message_id": h.message_id, "text": h.text} for h in self.highlights
            ]
        return record


def request_key(request: str | None) -> str:
    """A request's words, lower-cased: two spellings of one request get the same key."""
    return _request_key(request) if request else ""


_REQUEST_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=16_384)
def _request_key(request: str) -> str:
    return " ".join(_REQUEST_WORD.findall(request.lower()))
