"""``harness detect TRANSCRIPT...``: find duplicate messages and the other faults in recorded
conversations. Exit 0 when clean, 1 on any error-level finding or on borderline pairs the
``--judge`` model could not decide (the report is still written), 2 on bad input or usage."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from harness.cli.command import HarnessCommand, end_without_collecting, paused_gc
from harness.cli.meaning import (
    MEANINGS,
    meaning_reader,
    min_confidence_option,
    recorded_level,
    reporting_level,
)
from harness.cli.options import (
    agent_config_option,
    output_option,
    report_format_option,
    report_layout,
    write_output,
)
from harness.cli.progress import ProgressBar
from harness.detect.detectors import detect, detect_async
from harness.detect.duplicates import worker_processes
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.readers import ReadNote, load_transcript, parse_transcript, settle_notes
from harness.detect.reports import (
    DetectionResult,
    ReportFormat,
    exit_code,
    render,
    summary_line,
)
from harness.detect.transcript import Transcript
from harness.exceptions import ConfigError, UsageError

if TYPE_CHECKING:
    from harness.detect.embeddings import Embedder
    from harness.detect.judge import ModelJudge

__all__ = ["detect_command"]

_PROGRESS_MESSAGES = 5_000
"""Show a progress bar when the transcripts hold more messages than this (or there are several)."""


@click.command("detect", cls=HarnessCommand)
@click.argument(
    "transcripts",
    nargs=-1,
    required=True,
    type=click.Path(path_type=Path),
    metavar="TRANSCRIPT...",
)
@report_format_option()
@output_option("Write the report to FILE instead of standard output.")
@agent_config_option()
@click.option(
    "--semantic",
    is_flag=True,
    help="Also find paraphrased duplicates with the local embedding model (WordLlama), judge "
    "pairs with the scorer that reads their embedding cosine, and let the missed-request check "
    "read how close in meaning each answer is to each request (needs the 'embeddings' extra).",
)
@click.option(
    "--meaning",
    type=click.Choice(MEANINGS),
    default=None,
    help="The model the missed-request check reads meaning with: wordllama (what --semantic "
    "uses; the 'embeddings' extra) or minilm (all-MiniLM-L6-v2, stronger on answers in other "
    "words; about half the CPU of --semantic, 3 times the default's; the 'minilm' "
    "extra). Duplicates are found as without it "
    "(paraphrases only with --semantic, always with WordLlama).",
)
@min_confidence_option()
@click.option(
    "--judge",
    metavar="MODEL",
    help="Let a model decide the borderline pairs: openai:<model> or replay:<cassette> "
    "(optional; the detector's own figures never need it).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Processes that check a long conversation (one of at least 2,000 bot messages): one "
    "runs the other checks while the rest analyse its messages, then all compare them. 0 for "
    "one per available core, 1 for this process only. The findings are the same either way.",
)
def detect_command(
    transcripts: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    config_path: Path | None,
    semantic: bool,
    meaning: str | None,
    judge: str | None,
    jobs: int,
    min_confidence: str | None = None,
) -> int:
    """Check recorded conversations for duplicate messages, missed requests, silent-mode leaks,
    wrong-scope answers and awkward acknowledgements.

    TRANSCRIPT is this SDK's JSONL (one message per line) or a Bot Framework transcript (a JSON
    array of activities, as the Bot Framework Emulator saves it), or a Copilot Studio transcript
    from Dataverse (a ConversationTranscript row's content, or the table exported as .csv). A
    folder stands for every .jsonl, .json, .csv and .transcript file in it and its sub-folders
    (not hidden folders, the -o file, or JSON and --format lines reports of this tool, which
    are skipped);
    - reads one transcript (JSON or JSONL) from standard input.
    """
    # Loading, detecting and reporting build many objects and no reference cycles: the cyclic
    # collector's passes over them would cost a fifth of the time on large transcripts.
    analyses: list[object] = []
    unread: list[ConfigError] = []
    notes: list[ReadNote] = []
    transcripts = _expanded(transcripts, output=output, notes=notes)
    with paused_gc(), worker_processes(jobs or _cores(), kept=analyses):
        results = _run(
            transcripts,
            config_path,
            semantic,
            judge,
            meaning=meaning,
            unread=unread,
            notes=notes,
            sure=min_confidence,
        )
        layout = cast("ReportFormat", report_layout(fmt, output))
        report = (
            _html(results, unread, notes)
            if layout == "html"
            else render(
                results,
                layout,
                unread=unread,
                notes=notes,
                settings=recorded_level(min_confidence),
            )
        )
    write_output(report, output, utf8=layout in ("json", "junit", "html"))
    if output is not None:  # the report went to a file: say how it came out, and where
        summary = summary_line(
            results, unread=len(unread), undecided=sum(n.undecided for n in notes)
        )
        click.echo(f"{summary}; report written to {output}", err=True)
    _warn(notes)  # a file read whole that is only part of what the user meant to check
    for error in unread:  # the other files were checked and reported; these were not read
        click.echo(f"error: {error}", err=True)
    # The process ends now: no last pass over the run's objects, and none of them freed.
    end_without_collecting(results, analyses)
    judged = 1 if any(n.undecided for n in notes) else 0  # a model failed: a run error
    return max([exit_code(results), judged, *(e.exit_code for e in unread)])


def _load(
    path: Path,
    modes: dict[str, str] | None,
    unread: list[ConfigError] | None = None,
    notes: list[ReadNote] | None = None,
) -> list[Transcript]:
    """The transcripts of ``path``; ``-`` reads standard input (JSON or JSONL, not CSV). A row of
    a table that cannot be read goes to ``unread`` (reported after the others, as a file is),
    what the reader noticed to ``notes``."""
    if str(path) == "-":
        text = sys.stdin.read()
        return parse_transcript(text, file="-", agent_modes=modes, unread=unread, notes=notes)
    return load_transcript(path, agent_modes=modes, unread=unread, notes=notes)


TRANSCRIPT_SUFFIXES = (".jsonl", ".json", ".csv", ".transcript")
"""The files a folder given to ``harness detect`` is searched for (its sub-folders too)."""


_REPORT_START = re.compile(
    rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"(?:transcripts|regressed)"\s*:\s*\['
)
"""How a JSON report of ``detect``, ``simulate`` or ``compare`` begins (they all write
``version`` first, then a list of ``transcripts`` or ``regressed``); a transcript never does."""


_LABELS_START = re.compile(
    rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"transcripts"\s*:\s*\{'
)
"""How a file of labelled duplicate pairs begins (``{"version": 1, "transcripts": {NAME:
{"duplicates": [...], ...}}}``, the form of the duplicate corpora's ``labels.json``): labels kept
beside the transcripts they label, not a transcript."""


_LINES_SUMMARY = re.compile(rb"^\d+ (?:conversation|scenario)s?: \d+ errors?, \d+ warnings?", re.M)
"""The summary line a ``--format lines`` report ends with (before simulate's usage lines)."""


def _is_report(path: Path) -> str | None:
    """What report of this tool ``path`` is (``JSON`` or ``lines``), or ``labels`` for a file of
    labelled duplicate pairs, read from its first and last bytes only; None for anything else. A lines report (``--format lines`` saved as ``.jsonl``)
    does not begin with JSON and has the summary line among its last lines."""
    try:
        with path.open("rb") as file:
            head = file.read(256)
            if _REPORT_START.match(head) is not None:
                return "JSON"
            if _LABELS_START.match(head) is not None:
                return "labels"
            if path.suffix.lower() != ".jsonl" or head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (
                b"{",
                b"[",
                b"",
            ):
                return None
            file.seek(max(0, file.seek(0, os.SEEK_END) - 4096))
            tail = file.read().splitlines()[-6:]
            return "lines" if any(_LINES_SUMMARY.match(line) for line in tail) else None
    except OSError:
        return None  # the reader will say why it cannot be read


def _expanded(
    paths: tuple[Path, ...],
    *,
    output: Path | None = None,
    notes: list[ReadNote] | None = None,
) -> tuple[Path, ...]:
    """``paths`` with each folder replaced by the transcripts in it and its sub-folders, sorted
    (a folder of exports: ``harness detect exports/``). Left out of a folder: hidden folders
    (``.git``, ``.venv``), the ``-o`` file and JSON or lines reports of this tool (a report
    written into the folder by an earlier run), each report with a note.

    Raises:
        UsageError: a folder holds no such file.
    """
    target = output.resolve() if output is not None else None
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        found = []
        for p in sorted(path.rglob("*")):
            if not p.is_file() or p.suffix.lower() not in TRANSCRIPT_SUFFIXES:
                continue
            if any(part.startswith(".") for part in p.relative_to(path).parts[:-1]):
                continue
            if target is not None and p.resolve() == target:
                continue
            kind = _is_report(p) if p.suffix.lower() in (".json", ".jsonl") else None
            if kind is not None:
                if notes is not None:
                    notes.append(
                        ReadNote(
                            file=str(p),
                            message=(
                                "skipped: a file of labelled duplicate pairs, not a transcript"
                                if kind == "labels"
                                else f"skipped: a {kind} report of harness detect, simulate or "
                                "compare, not a transcript"
                            ),
                            title="labels skipped" if kind == "labels" else "report skipped",
                        )
                    )
                continue
            found.append(p)
        if not found:
            raise UsageError(
                f"{path}: no transcript in the folder (files ending in "
                f"{', '.join(TRANSCRIPT_SUFFIXES)})"
            )
        out.extend(found)
    return tuple(out)


def _html(results: list[DetectionResult], unread: list[ConfigError], notes: list[ReadNote]) -> str:
    from harness.detect.html import render_html

    return render_html(results, title="harness detect", unread=unread, notes=notes)


def _judged(
    transcript: Transcript,
    config: DetectorConfig,
    embedder: Embedder | None,
    judge: ModelJudge,
    meaning: Embedder | None = None,
) -> list[Finding]:
    from harness.runtime.loading import run_sync

    return run_sync(
        detect_async(transcript, config=config, embedder=embedder, judge=judge, meaning=meaning)
    )


_UNDECIDED = "judge failed"
"""The title of the note on a conversation whose borderline pairs the judge could not decide."""


def _undecided_note(
    path: Path, transcript: Transcript, judge: ModelJudge, before: int, stopped: str | None
) -> ReadNote:
    """The note on ``transcript``'s pairs ``judge`` could not decide (``before``: its count of
    undecided pairs before this conversation; ``stopped``: why it had stopped before it, if it
    had, so this conversation asked nothing)."""
    count = judge.undecided - before
    if stopped is not None:
        why = f"not asked, the judge stopped at an earlier conversation ({stopped})"
    else:
        why = judge.stopped or (judge.errors[-1] if judge.errors else "no answer")
    return ReadNote(
        file=str(path),
        message=(
            f"conversation {transcript.conversation}: the judge could not decide {count} "
            f"borderline pair(s), reported as the rules decided them (exit code 1): {why}"
        ),
        title=_UNDECIDED,
        undecided=count,
    )


def _warn(notes: list[ReadNote] | None) -> None:
    """Say each of ``notes`` on standard error: a warning, or an error for pairs a judge could
    not decide (the run exits 1)."""
    for note in settle_notes(notes or ()):
        click.echo(f"{'error' if note.undecided else 'warning'}: {note}", err=True)


def _cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def _run(
    paths: tuple[Path, ...],
    config_path: Path | None,
    semantic: bool,
    judge: str | None = None,
    *,
    meaning: str | None = None,
    unread: list[ConfigError] | None = None,
    notes: list[ReadNote] | None = None,
    sure: str | None = None,
) -> list[DetectionResult]:
    # Only what a run uses is imported: the agents' modes, the judge's runtime and the HTML
    # report load the SDK's model and configuration layers, which a plain run never needs.
    modes = None
    if config_path is not None:
        from harness.simulate.modes import load_agent_modes

        modes = load_agent_modes(config_path)
    loaded = []
    for path in paths:
        try:
            loaded.append((path, _load(path, modes, unread, notes)))
        except ConfigError as exc:
            # One file that cannot be read (an empty export, a typo) does not cost the report of
            # the others; it is named after it, and the exit code is 2. Alone, it is the error.
            if unread is None or len(paths) == 1:
                _warn(notes)  # a Web API page none of whose rows could be read is still a page
                raise
            unread.append(exc)
    if notes is not None:  # a query's pages given together: one note, none with its last page
        notes[:] = settle_notes(notes)
    if not loaded and unread:
        _warn(notes)
        for error in unread[:-1]:
            click.echo(f"error: {error}", err=True)
        raise unread.pop()
    embedder = None
    if semantic:
        from harness.detect.embeddings import LocalEmbedder

        embedder = LocalEmbedder()
        embedder.load()  # fail now, naming the extra, not after the first file
    reader = meaning_reader(meaning, semantic=semantic)
    judging = None
    if judge is not None:
        from harness.detect.judge import ModelJudge

        judging = ModelJudge(judge)
    config = DetectorConfig(missed_min_confidence=reporting_level(sure, reader or embedder))
    total = sum(len(t) for _, transcripts in loaded for t in transcripts)
    conversations = [(path, t) for path, transcripts in loaded for t in transcripts]
    results: list[DetectionResult] = []
    wanted = len(paths) > 1 or total > _PROGRESS_MESSAGES
    with ProgressBar("detecting", "messages", total, wanted=wanted) as progress:
        for path, transcript in conversations:
            if len(conversations) == 1 or len(transcript) > _PROGRESS_MESSAGES:
                # A long conversation moves the count only when it is done: say which it is.
                progress.describe(f"{path.name}::{transcript.conversation}")
            start = time.perf_counter()
            if judging is None:
                findings = detect(transcript, config=config, embedder=embedder, meaning=reader)
            else:
                undecided, stopped = judging.undecided, judging.stopped
                findings = _judged(transcript, config, embedder, judging, reader)
                if judging.undecided > undecided and notes is not None:
                    notes.append(_undecided_note(path, transcript, judging, undecided, stopped))
            results.append(
                DetectionResult(
                    file=str(path),
                    conversation=transcript.conversation,
                    transcript=transcript,
                    findings=tuple(findings),
                    seconds=time.perf_counter() - start,
                )
            )
            progress.advance(len(transcript))
    return results
