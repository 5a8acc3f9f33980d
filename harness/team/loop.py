"""The team loop: members take turns until a stop criterion fires; the team answers as a sub-agent.

One run (``Team.run``):

1. Normalise and screen the task (and the parent's history) for prompt injection; a blocking finding
   ends the run before any member speaks (``risk_blocked``).
2. Repeat: the policy picks a speaker; the member takes its turn under ``turn_timeout`` (a failure
   or timeout becomes an invalid message, never a crash); its reply becomes a ``TeamMessage``
   (content normalised, a handoff to a role name mapped to that member, correlation id attached)
   appended to the journal; its notes go to the scratchpad; the stop conditions are checked.
3. Compute the final answer, the run state and the ``ConvergenceReport``; emit the events.

``Team.as_subagent`` wraps a team as a ``ConnectedAgent`` or ``ChildAgent`` whose ``handler`` runs
the loop on the scoped request and returns the contract's outputs, so a parent uses it like any
agent. Only a run that settled hands out its answer: one whose report converged, or one that
concluded on its own signal and failed only because members' turns failed, while some solver or
arbiter answered and every member that answered says one thing with the answer (the answer then
names the failed members). A blocked run (a review that rejected the answer, members whose values
conflict, a tie), a run cut off by its turn limit or budget, one below its quality threshold, or
another failed one returns why, and the task as an open question, never its unsettled draft; the reason names a failed member, never its error. Run as a sub-agent,
an unsettled run that failed with failed members, or one with a member that failed on every turn,
raises ``TeamFailedError`` instead, so the parent's call fails as it does for any agent that
raises, with the errors in the call's ``error``.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.aggregate import AggregatedResult
from harness.convergence import (
    Budget,
    ConflictKind,
    ConvergenceReport,
    ConvergenceStatus,
    Risk,
    TerminationReason,
    compute_convergence,
    convergence_events,
)
from harness.exceptions import ConfigError, SubagentError, UsageError
from harness.models.base import Model
from harness.team.events import EventHandler, EventLog
from harness.team.guardrails import Guardrails, Screening, normalize_text, screen
from harness.team.members import Member, take_turn
from harness.team.messages import (
    MemberReply,
    MessageContext,
    MessageMetadata,
    Signals,
    TeamMessage,
    TeamRole,
    ToolPermission,
)
from harness.team.outcome import (
    Synthesis,
    agree,
    always_failed,
    answers,
    build_run_state,
    concluded,
    failures,
    final_answer,
    joined_names,
    latest_per_sender,
)
from harness.team.policies import RoundRobin, SpeakerPolicy
from harness.team.state import Journal, Scratchpad, TeamState
from harness.team.termination import (
    AnyOf,
    BudgetLimit,
    MaxTurns,
    StopReason,
    StopToken,
    TerminationCondition,
    ValidationFailures,
)
from instructions.contract import ANSWERED, FINDINGS, INTERACTION_SUMMARY, OPEN_QUESTIONS
from subagents import ChildAgent, ConnectedAgent, HistoryEntry, Kind, Mode, ToolContext, Usage

__all__ = ["Team", "TeamFailedError", "TeamResult"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamResult:
    """Everything a team run produced."""

    team: str
    task: str
    """The task as the members saw it (normalised, possibly sanitised)."""
    correlation_id: str
    answer: str
    """The final answer; empty when the team produced none."""
    confidence: float | None
    open_questions: tuple[str, ...]
    stop: StopReason
    journal: tuple[TeamMessage, ...]
    scratchpad: Mapping[str, Any]
    events: tuple[dict[str, Any], ...]
    report: ConvergenceReport
    aggregated: AggregatedResult | None = None
    """The aggregation of the solvers' answers, when the answer came from one."""
    screening: Screening | None = None
    usage: Usage = field(default_factory=Usage)
    elapsed_s: float = 0.0

    @property
    def status(self) -> str:
        return self.report.status.value

    @property
    def failed_members(self) -> tuple[str, ...]:
        """The members whose latest turn failed (raised or timed out)."""
        return tuple(n for n, m in latest_per_sender(self.journal).items() if not m.metadata.valid)

    @property
    def failures(self) -> tuple[str, ...]:
        """What went wrong with each member in ``failed_members``, in words: its role, name, how
        many of its turns failed and its latest error (``solver s failed 3 times: RuntimeError:
        HR backend down``). For the report, ``TeamFailedError`` and the call's ``error``; the
        reason an end user reads names only the member (``solver s failed``)."""
        return tuple(failures(self.journal).values())

    @property
    def settled(self) -> bool:
        """Whether the team settled on an answer, which ``to_outputs`` then hands out.

        A run whose report converged with an answer settled: it ended on its own signal (a stop
        token, a confidence target), above its quality threshold when the answer was scored, and
        no two members that answered state values in conflict unless a review, a verifier or an
        arbiter settled it. So did a ``failed`` run that ended on its own signal and whose only
        trouble is members whose turn failed, when some solver or arbiter answered and every
        member that answered says one thing with the answer (``agree``), unless a failed member
        is a critic or verifier (the answer went unchecked): the answer goes out, naming the
        failed members. A blocked run, or one cut off by its turn limit or budget, or below its
        quality threshold, did not.
        """
        if not self.answer.strip():
            return False
        if self.report.status is ConvergenceStatus.CONVERGED:
            return True
        if not (
            self.report.status is ConvergenceStatus.FAILED
            and self.report.termination_reason is TerminationReason.TASK_FAILED
            and concluded(self.stop)
        ):
            return False
        disputed = (ConflictKind.ARTIFACT_MISMATCH, ConflictKind.REVIEW_DISAGREEMENT)
        if any(c.kind in disputed for c in self.report.conflicts):
            return False
        latest = latest_per_sender(self.journal)
        if any(latest[n].role in _CHECKERS for n in self.failed_members):
            return False  # the critic or verifier never checked the answer
        given = answers(self.journal)  # a planner's wrap-up alone is no answer
        return bool(given) and agree([self.answer, *given.values()])

    def unsettled_reasons(self) -> tuple[str, ...]:
        """Why the run has no answer to hand out, in words an end user may read (empty when it
        ``settled``): a failed member is named, its error is not (see ``failures``); members
        whose answers disagree are not (``TeamFailedError`` and the report name them)."""
        return self._reasons(errors=False)

    def _reasons(self, *, errors: bool) -> tuple[str, ...]:
        if self.settled:
            return ()
        reasons: list[str] = []
        # what the members disagreed on first, then how the run went (a loop, a guardrail)
        conflicts = {c.id for c in self.report.conflicts}
        risks = sorted(self.report.unresolved_risks, key=lambda r: r.id not in conflicts)
        kinds = {r.kind for r in risks}
        for risk in risks:
            field = risk.id.partition(":")[2]
            if risk.kind == "answers_disagree" and "artifact_mismatch" in kinds:
                continue  # the field they disagree on says it already
            reasons.append(
                {
                    "review_disagreement": "the review rejected the answer",
                    "artifact_mismatch": f"its members disagree on {field}",
                    "answers_disagree": _disagree(field, names=errors),
                    "test_failure": f"the checks of {field}'s answer failed",
                    "dependency_inconsistency": f"{field} built on a step that did not finish",
                    "loop": "its turns went round in circles",
                }.get(risk.kind, risk.kind.replace("_", " "))
            )
        reasons.extend(failures(self.journal, errors=errors).values())
        reason = self.report.termination_reason
        quality = self.report.quality_state
        if self.stop.kind == "confidence_not_reached":
            reasons.append(self.stop.detail)
        elif reason is TerminationReason.MAX_ROUNDS_REACHED:
            turns = self.stop.limit or len(self.journal)
            reasons.append(f"it reached its turn limit of {turns} turns before a member said DONE")
        elif reason is TerminationReason.BUDGET_EXHAUSTED:
            reasons.append(f"its {self.stop.detail}")
        elif reason is TerminationReason.QUALITY_NOT_REACHED and quality.score is not None:
            reasons.append(
                f"its answer's confidence {quality.score:.2f} is below {quality.threshold:.2f}"
            )
        return tuple(dict.fromkeys(reasons)) or (self.stop.detail,)

    @property
    def failed_call(self) -> bool:
        """Whether the run, as a sub-agent, is a failed call (``Team.handle`` raises
        ``TeamFailedError``): it did not settle, and either it ``failed`` with members whose
        latest turn failed, or a member failed on every one of its turns (whatever the status:
        a debate whose arbiter is down ends blocked)."""
        if self.settled or self.stop.kind == "guardrail":
            return False
        failed = self.report.status is ConvergenceStatus.FAILED and bool(self.failed_members)
        return failed or bool(always_failed(self.journal))

    def to_outputs(self, mode: Mode | str = Mode.SILENT) -> dict[str, Any]:
        """The contract's outputs (wire names) for a sub-agent in ``mode``.

        The answer goes out only when the run ``settled``. Otherwise the text says
        why the team could not settle on one and the task comes back as the first open question;
        the draft stays in ``answer``, for the audit.
        """
        mode = Mode(mode)
        open_questions = list(self.open_questions)
        if self.stop.kind == "guardrail":
            rules = ", ".join(self.screening.rules) if self.screening else ""
            text = "The request was not processed: it looks like a prompt-injection attempt" + (
                f" ({rules})." if rules else "."
            )
        elif self.settled:
            text = self.answer
            if self.failed_members:  # settled without them: say so
                names = ", ".join(self.failed_members)
                text += (
                    f"\n\n(The team answered without {names}, whose turn failed; "
                    "the members that answered agree.)"
                )
        elif not self.answer.strip():
            why = "; ".join(self.unsettled_reasons())
            text = f"The team could not answer the request ({why})."
            open_questions = [self.task, *open_questions]
        else:
            why = "; ".join(self.unsettled_reasons())
            text = f"The team could not settle on an answer ({why})."
            open_questions = [self.task, *open_questions]
        if mode is Mode.SILENT:
            return {ANSWERED: False, FINDINGS: text, OPEN_QUESTIONS: open_questions}
        return {
            ANSWERED: self.settled and self.stop.kind != "guardrail",
            INTERACTION_SUMMARY: text,
            OPEN_QUESTIONS: open_questions,
        }


def _disagree(members: str, *, names: bool) -> str:
    """Why answers that disagree leave no answer: naming the members (``members``, comma
    separated) for the developer; for the end user, who knows no member, without names."""
    if names:
        return f"the answers of {joined_names(members)} state values in conflict"
    return "its members' answers state values in conflict"


_CHECKERS = frozenset({TeamRole.CRITIC, TeamRole.VERIFIER})
"""Roles whose failed turn leaves an answer unchecked: such a run hands out nothing."""


class TeamFailedError(SubagentError):
    """A team run as a sub-agent could not answer because members' turns failed (raised by
    ``Team.handle``; the runtime records it as the call's failure, like any agent's exception).

    Attributes:
        agent: the sub-agent's name.
        result: the run's ``TeamResult`` (its journal holds each failed turn).
        members: the failed members.
    """

    def __init__(self, result: TeamResult, *, agent: str) -> None:
        self.result = result
        self.members = result.failed_members
        super().__init__("; ".join(result._reasons(errors=True)), agent=agent)


@dataclass(slots=True, kw_only=True)
class _Run:
    task: str
    correlation_id: str
    history: tuple[HistoryEntry, ...] | None
    started: float
    journal: Journal = field(default_factory=Journal)
    pad: Scratchpad = field(default_factory=Scratchpad)
    usage: Usage = field(default_factory=Usage)
    tokens: int = 0
    failures: int = 0


class Team:
    """A team of members that works on one task at a time and can serve as a sub-agent.

    Args:
        name: the team's name (used in prompts and events).
        members: the members, in their default speaking order.
        policy: speaker selection; round robin with handoffs by default.
        termination: stop criteria; ``StopToken() | ValidationFailures(3)`` by default. The turn
            limit, the loop watchdog and the budget are always added.
        max_turns: the turn limit.
        model: the model of members that have neither a model nor a function.
        guardrails: injection screening, tool timeout, watchdog settings.
        budget: token, cost and time limits (stops the run and feeds the convergence report).
        quality_threshold: the answer confidence that counts as quality reached; None: no signal.
        synthesis: ``auto`` aggregates several solvers' answers when no member gave a final one;
            ``last`` takes the latest answer.
        turn_timeout: seconds one member's turn may take.
        clock: the time source (seconds), replaceable in tests.
        on_event: called with every event of every run.
        on_result: called with every finished run's ``TeamResult`` (sync or async), for example to
            keep the reports of a team that runs as a sub-agent.
    """

    def __init__(
        self,
        *,
        name: str,
        members: Sequence[Member],
        policy: SpeakerPolicy | None = None,
        termination: TerminationCondition | None = None,
        max_turns: int = 12,
        model: Model | None = None,
        guardrails: Guardrails | None = None,
        budget: Budget | None = None,
        quality_threshold: float | None = 0.7,
        synthesis: Synthesis = "auto",
        turn_timeout: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        on_event: EventHandler | None = None,
        on_result: Callable[[TeamResult], Awaitable[None] | None] | None = None,
    ) -> None:
        if not members:
            raise ConfigError("a team needs at least one member", field=f"{name}.members")
        names = [m.name for m in members]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ConfigError(
                f"member names repeat: {', '.join(repeated)}", field=f"{name}.members"
            )
        if max_turns < 1 or turn_timeout <= 0:
            raise ConfigError("max_turns and turn_timeout must be positive", field=name)
        self.name = name
        self.members = tuple(members)
        self.policy = policy or RoundRobin()
        self.termination = termination or (StopToken() | ValidationFailures(3))
        self.max_turns = max_turns
        self.model = model
        self.guardrails = guardrails or Guardrails()
        self.budget = budget
        self.quality_threshold = quality_threshold
        self.synthesis = synthesis
        self.turn_timeout = turn_timeout
        self.clock = clock
        self.on_event = on_event
        self.on_result = on_result
        self._by_name = {m.name: m for m in members}

    def _conditions(self) -> TerminationCondition:
        parts = [copy.deepcopy(self.termination)]
        if self.budget is not None:
            b = self.budget
            parts.append(
                BudgetLimit(
                    max_tokens=b.max_tokens, max_cost_usd=b.max_cost_usd, max_seconds=b.max_seconds
                )
            )
        if self.guardrails.watchdog is not None:
            parts.append(copy.deepcopy(self.guardrails.watchdog))
        parts.append(MaxTurns(self.max_turns))
        combined = AnyOf(*parts)
        combined.reset()
        return combined

    def _state(self, run: _Run, *, speaker: str | None = None) -> TeamState:
        return TeamState(
            task=run.task,
            correlation_id=run.correlation_id,
            turn=len(run.journal),
            members=tuple(self._by_name),
            roles={m.name: m.role for m in self.members},
            journal=run.journal.entries,
            scratchpad=run.pad.snapshot(),
            history=run.history,
            speaker=speaker,
            tokens_used=run.tokens,
            cost_usd=run.usage.cost_usd,
            elapsed_s=self.clock() - run.started,
            consecutive_failures=run.failures,
        )

    def _message(
        self,
        member: Member,
        reply: MemberReply | None,
        error: str | None,
        run: _Run,
        latency: float,
    ) -> TeamMessage:
        turn = len(run.journal) + 1
        reply = reply or MemberReply(content="")
        handoff = reply.handoff
        if handoff is not None and handoff not in self._by_name:
            by_role = [m.name for m in self.members if m.role == handoff and m.name != member.name]
            handoff = by_role[0] if by_role else None
        memory_ref = None
        if reply.notes and error is None:
            for key, value in reply.notes.items():
                run.pad.write(key, value, by=member.name, turn=turn)
            memory_ref = "scratchpad:" + ",".join(reply.notes)
        return TeamMessage(
            turn=turn,
            sender=member.name,
            role=member.role,
            goal=member.goal,
            content=normalize_text(reply.content),
            context=MessageContext(task_id=run.correlation_id, memory_ref=memory_ref),
            constraints=member.constraints,
            tools=tuple(ToolPermission(name=getattr(t, "name", "")) for t in member.tools),
            signals=Signals(
                handoff=handoff,
                stop=reply.stop and error is None,
                needs_tool=reply.needs_tool,
                verdict=reply.verdict,
            ),
            metadata=MessageMetadata(
                correlation_id=run.correlation_id,
                confidence=reply.confidence,
                cost_estimate_tokens=reply.cost_estimate_tokens,
                latency_s=round(latency, 6),
                valid=error is None,
                error=error,
            ),
            fields=dict(reply.fields),
            open_questions=tuple(normalize_text(q) for q in reply.open_questions),
        )

    async def _screen_inputs(
        self, task: str, history: Sequence[HistoryEntry] | None, log: EventLog
    ) -> tuple[Screening, tuple[HistoryEntry, ...] | None]:
        policy = self.guardrails.on_injection
        checked = screen(task, policy=policy) if self.guardrails.screen_inputs else None
        screening = checked or Screening(text=normalize_text(task))
        if screening.findings:
            kind = "guardrail.blocked" if screening.blocked else "guardrail.flagged"
            await log.emit(kind, source="task", rules=list(screening.rules))
        if history is None:
            return screening, None
        kept: list[HistoryEntry] = []
        for entry in history:
            result = screen(entry.text, policy=policy) if self.guardrails.screen_inputs else None
            if result is not None and result.blocked:
                await log.emit(
                    "guardrail.flagged",
                    source=f"history:turn {entry.turn}",
                    rules=list(result.rules),
                    action="dropped",
                )
                continue
            text = result.text if result is not None else normalize_text(entry.text)
            kept.append(entry.model_copy(update={"text": text}))
        return screening, tuple(kept)

    async def run(
        self,
        task: str,
        *,
        history: Sequence[HistoryEntry] | None = None,
        correlation_id: str | None = None,
        on_event: EventHandler | None = None,
    ) -> TeamResult:
        """Run the team on ``task`` until a stop criterion fires.

        Args:
            task: what the team must do (a sub-agent's scoped request).
            history: the parent's conversation, as context for the members.
            correlation_id: the run's id, carried by every message and event; random by default.
            on_event: called with every event of this run, after the team's own handler.
        """
        if not task or not task.strip():
            raise UsageError("a team needs a non-empty task")
        cid = correlation_id or uuid.uuid4().hex
        log = EventLog(cid, (self.on_event, on_event))
        started = self.clock()
        conditions = self._conditions()
        screening, clean_history = await self._screen_inputs(task, history, log)
        run = _Run(task=screening.text, correlation_id=cid, history=clean_history, started=started)
        await log.emit(
            "team.started",
            team=self.name,
            task=run.task,
            members={m.name: m.role.value for m in self.members},
            policy=type(self.policy).__name__,
        )
        risks: list[Risk] = []
        stop: StopReason | None = None
        if screening.blocked:
            rules = ", ".join(screening.rules)
            stop = StopReason(kind="guardrail", detail=f"prompt injection in the task ({rules})")
            risks.append(Risk(id=f"injection:{rules}", kind="prompt_injection", detail=stop.detail))
        while stop is None:
            speaker = await self.policy.select(self._state(run))
            member = self._by_name.get(speaker)
            if member is None:
                raise UsageError(f"the speaker policy chose {speaker!r}, who is not a member")
            begun = self.clock()
            reply: MemberReply | None = None
            error: str | None = None
            try:
                async with asyncio.timeout(self.turn_timeout):
                    reply, usage = await take_turn(
                        member,
                        self._state(run, speaker=speaker),
                        team=self.name,
                        model=self.model,
                        guardrails=self.guardrails,
                        log=log,
                    )
                run.usage = run.usage + usage
            except TimeoutError:
                error = f"turn timed out after {self.turn_timeout:g}s"
            except ConfigError:
                raise
            except Exception as exc:  # a failed turn is recorded and counted, the run goes on
                error = f"{type(exc).__name__}: {exc}"
            message = self._message(member, reply, error, run, self.clock() - begun)
            run.journal.append(message)
            run.tokens += message.metadata.cost_estimate_tokens or 0
            if error is not None or message.signals.verdict == "reject":
                run.failures += 1
            elif message.signals.verdict == "accept":
                run.failures = 0
            await log.emit(
                "team.message",
                turn=message.turn,
                sender=message.sender,
                message=message.model_dump(mode="json"),
            )
            stop = conditions.check(self._state(run))
        return await self._finish(run, stop, screening, risks, log)

    async def _finish(
        self, run: _Run, stop: StopReason, screening: Screening, risks: list[Risk], log: EventLog
    ) -> TeamResult:
        await log.emit("team.stopped", turn=len(run.journal), kind=stop.kind, detail=stop.detail)
        journal = run.journal.entries
        answer = await final_answer(journal, stop, synthesis=self.synthesis)
        elapsed = self.clock() - run.started
        state = build_run_state(
            journal,
            roles={m.name: m.role for m in self.members},
            depends_on={m.name: m.depends_on for m in self.members},
            stop=stop,
            correlation_id=run.correlation_id,
            answer=answer,
            quality_threshold=self.quality_threshold,
            max_turns=self.max_turns,
            budget=self.budget,
            tokens_used=run.tokens,
            cost_usd=run.usage.cost_usd,
            elapsed_s=elapsed,
            risks=risks,
        )
        report = compute_convergence(state)
        for kind, payload in convergence_events(report, correlation_id=run.correlation_id):
            payload.pop("correlation_id", None)
            await log.emit(kind, **payload)
        await log.emit(
            "team.finished",
            status=report.status.value,
            termination_reason=report.termination_reason.value
            if report.termination_reason
            else None,
            turns=len(journal),
        )
        result = TeamResult(
            team=self.name,
            task=run.task,
            correlation_id=run.correlation_id,
            answer=answer.text,
            confidence=answer.confidence,
            open_questions=answer.open_questions,
            stop=stop,
            journal=journal,
            scratchpad=run.pad.snapshot(),
            events=log.events,
            report=report,
            aggregated=answer.aggregated,
            screening=screening,
            usage=run.usage,
            elapsed_s=elapsed,
        )
        if self.on_result is not None:
            outcome = self.on_result(result)
            if inspect.isawaitable(outcome):
                await outcome
        return result

    async def handle(self, ctx: ToolContext, *, mode: Mode | str = Mode.SILENT) -> dict[str, Any]:
        """Run the team as a sub-agent: the scoped request in, the contract's outputs out.

        A summary of the run (correlation id, status, termination reason, turns) is kept in
        ``ctx.state["team"]`` for the conversation.

        Raises:
            TeamFailedError: the run is a ``failed_call``: it did not settle, and it ``failed``
                with members whose latest turn failed, or a member failed on every one of its
                turns (also when the run ended ``blocked``). The call fails with the members and
                their errors, as a sub-agent that raises does.
        """
        result = await self.run(ctx.scoped_request, history=ctx.history)
        reason = result.report.termination_reason
        ctx.state["team"] = {
            "correlation_id": result.correlation_id,
            "status": result.status,
            "termination_reason": reason.value if reason else None,
            "turns": len(result.journal),
        }
        if result.failed_call:
            raise TeamFailedError(result, agent=ctx.agent)
        return result.to_outputs(mode)

    def as_subagent(
        self,
        *,
        name: str,
        description: str,
        kind: Kind | Literal["child", "connected"] = "connected",
        mode: Mode | Literal["silent", "direct"] = "silent",
        **kwargs: Any,
    ) -> ConnectedAgent | ChildAgent:
        """This team as a sub-agent whose handler runs the loop (silent or direct mode).

        Extra keyword arguments go to the agent (``timeout``, ``instructions``, ``pass_history``...).
        """
        chosen = Mode(mode)
        if chosen is Mode.CONVERSATIONAL:
            raise ConfigError("a team cannot hold the floor; use silent or direct", field=name)

        async def handler(ctx: ToolContext) -> dict[str, Any]:
            return await self.handle(ctx, mode=chosen)

        roles = ", ".join(f"{m.name} ({m.role.value})" for m in self.members)
        kwargs.setdefault("instructions", f"A team of agents working together: {roles}.")
        agent_cls = ChildAgent if Kind(kind) is Kind.CHILD else ConnectedAgent
        return agent_cls(name=name, description=description, mode=chosen, handler=handler, **kwargs)
