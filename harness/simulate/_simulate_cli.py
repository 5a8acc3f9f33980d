"""``harness simulate SCENARIOS...``: run scenario conversations against a bot and check them.

Exit 0 when every scenario is clean, 1 on any error-level finding or a scenario that could not be
completed (the report is written all the same, and the errors are summed up on stderr), 2 on bad
input or usage.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from harness._loading import run_sync
from harness.exceptions import HarnessError, UsageError
from harness.simulate._progress import ProgressBar
from harness.simulate.detectors import DetectorConfig
from harness.simulate.reports import (
    DetectionResult,
    ReportFormat,
    exit_code,
    render,
    render_junit,
)
from harness.simulate.scenarios import load_scenarios
from subagents import Usage

__all__ = ["simulate_command"]


@click.command("simulate")
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
    type=float,
    default=0.5,
    show_default=True,
    help="With --endpoint: seconds without a new reply that end a turn.",
)
@click.option(
    "--header",
    "headers",
    multiple=True,
    metavar="NAME:VALUE",
    help="With --endpoint: an HTTP header for every post (e.g. 'Authorization: Bearer ...').",
)
@click.option("--model", help="rules (default), openai:<model> or replay:<cassette>.")
@click.option("--base-url", help="Base URL of an OpenAI-compatible server (with --model openai:*).")
@click.option(
    "--model-setting",
    "model_settings",
    multiple=True,
    metavar="KEY=VALUE",
    help="A model setting (temperature=0, seed=42, output_mode=json_object, max_concurrency=1, "
    "...; see docs/models.md). Repeatable.",
)
@click.option(
    "--record", type=click.Path(dir_okay=False), help="Record model traffic to a cassette."
)
@click.option(
    "--replay", type=click.Path(dir_okay=False), help="Replay model traffic from a cassette."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "junit"]),
    default="text",
    show_default=True,
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here."
)
@click.option("--semantic", is_flag=True, help="Also detect paraphrases (extra 'embeddings').")
def simulate_command(
    scenarios: tuple[Path, ...],
    bot: str | None,
    endpoint: str | None,
    quiet_period: float,
    headers: tuple[str, ...],
    model: str | None,
    base_url: str | None,
    model_settings: tuple[str, ...],
    record: str | None,
    replay: str | None,
    fmt: ReportFormat,
    out: Path | None,
    semantic: bool,
) -> None:
    """Run the conversations in SCENARIOS against a bot (in-process or a live endpoint) and report
    duplicate messages, missed requests, silent-mode leaks, wrong-scope answers and awkward
    acknowledgements."""
    try:
        results, usage = run_sync(
            _run(
                scenarios,
                bot,
                endpoint,
                quiet_period,
                model,
                base_url,
                record,
                replay,
                semantic,
                headers,
                model_settings,
            )
        )
    except HarnessError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    report = (
        render_junit(results, suite="harness simulate") if fmt == "junit" else render(results, fmt)
    )
    if fmt == "text" and usage is not None and usage.requests:
        report += _usage_line(usage)
    if out is not None:
        try:
            out.write_text(report, encoding="utf-8")
        except OSError as exc:
            click.echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
            sys.exit(2)
    else:
        click.echo(report, nl=False)
    broken = [r for r in results if r.error]
    if broken:
        click.echo(
            f"error: {len(broken)} of {len(results)} scenario(s) could not be completed:", err=True
        )
        for result in broken:
            first = (result.error or "").splitlines()[0]
            click.echo(f"  {result.title}: {first}", err=True)
    sys.exit(exit_code(results))


def _usage_line(usage: Usage) -> str:
    if not usage.total_tokens:
        return f"model usage: {usage.requests} requests (no tokens reported by the model)\n"
    cost = "" if usage.cost_usd is None else f", estimated cost ${usage.cost_usd:.4f}"
    return (
        f"model usage: {usage.requests} requests, {usage.input_tokens} input and "
        f"{usage.output_tokens} output tokens{cost}\n"
    )


async def _run(
    paths: tuple[Path, ...],
    bot: str | None,
    endpoint: str | None,
    quiet_period: float,
    model: str | None,
    base_url: str | None,
    record: str | None,
    replay: str | None,
    semantic: bool,
    headers: tuple[str, ...] = (),
    setting_options: tuple[str, ...] = (),
) -> tuple[list[DetectionResult], Usage | None]:
    from harness._cli_commands import model_option_values
    from harness.models.settings import parse_model_settings
    from harness.simulate.runner import check_models, run_scenarios
    from harness.simulate.targets import InProcessTarget, Target

    if bot and endpoint:
        raise UsageError("use --bot or --endpoint, not both")
    if headers and not endpoint:
        raise UsageError("--header applies to --endpoint only")
    files = [load_scenarios(path) for path in paths]
    total = sum(len(f.scenarios) for f in files)
    model_obj: Any = None
    target: Target | None = None
    settings = parse_model_settings(setting_options)
    if endpoint:
        if model or base_url or record or replay or settings:
            raise UsageError(
                "--model, --base-url, --model-setting, --record and --replay need an in-process bot"
            )
        from harness.hosting.channel import EndpointTarget

        parsed: dict[str, str] = {}
        for header in headers:
            name, sep, value = header.partition(":")
            if not sep or not name.strip():
                raise UsageError(f"--header must look like 'Name: value', got {header!r}")
            parsed[name.strip()] = value.strip()
        target = EndpointTarget(endpoint, quiet_period=quiet_period, headers=parsed or None)
    else:
        model_obj = model_option_values(model, base_url, record, replay, settings=settings)
    embedder = None
    if semantic:
        from harness.simulate.embeddings import LocalEmbedder

        local = LocalEmbedder()
        local.load()
        embedder = local
    if target is None and bot is not None:
        from harness._loading import load_bot

        options: dict[str, Any] = {"settings": settings} if settings and model_obj is None else {}
        target = InProcessTarget(load_bot(bot, model=model_obj, **options))
        check_models(target)
    usage = Usage()

    def add_usage(spent: Usage) -> None:
        nonlocal usage
        usage = usage + spent

    with ProgressBar("simulating", "scenarios", total, wanted=total > 1) as progress:
        results = await run_scenarios(
            files,
            target=target,
            model=model_obj,
            model_settings=settings if model_obj is None else None,
            config=DetectorConfig(),
            embedder=embedder,
            on_scenario=lambda _result: progress.advance(),
            on_usage=add_usage,
        )
    return results, usage
