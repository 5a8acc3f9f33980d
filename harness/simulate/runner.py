"""Runs scenario files against a target and checks every conversation with the detectors.

The result of a scenario is the same ``DetectionResult`` that ``harness detect`` produces for a
recorded transcript, so both share the reports and the exit code.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from harness.exceptions import ConfigError, RunError, UsageError
from harness.simulate.detectors import (
    DetectorConfig,
    Expectation,
    check_expectations,
    detect_async,
)
from harness.simulate.embeddings import Embedder
from harness.simulate.reports import DetectionResult
from harness.simulate.scenarios import Scenario, ScenarioFile
from harness.simulate.targets import ConversationError, InProcessTarget, Target
from harness.transcript import Transcript
from subagents import Usage

__all__ = ["expectations_of", "run_scenario", "run_scenarios"]


def expectations_of(scenario: Scenario) -> dict[int, list[Expectation]]:
    """The scenario's expected answers by 1-based turn (requests without ``expect`` are skipped)."""
    out: dict[int, list[Expectation]] = {}
    for number, turn in enumerate(scenario.turns, start=1):
        items: list[Expectation] = [r for r in turn.requests if r.expect]
        if items:
            out[number] = items
    return out


def _check_agents(scenario: Scenario, target: InProcessTarget, file: str) -> None:
    known = {target.parent.name, *target.parent.subagents}
    for number, turn in enumerate(scenario.turns, start=1):
        for request in turn.requests:
            if request.agent not in known:
                raise ConfigError(
                    f"scenario {scenario.name!r}, turn {number}: unknown agent "
                    f"{request.agent!r} (the bot has {', '.join(sorted(known))})",
                    file=file,
                    line=scenario.line,
                )


async def run_scenario(
    target: Target,
    scenario: Scenario,
    *,
    file: str,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
) -> DetectionResult:
    """Hold one scenario's conversation with ``target`` and check it."""
    if isinstance(target, InProcessTarget):
        _check_agents(scenario, target, file)
    started = time.perf_counter()
    try:
        transcript = await target.run_conversation(
            [turn.user for turn in scenario.turns], conversation_id=scenario.name
        )
    except RunError as exc:  # a deployed bot failed: this scenario fails, the run goes on
        if isinstance(target, InProcessTarget):
            raise
        received = (
            exc.transcript
            if isinstance(exc, ConversationError)
            else Transcript(conversation=scenario.name)
        )
        # What arrived before the failure is still checked (expectations are not: the turns
        # after it never ran).
        partial = await detect_async(received, config=config, embedder=embedder)
        return DetectionResult(
            file=file,
            conversation=scenario.name,
            transcript=received,
            findings=tuple(partial),
            name=scenario.name,
            seconds=time.perf_counter() - started,
            error=str(exc),
        )
    findings = await detect_async(transcript, config=config, embedder=embedder)
    findings += check_expectations(transcript, expectations_of(scenario), findings=findings)
    findings.sort(key=lambda f: f.turn)
    return DetectionResult(
        file=file,
        conversation=scenario.name,
        transcript=transcript,
        findings=tuple(findings),
        name=scenario.name,
        seconds=time.perf_counter() - started,
    )


async def run_scenarios(
    files: Sequence[ScenarioFile],
    *,
    target: Target | None = None,
    bot: str | None = None,
    model: Any = None,
    config: DetectorConfig | None = None,
    embedder: Embedder | None = None,
    on_scenario: Callable[[DetectionResult], None] | None = None,
    on_usage: Callable[[Usage], None] | None = None,
) -> list[DetectionResult]:
    """Run every scenario of every file and check it.

    Args:
        files: loaded scenario files.
        target: a target to use for all of them (a live endpoint); else each file's ``target:``
            (unless ``bot`` is given), else its bot.
        bot: a config path or ``module:attr`` overriding the files' ``bot:``.
        model: overrides the bots' model (in-process targets only).
        config: detector thresholds.
        embedder: adds semantic duplicate detection.
        on_scenario: called after each scenario (progress).
        on_usage: called at the end with the model usage of each in-process target.

    Raises:
        UsageError: when a file names no bot and none is given.
    """
    from harness._loading import load_bot

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
                reference = bot or scenario_file.bot_target()
                if reference is None:
                    raise UsageError(
                        f"{scenario_file.path}: the scenario file names no bot; "
                        "add 'bot:' to it or pass --bot or --endpoint"
                    )
                if reference not in targets:
                    targets[reference] = InProcessTarget(load_bot(reference, model=model))
                chosen = targets[reference]
            for scenario in scenario_file.scenarios:
                result = await run_scenario(
                    chosen,
                    scenario,
                    file=scenario_file.path or "",
                    config=config,
                    embedder=embedder,
                )
                results.append(result)
                if on_scenario is not None:
                    on_scenario(result)
    finally:
        for used in targets.values():
            if on_usage is not None and isinstance(used, InProcessTarget):
                on_usage(used.usage)
            await used.aclose()
    return results
