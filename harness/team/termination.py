"""Stop criteria of the team loop, composable like AutoGen's termination conditions.

A condition looks at the run after each message and returns a ``StopReason`` or None. ``a | b``
stops as soon as either fires; ``a & b`` stops once both have fired (not necessarily on the same
turn). The team copies its conditions at the start of every run, so state kept by ``&`` never leaks
from one run into the next.

Conditions: ``StopToken`` (``DONE`` in the content, or the structured stop signal), ``MaxTurns``,
``ConfidenceNotReached`` (no message reached a confidence after N rounds), ``ConfidenceReached``
(early stop at a target confidence), ``BudgetLimit`` (tokens, cost or seconds) and
``ValidationFailures`` (K failed or rejected turns in a row). The loop watchdog lives in
``harness.team.guardrails`` and is a condition too.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from harness.convergence import Budget
from harness.team.state import TeamState

__all__ = [
    "AllOf",
    "AnyOf",
    "BudgetLimit",
    "ConfidenceNotReached",
    "ConfidenceReached",
    "MaxTurns",
    "StopKind",
    "StopReason",
    "StopToken",
    "TerminationCondition",
    "ValidationFailures",
]

StopKind = Literal[
    "stop_token",
    "max_turns",
    "confidence_not_reached",
    "confidence_reached",
    "budget",
    "validation_failed",
    "watchdog",
    "guardrail",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class StopReason:
    """Why a run stopped."""

    kind: StopKind
    detail: str
    limit: int | None = None
    """The bound that was reached (turns, rounds, failures), when there is one."""
    budget: Budget | None = None
    """The budget that ran out, for ``budget`` stops."""
    fired: tuple[StopKind, ...] = ()
    """For a combination (``AllOf``), the kind of every condition that fired, in order (``kind``
    is the last one's): a stop token in ``StopToken() & MaxTurns(4)`` still ended the run."""


class TerminationCondition(ABC):
    """Decides after each message whether the run stops."""

    @abstractmethod
    def check(self, state: TeamState) -> StopReason | None:
        """Return why the run must stop now, or None to go on."""

    def reset(self) -> None:  # noqa: B027 - stateless conditions need nothing
        """Forget what earlier checks remembered."""

    def __or__(self, other: TerminationCondition) -> AnyOf:
        return AnyOf(self, other)

    def __and__(self, other: TerminationCondition) -> AllOf:
        return AllOf(self, other)


class AnyOf(TerminationCondition):
    """Stops when any of its conditions fires (every one is still checked, in order)."""

    conditions: tuple[TerminationCondition, ...]

    def __init__(self, *conditions: TerminationCondition) -> None:
        flat: list[TerminationCondition] = []
        for c in conditions:
            flat.extend(c.conditions if isinstance(c, AnyOf) else (c,))
        self.conditions = tuple(flat)

    def check(self, state: TeamState) -> StopReason | None:
        reasons = [c.check(state) for c in self.conditions]
        return next((r for r in reasons if r is not None), None)

    def reset(self) -> None:
        for c in self.conditions:
            c.reset()


class AllOf(TerminationCondition):
    """Stops once every one of its conditions has fired at some check."""

    def __init__(self, *conditions: TerminationCondition) -> None:
        self.conditions = conditions
        self._fired: dict[int, StopReason] = {}

    def check(self, state: TeamState) -> StopReason | None:
        for n, c in enumerate(self.conditions):
            reason = c.check(state)
            if reason is not None and n not in self._fired:
                self._fired[n] = reason
        if len(self._fired) < len(self.conditions):
            return None
        last = self._fired[max(self._fired)]
        detail = " and ".join(r.detail for _, r in sorted(self._fired.items()))
        kinds = tuple(k for _, r in sorted(self._fired.items()) for k in (*r.fired, r.kind))
        return StopReason(
            kind=last.kind, detail=detail, limit=last.limit, budget=last.budget, fired=kinds
        )

    def reset(self) -> None:
        self._fired.clear()
        for c in self.conditions:
            c.reset()


class StopToken(TerminationCondition):
    """The latest message carries the stop token as a word (or the structured stop signal).

    Args:
        token: the stop token, matched case-sensitively as a whole word.
        senders: member names or roles allowed to stop the run; None allows everyone.
    """

    def __init__(self, token: str = "DONE", *, senders: Collection[str] | None = None) -> None:
        self.token = token
        self.senders = frozenset(senders) if senders is not None else None
        self._pattern = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w-])")

    def check(self, state: TeamState) -> StopReason | None:
        last = state.last
        if last is None or not last.metadata.valid:
            return None
        if self.senders is not None and not {last.sender, last.role.value} & self.senders:
            return None
        if last.signals.stop or self._pattern.search(last.content):
            return StopReason(kind="stop_token", detail=f"{last.sender} said {self.token}")
        return None


class MaxTurns(TerminationCondition):
    def __init__(self, turns: int) -> None:
        if turns < 1:
            raise ValueError("turns must be at least 1")
        self.turns = turns

    def check(self, state: TeamState) -> StopReason | None:
        if state.turn >= self.turns:
            return StopReason(
                kind="max_turns", detail=f"turn limit {self.turns} reached", limit=self.turns
            )
        return None


class ConfidenceNotReached(TerminationCondition):
    """After ``rounds`` full rounds, no message has reached ``threshold``: stop trying."""

    def __init__(self, threshold: float, *, rounds: int) -> None:
        self.threshold = threshold
        self.rounds = rounds

    def check(self, state: TeamState) -> StopReason | None:
        if state.round < self.rounds:
            return None
        scores = [m.metadata.confidence for m in state.journal if m.metadata.confidence is not None]
        best = max(scores, default=None)
        if best is not None and best >= self.threshold:
            return None
        seen = "no confidence reported" if best is None else f"best {best:.2f}"
        return StopReason(
            kind="confidence_not_reached",
            detail=f"confidence {self.threshold:g} not reached after {self.rounds} round(s) ({seen})",
            limit=self.rounds,
        )


class ConfidenceReached(TerminationCondition):
    """The latest message (from ``senders``, if given) reached ``threshold``: stop early."""

    def __init__(self, threshold: float, *, senders: Collection[str] | None = None) -> None:
        self.threshold = threshold
        self.senders = frozenset(senders) if senders is not None else None

    def check(self, state: TeamState) -> StopReason | None:
        last = state.last
        if last is None or last.metadata.confidence is None or not last.metadata.valid:
            return None
        if self.senders is not None and not {last.sender, last.role.value} & self.senders:
            return None
        if last.metadata.confidence >= self.threshold:
            detail = f"{last.sender} reached confidence {last.metadata.confidence:.2f}"
            return StopReason(kind="confidence_reached", detail=detail)
        return None


class BudgetLimit(TerminationCondition):
    """Tokens, cost or elapsed seconds reached a limit. An unknown cost never triggers."""

    def __init__(
        self,
        *,
        max_tokens: int | None = None,
        max_cost_usd: float | None = None,
        max_seconds: float | None = None,
    ) -> None:
        self.budget = Budget(
            max_tokens=max_tokens, max_cost_usd=max_cost_usd, max_seconds=max_seconds
        )

    def check(self, state: TeamState) -> StopReason | None:
        b = self.budget
        hit: list[str] = []
        if b.max_tokens is not None and state.tokens_used >= b.max_tokens:
            hit.append(f"{state.tokens_used} tokens >= {b.max_tokens}")
        cost = state.cost_usd
        if b.max_cost_usd is not None and cost is not None and cost >= b.max_cost_usd:
            hit.append(f"${cost:.4f} >= ${b.max_cost_usd:g}")
        if b.max_seconds is not None and state.elapsed_s >= b.max_seconds:
            hit.append(f"{state.elapsed_s:.2f}s >= {b.max_seconds:g}s")
        if hit:
            return StopReason(kind="budget", detail="budget exhausted: " + "; ".join(hit), budget=b)
        return None


class ValidationFailures(TerminationCondition):
    """``k`` turns in a row failed (error, unusable output) or were rejected by a reviewer."""

    def __init__(self, k: int) -> None:
        if k < 1:
            raise ValueError("k must be at least 1")
        self.k = k

    def check(self, state: TeamState) -> StopReason | None:
        if state.consecutive_failures >= self.k:
            return StopReason(
                kind="validation_failed",
                detail=f"validation failed {state.consecutive_failures} times in a row",
                limit=self.k,
            )
        return None
