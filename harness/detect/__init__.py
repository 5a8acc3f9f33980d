"""Detection: duplicate messages, missed requests, silent-mode leaks, wrong scope, awkward acks.

``harness detect`` and the scenario runner share these: load a conversation
(:func:`load_transcript`), run the detectors (:func:`detect`, :func:`check_expectations`), and
report (:func:`render_text`, :func:`render_json`, :func:`render_junit`). The parent's duplicate
guard (:class:`DuplicateGuard`) runs the same duplicate detector on its draft before sending it.

- ``transcript``: the conversation record (``Transcript``, ``Message``) and its JSONL writer;
  ``readers``: this SDK's JSONL, Bot Framework and Copilot Studio transcripts; ``activities``:
  Bot Framework activities as messages.
- ``findings``: ``Finding``, ``Severity``, ``Highlight``, ``DetectorConfig``.
- ``detectors``: every transcript detector, one object each in one registry (``DETECTORS``), and
  ``detect``; ``expectations``: a scenario's expected answers.
- ``requests``: ``segment_requests``, a user message split into its requests, independently of
  any planner; ``missed``: the missed-request check (``missed_requests``, ``DeclaredRequest``),
  each request against what the bot said in its turn, with or without the runtime's plan.
- ``restate`` and ``duplicates``: the duplicate engine; ``scorer``: its learned pair scorer and
  ``acts``: its dialogue-act tagger (``docs/detector.md``); ``embeddings`` and ``judge``: its optional
  embedder and LLM judge; ``guard``: ``DuplicateGuard``, the runtime check of the parent's draft.
- ``results``, ``reports`` and ``html``: the text, JSON, JUnit and HTML reports.

It builds on ``harness.text`` and never imports the runtime or the simulator, so a parent with a
guard loads no simulator code (``make test`` checks this with import-linter; see
``docs/architecture.md``). The names below are imported on first use: the runtime, which reads
``harness.detect.transcript``, loads no reader, report or detector it does not use.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.detect._farewells import FarewellReader, farewells
    from harness.detect.detectors import DETECTORS, Detector, detect, detect_async
    from harness.detect.embeddings import Embedder, LocalEmbedder, OpenAIEmbedder
    from harness.detect.expectations import Expectation, check_expectations
    from harness.detect.findings import DetectorConfig, Finding, FindingKind, Severity
    from harness.detect.guard import DuplicateGuard, GuardDecision, GuardPolicy
    from harness.detect.readers import ReadNote, load_transcript, parse_transcript, settle_notes
    from harness.detect.reports import (
        DetectionResult,
        exit_code,
        render_json,
        render_junit,
        render_text,
    )

__all__ = [
    "DETECTORS",
    "DetectionResult",
    "Detector",
    "DetectorConfig",
    "DuplicateGuard",
    "Embedder",
    "Expectation",
    "FarewellReader",
    "Finding",
    "FindingKind",
    "GuardDecision",
    "GuardPolicy",
    "LocalEmbedder",
    "OpenAIEmbedder",
    "ReadNote",
    "Severity",
    "check_expectations",
    "detect",
    "detect_async",
    "exit_code",
    "farewells",
    "load_transcript",
    "parse_transcript",
    "render_json",
    "render_junit",
    "render_text",
    "settle_notes",
]


def __getattr__(name: str) -> Any:  # one branch per module: import-linter sees each edge
    if name not in __all__:
        raise AttributeError(f"module 'harness.detect' has no attribute {name!r}")
    if name in ("DETECTORS", "Detector", "detect", "detect_async"):
        from harness.detect import detectors

        return _keep(name, detectors)
    if name in ("Embedder", "LocalEmbedder", "OpenAIEmbedder"):
        from harness.detect import embeddings

        return _keep(name, embeddings)
    if name in ("FarewellReader", "farewells"):
        from harness.detect import _farewells

        return _keep(name, _farewells)
    if name in ("Expectation", "check_expectations"):
        from harness.detect import expectations

        return _keep(name, expectations)
    if name in ("DetectorConfig", "Finding", "FindingKind", "Severity"):
        from harness.detect import findings

        return _keep(name, findings)
    if name in ("DuplicateGuard", "GuardDecision", "GuardPolicy"):
        from harness.detect import guard

        return _keep(name, guard)
    if name in ("ReadNote", "load_transcript", "parse_transcript", "settle_notes"):
        from harness.detect import readers

        return _keep(name, readers)
    from harness.detect import reports

    return _keep(name, reports)


def _keep(name: str, module: ModuleType) -> Any:
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
