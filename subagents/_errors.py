"""The exception tree's classes (drawn and documented in ``harness.exceptions``, the public home).

They live here, in the lowest package that raises them, because ``subagents`` may not import
``harness`` (docs/architecture.md) yet raises configuration errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "ConfigError",
    "ContractViolationError",
    "HarnessError",
    "HumanEscalationError",
    "MissingExtraError",
    "ModelBehaviorError",
    "ModelRequestError",
    "RunError",
    "SubagentError",
    "SubagentTimeoutError",
    "TurnLimitError",
    "UsageError",
]


class HarnessError(Exception):
    """Root of every error this SDK raises."""

    exit_code: int = 1


class UsageError(HarnessError):
    """The caller used the SDK or the CLI wrongly."""

    exit_code = 2


class ConfigError(UsageError):
    """A config, scenario or transcript file is invalid.

    Attributes:
        file: the file, when the error comes from one.
        line: the 1-based line, when known.
        field: the dotted path of the offending field, when known.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        elif self.line:
            where = f"line {self.line}: "
        what = f"{self.field}: " if self.field else ""
        return f"{where}{what}{self.message}"


class MissingExtraError(UsageError, ImportError):
    """An optional feature was used without its extra installed."""

    def __init__(self, feature: str, *, extra: str) -> None:
        self.feature = feature
        self.extra = extra
        super().__init__(
            f"{feature} needs the '{extra}' extra (connected-agent-harness[{extra}]): in a "
            f"clone of the project, python -m pip install '.[{extra}]' (README, Install)"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its arguments, so it crosses a process boundary (a ``--jobs`` process)
        # whole: the default rebuilds it from ``args`` alone, without the keyword-only ``extra``.
        return (_rebuild_missing_extra, (type(self), self.feature, self.extra))


def _rebuild_missing_extra(
    cls: type[MissingExtraError], feature: str, extra: str
) -> MissingExtraError:
    return cls(feature, extra=extra)


class RunError(HarnessError):
    """Something went wrong while a conversation ran."""


class ContractViolationError(RunError):
    """A sub-agent result broke its mode's contract (raised in strict mode).

    Attributes:
        agent: the sub-agent's name.
        violations: the recorded violations (``subagents.ContractViolation``).
    """

    def __init__(self, agent: str, violations: Sequence[Any]) -> None:
        self.agent = agent
        self.violations = tuple(violations)
        details = "; ".join(str(v) for v in self.violations)
        super().__init__(f"sub-agent {agent!r} broke its contract: {details}")


class ModelBehaviorError(RunError):
    """A model returned something unusable.

    Attributes:
        agent: the agent the call was for, when known.
        body: the offending model output, when there is one.
    """

    def __init__(self, message: str, *, agent: str | None = None, body: str | None = None) -> None:
        self.agent = agent
        self.body = body
        super().__init__(message)


class ModelRequestError(RunError):
    """A model call failed after its retries.

    Attributes:
        status: the last HTTP status, when there was one.
        attempts: how many attempts were made.
    """

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        self.status = status
        self.attempts = attempts
        super().__init__(message)


class SubagentError(RunError):
    """A sub-agent failed (raised in strict mode; otherwise recorded as a failed result)."""

    def __init__(self, message: str, *, agent: str) -> None:
        self.agent = agent
        super().__init__(message)


class SubagentTimeoutError(SubagentError):
    """A sub-agent did not finish within its timeout."""

    def __init__(self, *, agent: str, timeout: float) -> None:
        self.timeout = timeout
        super().__init__(f"sub-agent {agent!r} timed out after {timeout:g}s", agent=agent)


class TurnLimitError(RunError):
    """A bounded loop ran out of steps.

    Attributes:
        limit: the bound that was reached.
    """

    def __init__(self, message: str, *, limit: int) -> None:
        self.limit = limit
        super().__init__(message)


class HumanEscalationError(RunError):
    """Aggregation hit a conflict that its strategy hands to a human.

    Attributes:
        conflict: the conflict record that needs a decision.
    """

    def __init__(self, message: str, *, conflict: Any) -> None:
        self.conflict = conflict
        super().__init__(message)
