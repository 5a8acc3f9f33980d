"""What a finished team run amounts to: its final answer and the state its report is computed from.

**Final answer.** When the run stopped on a stop token sent by a producing member (planner, solver,
arbiter) with something to say, that message is the answer. Otherwise the latest arbiter message
is; otherwise, when two or more solvers spoke (and ``synthesis`` is ``auto``), their latest messages
are aggregated with ``harness.aggregate`` (conflicting fields resolved by confidence, the team's
confidence the minimum of theirs; different values tied at the highest confidence stay unresolved,
so the report blocks the run); otherwise the latest solver message is. Open questions are those
left in each member's latest message.

**Run state** (``harness.convergence.RunState``): one task per member that spoke, complete unless
its latest turn failed, with the fields it produced (latest value per key) and role-based
dependencies (solvers on planners, critics and verifiers on solvers, arbiters on solvers). A
verifier's verdict is the test result of the solver message it followed, so a solver revised after
a rejection and never re-verified is untested, not failed. The latest critic verdict is the review;
a rejection counts as actionable once a member it handed over to has taken a turn since. Arbiter
fields and resolved aggregation conflicts are explicit decisions. A guardrail block and the loop
watchdog are blocking risks; a run stopped before any member spoke has one blocked task, the task
itself. Quality is the answer's confidence against the team's threshold; rounds are turns against
the turn limit, or rounds against ``ConfidenceNotReached``'s bound. The run ``concluded`` when it
stopped on a stop token or a confidence target (``CONCLUDING``), alone or as one condition of a
combination that fired (``StopToken() & MaxTurns(4)``): one that ran into its turn limit,
budget or ``ConfidenceNotReached`` did not, and its report does not say ``converged``. A failed
task carries its member's latest error and how many of its turns failed.

**Conflicting values.** When two or more members answered the task (solvers, arbiters; not the
steps of a planner's plan, which differ by design) and neither an accepted review, a verifier that
passed each of them nor an arbiter's answer settled which one stands, two answers that state
values in conflict (``conflicting``: "20 vacation days" and "18 vacation days") give the run a
blocking risk, ``answers_disagree``. Answers worded differently that state no value, or values of
different kinds ("a doctor's note after three days" and "paid at full salary"), do not: a
paraphrase or a complementary answer is not a contradiction. A model on the text protocol gives no
``fields``, so without this its contradicting answers would reach no conflict detector at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from harness.aggregate import AgentOutput, AggregatedResult, aggregate
from harness.convergence import (
    Budget,
    Quality,
    ResourceUsage,
    Review,
    Risk,
    RunState,
    TaskState,
    TaskStatus,
)
from harness.team.messages import TeamMessage, TeamRole
from harness.team.termination import StopReason
from harness.text.spelled import Value, fewer_stated, same_values, spelled_values

__all__ = [
    "CONCLUDING",
    "Answer",
    "Synthesis",
    "agree",
    "always_failed",
    "answers",
    "build_run_state",
    "concluded",
    "conflicting",
    "disagreeing",
    "failed_turns",
    "failures",
    "final_answer",
    "joined_names",
    "latest_per_sender",
]

Synthesis = Literal["auto", "last"]
CONCLUDING = frozenset({"stop_token", "confidence_reached"})
"""Stop kinds by which a run ends on its own signal; every other stop is a limit or a fault."""


def concluded(stop: StopReason) -> bool:
    """Whether the run ended on its own signal: its stop, or one of the conditions of a
    combination that stopped it (``StopToken() & MaxTurns(4)``), is in ``CONCLUDING``."""
    return stop.kind in CONCLUDING or not CONCLUDING.isdisjoint(stop.fired)


_PRODUCERS = (TeamRole.PLANNER, TeamRole.SOLVER, TeamRole.ARBITER)
_DEPENDS: Mapping[TeamRole, tuple[TeamRole, ...]] = {
    TeamRole.SOLVER: (TeamRole.PLANNER,),
    TeamRole.CRITIC: (TeamRole.SOLVER,),
    TeamRole.VERIFIER: (TeamRole.SOLVER,),
    TeamRole.ARBITER: (TeamRole.SOLVER,),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    text: str
    confidence: float | None
    open_questions: tuple[str, ...]
    aggregated: AggregatedResult | None = None
    source: str | None = None
    """The member whose message is the answer, or ``aggregate``."""


def _latest(journal: Sequence[TeamMessage], role: TeamRole) -> TeamMessage | None:
    return next((m for m in reversed(journal) if m.role is role and m.metadata.valid), None)


def latest_per_sender(journal: Sequence[TeamMessage]) -> dict[str, TeamMessage]:
    """Member → its latest message in ``journal``."""
    out: dict[str, TeamMessage] = {}
    for m in journal:
        out[m.sender] = m
    return out


async def final_answer(
    journal: Sequence[TeamMessage], stop: StopReason, *, synthesis: Synthesis = "auto"
) -> Answer:
    """The run's answer, by the rule of the module docstring."""
    latest = latest_per_sender(journal)
    open_questions = tuple(
        dict.fromkeys(q for m in latest.values() if m.metadata.valid for q in m.open_questions)
    )
    last = journal[-1] if journal else None
    chosen: TeamMessage | None = None
    if (
        stop.kind == "stop_token"
        and last is not None
        and last.role in _PRODUCERS
        and last.content.strip()
    ):
        chosen = last
    chosen = chosen or _latest(journal, TeamRole.ARBITER)
    solvers = [
        m for m in latest.values() if m.role is TeamRole.SOLVER and m.metadata.valid and m.content
    ]
    if chosen is None and len(solvers) >= 2 and synthesis == "auto":
        outputs = [
            AgentOutput(
                agent=m.sender,
                data=dict(m.fields) or None,
                text=m.content,
                confidence=m.metadata.confidence,
                missing=m.open_questions,
                status="partial" if m.open_questions else "complete",
            )
            for m in solvers
        ]
        result = await aggregate(outputs, strategy="confidence", top_k=7)
        return Answer(
            text=result.summary,
            confidence=result.confidence
            if all(o.confidence is not None for o in outputs)
            else None,
            open_questions=open_questions,
            aggregated=result,
            source="aggregate",
        )
    chosen = chosen or _latest(journal, TeamRole.SOLVER)
    if chosen is None:
        return Answer(text="", confidence=None, open_questions=open_questions)
    return Answer(
        text=chosen.content,
        confidence=chosen.metadata.confidence,
        open_questions=open_questions,
        source=chosen.sender,
    )


def answers(journal: Sequence[TeamMessage]) -> dict[str, str]:
    """Member → its answer: the latest message of each solver and arbiter whose latest turn
    succeeded and said something."""
    return {
        name: m.content
        for name, m in latest_per_sender(journal).items()
        if m.role in (TeamRole.SOLVER, TeamRole.ARBITER) and m.metadata.valid and m.content.strip()
    }


def agree(texts: Sequence[str]) -> bool:
    """Whether answers say one thing: each pair is the same text (case and spacing aside), or
    both state values and the one stating fewer states none the other does not ("It is 20 days."
    and "Twenty days of leave."; not "20 days" and "18 days"). Answers that state no value and
    differ in wording cannot be shown to agree. Values are compared through an index
    (``all_stated``), so long answers cost about their length."""

    def same(a: str, b: str) -> bool:
        return _same_text(a, b) or same_values(a, b)

    return bool(texts) and all(same(a, b) for n, a in enumerate(texts) for b in texts[n + 1 :])


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def conflicting(a: str, b: str) -> bool:
    """Whether two answers state values in conflict: of the kinds of value both state (amounts
    and numbers, durations, times of day, dates), the one stating fewer states one the other does
    not, in any form ("20 vacation days" and "eighteen days of leave"; not "20 days" and "twenty
    days", nor "after three days" and "at full salary", where one states no value)."""
    if _same_text(a, b):
        return False
    va, vb = spelled_values(a), spelled_values(b)
    shared = {v[0] for v in va} & {v[0] for v in vb}
    if not shared:
        return False
    ka: frozenset[Value] = frozenset(v for v in va if v[0] in shared)
    kb: frozenset[Value] = frozenset(v for v in vb if v[0] in shared)
    return not fewer_stated(ka, kb)


def disagreeing(journal: Sequence[TeamMessage], answer: Answer) -> tuple[str, ...]:
    """The members whose answers state values in conflict (``conflicting``), when nothing settled
    which one stands (empty when no two conflict, when fewer than two answered, when a planner
    split the task into steps for them, or when an accepted review, a verifier that passed each
    of them or the arbiter whose message is the answer settled it)."""
    given = answers(journal)
    if len(given) < 2 or _latest(journal, TeamRole.PLANNER) is not None:
        return ()  # after a plan, solvers answer different steps: only fields can clash
    roles = {m.sender: m.role for m in journal}
    if answer.source is not None and roles.get(answer.source) is TeamRole.ARBITER:
        return ()
    review = _review(journal)
    if review is not None and review.accepted:
        return ()
    tested = _tests(journal)
    if all(tested.get(n) for n in given if roles[n] is TeamRole.SOLVER):
        return ()
    names = list(given)
    clashing: set[str] = set()
    for n, first in enumerate(names):
        for second in names[n + 1 :]:
            if conflicting(given[first], given[second]):
                clashing.update((first, second))
    return tuple(name for name in names if name in clashing)


def joined_names(joined: str) -> str:
    """``a,b,c`` as ``a, b and c``."""
    *first, last = joined.split(",")
    return f"{', '.join(first)} and {last}" if first else last


def failures(journal: Sequence[TeamMessage], *, errors: bool = True) -> dict[str, str]:
    """Member → what went wrong, for each member whose latest turn failed: its role and name, and
    with ``errors`` how many of its turns failed and its latest error (``solver s failed 3 times:
    RuntimeError: HR backend down``); without, only ``solver s failed``, the words an end user
    may read (an exception's text can hold a URL, a key, an internal host)."""
    out: dict[str, str] = {}
    counts = failed_turns(journal)
    for name, m in latest_per_sender(journal).items():
        if m.metadata.valid:
            continue
        said = f"{m.role.value} {name} failed"
        if errors:
            count = counts[name]
            times = f" {count} times" if count > 1 else ""
            said += f"{times}: {m.metadata.error or 'no error given'}"
        out[name] = said
    return out


def failed_turns(journal: Sequence[TeamMessage]) -> Counter[str]:
    """Member → how many of its turns failed."""
    return Counter(m.sender for m in journal if not m.metadata.valid)


def always_failed(journal: Sequence[TeamMessage]) -> tuple[str, ...]:
    """The members every one of whose turns failed: they never gave the team anything."""
    failed = {m.sender for m in journal if not m.metadata.valid}
    served = {m.sender for m in journal if m.metadata.valid}
    return tuple(n for n in latest_per_sender(journal) if n in failed and n not in served)


def _tests(journal: Sequence[TeamMessage]) -> dict[str, bool]:
    """Solver → verdict of the verifier message that followed its latest message, if any."""
    results: dict[str, bool] = {}
    target: str | None = None
    for m in journal:
        if m.role is TeamRole.SOLVER:
            target = m.sender
            results.pop(m.sender, None)  # a new version is untested until verified again
        elif m.role is TeamRole.VERIFIER and m.signals.verdict and target is not None:
            results[target] = m.signals.verdict == "accept"
    return results


def _review(journal: Sequence[TeamMessage]) -> Review | None:
    for index in range(len(journal) - 1, -1, -1):
        m = journal[index]
        if m.role is not TeamRole.CRITIC or m.signals.verdict is None:
            continue
        if m.signals.verdict == "accept":
            return Review(accepted=True, reviewer=m.sender, reason=m.content)
        wanted = m.signals.handoff
        acted = wanted is not None and any(x.sender == wanted for x in journal[index + 1 :])
        return Review(
            accepted=False,
            reviewer=m.sender,
            reason=m.content,
            retry_tasks=(wanted,) if acted and wanted else (),
        )
    return None


def build_run_state(
    journal: Sequence[TeamMessage],
    *,
    roles: Mapping[str, TeamRole],
    depends_on: Mapping[str, tuple[str, ...] | None],
    stop: StopReason,
    correlation_id: str,
    answer: Answer,
    quality_threshold: float | None,
    max_turns: int,
    budget: Budget | None,
    tokens_used: int,
    cost_usd: float | None,
    elapsed_s: float,
    risks: Sequence[Risk] = (),
) -> RunState:
    """The convergence input of a finished run, by the mapping of the module docstring."""
    latest = latest_per_sender(journal)
    tested = _tests(journal)
    failed = failed_turns(journal)
    tasks: list[TaskState] = []
    for name, message in latest.items():
        fields: dict[str, object] = {}
        for m in journal:
            if m.sender == name and m.metadata.valid:
                fields.update(m.fields)
        deps = depends_on.get(name)
        if deps is None:
            wanted = _DEPENDS.get(message.role, ())
            deps = tuple(n for n, r in roles.items() if r in wanted and n != name)
        valid = message.metadata.valid
        tasks.append(
            TaskState(
                id=name,
                agent=name,
                status=TaskStatus.COMPLETE if valid else TaskStatus.FAILED,
                fields=fields,
                tests_passed=tested.get(name),
                depends_on=deps,
                error=None if valid else message.metadata.error,
                failed_attempts=failed[name],
            )
        )
    if not tasks:
        # nobody spoke (a guardrail stopped the intake): the task itself is the blocked task
        tasks.append(TaskState(id="task", agent="team", status=TaskStatus.BLOCKED))
    decisions: dict[str, str] = {}
    if answer.aggregated is not None:
        for c in answer.aggregated.conflicts_resolved:
            if c.resolved and c.winner:
                decisions[c.field] = c.winner
    for m in journal:
        if m.role is TeamRole.ARBITER and m.metadata.valid:
            decisions.update({key: m.sender for key in m.fields})
    all_risks = list(risks)
    if stop.kind == "watchdog":
        all_risks.append(Risk(id="loop-watchdog", kind="loop", detail=stop.detail))
    differing = disagreeing(journal, answer)
    if differing:
        names = joined_names(",".join(differing))
        all_risks.append(
            Risk(
                id=f"answers_disagree:{','.join(differing)}",
                kind="answers_disagree",
                tasks=tuple(differing),
                detail=f"the answers of {names} state values in conflict, and no review, "
                "verifier or arbiter settled which one stands",
            )
        )
    if stop.kind == "confidence_not_reached":
        rounds, limit = stop.limit or 0, stop.limit
    else:
        rounds, limit = len(journal), max_turns
    known_tokens = tokens_used if any(m.metadata.cost_estimate_tokens for m in journal) else None
    return RunState(
        run_id=correlation_id,
        tasks=tuple(tasks),
        budget=budget or stop.budget,
        usage=ResourceUsage(tokens=known_tokens, cost_usd=cost_usd, seconds=elapsed_s),
        quality=None
        if quality_threshold is None
        else Quality(score=answer.confidence, threshold=quality_threshold),
        review=_review(journal),
        rounds=rounds,
        max_rounds=limit,
        risks=tuple(all_risks),
        decisions=decisions,
        concluded=concluded(stop),
    )
