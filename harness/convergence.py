"""The convergence report: why a team run ended, computed by a pure function of its state.

``compute_convergence(state)`` reads a ``RunState`` (the team's tasks, its budget and usage, its
quality signal, the last review, the round count, known risks, explicit decisions) and returns a
``ConvergenceReport``. It does no I/O and reads no clock: every time value comes in the state.

Decision order (first match wins):

1. No task yet, or a task ``pending``, ``assigned`` or ``in_progress`` → ``running`` (no reason).
2. A blocking risk, or any unresolved conflict → ``blocked`` + ``risk_blocked``.
3. Only ``blocked`` tasks are left unfinished (and nothing blocks) → ``running``.
4. A task ``failed`` → ``failed`` + the limit that cut the run off (``budget_exhausted``, then
   ``max_rounds_reached``), else ``quality_not_reached`` when the quality was scored below its
   threshold, else ``task_failed``.
5. All complete, but a limit cut the run off (the budget exhausted or the round limit reached,
   and ``concluded`` is not true) → ``failed`` + ``budget_exhausted`` or ``max_rounds_reached``.
   Running out of rounds or budget is not convergence.
6. All complete, and the quality scored below its threshold → ``failed`` +
   ``quality_not_reached``.
7. All complete and the quality threshold reached → ``converged`` + ``quality_reached``. A score
   at the threshold is not "reached" when the last review rejected the answer and named nothing
   to redo (a rejection acted on, with ``retry_tasks``, was of an earlier draft).
8. Otherwise → ``converged`` + ``tasks_completed``, the honest fallback: all we know is that the
   tasks were done.

A run that ``concluded`` on its own signal (a stop token, a confidence target reached) at the
very turn its limit was reached was not cut off: steps 4 and 5 then ignore the limit.

Invariant: a terminal status (``converged``, ``failed``, ``blocked``) carries exactly one
termination reason; ``running`` carries none.

Missing signals are never faked: no quality score is not a pass, no usage is not "within budget" and
no budget is not "enough"; an absent signal simply cannot trigger its reason.

Conflict detectors, adapted to agent results: ``artifact_mismatch`` (two agents' completed tasks
gave different values for the same field, compared as ``harness.aggregate.canonical_value``
compares them: ``20`` and ``20.0`` are one value), ``test_failure`` (a task's tests failed or
passed only partly), ``review_disagreement`` (the review, e.g. a critic, rejected) and
``dependency_inconsistency`` (a completed task depends on one that did not complete). Resolution is
conservative: an artifact mismatch is resolved only by an accepted review or an explicit decision
for that field; a review disagreement only when the review names tasks to redo; test failures and
dependency inconsistencies are never resolved here. The consensus score is the share of completed
tasks that no conflict and no blocking risk naming them (``Risk.tasks``, as ``answers_disagree``
names the members whose answers disagree) touches (0.0 with no completed task).
"""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from harness._values import canonical_value

__all__ = [
    "Budget",
    "BudgetState",
    "Conflict",
    "ConflictKind",
    "ConvergenceReport",
    "ConvergenceStatus",
    "Quality",
    "QualityState",
    "ResourceUsage",
    "Review",
    "Risk",
    "RunState",
    "TaskState",
    "TaskStatus",
    "TerminationReason",
    "compute_convergence",
    "convergence_events",
    "format_report",
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class TaskStatus(StrEnum):
    """Where one task (one agent's piece of the run) stands."""

    PENDING = "pending"
    ASSIGNED = "assigned"
    IN_PROGRESS = "in_progress"
    BLOCKED = "blocked"
    COMPLETE = "complete"
    FAILED = "failed"


class ConvergenceStatus(StrEnum):
    RUNNING = "running"
    CONVERGED = "converged"
    FAILED = "failed"
    BLOCKED = "blocked"


class TerminationReason(StrEnum):
    QUALITY_REACHED = "quality_reached"
    BUDGET_EXHAUSTED = "budget_exhausted"
    MAX_ROUNDS_REACHED = "max_rounds_reached"
    RISK_BLOCKED = "risk_blocked"
    TASKS_COMPLETED = "tasks_completed"
    """The honest fallback: only "every task was done" is known."""
    TASK_FAILED = "task_failed"
    """A task failed, and no limit cut the run off first."""
    QUALITY_NOT_REACHED = "quality_not_reached"
    """Every task finished, but the quality signal was scored below its threshold."""


class ConflictKind(StrEnum):
    ARTIFACT_MISMATCH = "artifact_mismatch"
    TEST_FAILURE = "test_failure"
    REVIEW_DISAGREEMENT = "review_disagreement"
    DEPENDENCY_INCONSISTENCY = "dependency_inconsistency"


_ACTIVE = frozenset({TaskStatus.PENDING, TaskStatus.ASSIGNED, TaskStatus.IN_PROGRESS})


class TaskState(BaseModel):
    """One task of the run: an agent's piece of work and what it produced."""

    model_config = _FROZEN

    id: str
    agent: str
    status: TaskStatus
    fields: dict[str, Any] = Field(default_factory=dict)
    """The structured values it produced (compared across agents for ``artifact_mismatch``)."""
    tests_passed: bool | None = None
    """None when no test ran (not a failure)."""
    test_pass_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    depends_on: tuple[str, ...] = ()
    """Ids of the tasks whose results it builds on."""
    error: str | None = None
    """Why a ``failed`` task failed (its latest error, ``RuntimeError: backend down``)."""
    failed_attempts: int = 0
    """How many of its attempts failed (a team member's failed turns)."""


class Budget(BaseModel):
    """Limits of the run; an unset limit is no limit."""

    model_config = _FROZEN

    max_tokens: int | None = None
    max_cost_usd: float | None = None
    max_seconds: float | None = None


class ResourceUsage(BaseModel):
    """What the run consumed; an unset value is unknown, not zero."""

    model_config = _FROZEN

    tokens: int | None = None
    cost_usd: float | None = None
    seconds: float | None = None


class Quality(BaseModel):
    """A quality signal (a pass rate, a confidence) and the threshold it must reach."""

    model_config = _FROZEN

    score: float | None = None
    """None when nothing scored the run."""
    threshold: float = 1.0


class Review(BaseModel):
    """The last review verdict (a critic's or a verifier's)."""

    model_config = _FROZEN

    accepted: bool
    reviewer: str | None = None
    reason: str = ""
    retry_tasks: tuple[str, ...] = ()
    """Tasks the review asked to redo (an actionable rejection)."""


class Risk(BaseModel):
    """A known risk (a guardrail hit, a runaway loop)."""

    model_config = _FROZEN

    id: str
    kind: str
    blocking: bool = True
    detail: str = ""
    tasks: tuple[str, ...] = ()
    """The tasks it concerns (the members whose answers disagree), when it names some: a
    blocking risk touches them as a conflict would (``consensus_score``)."""


class RunState(BaseModel):
    """Everything the report is computed from. Unknown signals stay None."""

    model_config = _FROZEN

    run_id: str | None = None
    """The run's correlation id, copied into the events."""
    tasks: tuple[TaskState, ...] = ()
    budget: Budget | None = None
    usage: ResourceUsage | None = None
    quality: Quality | None = None
    review: Review | None = None
    rounds: int | None = None
    max_rounds: int | None = None
    risks: tuple[Risk, ...] = ()
    decisions: dict[str, str] = Field(default_factory=dict)
    """Field → agent chosen by an explicit decision (an arbiter, a resolved aggregation conflict)."""
    concluded: bool | None = None
    """Whether the run ended on its own signal (a stop token, a confidence target reached);
    False when something else stopped it; None when unknown. A run that reached its round limit
    or exhausted its budget converged only when it concluded: unknown is not a yes."""


class Conflict(BaseModel):
    """One detected conflict and whether the rules allow calling it resolved."""

    model_config = _FROZEN

    id: str
    kind: ConflictKind
    tasks: tuple[str, ...]
    agents: tuple[str, ...] = ()
    field: str | None = None
    detail: str = ""
    resolved: bool = False
    resolution: str = ""
    """How it was resolved, or why it could not be."""


class BudgetState(BaseModel):
    model_config = _FROZEN

    limits: Budget | None
    used: ResourceUsage | None
    exhausted: bool
    exhausted_by: tuple[str, ...] = ()
    """Which limits were reached (``tokens``, ``cost_usd``, ``seconds``)."""


class QualityState(BaseModel):
    model_config = _FROZEN

    score: float | None
    threshold: float | None
    scored: bool
    reached: bool
    """The score reached the threshold and no review's rejection stands against the answer."""
    rejected_by_review: bool = False
    """The score reached the threshold, but the last review rejected the answer and nothing was
    redone since (a rejection with ``retry_tasks`` was of an earlier draft): not reached."""


class ConvergenceReport(BaseModel):
    """Why a run ended (or that it has not)."""

    model_config = _FROZEN

    status: ConvergenceStatus
    termination_reason: TerminationReason | None
    decided_by: int
    """The step of the decision order (1-8) that decided the status."""
    tasks: int
    """How many tasks the run had."""
    completed: int
    """How many of them completed."""
    consensus_score: float
    """Share of completed tasks untouched by any conflict or blocking risk (one that names its
    tasks, as ``answers_disagree`` does), in [0, 1]."""
    conflicts: tuple[Conflict, ...]
    resolved_conflicts: tuple[Conflict, ...]
    unresolved_risks: tuple[Risk, ...]
    """Blocking risks and unresolved conflicts (as risks)."""
    budget_state: BudgetState
    quality_state: QualityState
    failed_tasks: tuple[TaskState, ...] = ()
    """The tasks that failed, with their errors (``TaskState.error``)."""

    @property
    def terminal(self) -> bool:
        return self.status is not ConvergenceStatus.RUNNING


def _fingerprint(value: Any) -> str:
    raw = json.dumps(canonical_value(value), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def _detect(state: RunState) -> list[Conflict]:
    done = [t for t in state.tasks if t.status is TaskStatus.COMPLETE]
    found: list[Conflict] = []
    fields: dict[str, list[TaskState]] = {}
    for task in done:
        for name in task.fields:
            fields.setdefault(name, []).append(task)
    for name, tasks in fields.items():
        prints = {t.id: _fingerprint(t.fields[name]) for t in tasks}
        agents_by_print: dict[str, set[str]] = {}
        for t in tasks:
            agents_by_print.setdefault(prints[t.id], set()).add(t.agent)
        if len(agents_by_print) > 1 and len({t.agent for t in tasks}) > 1:
            found.append(
                Conflict(
                    id=f"artifact_mismatch:{name}",
                    kind=ConflictKind.ARTIFACT_MISMATCH,
                    tasks=tuple(t.id for t in tasks),
                    agents=tuple(dict.fromkeys(t.agent for t in tasks)),
                    field=name,
                    detail=f"{len(agents_by_print)} different values for {name!r}",
                )
            )
    for task in done:
        rate = task.test_pass_rate
        if task.tests_passed is False or (rate is not None and rate < 1.0):
            found.append(
                Conflict(
                    id=f"test_failure:{task.id}",
                    kind=ConflictKind.TEST_FAILURE,
                    tasks=(task.id,),
                    agents=(task.agent,),
                    detail="tests failed" if rate is None else f"pass rate {rate:.2f}",
                )
            )
    if state.review is not None and not state.review.accepted:
        found.append(
            Conflict(
                id="review_disagreement",
                kind=ConflictKind.REVIEW_DISAGREEMENT,
                tasks=state.review.retry_tasks,
                agents=(state.review.reviewer,) if state.review.reviewer else (),
                detail=state.review.reason or "the review rejected the result",
            )
        )
    status = {t.id: t.status for t in state.tasks}
    for task in done:
        unmet = [d for d in task.depends_on if status.get(d) is not TaskStatus.COMPLETE]
        if unmet:
            found.append(
                Conflict(
                    id=f"dependency_inconsistency:{task.id}",
                    kind=ConflictKind.DEPENDENCY_INCONSISTENCY,
                    tasks=(task.id, *unmet),
                    agents=(task.agent,),
                    detail=f"complete, but depends on unfinished {', '.join(unmet)}",
                )
            )
    return found


def _resolve(conflict: Conflict, state: RunState) -> Conflict:
    resolved, how = False, ""
    if conflict.kind is ConflictKind.ARTIFACT_MISMATCH:
        chosen = state.decisions.get(conflict.field or "")
        if chosen is not None and chosen in conflict.agents:
            resolved, how = True, f"decision for {conflict.field!r}: {chosen}'s value"
        elif state.review is not None and state.review.accepted:
            resolved, how = True, "the accepted review settled on one version"
        else:
            how = "no accepted review and no decision for this field"
    elif conflict.kind is ConflictKind.REVIEW_DISAGREEMENT:
        if conflict.tasks:
            resolved, how = True, f"actionable: redo {', '.join(conflict.tasks)}"
        else:
            how = "rejected with nothing actionable"
    else:
        how = "not resolved automatically (a hard blocker for a redo cycle or a human)"
    return conflict.model_copy(update={"resolved": resolved, "resolution": how})


def _budget(state: RunState) -> BudgetState:
    limits, used = state.budget, state.usage
    hit: list[str] = []
    if limits is not None and used is not None:
        pairs = (
            ("tokens", limits.max_tokens, used.tokens),
            ("cost_usd", limits.max_cost_usd, used.cost_usd),
            ("seconds", limits.max_seconds, used.seconds),
        )
        hit = [
            name
            for name, cap, value in pairs
            if cap is not None and value is not None and value >= cap
        ]
    return BudgetState(limits=limits, used=used, exhausted=bool(hit), exhausted_by=tuple(hit))


def _quality(state: RunState) -> QualityState:
    q = state.quality
    if q is None:
        return QualityState(score=None, threshold=None, scored=False, reached=False)
    scored = q.score is not None
    above = scored and (q.score or 0.0) >= q.threshold
    review = state.review
    # a rejection the run acted on (a redo of the named tasks) was of an earlier draft
    rejected = above and review is not None and not review.accepted and not review.retry_tasks
    return QualityState(
        score=q.score,
        threshold=q.threshold,
        scored=scored,
        reached=above and not rejected,
        rejected_by_review=rejected,
    )


def compute_convergence(state: RunState) -> ConvergenceReport:
    """The convergence report of a run, by the decision order of the module docstring."""
    conflicts = [_resolve(c, state) for c in _detect(state)]
    resolved = tuple(c for c in conflicts if c.resolved)
    open_conflicts = [c for c in conflicts if not c.resolved]
    risks = tuple(r for r in state.risks if r.blocking) + tuple(
        Risk(id=c.id, kind=c.kind.value, detail=f"{c.detail}; {c.resolution}")
        for c in open_conflicts
    )
    done = [t for t in state.tasks if t.status is TaskStatus.COMPLETE]
    touched = {task for c in conflicts for task in c.tasks}
    touched |= {task for r in state.risks if r.blocking for task in r.tasks}
    consensus = sum(t.id not in touched for t in done) / len(done) if done else 0.0
    budget, quality = _budget(state), _quality(state)
    rounds_hit = (
        state.rounds is not None
        and state.max_rounds is not None
        and state.rounds >= state.max_rounds
    )
    # a limit that stopped the run before it concluded on its own signal
    cut_off = (budget.exhausted or rounds_hit) and state.concluded is not True
    limit = (
        TerminationReason.BUDGET_EXHAUSTED
        if budget.exhausted
        else TerminationReason.MAX_ROUNDS_REACHED
    )
    below = quality.scored and not quality.reached
    statuses = {t.status for t in state.tasks}
    status: ConvergenceStatus
    reason: TerminationReason | None
    if not state.tasks or statuses & _ACTIVE:
        step, status, reason = 1, ConvergenceStatus.RUNNING, None
    elif risks:
        step, status, reason = 2, ConvergenceStatus.BLOCKED, TerminationReason.RISK_BLOCKED
    elif TaskStatus.BLOCKED in statuses:
        step, status, reason = 3, ConvergenceStatus.RUNNING, None
    elif TaskStatus.FAILED in statuses:
        step, status = 4, ConvergenceStatus.FAILED
        if cut_off:
            reason = limit
        elif below:
            reason = TerminationReason.QUALITY_NOT_REACHED
        else:
            reason = TerminationReason.TASK_FAILED
    elif cut_off:
        step, status, reason = 5, ConvergenceStatus.FAILED, limit
    elif below:
        step, status, reason = 6, ConvergenceStatus.FAILED, TerminationReason.QUALITY_NOT_REACHED
    elif quality.reached:
        step, status, reason = 7, ConvergenceStatus.CONVERGED, TerminationReason.QUALITY_REACHED
    else:
        step, status, reason = 8, ConvergenceStatus.CONVERGED, TerminationReason.TASKS_COMPLETED
    return ConvergenceReport(
        status=status,
        termination_reason=reason,
        decided_by=step,
        tasks=len(state.tasks),
        completed=len(done),
        consensus_score=round(consensus, 6),
        conflicts=tuple(conflicts),
        resolved_conflicts=resolved,
        unresolved_risks=risks,
        budget_state=budget,
        quality_state=quality,
        failed_tasks=tuple(t for t in state.tasks if t.status is TaskStatus.FAILED),
    )


def convergence_events(
    report: ConvergenceReport, *, correlation_id: str | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """The report as ``(event_type, payload)`` pairs, in emission order, with JSON-safe payloads.

    ``convergence.started``, one ``conflict.detected`` per conflict, one ``conflict.resolved`` per
    resolved conflict, ``consensus.updated``, then ``convergence.reached`` (converged) or
    ``convergence.failed`` (failed, blocked); a running report ends at ``consensus.updated``.
    """

    def payload(**data: Any) -> dict[str, Any]:
        return {"correlation_id": correlation_id, **data}

    events: list[tuple[str, dict[str, Any]]] = [
        ("convergence.started", payload(tasks=report.tasks, completed=report.completed))
    ]
    for c in report.conflicts:
        events.append(("conflict.detected", payload(**c.model_dump(mode="json"))))
    for c in report.resolved_conflicts:
        events.append(
            ("conflict.resolved", payload(id=c.id, kind=c.kind.value, resolution=c.resolution))
        )
    events.append(
        (
            "consensus.updated",
            payload(
                consensus_score=report.consensus_score,
                conflicts=len(report.conflicts),
                resolved=len(report.resolved_conflicts),
            ),
        )
    )
    if report.terminal:
        kind = (
            "convergence.reached"
            if report.status is ConvergenceStatus.CONVERGED
            else "convergence.failed"
        )
        reason = report.termination_reason.value if report.termination_reason else None
        events.append(
            (
                kind,
                payload(
                    status=report.status.value,
                    termination_reason=reason,
                    decided_by=report.decided_by,
                    consensus_score=report.consensus_score,
                ),
            )
        )
    return events


def format_report(report: ConvergenceReport) -> str:
    """A readable multi-line rendering of the report."""
    reason = report.termination_reason.value if report.termination_reason else "-"
    lines = [
        f"status: {report.status.value}    reason: {reason}    (decision step {report.decided_by})",
        f"consensus: {report.consensus_score:.2f}",
    ]
    for t in report.failed_tasks:
        times = f" {t.failed_attempts} times" if t.failed_attempts > 1 else ""
        lines.append(f"failed: {t.agent} failed{times}: {t.error or 'no error given'}")
    for c in report.conflicts:
        mark = "resolved" if c.resolved else "UNRESOLVED"
        where = f" field={c.field}" if c.field else ""
        lines.append(f"conflict {c.kind.value}{where} [{mark}]: {c.detail} -> {c.resolution}")
    if not report.conflicts and not report.unresolved_risks:
        lines.append("conflicts: none")  # else the risks below say what stands in the way
    shown = {c.id for c in report.conflicts}  # an unresolved conflict is already a line above
    for r in report.unresolved_risks:
        if r.id not in shown:
            lines.append(f"risk {r.kind} ({r.id}): {r.detail}")
    b = report.budget_state

    def show(values: dict[str, Any]) -> str:
        return ", ".join(
            f"{k}={round(v, 3) if isinstance(v, float) else v}" for k, v in values.items()
        )

    used = show(b.used.model_dump(exclude_none=True)) if b.used else "unknown"
    limits = show(b.limits.model_dump(exclude_none=True)) if b.limits else "none"
    lines.append(
        f"budget: limits: {limits or 'none'}; used: {used or 'unknown'}; exhausted={b.exhausted}"
    )
    q = report.quality_state
    if q.scored:
        veto = " (the review rejected the answer)" if q.rejected_by_review else ""
        if q.reached and report.status is not ConvergenceStatus.CONVERGED:
            ended = {"failed": "failed", "running": "is still running"}.get(
                report.status.value, f"is {report.status.value}"
            )
            veto = f", but the run {ended}: not a pass"
        lines.append(
            f"quality: {q.score:.2f} / threshold {q.threshold:.2f} reached={q.reached}{veto}"
        )
    else:
        lines.append("quality: not scored (not a pass)")
    return "\n".join(lines)
