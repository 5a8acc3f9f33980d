"""Detectors: duplicate messages, missed requests, silent-mode leaks, wrong scope, awkward acks.

``detect`` runs every enabled detector over a :class:`~harness.transcript.Transcript` and returns
:class:`Finding` records that name the messages (by their transcript ids), their senders, the turn
and the evidence. ``check_expectations`` adds the scenario checks: each expected answer given
exactly once, by the agent it was meant for. docs/simulate.md describes the kinds.

Precision comes first: a regression test that cries wolf gets turned off. So two messages that state
different facts, answer different requests, or repeat an answer the user asked for again are not
duplicates, and boilerplate closers only count when one turn sends two of them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from harness.exceptions import UsageError
from harness.transcript import Message, Transcript

if TYPE_CHECKING:
    from harness.simulate.embeddings import Embedder
    from harness.simulate.judge import ModelJudge

__all__ = [
    "DEFAULT_BOILERPLATE",
    "DetectorConfig",
    "Expectation",
    "Finding",
    "FindingKind",
    "Highlight",
    "check_expectations",
    "detect",
    "detect_async",
]

FindingKind = Literal["duplicate", "missed_request", "silent_leak", "wrong_scope", "awkward_ack"]
Scope = Literal["same_turn", "cross_turn"]
Severity = Literal["error", "warning"]

ALL_KINDS: frozenset[FindingKind] = frozenset(
    ("duplicate", "missed_request", "silent_leak", "wrong_scope", "awkward_ack")
)

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

    The duplicate thresholds were tuned on transcripts ``d01``-``d40`` of a labelled corpus of
    realistic parent/sub-agent transcripts and checked on ``d41``-``d60``; ``docs/simulate.md``
    gives the figures. They compare *claims* (sentences, list items, clauses) of two messages,
    not whole messages.
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
    semantic_threshold: float = Field(default=0.88, ge=0.0, le=1.0)
    """With an embedder: cosine similarity of two messages' embeddings that makes them
    ``semantic`` duplicates when their specific facts agree."""
    strict_threshold: float = Field(default=0.9, ge=0.0, le=1.0)
    """Two messages tagged with different requests count as duplicates only when every restated
    claim is at least this similar (near-verbatim)."""
    cross_turn_window: int | None = Field(default=None, ge=0)
    """How many earlier turns a message is compared with; None: the whole conversation."""
    min_words: int = Field(default=2, ge=1)
    """Messages with fewer content words are not embedded."""
    boilerplate: tuple[str, ...] = DEFAULT_BOILERPLATE
    """Closers and sign-offs the runtime guard drops when one turn would send two."""


class Expectation(Protocol):
    """One request of a scenario turn (``RequestExpectation`` in ``harness.simulate.scenarios``)."""

    @property
    def agent(self) -> str:
        """The sub-agent (or the parent) the request is meant for."""

    @property
    def expect(self) -> str | None:
        """Text the answer must contain (case-insensitive), when the scenario gives one."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Highlight:
    """A passage of one message that a finding is about."""

    message_id: str
    """The message's transcript id."""
    text: str
    """The passage, exactly as it stands in the message's text."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One problem found in a transcript."""

    kind: FindingKind
    """``duplicate``, ``missed_request``, ``silent_leak``, ``wrong_scope`` or ``awkward_ack``."""
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
    """Duplicates only: ``exact``, ``near``, ``containment``, ``semantic`` or ``expectation``."""
    score: float | None = None
    """The similarity that decided it, when there is one."""
    severity: Severity = "error"
    """``awkward_ack`` is a warning; everything else is an error."""
    highlights: tuple[Highlight, ...] = ()
    """The exact passages of the messages that are repeated (or awkward), for reports to mark."""

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
            record["score"] = round(self.score, 3)
        record["evidence"] = self.evidence
        if self.highlights:
            record["highlights"] = [
                {"message_id": h.message_id, "text": h.text} for h in self.highlights
            ]
        return record


# --- entry points -----------------------------------------------------------------------------


def detect(
    transcript: Transcript,
    *,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
) -> list[Finding]:
    """Run the enabled detectors over one conversation, in turn order.

    Args:
        transcript: the conversation to check.
        config: thresholds and enabled kinds; the calibrated defaults when None.
        embedder: adds ``semantic`` duplicates. Embedding is async: inside a running event loop,
            use :func:`detect_async` instead.

    Returns:
        The findings, ordered by turn.
    """
    if embedder is None:
        return _detect(transcript, config or DetectorConfig(), None)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(detect_async(transcript, config=config, embedder=embedder))
    raise UsageError("detect() with an embedder cannot run inside an event loop; use detect_async")


async def detect_async(
    transcript: Transcript,
    *,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    judge: ModelJudge | None = None,
) -> list[Finding]:
    """:func:`detect` for async callers: embeds the messages (when an embedder is given) first.

    Args:
        judge: an optional LLM judge (:class:`~harness.simulate.judge.ModelJudge`) for the pairs
            the rules came close to calling duplicates; its reason becomes the evidence.
    """
    config = config or DetectorConfig()
    vectors = None
    if embedder is not None and "duplicate" in config.kinds:
        from harness.simulate._duplicates import embed_messages

        vectors = await embed_messages(transcript, embedder, config)
    if judge is None or "duplicate" not in config.kinds:
        return _detect(transcript, config, vectors)
    from harness.simulate._duplicates import judged_duplicates

    duplicates = await judged_duplicates(transcript, config, judge, vectors=vectors)
    rest = config.model_copy(update={"kinds": config.kinds - {"duplicate"}})
    return sorted([*duplicates, *_detect(transcript, rest, None)], key=lambda f: f.turn)


def _detect(
    transcript: Transcript, config: DetectorConfig, vectors: Mapping[int, Sequence[float]] | None
) -> list[Finding]:
    from harness.simulate._duplicates import find_duplicates

    findings: list[Finding] = []
    if "duplicate" in config.kinds:
        findings.extend(find_duplicates(transcript, config, vectors=vectors))
    if "silent_leak" in config.kinds:
        findings.extend(_silent_leaks(transcript))
    if "awkward_ack" in config.kinds:
        findings.extend(_awkward_acks(transcript))
    if "missed_request" in config.kinds:
        findings.extend(_missed_requests(transcript))
    if "wrong_scope" in config.kinds:
        findings.extend(_wrong_scope(transcript))
    findings.sort(key=lambda f: f.turn)
    return findings


# --- helpers shared by the detectors ----------------------------------------------------------


def is_subagent(message: Message, transcript: Transcript) -> bool:
    """A message comes from a sub-agent when it carries a mode or its sender has a known mode."""
    return message.mode is not None or message.sender in transcript.agent_modes


def mode_of(message: Message, transcript: Transcript) -> str | None:
    return message.mode or transcript.agent_modes.get(message.sender)


def request_key(request: str | None) -> str:
    """A request's words, lower-cased: two spellings of one request get the same key."""
    return _request_key(request) if request else ""


_REQUEST_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=16_384)
def _request_key(request: str) -> str:
    return " ".join(_REQUEST_WORD.findall(request.lower()))


# --- silent leaks, awkward acks ---------------------------------------------------------------


def _silent_leaks(transcript: Transcript) -> list[Finding]:
    return [
        Finding(
            kind="silent_leak",
            turn=m.turn,
            message_ids=(m.id,),
            senders=(m.sender,),
            evidence=f"{m.sender} is a silent sub-agent and must not message the user: "
            f"{_quote(m.text)}",
        )
        for m in transcript.messages
        if m.role == "bot" and mode_of(m, transcript) == "silent"
    ]


_AWKWARD = re.compile(
    r"\b(?:"
    r"(?:as|like) (?:i|we) (?:(?:just|already|previously) )?"
    r"(?:mentioned|said|noted|stated|explained|told you|shared|pointed out)"
    r"|as (?:(?:was|i) )?(?:previously|already|just) (?:mentioned|said|stated|noted|explained)"
    r"|as (?:mentioned|noted|stated|explained|shown|said|discussed|covered) "
    r"(?:above|earlier|before|previously)"
    r"|as (?:you (?:already )?(?:know|heard|saw|were told)|(?:you )?(?:just )?(?:heard|saw))"
    # "As the billing agent mentioned", "Like the registrar said", "as our team noted"
    r"|(?:as|like) (?:the|our) (?:[\w-]+ ){0,3}?(?:(?:just|already|previously) )?"
    r"(?:said|mentioned|noted|told you|explained|shared|pointed out)"
    r"|(?:the |our )?[\w-]+ (?:agent|assistant|bot|team) (?:has )?(?:already|just) "
    r"(?:told|answered|said|mentioned|shared|explained)"
    r"|(?:you(?:'ve| have)|you were) already (?:been )?(?:told|given|received|got(?:ten)?)"
    r"|(?:to )?(?:reiterate|restate|recap|repeat)(?:ing)? what"
    r")\b",
    re.IGNORECASE,
)


# A word every phrase of ``_AWKWARD`` starts with (most messages have none: a cheap first test).
_AWKWARD_HINT = re.compile(
    r"\b(?:as |like |already|just |reiterat|restat|recap|repeat)", re.IGNORECASE
)


@lru_cache(maxsize=16_384)
def _awkward_phrase(text: str) -> str | None:
    """The phrase of ``text`` that refers to an earlier answer, if any."""
    text = text.replace("’", "'")
    if not _AWKWARD_HINT.search(text):
        return None
    match = _AWKWARD.search(text)
    return match.group(0) if match else None


def _awkward_acks(transcript: Transcript) -> list[Finding]:
    findings: list[Finding] = []
    for m in transcript.messages:
        if m.role != "bot" or is_subagent(m, transcript):
            continue
        phrase = _awkward_phrase(m.text)
        if phrase is not None:
            findings.append(
                Finding(
                    kind="awkward_ack",
                    turn=m.turn,
                    message_ids=(m.id,),
                    senders=(m.sender,),
                    evidence=f'refers to an earlier answer instead of leaving it: "{phrase}"',
                    severity="warning",
                )
            )
    return findings


# --- plan-based checks ------------------------------------------------------------------------


def _missed_requests(transcript: Transcript) -> list[Finding]:
    """A planned request is missed when nothing in its turn answers it.

    A message tagged with the request answers it; so does any message from its agent when that
    agent had only this request. A silent agent's findings (and the parent's own requests) reach
    the user through the parent's untagged message, so such a message counts as the answer unless
    the agent failed. A direct agent that claimed ``answered`` but sent nothing missed it.
    """
    findings: list[Finding] = []
    subagents = set(transcript.agent_modes) | {
        m.sender for m in transcript.messages if m.mode is not None
    }
    by_turn: dict[int, list[Message]] = {}
    for m in transcript.messages:
        if m.role == "bot":
            by_turn.setdefault(m.turn, []).append(m)
    for record in transcript.turns:
        bots = by_turn.get(record.turn, [])
        tagged = {request_key(m.request) for m in bots if m.request}
        senders = {m.sender for m in bots}
        parent_untagged = any(m.request is None and m.sender not in subagents for m in bots)
        per_agent: dict[str, int] = {}
        for planned in record.plan:
            per_agent[planned.agent] = per_agent.get(planned.agent, 0) + 1
        for planned in record.plan:
            agent = planned.agent
            if request_key(planned.request) in tagged:
                continue
            if per_agent[agent] == 1 and agent in senders:
                continue
            mode = transcript.agent_modes.get(agent)
            claimed = agent in record.answered_by and mode in ("direct", "conversational")
            failed = agent in record.failed
            if parent_untagged and not failed and not claimed:
                continue
            if failed:
                why = f"{agent} failed and no message answered it"
            elif claimed:
                why = f"{agent} said answered but sent no message"
            else:
                why = "no message answered it"
            findings.append(
                Finding(
                    kind="missed_request",
                    turn=record.turn,
                    message_ids=(),
                    senders=(agent,),
                    evidence=f"{_quote(planned.request)} (planned for {agent}): {why}",
                )
            )
    return findings


def _wrong_scope(transcript: Transcript) -> list[Finding]:
    """A sub-agent message tagged with a request the plan gave to another agent."""
    findings: list[Finding] = []
    plans = {record.turn: record.plan for record in transcript.turns}
    for m in transcript.messages:
        plan = plans.get(m.turn)
        if m.role != "bot" or not plan or not m.request or not is_subagent(m, transcript):
            continue
        key = request_key(m.request)
        owners = {p.agent for p in plan if request_key(p.request) == key}
        if owners and m.sender not in owners:
            findings.append(
                Finding(
                    kind="wrong_scope",
                    turn=m.turn,
                    message_ids=(m.id,),
                    senders=(m.sender,),
                    evidence=f"{m.sender} answered {_quote(m.request)}, which was planned for "
                    f"{', '.join(sorted(owners))}",
                )
            )
    return findings


# --- scenario expectations --------------------------------------------------------------------


@lru_cache(maxsize=16_384)
def _squash(text: str) -> str:
    return " ".join(text.replace("’", "'").lower().split())


def check_expectations(
    transcript: Transcript,
    expectations: Mapping[int, Sequence[Expectation]],
    *,
    findings: Sequence[Finding] = (),
) -> list[Finding]:
    """Check a scenario's expected answers: each given exactly once, by its own agent.

    For every turn's expectations: no bot message containing the expected text is a
    ``missed_request``; two messages from different senders containing it are a ``duplicate``
    (method ``expectation``); a sub-agent other than the expected one giving it is ``wrong_scope``
    (the parent relaying an answer is not). An expectation without text only checks that a
    direct or conversational agent said something.

    Args:
        transcript: the conversation the scenario produced.
        expectations: the expectations of each turn, by 1-based turn number.
        findings: findings already reported (by :func:`detect`); a duplicate of the same messages
            is not reported twice.

    Returns:
        The new findings, ordered by turn.
    """
    seen = {frozenset(f.message_ids) for f in findings if f.kind == "duplicate" and f.message_ids}
    missed = {
        (f.turn, sender) for f in findings if f.kind == "missed_request" for sender in f.senders
    }
    out: list[Finding] = []
    for turn in sorted(expectations):
        bots = transcript.bot_messages(turn)
        for exp in expectations[turn]:
            if exp.expect is None:
                out.extend(_expected_agent(transcript, turn, bots, exp.agent))
                continue
            needle = _squash(exp.expect)
            hits = [m for m in bots if needle in _squash(m.text)]
            if not hits:
                if (turn, exp.agent) in missed:
                    continue  # the plan-based detector already reported it, with its reason
                out.append(
                    Finding(
                        kind="missed_request",
                        turn=turn,
                        message_ids=(),
                        senders=(exp.agent,),
                        evidence=f"expected {_quote(exp.expect)} from {exp.agent}; "
                        f"no bot message in turn {turn} contains it",
                    )
                )
                continue
            first = hits[0]
            for later in hits[1:]:
                pair = frozenset((first.id, later.id))
                if later.sender != first.sender and pair not in seen:
                    seen.add(pair)
                    out.append(
                        Finding(
                            kind="duplicate",
                            scope="same_turn",
                            method="expectation",
                            turn=turn,
                            message_ids=(first.id, later.id),
                            senders=(first.sender, later.sender),
                            evidence=f"the answer {_quote(exp.expect)} was given twice",
                        )
                    )
            for m in hits:
                if m.sender != exp.agent and is_subagent(m, transcript):
                    out.append(
                        Finding(
                            kind="wrong_scope",
                            turn=turn,
                            message_ids=(m.id,),
                            senders=(m.sender,),
                            evidence=f"{m.sender} gave {_quote(exp.expect)}, the answer expected "
                            f"from {exp.agent}",
                        )
                    )
    return out


def _expected_agent(
    transcript: Transcript, turn: int, bots: Sequence[Message], agent: str
) -> list[Finding]:
    """Without expected text: a direct or conversational agent must have said something."""
    if transcript.agent_modes.get(agent) not in ("direct", "conversational"):
        return []  # silent agents and the parent answer through the parent's message
    if any(m.sender == agent for m in bots):
        return []
    return [
        Finding(
            kind="missed_request",
            turn=turn,
            message_ids=(),
            senders=(agent,),
            evidence=f"{agent} was expected to answer in turn {turn} but sent no message",
        )
    ]


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'
