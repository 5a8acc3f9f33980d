"""The transcript detectors: one object each, in one registry (:data:`DETECTORS`), as lint rules are.

Each :class:`Detector` has a stable ``id`` and ``name`` (its finding kind), a default
``severity``, its rationale (the class docstring), a short ``bad`` and ``good`` exchange, and
``check()``, which returns its findings in one conversation. :func:`detect` runs the enabled ones
(``DetectorConfig.kinds``); the reports order and label the kinds from this registry.
docs/simulate.md describes the kinds.

Precision comes first: a regression test that cries wolf gets turned off. So two messages that state
different facts, answer different requests, or repeat an answer the user asked for again are not
duplicates, and boilerplate closers only count when one turn sends two of them.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from harness.detect._meanwhile import Meanwhile
from harness.detect.duplicates import embed_messages, find_duplicates, judged_duplicates
from harness.detect.findings import (
    ALL_KINDS,
    DetectorConfig,
    Finding,
    FindingKind,
    Severity,
    request_key,
)
from harness.detect.transcript import Message, Transcript
from harness.exceptions import UsageError
from harness.text._acknowledge import acknowledgement

if TYPE_CHECKING:
    from harness.detect._meaning import Meanings
    from harness.detect.embeddings import Embedder
    from harness.detect.judge import ModelJudge
    from harness.detect.missed import CheckedTurn, DeclaredRequest

__all__ = [
    "DETECTORS",
    "DETECTORS_BY_NAME",
    "Detector",
    "detect",
    "detect_async",
    "is_subagent",
    "mode_of",
    "quote",
]

Vectors = Mapping[int, Sequence[float]]
"""Message embeddings by message index (the duplicate detector's ``semantic`` method)."""


class Detector:
    """A transcript detector (subclasses give the docstring: the rationale)."""

    id: ClassVar[str]
    """Stable id, ``HD001`` ...; never changes once released."""
    name: ClassVar[FindingKind]
    """Stable name: the kind of its findings (``DetectorConfig.kinds`` selects by it)."""
    label: ClassVar[str]
    """The kind as reports title it (``missed request``)."""
    severity: ClassVar[Severity]
    """The severity of its findings."""
    summary: ClassVar[str]
    """One line: when it fires."""
    bad: ClassVar[str]
    """A short exchange that it reports."""
    good: ClassVar[str]
    """The same exchange without the fault."""
    quotes_passages: ClassVar[bool] = False
    """Its quoted evidence is a passage of its messages (reports mark it when a finding carries
    no ``highlights`` of its own)."""

    @property
    def rationale(self) -> str:
        """Why the fault matters: the class docstring, dedented."""
        return inspect.cleandoc(type(self).__doc__ or "")

    def check(
        self, transcript: Transcript, *, config: DetectorConfig, vectors: Vectors | None = None
    ) -> list[Finding]:
        """Its findings in one conversation, in message order.

        Args:
            transcript: the conversation to check.
            config: the thresholds (the duplicate detector reads them).
            vectors: message embeddings, when an embedder ran.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Detector {self.id} {self.name}>"


# --- entry points -----------------------------------------------------------------------------


def detect(
    transcript: Transcript,
    *,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
    meaning: Embedder | None = None,
) -> list[Finding]:
    """Run the enabled detectors over one conversation, in turn order.

    Args:
        transcript: the conversation to check. Messages out of turn order (a late reply kept
            where it arrived) are judged as the same messages in turn order; the transcript
            itself is left as it is.
        config: thresholds and enabled kinds; the calibrated defaults when None.
        embedder: adds ``semantic`` duplicates; one whose ``meaning_model`` is not None (the
            local WordLlama) also lets the missed-request check read how close in meaning each
            request is to each sentence the bot sent, with that model's own fitted confidence.
            Embedding is async: inside a running event loop, use :func:`detect_async` instead.
        requests: the requests of some user messages, by 1-based turn (a scenario's
            ``requests:``); the missed-request check segments the other messages itself.
        meaning: the embedder the missed-request check reads meaning with, instead of
            ``embedder`` (e.g. :class:`~harness.detect.embeddings.MiniLMEmbedder`, read with its
            own fitted confidence, while WordLlama's vectors, or none, find duplicates). Its
            ``meaning_model`` must name a fitted confidence, or :class:`UsageError` is raised.

    Returns:
        The findings, ordered by turn.
    """
    transcript = _in_turn_order(transcript)
    if embedder is None and meaning is None:
        return _detect(transcript, config or DetectorConfig(), None, requests)
    import asyncio  # only embedding needs an event loop (loading it costs a plain run ~10 ms)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(
            detect_async(
                transcript, config=config, embedder=embedder, requests=requests, meaning=meaning
            )
        )
    raise UsageError("detect() with an embedder cannot run inside an event loop; use detect_async")


async def detect_async(
    transcript: Transcript,
    *,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    judge: ModelJudge | None = None,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
    meaning: Embedder | None = None,
) -> list[Finding]:
    """:func:`detect` for async callers: embeds the messages (when an embedder is given) first.

    Args:
        judge: an optional LLM judge (:class:`~harness.detect.judge.ModelJudge`) for the pairs
            the rules came close to calling duplicates; its reason becomes the evidence. A pair
            it cannot decide (the model failed or answered without a verdict) is left as the
            rules decided it, without raising: ``judge.undecided`` counts such pairs and
            ``judge.errors`` says why, so check them after the call.
    """
    transcript = _in_turn_order(transcript)
    config = config or DetectorConfig()
    vectors = None
    checked = None
    if embedder is not None and Duplicates.name in config.kinds:
        vectors = await embed_messages(transcript, embedder, config)
    reader = meaning if meaning is not None else embedder
    model = reader.meaning_model if reader is not None else None
    if model is not None or meaning is not None:
        from harness.detect._meaning import MEANING_MODELS

        if model not in MEANING_MODELS:
            raise UsageError(
                f"the missed-request check cannot read {type(reader).__name__}'s cosines: its "
                f"meaning_model is {model!r}, and only {sorted(MEANING_MODELS)} have a fitted "
                "confidence (a wrapper passes its wrapped embedder's meaning_model on)"
            )
    if reader is not None and model is not None and MissedRequests.name in config.kinds:
        checked = await _check_meanings(transcript, reader, model, requests)
    if judge is None or Duplicates.name not in config.kinds:
        return _detect(transcript, config, vectors, requests, checked)

    duplicates = await judged_duplicates(transcript, config, judge, vectors=vectors)
    rest = config.model_copy(update={"kinds": config.kinds - {Duplicates.name}})
    others = _detect(transcript, rest, None, requests, checked)
    return sorted([*duplicates, *others], key=lambda f: f.turn)


async def _check_meanings(
    transcript: Transcript,
    embedder: Embedder,
    model: str,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None,
) -> tuple[Meanings, list[CheckedTurn]]:
    """The vectors of the texts the missed-request check reads (the requests, sentences and
    messages of the turns where its matching leaves a request out: a few percent of a real
    conversation's texts), each embedded once, strictly (a text the check asks for and nobody
    embedded is an error, not a text that means nothing), and the turns they came from, each
    user message segmented once: the check, in its worker, reads them rather than segmenting
    again."""
    from harness.detect._meaning import Meanings
    from harness.detect.embeddings import EmbeddingCountError
    from harness.detect.missed import check_texts, check_turns

    turns = check_turns(transcript, requests)
    texts = check_texts(transcript, requests, turns=turns, model=model)
    vectors = await embedder.embed(texts) if texts else []
    if len(vectors) != len(texts):
        raise EmbeddingCountError(expected=len(texts), got=len(vectors))
    meanings = Meanings(dict(zip(texts, vectors, strict=True)), strict=True, model=model)
    return meanings, turns


def _in_turn_order(transcript: Transcript) -> Transcript:
    """``transcript``, or a copy whose messages are stably sorted by turn when they are not in
    turn order (the order within a turn is kept)."""
    messages = transcript.messages
    if all(a.turn <= b.turn for a, b in itertools.pairwise(messages)):
        return transcript
    return dataclasses.replace(transcript, messages=sorted(messages, key=lambda m: m.turn))


def _detect(
    transcript: Transcript,
    config: DetectorConfig,
    vectors: Vectors | None,
    requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
    checked: tuple[Meanings, list[CheckedTurn]] | None = None,
) -> list[Finding]:
    meanings, turns = checked if checked is not None else (None, None)

    def others() -> dict[str, list[Finding]]:
        found: dict[str, list[Finding]] = {}
        for detector in _RUN_ORDER:
            if detector.name not in config.kinds or isinstance(detector, Duplicates):
                continue
            if isinstance(detector, MissedRequests):
                found[detector.name] = detector.check(
                    transcript, config=config, requests=requests, meanings=meanings, turns=turns
                )
            else:
                found[detector.name] = detector.check(transcript, config=config, vectors=vectors)
        return found

    duplicates = next(
        (d for d in _RUN_ORDER if isinstance(d, Duplicates) and d.name in config.kinds), None
    )
    if duplicates is None:
        found = others()
    else:  # the other detectors run in a worker process beside the comparison, when it has any
        meanwhile = Meanwhile(others)
        compared = duplicates.check(transcript, config=config, vectors=vectors, meanwhile=meanwhile)
        found = {**meanwhile.result, duplicates.name: compared}
    findings = [f for detector in _RUN_ORDER for f in found.get(detector.name, ())]
    findings.sort(key=lambda f: f.turn)
    return findings


# --- helpers shared by the detectors ----------------------------------------------------------


def is_subagent(message: Message, transcript: Transcript) -> bool:
    """A message comes from a sub-agent when it carries a mode or its sender has a known mode."""
    return message.mode is not None or message.sender in transcript.agent_modes


def mode_of(message: Message, transcript: Transcript) -> str | None:
    """The mode of a message's sender: the message's own, else the transcript's for the sender."""
    return message.mode or transcript.agent_modes.get(message.sender)


def quote(text: str, limit: int = 80) -> str:
    """``text`` on one line, in double quotes, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


# --- the detectors ----------------------------------------------------------------------------


class Duplicates(Detector):
    """The user gets the same information twice: a sub-agent answers and the parent restates it,
    verbatim, reworded or as one sentence of a longer summary, in the same turn or a later one.
    The restatement adds nothing and makes the bot look confused about who already spoke."""

    id = "HD001"
    name = "duplicate"
    label = "duplicate"
    severity = Severity.ERROR
    summary = "Two bot messages state the same facts (same turn or across turns)."
    bad = "billing: Your balance is $42.10.\nparent: Your balance is $42.10."
    good = "billing: Your balance is $42.10.\nparent: Anything else about your bill?"
    quotes_passages = True

    def check(
        self,
        transcript: Transcript,
        *,
        config: DetectorConfig,
        vectors: Vectors | None = None,
        meanwhile: Meanwhile | None = None,
    ) -> list[Finding]:
        """Its findings; ``meanwhile`` is done once, by a worker process beside the analysis
        and the comparison (after the comparison, here, when there is none:
        :func:`~harness.detect.duplicates.find_duplicates`)."""
        return find_duplicates(transcript, config, vectors=vectors, meanwhile=meanwhile)


class MissedRequests(Detector):
    """Every request of a user message must be addressed in its turn. The check reads the
    requests from the message itself (or the scenario's ``requests:``), not from the runtime's
    plan, so a request the planner dropped or merged into another is found, and a transcript
    with no plan gets the same findings; harness.detect.missed says how."""

    id = "HD002"
    name = "missed_request"
    label = "missed request"
    severity = Severity.ERROR
    summary = "A request of the user's message got no answer in its turn."
    bad = "user: my balance, and when is my bill due?\nbilling: Your balance is $42.10."
    good = (
        "user: my balance, and when is my bill due?\n"
        "billing: Your balance is $42.10. Your bill is due on May 3."
    )

    def check(
        self,
        transcript: Transcript,
        *,
        config: DetectorConfig,
        vectors: Vectors | None = None,
        requests: Mapping[int, Sequence[DeclaredRequest]] | None = None,
        meanings: Meanings | None = None,
        turns: Sequence[CheckedTurn] | None = None,
    ) -> list[Finding]:
        """Its findings; ``requests`` are the requests a scenario declares, by turn;
        ``meanings`` the vectors of its texts, under ``--semantic``, and ``turns`` the turns
        they were read from (:func:`~harness.detect.missed.missed_requests`)."""
        # Imported here: the check's modules (the segmenter, the answer matcher) load in the
        # process that runs it, which with worker processes is the worker beside the analysis,
        # not this one before its analysis can start (harness.detect._meanwhile).
        from harness.detect.missed import missed_requests

        return missed_requests(
            transcript,
            declared=requests,
            meanings=meanings,
            turns=turns,
            min_confidence=config.missed_min_confidence,
        )


class SilentLeaks(Detector):
    """A silent sub-agent must only fill its outputs for the parent; a message from it reaches
    the user beside the parent's own answer, which then repeats or contradicts it."""

    id = "HD003"
    name = "silent_leak"
    label = "silent-mode leak"
    severity = Severity.ERROR
    summary = "A sub-agent in silent mode sent the user a message."
    bad = "lookup (silent): Found 3 orders.\nparent: You have 3 orders."
    good = "parent: You have 3 orders."

    def check(
        self, transcript: Transcript, *, config: DetectorConfig, vectors: Vectors | None = None
    ) -> list[Finding]:
        return [
            Finding(
                kind=self.name,
                turn=m.turn,
                message_ids=(m.id,),
                senders=(m.sender,),
                evidence=f"{m.sender} is a silent sub-agent and must not message the user: "
                f"{quote(m.text)}",
                severity=self.severity,
            )
            for m in transcript.messages
            if m.role == "bot" and mode_of(m, transcript) == "silent"
        ]


class WrongScope(Detector):
    """A sub-agent message tagged with a request the plan gave to another agent: the agent
    answered outside its scope, so the request's own agent may answer it again."""

    id = "HD004"
    name = "wrong_scope"
    label = "wrong scope"
    severity = Severity.ERROR
    summary = "A sub-agent answered a request the parent planned for another agent."
    bad = "plan: billing <- 'my balance'\nshipping [my balance]: Your balance is $42.10."
    good = "plan: billing <- 'my balance'\nbilling [my balance]: Your balance is $42.10."

    def check(
        self, transcript: Transcript, *, config: DetectorConfig, vectors: Vectors | None = None
    ) -> list[Finding]:
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
                        kind=self.name,
                        turn=m.turn,
                        message_ids=(m.id,),
                        senders=(m.sender,),
                        evidence=f"{m.sender} answered {quote(m.request)}, which was planned for "
                        f"{', '.join(sorted(owners))}",
                        severity=self.severity,
                    )
                )
        return findings


class AwkwardAcks(Detector):
    """The parent points at an earlier answer ("as the billing agent mentioned") instead of
    leaving it: the user already read it, and the phrase announces the repetition."""

    id = "HD005"
    name = "awkward_ack"
    label = "awkward acknowledgement"
    severity = Severity.WARNING
    summary = "The parent refers to an answer the user already got."
    bad = "billing: Your balance is $42.10.\nparent: As the billing agent mentioned, it is $42.10."
    good = "billing: Your balance is $42.10.\nparent: Anything else about your bill?"
    quotes_passages = True

    def check(
        self, transcript: Transcript, *, config: DetectorConfig, vectors: Vectors | None = None
    ) -> list[Finding]:
        # acknowledgement from its own module, loaded with the comparison's: the instruction
        # reader's module, which exports it too, loads seven modules of its own (about 0.04 s
        # in the process that runs this check) that no check reads.
        findings: list[Finding] = []
        for m in transcript.messages:
            if m.role != "bot" or is_subagent(m, transcript):
                continue
            phrase = acknowledgement(m.text)
            if phrase is not None:
                findings.append(
                    Finding(
                        kind=self.name,
                        turn=m.turn,
                        message_ids=(m.id,),
                        senders=(m.sender,),
                        evidence=f'refers to an earlier answer instead of leaving it: "{phrase}"',
                        severity=self.severity,
                    )
                )
        return findings


# --- the registry -----------------------------------------------------------------------------

DETECTORS: tuple[Detector, ...] = (
    Duplicates(),
    MissedRequests(),
    SilentLeaks(),
    WrongScope(),
    AwkwardAcks(),
)
"""Every transcript detector, in id order (the order reports list the kinds in)."""

DETECTORS_BY_NAME: Mapping[str, Detector] = {d.name: d for d in DETECTORS}
"""The detectors keyed by name (their finding kind)."""

_RUN_ORDER: tuple[Detector, ...] = tuple(
    DETECTORS_BY_NAME[name]
    for name in ("duplicate", "silent_leak", "awkward_ack", "missed_request", "wrong_scope")
)
"""The order ``detect`` runs them in: findings of one turn keep it (a stable sort by turn)."""

if frozenset(DETECTORS_BY_NAME) != ALL_KINDS:  # pragma: no cover - a registry edit gone wrong
    raise AssertionError("every finding kind needs exactly one detector")
