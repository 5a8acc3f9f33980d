"""``harness simulate --jobs N``: a regression suite spread over N processes.

The scenarios of all files are dealt out in chunks to a pool of processes (``spawn``: no state
shared with the parent). Each process loads the files and the bot itself and runs its chunk with
``run_scenarios``; the results come back and are put in the files' order, so the report is the
same as with one process. A chunk is a few scenarios, so a process loads each bot once per chunk,
and a slow scenario does not hold up the rest.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from harness.cli.meaning import meaning_reader, reporting_level
from harness.cli.target_flags import with_overrides
from harness.detect.findings import DetectorConfig
from harness.detect.reports import DetectionResult
from harness.simulate.scenarios import load_scenarios
from subagents import Usage

__all__ = ["Shard", "run_in_processes"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Shard:
    """What one process runs: scenarios by (file index, scenario index), and how."""

    paths: tuple[str, ...]
    """Every scenario file (each process loads them itself)."""
    picks: tuple[tuple[int, int, int], ...]
    """The (file, scenario, run) to run, in order (run 0 when the scenarios run once)."""
    bot: str | None = None
    model: str | None = None
    base_url: str | None = None
    replay: str | None = None
    semantic: bool = False
    meaning: str | None = None
    """``--meaning``: the model the missed-request check reads meaning with."""
    min_confidence: str | None = None
    """``--min-confidence``: the missed-request check's reporting level (None: every finding)."""
    runs: int = 1
    """How many runs of each scenario the whole run makes (``--repeat``)."""
    target_overrides: tuple[tuple[str, Any], ...] = ()
    """``--quiet-period`` and the like, over each file's ``target:`` (checked by the caller)."""


def _load_extras(*, semantic: bool, meaning: str | None) -> None:
    """Load the models each process will load, once here: a missing extra stops the run before
    any process starts, with the one line that names it (as without ``--jobs``)."""
    if semantic:
        from harness.detect.embeddings import LocalEmbedder

        LocalEmbedder().load()
    meaning_reader(meaning, semantic=semantic)


def _run_shard(
    shard: Shard,
) -> tuple[list[tuple[tuple[int, int, int], DetectionResult]], Usage]:
    """Run one shard in this (child) process."""
    from harness.cli.model_flags import ModelFlags
    from harness.simulate.runner import run_scenarios

    files = [load_scenarios(path) for path in shard.paths]
    if shard.target_overrides and not shard.bot:
        overrides = dict(shard.target_overrides)
        files = [
            f.model_copy(update={"target": with_overrides(f.target, overrides, where=str(f.path))})
            if f.target is not None
            else f
            for f in files
        ]
    model = ModelFlags(model=shard.model, base_url=shard.base_url, replay=shard.replay).build()
    embedder = None
    if shard.semantic:
        from harness.detect.embeddings import LocalEmbedder

        local = LocalEmbedder()
        local.load()
        embedder = local
    reader = meaning_reader(shard.meaning, semantic=shard.semantic)
    # One file per pick keeps each result's place known; a file's bot is loaded once per shard.
    subsets = []
    for file_index, scenario_index, _run in shard.picks:
        source = files[file_index]
        subsets.append(source.model_copy(update={"scenarios": [source.scenarios[scenario_index]]}))
    usage = Usage()

    def add(spent: Usage) -> None:
        nonlocal usage
        usage = usage + spent

    results = asyncio.run(
        run_scenarios(
            subsets,
            bot=shard.bot,
            model=model,
            config=DetectorConfig(
                missed_min_confidence=reporting_level(shard.min_confidence, reader or embedder)
            ),
            embedder=embedder,
            meaning=reader,
            on_usage=add,
        )
    )
    done = [
        (pick, result if not pick[2] else replace(result, run=pick[2], runs=shard.runs))
        for pick, result in zip(shard.picks, results, strict=True)
    ]
    return done, usage


async def run_in_processes(
    paths: Sequence[Path],
    *,
    jobs: int,
    bot: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    replay: str | None = None,
    semantic: bool = False,
    meaning: str | None = None,
    min_confidence: str | None = None,
    repeat: int = 1,
    target_overrides: Mapping[str, Any] | None = None,
    on_scenario: Callable[[DetectionResult], None] | None = None,
) -> tuple[list[DetectionResult], Usage]:
    """Run every scenario of ``paths`` in ``jobs`` processes (``repeat`` times each, the runs
    spread over the processes too); the results in the files' order."""
    files = [load_scenarios(path) for path in paths]  # validate here: errors before any process
    _load_extras(semantic=semantic, meaning=meaning)
    runs = range(1, repeat + 1) if repeat > 1 else range(1)
    picks = [
        (f, s, r)
        for f, loaded in enumerate(files)
        for s in range(len(loaded.scenarios))
        for r in runs
    ]
    size = max(1, math.ceil(len(picks) / (jobs * 4)))
    shards = [
        Shard(
            paths=tuple(str(p) for p in paths),
            picks=tuple(picks[i : i + size]),
            bot=bot,
            model=model,
            base_url=base_url,
            replay=replay,
            semantic=semantic,
            meaning=meaning,
            min_confidence=min_confidence,
            runs=repeat,
            target_overrides=tuple((target_overrides or {}).items()),
        )
        for i in range(0, len(picks), size)
    ]
    placed: dict[tuple[int, int, int], DetectionResult] = {}
    usage = Usage()
    loop = asyncio.get_running_loop()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(shards)), mp_context=context) as pool:
        futures = [loop.run_in_executor(pool, _run_shard, shard) for shard in shards]
        try:
            for next_done in asyncio.as_completed(futures):
                done, spent = await next_done
                usage = usage + spent
                for pick, result in done:
                    placed[pick] = result
                    if on_scenario is not None:
                        on_scenario(result)
        except BaseException:
            for future in futures:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            # SIGTERM reaches this process only (Ctrl-C reaches the whole process group): end
            # the workers, or the pool's exit would wait for their scenarios and leave them.
            for worker in multiprocessing.active_children():
                worker.terminate()
            raise
    return [placed[pick] for pick in picks], usage
