"""What a detector run gives for one conversation, shared by the text/JSON/JUnit and HTML reports.

Its own module so that ``reports`` (which picks the format) and ``html`` (one format) do not
import each other; ``harness.detect.reports`` re-exports both names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from harness.detect.findings import Finding
from harness.detect.transcript import Transcript

__all__ = ["DetectionResult", "exit_code"]


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
    """Why the conversation could not be completed (a deployed bot or its channel failed); its
    findings cover the messages received before that."""

    @property
    def title(self) -> str:
        return self.name or f"{self.file}::{self.conversation}"

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "warning")


def exit_code(results: Sequence[DetectionResult]) -> int:
    """1 when any result has an error-level finding or failed, else 0."""
    return 1 if any(r.errors or r.error for r in results) else 0
