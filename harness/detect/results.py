"""What a detector run gives for one conversation, shared by the text/JSON/JUnit and HTML reports.

Its own module so that ``reports`` (which picks the format) and ``html`` (one format) do not
import each other; ``harness.detect.reports`` re-exports both names.

A scenario run several times (``harness simulate --repeat N``) gives one result per run, each
with its ``run`` number; :func:`group_runs` puts a scenario's runs together and
:class:`ScenarioRuns` gives their pass rates. A run passes when it completed and has no
error-level finding.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.detect.findings import Finding
from harness.detect.transcript import Transcript

if TYPE_CHECKING:
    from harness.detect.readers import ReadNote

__all__ = [
    "DetectionResult",
    "ScenarioRuns",
    "exit_code",
    "group_runs",
    "kind_pass_rates",
    "passed",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class DetectionResult:
    """The findings of one conversation."""

    file: str
    """The transcript or scenario file."""
    conversation: str
    """The conversation's id (a scenario runner uses the scenario's name)."""
    transcript: Transcript
    """The conversation checked (its messages are quoted in the text report)."""
    findings: tuple[Finding, ...]
    """What the detectors found, by turn."""
    name: str | None = None
    """A display name (the scenario's); ``file::conversation`` when None."""
    seconds: float = 0.0
    """How long it took (the JUnit ``time``)."""
    error: str | None = None
    """Why the conversation failed: it could not be completed (a deployed bot or its channel
    failed, ``completed`` False; its findings cover the messages received before that), or it ran
    to its end with a failed call (a sub-agent call that failed or timed out, the parent's own
    plan or reply that fell back)."""
    completed: bool | None = None
    """True when the conversation ran to its last turn, False when it stopped before (``error``
    says why); None when its producer does not say, and a result with an ``error`` is then
    taken to have stopped."""
    run: int | None = None
    """Which run of a repeated scenario this is (1-based); None when the scenario ran once."""
    runs: int = 1
    """How many times the scenario ran (``--repeat``)."""
    notes: tuple[ReadNote, ...] = ()
    """What the run noticed about the conversation that is neither a finding nor an error (a
    deployed bot's late reply); every report format shows them with the report's other notes."""

    @property
    def title(self) -> str:
        base = self.name or f"{self.file}::{self.conversation}"
        return base if self.run is None else f"{base} (run {self.run} of {self.runs})"

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "warning")


def passed(result: DetectionResult) -> bool:
    """True when the conversation completed without an error-level finding."""
    return result.error is None and not result.errors


@dataclass(frozen=True, slots=True, kw_only=True)
class ScenarioRuns:
    """Every run of one scenario (or the one result of a conversation that ran once)."""

    results: tuple[DetectionResult, ...]
    """The runs, in run order."""

    @property
    def first(self) -> DetectionResult:
        return self.results[0]

    @property
    def title(self) -> str:
        first = self.first
        return first.name or f"{first.file}::{first.conversation}"

    @property
    def repeated(self) -> bool:
        """True when the scenario was run with ``--repeat`` (even ``--repeat 1`` of a group)."""
        return self.first.run is not None

    @property
    def passed(self) -> int:
        """How many runs passed."""
        return sum(1 for r in self.results if passed(r))

    @property
    def pass_rate(self) -> float:
        """The share of runs that passed."""
        return self.passed / len(self.results)

    @property
    def failed(self) -> tuple[DetectionResult, ...]:
        """The runs that did not pass, in run order."""
        return tuple(r for r in self.results if not passed(r))

    def kind_pass_rates(self, kinds: Iterable[str]) -> dict[str, float]:
        """Per finding kind, the share of runs without an error-level finding of that kind."""
        return kind_pass_rates(self.results, kinds)


def kind_pass_rates(results: Sequence[DetectionResult], kinds: Iterable[str]) -> dict[str, float]:
    """Per finding kind, the share of ``results`` without an error-level finding of that kind
    (warnings never fail a run, so a warning-only kind stays at 1.0)."""
    total = len(results) or 1
    return {
        kind: sum(1 for r in results if not any(f.kind == kind for f in r.errors)) / total
        for kind in kinds
    }


def group_runs(results: Sequence[DetectionResult]) -> list[ScenarioRuns]:
    """The results put together by scenario (file and conversation), in first-seen order; a
    result that is not one of several runs is a group of its own."""
    groups: dict[object, list[DetectionResult]] = {}
    for index, result in enumerate(results):
        key: object = (result.file, result.conversation) if result.run is not None else index
        groups.setdefault(key, []).append(result)
    return [ScenarioRuns(results=tuple(group)) for group in groups.values()]


def exit_code(results: Sequence[DetectionResult], *, min_pass_rate: float = 1.0) -> int:
    """1 when a conversation has an error-level finding or failed; for a repeated scenario, when
    fewer of its runs passed than ``min_pass_rate`` asks; else 0."""
    for group in group_runs(results):
        rate = group.pass_rate
        if rate < 1.0 and (not group.repeated or rate < min_pass_rate):
            return 1
    return 0
