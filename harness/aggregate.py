"""Result aggregation: several sub-agents' results for one turn become one audited answer.

Stacking raw outputs gives a redundant, contradictory reply, so ``aggregate`` runs a fixed pipeline
over a schema fixed before any agent runs (``AgentOutput`` in, ``AggregatedResult`` out):

1. Validate: ``valid``, ``partial`` (kept, flagged with what is missing), ``invalid`` (dropped:
   contract violations) or ``empty`` (failed, timed out, nothing returned).
2. Deduplicate: exact (SHA-256 of canonical JSON), then semantic when an embedder is given (cosine
   at ``semantic_threshold``, 0.92 by default; with the local embedder it merges about a fifth of
   paraphrases and almost no texts that differ in a value, measured in docs/teams.md). Texts whose
   numbers differ are never semantic duplicates: "12 days" and "8 days" are two facts.
3. Resolve conflicts (different values for one ``data`` key) per field, recording each in
   ``conflicts_resolved``. Values are compared in their canonical form (``canonical_value``):
   ``20``, ``20.0`` and ``"20"`` are one value, so are ``"Paris"`` and ``" paris"``.
   ``confidence``: the most confident value wins (ties: better validation score; different values
   still tied stay unresolved, never settled by input order). ``voting``: the most frequent value
   wins (ties: the value with the most confident supporter; a remaining tie stays unresolved).
   ``llm_arbitration``: a ``Model`` picks a candidate by number (an unusable answer stays
   unresolved). ``human_escalation``: raises ``HumanEscalationError`` carrying the conflict.
   Unresolved fields are left out of ``details``.
4. Rank: 0.4 × confidence + 0.4 × validation score + 0.2 × completeness (unknown confidence counts
   as 0; validation score 0.7 + 0.3 × confidence when valid, 0.4 when partial; completeness 1.0
   for a complete valid result, else 0.3).
5. Synthesise the summary from the top ``top_k`` results only (5 by default, at most 7), with a
   ``Model`` when given, otherwise by joining their texts without repeated sentences and without
   an agent's sentences stating its value that lost a conflict, in whatever form its text writes
   it ("$1,150", "eighteen"; recorded in its ``SourceRecord``).
6. Confidence: the minimum of the kept results' confidences, never the mean (unknown counts as 0).
7. QA before delivery: summary present and at least 30 characters, sources attributed, confidence
   at least 0.3, no unresolved conflict. The issues come back with the result; nothing is raised.

``collect`` runs the agents concurrently, each under its own timeout, and ``from_subagent_results``
adapts the runtime's ``SubagentResult`` records.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, get_args

from pydantic import BaseModel, ConfigDict, Field

from harness._values import canonical_value
from harness.exceptions import HumanEscalationError, UsageError
from harness.models.base import ChatMessage, Model, ModelRequest
from harness.text import extract_facts, split_sentences
from harness.text.spelled import spelled_values
from subagents import SubagentResult

__all__ = [
    "DEFAULT_SEMANTIC_THRESHOLD",
    "AgentOutput",
    "AggregatedResult",
    "AggregationMetadata",
    "Candidate",
    "Category",
    "ConflictRecord",
    "ConflictStrategy",
    "QACode",
    "QAIssue",
    "SourceRecord",
    "SupportsEmbed",
    "Validation",
    "aggregate",
    "canonical_hash",
    "canonical_value",
    "collect",
    "from_subagent_results",
    "qa_check",
    "rank_score",
    "validate_output",
]

DEFAULT_SEMANTIC_THRESHOLD = 0.92
"""Cosine at or above which two texts are semantic duplicates (a cautious filter: docs/teams.md)."""

Category = Literal["valid", "partial", "invalid", "empty"]
ConflictStrategy = Literal["confidence", "voting", "llm_arbitration", "human_escalation"]
RunStatus = Literal["complete", "partial", "failed", "timed_out"]
QACode = Literal[
    "summary_missing", "summary_too_short", "sources_unattributed", "low_confidence",
    "unresolved_conflict",
]  # fmt: skip
_FROZEN = ConfigDict(frozen=True, extra="forbid")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


class SupportsEmbed(Protocol):
    """Anything with the simulator's ``Embedder.embed`` method."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class AgentOutput(BaseModel):
    """One agent's result, as aggregation receives it."""

    model_config = _FROZEN

    agent: str
    """The agent that produced it."""
    status: RunStatus = "complete"
    """How its run ended."""
    data: dict[str, Any] | None = None
    """Structured fields; two results with different values for one key are a conflict."""
    text: str | None = None
    """Free-text answer: the material of semantic deduplication and synthesis."""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    """The agent's own confidence; None when it reported none (never guessed)."""
    missing: tuple[str, ...] = ()
    """Parts it says it could not handle (open questions)."""
    issues: tuple[str, ...] = ()
    """Reasons the result is unusable (contract violations); any issue makes it invalid."""
    error: str | None = None
    """Why the run failed or timed out."""
    duration_s: float = 0.0
    """Wall-clock time of the agent's run."""


class Validation(BaseModel):
    """The verdict on one result."""

    model_config = _FROZEN

    category: Category
    score: float
    """0.7 + 0.3 × confidence (valid), 0.4 (partial), 0.0 (invalid, empty)."""
    missing: tuple[str, ...] = ()
    """What a partial result lacks (missing required fields, open questions)."""
    reason: str = ""
    """Why an invalid or empty result was dropped."""


class Candidate(BaseModel):
    """One value proposed for a conflicting field."""

    model_config = _FROZEN

    agent: str
    value: Any
    confidence: float | None = None


class ConflictRecord(BaseModel):
    """One conflict on a field and how it was settled (or not)."""

    model_config = _FROZEN

    field: str
    candidates: tuple[Candidate, ...]
    strategy: ConflictStrategy
    resolved: bool
    value: Any = None
    """The chosen value, when resolved."""
    winner: str | None = None
    """The agent whose value was chosen."""
    reason: str = ""
    """How it was decided, or why it could not be."""


class SourceRecord(BaseModel):
    """Attribution and audit trail of one input result."""

    model_config = _FROZEN

    agent: str
    confidence: float | None
    status: RunStatus
    category: Category
    missing: tuple[str, ...] = ()
    """What a partial result lacks."""
    duplicate_of: str | None = None
    """The kept agent this result duplicated, when it was dropped as a duplicate."""
    duplicate_kind: Literal["exact", "semantic"] | None = None
    score: float | None = None
    """Ranking score, for kept results."""
    used_in_summary: bool = False
    """Whether text of it reached the summary (among the top results, not all of it left out)."""
    reason: str = ""
    """Why it was dropped, or why sentences of it were left out of the summary."""


class AggregationMetadata(BaseModel):
    """Counts and timing of one aggregation."""

    model_config = _FROZEN

    agent_count: int
    success_rate: float
    """Share of results that were kept (valid or partial)."""
    duration_s: float
    """Wall-clock time of the aggregation itself."""
    slowest_agent_s: float = 0.0
    categories: dict[str, int] = Field(default_factory=dict)
    exact_duplicates: int = 0
    semantic_duplicates: int = 0


class QAIssue(BaseModel):
    """One problem found by the QA check before delivery."""

    model_config = _FROZEN

    code: QACode
    message: str


class AggregatedResult(BaseModel):
    """The aggregated answer, defined before any agent runs."""

    model_config = _FROZEN

    summary: str
    details: dict[str, Any]
    """Field values after conflict resolution (unresolved fields left out)."""
    attribution: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """For each detail field, the agents that reported the chosen value."""
    sources: tuple[SourceRecord, ...]
    confidence: float
    """The minimum of the kept results' confidences, never the mean."""
    conflicts_resolved: tuple[ConflictRecord, ...] = ()
    """Every conflict found, resolved or not, for the audit."""
    metadata: AggregationMetadata
    qa_issues: tuple[QAIssue, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the QA check found nothing."""
        return not self.qa_issues


def canonical_hash(data: Any) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces) of ``data``."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def _same(value: Any) -> str:
    """The digest two values share when they are one value (``canonical_value``)."""
    return canonical_hash(canonical_value(value))


def validate_output(output: AgentOutput, *, required_fields: Sequence[str] = ()) -> Validation:
    """Classify one result as valid, partial, invalid or empty (see the module docstring)."""
    if output.status in ("failed", "timed_out"):
        return Validation(category="empty", score=0.0, reason=output.error or output.status)
    if output.issues:
        return Validation(category="invalid", score=0.0, reason="; ".join(output.issues))
    data = output.data or {}
    if not data and not (output.text or "").strip():
        return Validation(category="empty", score=0.0, reason="no data and no text")
    missing = [f for f in required_fields if data.get(f) in (None, "")]
    missing.extend(m for m in output.missing if m not in missing)
    if missing or output.status == "partial":
        return Validation(category="partial", score=0.4, missing=tuple(missing))
    return Validation(category="valid", score=0.7 + 0.3 * (output.confidence or 0.0))


def rank_score(output: AgentOutput, validation: Validation) -> float:
    """0.4 × confidence + 0.4 × validation score + 0.2 × completeness."""
    complete = output.status == "complete" and validation.category == "valid"
    return (
        0.4 * (output.confidence or 0.0) + 0.4 * validation.score + 0.2 * (1.0 if complete else 0.3)
    )


async def collect(
    sources: Mapping[str, Callable[[], Awaitable[AgentOutput]]],
    *,
    timeout_per_agent: float | Mapping[str, float],
) -> list[AgentOutput]:
    """Run every source concurrently, each under its own timeout, and return all their results.

    A slow or failing agent never blocks or crashes the others: it becomes a ``timed_out`` or
    ``failed`` result, and so does one that returns something other than an ``AgentOutput``
    (``None`` after a forgotten ``return``), its ``error`` naming what came back. The source
    design suggests a timeout of 1.5 × the agent's usual latency.

    Args:
        sources: agent name → a coroutine factory returning that agent's ``AgentOutput``.
        timeout_per_agent: seconds per agent, or a mapping of agent name → seconds.

    Returns:
        One result per source, in the order of ``sources``.
    """

    def limit(name: str) -> float:
        if isinstance(timeout_per_agent, Mapping):
            if name not in timeout_per_agent:
                raise UsageError(f"no timeout given for agent {name!r}")
            return float(timeout_per_agent[name])
        return float(timeout_per_agent)

    results: dict[str, AgentOutput] = {}

    async def one(name: str, factory: Callable[[], Awaitable[AgentOutput]]) -> None:
        seconds = limit(name)
        started = time.perf_counter()
        try:
            async with asyncio.timeout(seconds):
                got: object = await factory()
        except TimeoutError:
            error, status = f"no result within {seconds:g}s", "timed_out"
        except Exception as exc:  # a failed agent is a result, never a crashed aggregation
            error, status = f"{type(exc).__name__}: {exc}", "failed"
        else:
            if isinstance(got, AgentOutput):
                results[name] = got
                return
            # a forgotten ``return`` fails here, naming its source, not later in ``aggregate``
            error, status = f"the source returned {_type_name(got)}, not an AgentOutput", "failed"
        elapsed = time.perf_counter() - started
        results[name] = AgentOutput(agent=name, status=status, error=error, duration_s=elapsed)

    for name in sources:
        limit(name)  # fail fast on a missing per-agent timeout, before anything runs
    async with asyncio.TaskGroup() as group:
        for name, factory in sources.items():
            group.create_task(one(name, factory))
    return [results[name] for name in sources]


def from_subagent_results(
    results: Sequence[SubagentResult],
    *,
    confidence: Mapping[str, float] | float | None = None,
) -> list[AgentOutput]:
    """Adapt the runtime's sub-agent results for aggregation.

    ``data`` is keyed by each result's scoped request, so two agents given the same request with
    different answers conflict, while agents answering different requests merge. Contract
    violations make a result invalid; open questions make it partial.

    Args:
        results: the turn's sub-agent results.
        confidence: a confidence per agent name, or one for all; sub-agents report none themselves,
            so without this every confidence stays unknown (and the QA check says so).
    """
    out: list[AgentOutput] = []
    for result in results:
        conf = confidence.get(result.agent) if isinstance(confidence, Mapping) else confidence
        outputs = result.outputs
        text = None
        if outputs is not None:
            text = outputs.findings or outputs.interaction_summary
        out.append(
            AgentOutput(
                agent=result.agent,
                status=result.status,
                data={result.request: text} if text else None,
                text=text,
                confidence=conf,
                missing=tuple(outputs.open_questions or ()) if outputs else (),
                issues=tuple(str(v) for v in result.broken),
                error=result.error,
                duration_s=result.duration_s,
            )
        )
    return out


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def _conf(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.2f}"


def _numbers(text: str) -> list[str]:
    return sorted(n.replace(",", ".") for n in _NUMBER.findall(text))


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


async def _semantic_duplicates(
    kept: Sequence[AgentOutput], embedder: SupportsEmbed, threshold: float
) -> dict[int, int]:
    """Map index → index of the earlier kept result it duplicates (greedy, in input order)."""
    indexed = [(i, o.text) for i, o in enumerate(kept) if o.text and o.text.strip()]
    if len(indexed) < 2:
        return {}
    vectors = await embedder.embed([t for _, t in indexed if t])
    if len(vectors) != len(indexed):
        raise UsageError(f"the embedder returned {len(vectors)} vectors for {len(indexed)} texts")
    survivors: list[tuple[int, list[float], list[str]]] = []
    dupes: dict[int, int] = {}
    for (i, text), vector in zip(indexed, vectors, strict=True):
        numbers = _numbers(text or "")
        for j, other, other_numbers in survivors:
            if numbers == other_numbers and _cosine(vector, other) >= threshold:
                dupes[i] = j
                break
        else:
            survivors.append((i, vector, numbers))
    return dupes


async def _arbitrate(model: Model, field: str, candidates: Sequence[Candidate]) -> tuple[int, str]:
    listing = "\n".join(
        f"{n}. {json.dumps(c.value, default=str)} ({c.agent}, confidence {_conf(c.confidence)})"
        for n, c in enumerate(candidates)
    )
    response = await model.request(
        ModelRequest(
            agent="aggregator",
            system=(
                "You arbitrate between agents that disagree. Pick the best-supported value for the "
                "field and justify it in one sentence. Answer with the candidate's number."
            ),
            messages=(
                ChatMessage(role="user", content=f"Field {field!r}. Candidates:\n{listing}"),
            ),
            output_schema={
                "type": "object",
                "properties": {"choice": {"type": "integer"}, "reason": {"type": "string"}},
                "required": ["choice", "reason"],
                "additionalProperties": False,
            },
            output_name="arbitration",
        )
    )
    raw: Any = (response.output or {}).get("choice")
    reason = str((response.output or {}).get("reason") or "")
    if raw is None and response.text:
        found = re.search(r"-?\d+", response.text)
        raw, reason = (int(found.group()) if found else None), response.text.strip()
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < len(candidates):
        return -1, f"arbiter gave no usable choice ({raw!r})"
    return raw, reason or "chosen by the arbiter"


async def _resolve(
    field: str,
    candidates: Sequence[Candidate],
    scores: Sequence[float],
    digests: Sequence[str],
    strategy: ConflictStrategy,
    model: Model | None,
) -> ConflictRecord:
    def record(index: int, reason: str) -> ConflictRecord:
        chosen = candidates[index] if index >= 0 else None
        return ConflictRecord(
            field=field,
            candidates=tuple(candidates),
            strategy=strategy,
            resolved=chosen is not None,
            value=chosen.value if chosen else None,
            winner=chosen.agent if chosen else None,
            reason=reason,
        )

    if strategy == "confidence":

        def rank(n: int) -> tuple[float, float]:
            return (candidates[n].confidence or 0.0, scores[n])

        highest = max(rank(n) for n in range(len(candidates)))
        leaders = [n for n in range(len(candidates)) if rank(n) == highest]
        best = leaders[0]
        if len({digests[n] for n in leaders}) > 1:  # list order is no reason to pick one
            return record(
                -1,
                f"tie: {len(leaders)} different values at the highest confidence "
                f"({_conf(candidates[best].confidence)})",
            )
        return record(best, f"highest confidence ({_conf(candidates[best].confidence)})")
    if strategy == "voting":
        tally: dict[str, list[int]] = {}
        for n, digest in enumerate(digests):
            tally.setdefault(digest, []).append(n)
        ranked = sorted(
            tally.values(),
            key=lambda ns: (len(ns), max(candidates[n].confidence or 0.0 for n in ns)),
            reverse=True,
        )
        top, second = ranked[0], ranked[1] if len(ranked) > 1 else None
        key = (len(top), max(candidates[n].confidence or 0.0 for n in top))
        if second and key == (len(second), max(candidates[n].confidence or 0.0 for n in second)):
            return record(-1, f"tied vote ({len(top)} each) with equal confidence")
        return record(top[0], f"{len(top)} of {len(candidates)} votes")
    if strategy == "llm_arbitration":
        if model is None:
            raise UsageError("the llm_arbitration strategy needs a model")
        return record(*await _arbitrate(model, field, candidates))
    conflict = record(-1, "escalated to a human")
    raise HumanEscalationError(
        f"field {field!r} has {len(candidates)} conflicting values and needs a human decision",
        conflict=conflict,
    )


_AMOUNT_KINDS = frozenset({"money", "number", "percent", "year"})
_SPELLED_KINDS = frozenset({"n", "m", "d"})
"""The kinds of :func:`harness.text.spelled.spelled_values` that are amounts: numbers, durations
in minutes and in days (not times of day nor dates)."""
_SIGNS = "-\u2212"


def _signed(sentence: str, start: int) -> bool:
    """Whether the number at ``start`` carries a minus sign ("-5", "(-5)"; not "3-5" nor "EB-5",
    where the dash joins two words)."""
    if start < 1 or sentence[start - 1] not in _SIGNS:
        return False
    return start < 2 or not sentence[start - 2].isalnum()


def _amounts(sentence: str) -> frozenset[float]:
    """The numbers a sentence states, in whatever form, with their sign: "$1,200" (1200), "-5",
    "18.0", "50 cents" (0.5), "in 2019", "18 days" (18: a duration's length as written),
    "eighteen" (the text layer's facts, and its reader of numbers in words, which gives a worded
    duration in days or minutes: "eighteen days" is 18, "two weeks" 14)."""
    written: list[tuple[float, str]] = []
    for fact in extract_facts(sentence):
        if fact.kind in _AMOUNT_KINDS:
            written.append((-1.0 if _signed(sentence, fact.start) else 1.0, fact.value))
        elif fact.kind == "duration":  # "18 days", "3-5 weeks": the lengths as written
            written.extend((1.0, length) for length in fact.value.split()[0].split("-"))
    found: set[float] = set()
    for sign, raw in written:
        try:
            found.add(sign * float(raw))
        except ValueError:
            continue
    # numbers in words: "eighteen" (18), "eighteen days" (in days: 18), "ninety minutes" (90);
    # the reader also gives the facts' numbers, without their sign: "-5" is no 5
    found.update(
        amount
        for kind, amount, _ in spelled_values(sentence)
        if kind in _SPELLED_KINDS and (amount in found or -amount not in found)
    )
    return frozenset(found)


_Matcher = Callable[[str], bool]


def _states(value: Any) -> _Matcher | None:
    """A test of whether a sentence states ``value`` (as its agent wrote it); None for values no
    sentence is read for (booleans, None, empty strings).

    A word or phrase is found as written, in any case and spacing ("Hauptstraße", "LYON"). A
    number is found in any form the readers of :func:`_amounts` know, with its sign, and also
    written as its ``str()`` ("18/year", "at 9 am"), except after a minus sign when the value has
    none (a losing 5 is not stated by "-5"). Lists, mappings and other values are found as their
    ``str()``.
    """
    if isinstance(value, bool) or value is None:
        return None
    canonical = canonical_value(value)
    if isinstance(canonical, str):
        words = str(value).split()
        if not words:
            return None
        phrase = r"\s+".join(re.escape(w) for w in words)
        pattern = re.compile(rf"(?<![\w.]){phrase}(?![\w]|\.\d)", re.IGNORECASE)
        return lambda sentence: pattern.search(sentence) is not None
    written = str(value).strip()
    if not written:
        return None
    verbatim = re.compile(rf"(?<![\w.]){re.escape(written)}(?![\w]|\.\d)")
    if isinstance(canonical, int | float):
        amount, unsigned = float(canonical), not written.startswith(tuple(_SIGNS))

        def states(sentence: str) -> bool:
            if amount in _amounts(sentence):
                return True
            return any(
                not (unsigned and _signed(sentence, m.start())) for m in verbatim.finditer(sentence)
            )

        return states
    return lambda sentence: verbatim.search(sentence) is not None


def _losing_values(conflicts: Sequence[ConflictRecord]) -> dict[str, list[tuple[_Matcher, str]]]:
    """Per agent, tests for its values that lost a resolved conflict, with why they lost.

    Only the agent that proposed a losing value is held to it: the same number in another agent's
    text (or in the winner's) states some other fact. A candidate lost when its canonical form is
    not the winner's (``1`` loses to ``True``; ``20.0`` does not lose to ``20``).
    """
    losing: dict[str, list[tuple[_Matcher, str]]] = {}
    for conflict in conflicts:
        if not conflict.resolved:
            continue
        won = _same(conflict.value)
        for candidate in conflict.candidates:
            states = _states(candidate.value) if _same(candidate.value) != won else None
            if states is not None:
                why = (
                    f"states {conflict.field}={candidate.value}, which lost to {conflict.value} "
                    f"({conflict.winner})"
                )
                losing.setdefault(candidate.agent, []).append((states, why))
    return losing


def _synthesise_locally(
    texts: Sequence[tuple[str, str]],
    losing: Mapping[str, Sequence[tuple[_Matcher, str]]] | None = None,
) -> tuple[str, list[tuple[str, bool]]]:
    """Join (agent, text) pairs without repeated sentences or an agent's losing values.

    Returns the summary and, per text, why sentences of it were left out ("" when none were)
    and whether all of it was.
    """
    seen: set[str] = set()
    lines: list[str] = []
    left_out: list[tuple[str, bool]] = []
    for agent, text in texts:
        kept: list[str] = []
        why: list[str] = []
        used, dropped = False, 0
        sentences = [span.text for span in split_sentences(text)]
        for sentence in sentences:
            lost = [w for states, w in (losing or {}).get(agent, ()) if states(sentence)]
            if lost:  # states a value of this agent's that lost a resolved conflict
                dropped += 1
                why.extend(w for w in lost if w not in why)
                continue
            key = " ".join(re.sub(r"[^\w\s]", "", sentence.lower()).split())
            used = used or bool(key)
            if key and key not in seen:
                seen.add(key)
                kept.append(sentence.strip())
        if kept:
            lines.append(" ".join(kept))
        if not dropped:
            left_out.append(("", False))
        elif used:
            left_out.append(
                (
                    f"{dropped} of {len(sentences)} sentences left out of the summary: "
                    + "; ".join(why),
                    False,
                )
            )
        else:
            left_out.append(("left out of the summary: " + "; ".join(why), True))
    return "\n".join(lines), left_out


async def _synthesise(
    top: Sequence[AgentOutput], model: Model | None, conflicts: Sequence[ConflictRecord] = ()
) -> tuple[str, list[tuple[str, bool]]]:
    """The summary and, per result in ``top``, why text of it was left out ("" when none was)."""
    texts = [o.text or json.dumps(o.data, sort_keys=True, default=str) for o in top]
    pairs = [(o.agent, t) for o, t in zip(top, texts, strict=True)]
    if model is None or not texts:
        return _synthesise_locally(pairs, _losing_values(conflicts))
    context = "\n\n".join(
        f"[{o.agent}, confidence {_conf(o.confidence)}]\n{t}"
        for o, t in zip(top, texts, strict=True)
    )
    response = await model.request(
        ModelRequest(
            agent="aggregator",
            system=(
                "Synthesise these agents' results into one coherent answer. Resolve "
                "contradictions, drop repetitions, keep every distinct fact."
            ),
            messages=(ChatMessage(role="user", content=context),),
        )
    )
    summary = (response.text or "").strip()
    if summary:
        return summary, [("", False)] * len(top)
    return _synthesise_locally(pairs, _losing_values(conflicts))


def qa_check(
    result: AggregatedResult, *, min_summary_chars: int = 30, min_confidence: float = 0.3
) -> list[QAIssue]:
    """The checks run before delivery: summary, attribution, confidence, unresolved conflicts."""
    issues: list[QAIssue] = []

    def add(code: QACode, message: str) -> None:
        issues.append(QAIssue(code=code, message=message))

    summary = result.summary.strip()
    if not summary:
        add("summary_missing", "the summary is empty")
    elif len(summary) < min_summary_chars:
        add(
            "summary_too_short",
            f"the summary has {len(summary)} characters (< {min_summary_chars})",
        )
    known = {s.agent for s in result.sources}
    orphans = sorted(k for k in result.details if not set(result.attribution.get(k, ())) & known)
    if not any(s.used_in_summary for s in result.sources):
        add("sources_unattributed", "no source backs the summary")
    elif orphans:
        add("sources_unattributed", f"fields without a source: {', '.join(orphans)}")
    if result.confidence < min_confidence:
        silent = sorted(
            s.agent for s in result.sources if s.score is not None and s.confidence is None
        )
        note = f" (no confidence reported by {', '.join(silent)})" if silent else ""
        add(
            "low_confidence",
            f"confidence {result.confidence:.2f} is below {min_confidence:g}{note}",
        )
    unresolved = [c.field for c in result.conflicts_resolved if not c.resolved]
    if unresolved:
        add("unresolved_conflict", f"{len(unresolved)} unresolved: {', '.join(unresolved)}")
    return issues


async def _merge(
    kept: Sequence[tuple[AgentOutput, float]],
    strategy: ConflictStrategy,
    field_strategies: Mapping[str, ConflictStrategy],
    model: Model | None,
) -> tuple[dict[str, Any], dict[str, tuple[str, ...]], list[ConflictRecord]]:
    """Merge the kept results' fields, resolving every conflicting one."""
    # field -> [(output, value, score, digest)], each value hashed once
    values: dict[str, list[tuple[AgentOutput, Any, float, str]]] = {}
    for output, score in kept:
        for key, value in (output.data or {}).items():
            values.setdefault(key, []).append((output, value, score, _same(value)))
    details: dict[str, Any] = {}
    attribution: dict[str, tuple[str, ...]] = {}
    conflicts: list[ConflictRecord] = []
    for key, entries in values.items():
        digests = [d for *_, d in entries]
        chosen = digests[0]
        if len(set(digests)) > 1:
            candidates = [
                Candidate(agent=o.agent, value=v, confidence=o.confidence) for o, v, _, _ in entries
            ]
            how = field_strategies.get(key, strategy)
            conflict = await _resolve(
                key, candidates, [s for _, _, s, _ in entries], digests, how, model
            )
            conflicts.append(conflict)
            if not conflict.resolved:
                continue
            chosen = _same(conflict.value)
        details[key] = next(v for _, v, _, d in entries if d == chosen)
        attribution[key] = tuple(o.agent for o, _, _, d in entries if d == chosen)
    return details, attribution, conflicts


def _used(in_top: bool, left_out: tuple[str, bool], note: dict[str, Any]) -> dict[str, Any]:
    """``used_in_summary`` and the notes of one source, saying why text of it was left out."""
    why, whole = left_out
    if not why:
        return {"used_in_summary": in_top, **note}
    reason = "; ".join(r for r in (note.get("reason"), why) if r)
    return {**note, "used_in_summary": not whole, "reason": reason}


async def aggregate(
    results: Sequence[AgentOutput],
    *,
    strategy: ConflictStrategy = "confidence",
    field_strategies: Mapping[str, ConflictStrategy] | None = None,
    required_fields: Sequence[str] = (),
    embedder: SupportsEmbed | None = None,
    semantic_threshold: float = DEFAULT_SEMANTIC_THRESHOLD,
    model: Model | None = None,
    arbiter: Model | None = None,
    top_k: int = 5,
    min_summary_chars: int = 30,
    min_confidence: float = 0.3,
) -> AggregatedResult:
    """Aggregate several agents' results into one ``AggregatedResult`` (pipeline in module doc).

    Duplicates are looked for in ranking order, so the better-ranked copy is the one kept.

    Args:
        results: the agents' results for one turn.
        strategy: how conflicting field values are settled.
        field_strategies: a strategy per field, overriding ``strategy``.
        required_fields: ``data`` keys a result must carry to be valid rather than partial.
        embedder: turns on semantic deduplication of texts.
        semantic_threshold: cosine at or above which two texts are duplicates.
        model: synthesises the summary (and arbitrates, unless ``arbiter`` is given).
        arbiter: the model for ``llm_arbitration``; defaults to ``model``.
        top_k: how many ranked results the summary is built from (1-7; 5-7 recommended).
        min_summary_chars: the QA check's minimum summary length.
        min_confidence: the QA check's minimum overall confidence.

    Raises:
        HumanEscalationError: a conflict's strategy is ``human_escalation``.
        UsageError: bad arguments (``top_k`` out of range, no model for arbitration, an item of
            ``results`` that is not an ``AgentOutput``).
    """
    if not 1 <= top_k <= 7:
        raise UsageError(f"top_k must be between 1 and 7 (5-7 recommended), not {top_k}")
    if not 0.0 < semantic_threshold <= 1.0:
        raise UsageError(f"semantic_threshold must be in (0, 1], not {semantic_threshold}")
    for n, output in enumerate(results):
        if not isinstance(output, AgentOutput):
            raise UsageError(f"results[{n}] is {_type_name(output)}, not an AgentOutput")
    started = time.perf_counter()
    checks = [validate_output(o, required_fields=required_fields) for o in results]
    notes: list[dict[str, Any]] = [
        {"category": v.category, "missing": v.missing, "reason": v.reason} for v in checks
    ]
    scores = {
        i: rank_score(results[i], v)
        for i, v in enumerate(checks)
        if v.category in ("valid", "partial")
    }
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    first_seen: dict[str, int] = {}
    unique: list[int] = []
    for i in ranked:
        digest = canonical_hash({"data": results[i].data, "text": results[i].text})
        if digest in first_seen:
            notes[i].update(duplicate_of=results[first_seen[digest]].agent, duplicate_kind="exact")
        else:
            first_seen[digest] = i
            unique.append(i)
    n_exact, n_semantic = len(ranked) - len(unique), 0
    if embedder is not None:
        dupes = await _semantic_duplicates(
            [results[i] for i in unique], embedder, semantic_threshold
        )
        for pos, target in dupes.items():
            notes[unique[pos]].update(
                duplicate_of=results[unique[target]].agent, duplicate_kind="semantic"
            )
        n_semantic = len(dupes)
        unique = [i for pos, i in enumerate(unique) if pos not in dupes]
    details, attribution, conflicts = await _merge(
        [(results[i], scores[i]) for i in unique],
        strategy,
        field_strategies or {},
        arbiter or model,
    )
    top = unique[:top_k]
    summary, left_out = await _synthesise([results[i] for i in top], model, conflicts)
    left_out_of = dict(zip(top, left_out, strict=True))
    confidences = [results[i].confidence for i in unique]
    overall = 0.0 if not confidences or None in confidences else min(c or 0.0 for c in confidences)
    sources = tuple(
        SourceRecord(
            agent=o.agent,
            confidence=o.confidence,
            status=o.status,
            score=round(scores[i], 6) if i in unique else None,
            **_used(i in top, left_out_of.get(i, ("", False)), notes[i]),
        )
        for i, o in enumerate(results)
    )
    result = AggregatedResult(
        summary=summary,
        details=details,
        attribution=attribution,
        sources=sources,
        confidence=overall,
        conflicts_resolved=tuple(conflicts),
        metadata=AggregationMetadata(
            agent_count=len(results),
            success_rate=len(ranked) / len(results) if results else 0.0,
            duration_s=time.perf_counter() - started,
            slowest_agent_s=max((o.duration_s for o in results), default=0.0),
            categories={c: sum(v.category == c for v in checks) for c in get_args(Category)},
            exact_duplicates=n_exact,
            semantic_duplicates=n_semantic,
        ),
    )
    issues = qa_check(result, min_summary_chars=min_summary_chars, min_confidence=min_confidence)
    return result.model_copy(update={"qa_issues": tuple(issues)})
