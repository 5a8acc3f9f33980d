"""The ``chat`` and ``instructions`` commands."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from harness._loading import load_bot, run_sync
from harness._views import parent_view
from harness.exceptions import RunError, UsageError
from harness.models.settings import parse_model_settings
from harness.transcript import Message
from instructions import render_copilot_studio, render_markdown
from subagents.config import load_config

if TYPE_CHECKING:
    from harness.parent import Parent

__all__ = [
    "chat_command",
    "check_models",
    "instructions_command",
    "model_option_values",
    "model_setting_option",
]

F = TypeVar("F", bound=Callable[..., Any])

_COLOURS = {"silent": "magenta", "direct": "green", "conversational": "cyan"}


def model_option_values(
    model: str | None,
    base_url: str | None,
    record: str | None = None,
    replay: str | None = None,
    *,
    settings: dict[str, object] | None = None,
) -> object:
    """Build the model the ``--model`` / ``--base-url`` / ``--record`` / ``--replay`` flags ask for.

    ``settings`` (from ``--model-setting``) go to the model built here; with no ``--model`` the
    caller passes them to ``load_bot`` for the config's own model.
    """
    if record and replay:
        raise UsageError("--record and --replay cannot be used together")
    if record or replay:
        from harness.models.replay import model_from_cli

        return model_from_cli(
            model, base_url=base_url, record=record, replay=replay, settings=settings
        )
    if model is None:
        if base_url:
            raise UsageError("--base-url needs --model openai:<model>")
        return None
    if base_url or settings:
        from harness.models import resolve_model

        options: dict[str, object] = {"settings": settings} if settings else {}
        if base_url:
            options["base_url"] = base_url
        return resolve_model(model, **options)
    return model


def model_setting_option() -> Callable[[F], F]:
    """The ``--model-setting key=value`` option (repeatable)."""
    return click.option(
        "--model-setting",
        "model_settings",
        multiple=True,
        metavar="KEY=VALUE",
        help="A model setting (temperature=0, seed=42, output_mode=json_object, "
        "max_concurrency=1, ...; see docs/models.md). Repeatable.",
    )


def check_models(bot: Parent) -> None:
    """Fail now, in one line, if a model of the bot cannot work (a hosted model with no key)."""
    models = {id(m): m for m in (bot.model, *bot._agent_models.values())}
    for used in models.values():
        used.check()


def _describe(message: Message) -> str:
    if message.mode:
        colour = _COLOURS.get(message.mode, "white")
        return f"[{colour}]{escape(message.sender)}[/] [dim]({message.mode})[/]"
    return f"[bold blue]{escape(message.sender)}[/]"


@click.command("chat")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--model", help="rules (default), openai:<model> or replay:<cassette>.")
@click.option("--base-url", help="Base URL of an OpenAI-compatible server.")
@model_setting_option()
def chat_command(
    config: str, model: str | None, base_url: str | None, model_settings: tuple[str, ...] = ()
) -> None:
    """Talk to the bot in CONFIG; every message shows who sent it. Ctrl-D or 'exit' quits."""
    settings = parse_model_settings(model_settings)
    chosen = model_option_values(model, base_url, settings=settings)
    extra: dict[str, Any] = {"settings": settings} if settings and chosen is None else {}
    bot = load_bot(config, model=chosen, **extra)  # type: ignore[arg-type]
    check_models(bot)
    console = Console(highlight=False)
    console.print(
        f"[bold]{escape(bot.name)}[/] with {len(bot.subagents)} sub-agents: "
        + ", ".join(f"{n} ({a.mode.value})" for n, a in bot.subagents.items())
    )

    async def show(message: Message) -> None:
        console.print(f"{_describe(message)}: {escape(message.text)}")

    async def loop() -> None:
        try:
            await talk()
        finally:
            await bot.aclose()

    async def talk() -> None:
        async with bot.conversation(on_message=show) as conversation:
            while True:
                try:
                    text = await asyncio.to_thread(input, "you> ")
                except EOFError:
                    break
                if text.strip().lower() in ("exit", "quit"):
                    break
                if not text.strip():
                    continue
                try:
                    turn = await conversation.send(text)
                except RunError as exc:  # an unreachable model ends this turn, not the chat
                    console.print(f"[red]error:[/] {escape(str(exc))}")
                    continue
                answered = [r.agent for r in turn.results if r.answered]
                silent = [r.agent for r in turn.results if r.mode.value == "silent" and r.ok]
                failed = [r.agent for r in turn.results if r.status in ("failed", "timed_out")]
                notes = []
                if answered:
                    notes.append("answered by " + ", ".join(answered))
                if silent:
                    notes.append("findings from " + ", ".join(silent))
                if failed:
                    notes.append("failed: " + ", ".join(failed))
                if notes:
                    console.print(f"[dim]  ({'; '.join(notes)})[/]")

    run_sync(loop())


@click.command("instructions")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "copilot-studio"]),
    default="md",
    show_default=True,
    help="Markdown, or YAML fragments to paste into Copilot Studio.",
)
@click.option("--agent", help="Only this sub-agent.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), help="Write to a file.")
def instructions_command(config: str, fmt: str, agent: str | None, out: str | None) -> None:
    """Print the generated top-level instruction, sub-agent descriptions and instructions."""
    if config.endswith(".mcs.yml") or Path(config).is_dir() or Path(config).name == "data":
        raise UsageError(
            f"{config} looks like a Copilot Studio agent; `harness instructions` reads this SDK's "
            "YAML config. Run `harness lint` on it to see what to add, and describe the agents in "
            "a config to generate their instructions (see docs/instructions.md)."
        )
    bot_config = load_config(config)
    agents = bot_config.build_subagents(import_tools=False)
    view = parent_view(bot_config.parent.name, bot_config.parent.instructions, agents)
    try:
        text = (
            render_markdown(view, agent=agent)
            if fmt == "md"
            else render_copilot_studio(view, agent=agent)
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if out:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from exc
    else:
        click.echo(text, nl=False)
