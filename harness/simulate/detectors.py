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
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from harness.detect.duplicates import embed_messages, find_duplicates, judged_duplicates
from harness.detect.findings import (
    ALL_KINDS,
    DEFAULT_BOILERPLATE,
    DetectorConfig,
    Finding,
    FindingKind,
    Highlight,
    Scope,
    Severity,
    request_key,
)
from harness.detect.missed import DeclaredRequest, missed_requests
from harness.exceptions import UsageError
from harness.transcript import Message, Transcript

if TYPE_CHECKING:
    from harness.simulate.embeddings import Embedder
    from harness.simulate.judge import ModelJudge

__all__ = [
    "ALL_KINDS",
    "DEFAULT_BOILERPLATE",
    "DetectorConfig",
    "Expectation",
    "Finding",
    "FindingKind",
    "Highlight",
    "Scope",
    "Severity",
    "check_expectations",
    "detect",
    "detect_async",
]


class Expectation(Protocol):
    """One request of a scenario turn (``RequestExpectation`` in ``harness.simulate.scenarios``)."""

    @property
    def agent(self) -> str:
        """The sub-agent (or the parent) the request is meant for."""

    @property
    def expect(self) -> str | None:
        """Text the answer must contain (case-insensitive), when the scenario gives one."""


# --- entry points -----------------------------------------------------------------------------


def detect(
    transcript: Transcript,
    *,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
) -> list[Finding]:
    """Run the enabled detectors over one conversation, in turn order.

    Args:
        transcript: the conversation to check.
        config: thresholds and enabled kinds; the calibrated defaults when None.
        embedder: adds ``semantic`` duplicates. Embedding is async: inside a running event loop,
            use :func:`detect_async` instead.
        requests: the requests of some user messages, by 1-based turn (a scenario's
            ``requests:``); the missed-request check segments the other messages itself.

    Returns:
        The findings, ordered by turn.
    """
    if embedder is None:
        return _detect(transcript, config or DetectorConfig(), None, requests)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(
            detect_async(transcript, config=config, embedder=embedder, requests=requests)
        )
    raise UsageError("detect() with an embedder cannot run inside an event loop; use detect_async")


async def detect_async(
    transcript: Transcript,
    *,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    judge: ModelJudge | None = None,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
) -> list[Finding]:
    """:func:`detect` for async callers: embeds the messages (when an embedder is given) first.

    Args:
        judge: an optional LLM judge (:class:`~harness.simulate.judge.ModelJudge`) for the pairs
            the rules came close to calling duplicates; its reason becomes the evidence.
    """
    config = config or DetectorConfig()
    vectors = None
    if embedder is not None and "duplicate" in config.kinds:
        vectors = await embed_messages(transcript, embedder, config)
    if judge is None or "duplicate" not in config.kinds:
        return _detect(transcript, config, vectors, requests)

    duplicates = await judged_duplicates(transcript, config, judge, vectors=vectors)
    rest = config.model_copy(update={"kinds": config.kinds - {"duplicate"}})
    return sorted([*duplicates, *_detect(transcript, rest, None, requests)], key=lambda f: f.turn)


def _detect(
    transcript: Transcript,
    config: DetectorConfig,
    vectors: Mapping[int, Sequence[float]] | None,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
) -> list[Finding]:

    findings: list[Finding] = []
    if "duplicate" in config.kinds:
        findings.extend(find_duplicates(transcript, config, vectors=vectors))
    if "silent_leak" in config.kinds:
        findings.extend(_silent_leaks(transcript))
    if "awkward_ack" in config.kinds:
        findings.extend(_awkward_acks(transcript))
    if "missed_request" in config.kinds:
        findings.extend(missed_requests(transcript, declared=requests))
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


# --- plan-based checks (missed requests: harness.detect.missed) ---------------------------------


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
                    continue  # the missed-request check already reported it
                failed = any(r.turn == turn and exp.agent in r.failed for r in transcript.turns)
                out.append(
                    Finding(
                        kind="missed_request",
                        turn=turn,
                        message_ids=(),
                        senders=(exp.agent,),
                        evidence=f"expected {_quote(exp.expect)} from {exp.agent}; "
                        f"no bot message in turn {turn} contains it"
                        + (f" ({exp.agent} failed)" if failed else ""),
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
