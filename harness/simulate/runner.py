"""Runs scenario files against a target and checks every conversation with the detectors.

The result of a scenario is the same ``DetectionResult`` that ``harness detect`` produces for a
recorded transcript, so both share the reports and the exit code. A scenario whose conversation
cannot be completed (a model that fails after its retries, an unreachable endpoint) is not lost:
its result carries the error and the transcript up to that point, and the run goes on. A turn
whose sub-agent call failed (its model or tool raised, or it timed out) fails its scenario the
same way, though the parent apologised and the conversation went on; for a served bot, that is a
sub-agent its plan event names as ``failed`` (the only sign it gives).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from harness.detect.checks import TurnChecks
from harness.detect.detectors import detect_async
from harness.detect.embeddings import Embedder
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.readers import ReadNote
from harness.detect.reports import DetectionResult
from harness.detect.transcript import Transcript
from harness.exceptions import ConfigError, UsageError
from harness.models.base import Model
from harness.runtime.parent import Parent, Turn, bot_models, check_models
from harness.simulate.judging import (
    apply_expectations,
    declared_requests_of,
)
from harness.simulate.scenarios import (
    RequestExpectation,
    Scenario,
    ScenarioFile,
    check_names,
    turn_checks,
)
from harness.simulate.targets import ConversationError, InProcessTarget, Target
from harness.simulate.violations import contract_findings
from harness.text.words import shorten
from subagents import Usage

__all__ = [
    "checks_of",
    "failed_calls",
    "late_notes",
    "run_scenario",
    "run_scenarios",
]

_EXCERPT = 80
"""A late reply, and the user message it answers, are quoted in its note up to this many
characters."""


def checks_of(scenario: Scenario) -> dict[int, TurnChecks]:
    """The scenario's per-turn checks (text and tool checks) by 1-based turn."""
    out: dict[int, TurnChecks] = {}
    for number, turn in enumerate(scenario.turns, start=1):
        checks = turn_checks(turn, turn.requests)
        if checks:
            out[number] = checks
    return out


def _requests_of(scenario: Scenario) -> dict[int, list[RequestExpectation]]:
    """The scenario's requests as written, by 1-based turn (what
    :func:`~harness.simulate.judging.apply_expectations` judges the check's findings by)."""
    return {number: list(turn.requests) for number, turn in enumerate(scenario.turns, start=1)}


def _check_agents(scenario: Scenario, target: InProcessTarget, file: str) -> None:
    for number, turn in enumerate(scenario.turns, start=1):
        for request in turn.requests:
            problem = check_names(target.parent, request)
            if problem:
                raise ConfigError(
                    f"scenario {scenario.name!r}, turn {number}: {problem}",
                    file=file,
                    line=scenario.line,
                )


def failed_calls(turn: Turn, number: int) -> list[str]:
    """The turn's sub-agent calls that raised or timed out, as ``turn N: AGENT failed: WHY`` (the
    user got an apology, so no finding shows them); one that broke its contract is left out, as
    it is already a ``contract`` finding. The pytest plugin and ``ConversationDriver`` fail on
    them as ``harness simulate`` does."""
    return [
        f"turn {number}: {r.agent} failed: {r.error or r.status}"
        for r in turn.results
        if r.status in ("failed", "timed_out") and not r.violations
    ]


def late_notes(transcript: Transcript, *, file: str, title: str) -> list[ReadNote]:
    """A note for each late reply in ``transcript`` (a deployed bot's answer to an earlier turn
    that came after that turn was over, received with a later turn's replies:
    ``Message.arrived_during``), for the reports: the transcript keeps the reply in the turn it
    answers, so no finding shows that it came late. ``file`` and ``title``: the scenario's."""
    asked = {m.turn: m.text for m in transcript.messages if m.role == "user"}
    notes: list[ReadNote] = []
    for message in transcript.messages:
        if message.arrived_during is None:
            continue
        quoted = shorten(message.text, _EXCERPT)
        question = shorten(asked.get(message.turn, ""), _EXCERPT)
        notes.append(
            ReadNote(
                file=file,
                message=(
                    f'{title}: a late reply to turn {message.turn} ("{question}") came after '
                    f"that turn was over (received with turn {message.arrived_during}'s "
                    f'replies): [{message.id}] {message.sender}: "{quoted}"; it is checked in '
                    f"turn {message.turn}"
                ),
                title="late reply",
            )
        )
    return notes


def _plan_failures(transcript: Transcript) -> list[str]:
    """A served bot's failed sub-agent calls, as the plan event of each turn names them
    (``failed``): ``turn N: AGENT failed`` (with why, when the record has it), as
    :func:`failed_calls` gives them for a bot in this process. A bot that sends no plan event
    gives none."""
    down: list[str] = []
    for record in transcript.turns:
        why: dict[str, str] = {}
        for entry in record.errors:
            agent, _, error = entry.partition(": ")
            why.setdefault(agent, error)
        for agent in record.failed:
            reason = why.get(agent) or "named as failed in the bot's plan event"
            down.append(f"turn {record.turn}: {agent} failed: {reason}")
    return down


async def _converse(
    target: Target, turns: Sequence[str], conversation_id: str
) -> tuple[Transcript, str | None, list[Finding], list[str], bool]:
    """The conversation's transcript, why it stopped early (first) or the parent failed (None
    when neither) and, for a bot in this process, the contract violations of its sub-agents
    (``contract`` findings) and their failed calls (``turn N: AGENT failed: WHY``); last,
    whether the conversation ran to its end."""
    if isinstance(target, InProcessTarget):
        # Turn by turn, so that what happened before a failing turn stays in the report.
        failures: list[str] = []
        broken: list[Finding] = []
        down: list[str] = []
        async with target.parent.conversation(id=conversation_id) as conversation:
            for number, text in enumerate(turns, start=1):
                try:
                    turn = await conversation.send(text)
                except UsageError:
                    raise
                except Exception as exc:  # a model or transport error fails this scenario only
                    # Why it stopped comes first (the line standard error shows), then the
                    # parent's failed steps of the turns before.
                    stop = f"turn {number}: {type(exc).__name__}: {exc}"
                    return (
                        conversation.transcript,
                        "\n".join([stop, *failures]),
                        broken,
                        down,
                        False,
                    )
                target.usage = target.usage + turn.usage
                broken += contract_findings(turn, conversation.transcript)
                # A turn the parent ended as failed (and said why) fails the scenario too.
                failed = getattr(turn, "error", None)
                if isinstance(failed, str) and failed:
                    failures.append(f"turn {number}: {failed}")
                # So does a sub-agent call that raised or timed out (the user got an apology).
                down += failed_calls(turn, number)
            return conversation.transcript, "\n".join(failures) or None, broken, down, True
    try:
        transcript = await target.run_conversation(turns, conversation_id=conversation_id)
        return transcript, None, [], _plan_failures(transcript), True
    except UsageError:
        raise
    except ConversationError as exc:  # a deployed bot failed: what arrived before still counts
        return exc.transcript, str(exc), [], _plan_failures(exc.transcript), False
    except Exception as exc:
        empty = Transcript(conversation=conversation_id)
        return empty, f"{type(exc).__name__}: {exc}", [], [], False


async def run_scenario(
    target: Target,
    scenario: Scenario,
    *,
    file: str,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    meaning: Embedder | None = None,
) -> DetectionResult:
    """Hold one scenario's conversation with ``target`` and check it.

    A model or transport error does not raise: the result carries it in ``error``, with the
    transcript up to the failing turn (checked by the detectors as far as it goes).

    Raises:
        ConfigError: when the scenario names an agent the bot does not have.
    """
    if isinstance(target, InProcessTarget):
        _check_agents(scenario, target, file)
    started = time.perf_counter()
    transcript, error, broken, down, completed = await _converse(
        target, [turn.user for turn in scenario.turns], scenario.name
    )
    requests = _requests_of(scenario)
    settings = config or DetectorConfig()
    found = await detect_async(
        transcript,
        config=settings,
        embedder=embedder,
        requests=declared_requests_of(requests),
        meaning=meaning,
    )
    # Judged as ConversationDriver judges it. A conversation that ran to its end is checked
    # whole, though a sub-agent call or the parent's own step failed in it (that fails the
    # scenario through ``error``); one that stopped keeps the check's findings of its turns.
    findings = apply_expectations(
        found,
        transcript,
        requests,
        config=settings,
        completed=completed,
        checks=checks_of(scenario),
        broken=broken,
        ended_at=target.ended_by_bot(scenario.name) if completed else None,
    )
    error = "\n".join([*([error] if error else []), *down]) or None
    notes = late_notes(transcript, file=file, title=scenario.name)
    return DetectionResult(
        file=file,
        conversation=scenario.name,
        transcript=transcript,
        findings=tuple(findings),
        name=scenario.name,
        seconds=time.perf_counter() - started,
        error=error,
        completed=completed,
        notes=tuple(notes),
    )


def _models(target: InProcessTarget) -> list[Model]:
    return list(bot_models(target.parent))


def _usage_of(target: InProcessTarget, counted: set[int]) -> Usage:
    """What the target's models spent: their own totals when they all keep one (every attempt,
    failed calls included), else the sum of the completed turns."""
    models = _models(target)
    totals = [getattr(m, "usage", None) for m in models]
    if not models or not all(isinstance(u, Usage) for u in totals):
        return target.usage
    spent = Usage()
    for model, total in zip(models, totals, strict=True):
        if id(model) not in counted and isinstance(total, Usage):
            counted.add(id(model))
            spent = spent + total
    return spent


async def run_scenarios(
    files: Sequence[ScenarioFile],
    *,
    target: Target | None = None,
    bot: str | None = None,
    model: Any = None,
    model_settings: Mapping[str, Any] | None = None,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    meaning: Embedder | None = None,
    on_scenario: Callable[[DetectionResult], None] | None = None,
    on_usage: Callable[[Usage], None] | None = None,
    repeat: int = 1,
    bots: dict[str, Parent] | None = None,
) -> list[DetectionResult]:
    """Run every scenario of every file and check it.

    Args:
        files: loaded scenario files.
        target: a target to use for all of them (a live endpoint); else each file's ``target:``
            (unless ``bot`` is given), else its bot.
        bot: a config path or ``module:attr`` overriding the files' ``bot:``.
        model: overrides the bots' model (in-process targets only).
        model_settings: settings for the bots' own models, when ``model`` is not given.
        config: detector thresholds.
        embedder: adds semantic duplicate detection (and, WordLlama's, meaning in the
            missed-request check).
        meaning: the embedder the missed-request check reads meaning with, instead of
            ``embedder`` (``detect``'s ``meaning``: MiniLM's, ``--meaning minilm``).
        on_scenario: called after each scenario (progress).
        on_usage: called at the end with the model usage of each in-process target (every
            attempt, when its models count them).
        repeat: run every scenario this many times, each run a new conversation; above 1, each
            result carries its ``run`` number (``harness.detect.results.group_runs``).
        bots: filled with the in-process bot each file's scenarios ran on, by the file's path (as
            the results' ``file``), for reading causes from its config.

    Raises:
        UsageError: when a file names no bot and none is given, or ``repeat`` is below 1.
    """
    from harness.runtime.loading import load_bot

    if repeat < 1:
        raise UsageError(f"repeat must be 1 or more, not {repeat}")

    targets: dict[str, Target] = {}
    results: list[DetectionResult] = []
    if target is not None:
        targets[""] = target
    try:
        for scenario_file in files:
            chosen = target
            if chosen is None and bot is None and scenario_file.target is not None:
                from harness.simulate._remote import target_from_spec

                key = f"target:{scenario_file.path}"
                if key not in targets:
                    targets[key] = target_from_spec(scenario_file.target)
                chosen = targets[key]
            if chosen is None:  # each file's own bot
                reference, near = scenario_file.in_process_bot(bot)
                if reference is None:
                    raise UsageError(
                        f"{scenario_file.path}: the scenario file names no bot; "
                        "add 'bot:' to it or pass --bot or --endpoint"
                    )
                # By folder too: `mybot:make` beside two files can be two modules.
                key = f"bot:{reference}:{near}"
                if key not in targets:
                    options: dict[str, Any] = (
                        {"settings": dict(model_settings)} if model_settings else {}
                    )
                    built = InProcessTarget(load_bot(reference, model=model, near=near, **options))
                    targets[key] = built
                    check_models(built.parent)
                chosen = targets[key]
            if bots is not None and isinstance(chosen, InProcessTarget):
                bots[scenario_file.path or ""] = chosen.parent
            for scenario in scenario_file.scenarios:
                for run in range(1, repeat + 1):
                    result = await run_scenario(
                        chosen,
                        scenario,
                        file=scenario_file.path or "",
                        config=config,
                        embedder=embedder,
                        meaning=meaning,
                    )
                    if repeat > 1:  # the notes name the run, as the result's title does
                        result = dataclasses.replace(result, run=run, runs=repeat)
                        notes = late_notes(result.transcript, file=result.file, title=result.title)
                        result = dataclasses.replace(result, notes=tuple(notes))
                    results.append(result)
                    if on_scenario is not None:
                        on_scenario(result)
    finally:
        counted: set[int] = set()
        for used in targets.values():
            if on_usage is not None and isinstance(used, InProcessTarget):
                on_usage(_usage_of(used, counted))
            await used.aclose()
    return results
