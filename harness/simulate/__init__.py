"""The simulator's detectors, transcript loaders, reports and the runtime duplicate guard.

``harness detect`` and the scenario runner share these: load a conversation
(:func:`load_transcript`), run the detectors (:func:`detect`, :func:`check_expectations`), and
report (:func:`render_text`, :func:`render_json`, :func:`render_junit`). The parent's duplicate
guard (:class:`DuplicateGuard`) runs the same duplicate detector on its draft before sending it.
"""

from harness.detect.guard import DuplicateGuard, GuardDecision, GuardPolicy
from harness.simulate.detectors import (
    DetectorConfig,
    Expectation,
    Finding,
    FindingKind,
    check_expectations,
    detect,
    detect_async,
)
from harness.simulate.embeddings import Embedder, LocalEmbedder, OpenAIEmbedder
from harness.simulate.reports import (
    DetectionResult,
    exit_code,
    render_json,
    render_junit,
    render_text,
)
from harness.simulate.transcripts import load_agent_modes, load_transcript, parse_transcript

__all__ = [
    "DetectionResult",
    "DetectorConfig",
    "DuplicateGuard",
    "Embedder",
    "Expectation",
    "Finding",
    "FindingKind",
    "GuardDecision",
    "GuardPolicy",
    "LocalEmbedder",
    "OpenAIEmbedder",
    "check_expectations",
    "detect",
    "detect_async",
    "exit_code",
    "load_agent_modes",
    "load_transcript",
    "parse_transcript",
    "render_json",
    "render_junit",
    "render_text",
]
