"""The ``chat`` and ``instructions`` commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console

from harness.cli.options import output_option, verbosity
from harness.exceptions import UsageError
from harness.models.registry import check_model_name, model_for_options, resolve_model
from harness.models.settings import parse_model_settings
from harness.runtime.config_files import build_subagents, load_config
from harness.runtime.loading import load_bot
from harness.runtime.parent import bot_models
from harness.runtime.views import parent_view, render_instructions
from instructions import render_copilot_studio, render_markdown

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = [
    "chat_command",
    "check_models",
    "instructions_command",
    "model_option_values",
]

F = TypeVar("F", bound=Callable[..., Any])


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
    if record or replay:
        return model_for_options(
            model, base_url=base_url, record=record, replay=replay, settings=settings
        )
    if model is None:
        if base_url:
            raise UsageError("--base-url needs --model openai:<model>")
        return None
    if base_url or settings:
        options: dict[str, object] = {"settings": settings} if settings else {}
        if base_url:
            options["base_url"] = base_url
        return resolve_model(model, **options)
    # A bare name is checked now (one line naming the known prefixes) and built by the bot.
    return check_model_name(model)


def model_options() -> Callable[[F], F]:
    """``--model``, ``--base-url`` and ``--model-setting``: the options of every command that runs a
    bot (``chat``, ``simulate``, ``serve``), read by ``load_bot_with_options``."""
    model = click.option(
        "--model", help="rules (default), openai:<model>, replay:<cassette> or a registered prefix."
    )
    base_url = click.option(
        "--base-url", help="Base URL of an OpenAI-compatible server (with --model openai:*)."
    )
    setting = click.option(
        "--model-setting",
        "model_settings",
        multiple=True,
        metavar="KEY=VALUE",
        help="A model setting (temperature=0, seed=42, output_mode=json_object, "
        "max_concurrency=1, ...; see docs/models.md). Repeatable.",
    )

    def decorate(command: F) -> F:
        return model(base_url(setting(command)))

    return decorate


def load_bot_with_options(
    config: str, model: str | None, base_url: str | None, model_settings: tuple[str, ...]
) -> Parent:
    """The bot in ``config`` with the model the ``model_options`` ask for (``--model-setting``s go
    to the config's own model when no ``--model`` is given)."""
    settings = parse_model_settings(model_settings)
    chosen = model_option_values(model, base_url, settings=settings)
    extra: dict[str, Any] = {"settings": settings} if settings and chosen is None else {}
    return load_bot(config, model=chosen, **extra)  # type: ignore[arg-type]


def check_models(bot: Parent) -> None:
    """Fail now, in one line, if a model of the bot cannot work (a hosted model with no key)."""
    for used in bot_models(bot):
        used.check()


@click.command("chat")
@click.argument("config", metavar="BOT")
@model_options()
@click.pass_context
def chat_command(
    ctx: click.Context,
    config: str,
    model: str | None,
    base_url: str | None,
    model_settings: tuple[str, ...] = (),
) -> None:
    """Talk to the bot in BOT (a YAML config or module:attr); every message shows who sent it.

    Arrow keys edit the line and recall earlier messages. /plan shows the last turn's scoped
    requests, /floor who holds the floor, /help the commands. Ctrl-D or exit quits; Ctrl-C quits
    at once, cancelling a turn in progress. A model request that fails ends its turn, not the chat.
    """
    from harness.cli.chat import chat

    bot = load_bot_with_options(config, model, base_url, model_settings)
    check_models(bot)
    console = Console(highlight=False, soft_wrap=True)  # a long message is one line in a pipe
    ctx.exit(chat(bot, console=console, verbosity=verbosity(ctx)))


@click.command("instructions")
@click.argument("config", metavar="BOT")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "copilot-studio"]),
    default="md",
    show_default=True,
    help="Markdown, or YAML fragments to paste into Copilot Studio.",
)
@click.option("--agent", help="Only this sub-agent (the parent's part is left out).")
@output_option()
def instructions_command(config: str, fmt: str, agent: str | None, output: Path | None) -> None:
    """Print the generated top-level instruction, sub-agent descriptions and instructions.

    BOT is this SDK's YAML config (its tools are not imported) or a module:attr naming a
    harness.Parent built in Python (or a function returning one), e.g. bot:bot for bot.py.
    """
    path = Path(config)
    if config.endswith(".mcs.yml") or path.is_dir() or path.name == "data":
        raise UsageError(
            f"{config} looks like a Copilot Studio agent; `harness instructions` reads this SDK's "
            "YAML config. Run `harness lint` on it to see what to add, and describe the agents in "
            "a config to generate their instructions (see the instructions page of the docs)."
        )
    if path.suffix in (".yaml", ".yml") or path.exists() or ":" not in config:
        bot_config = load_config(config)
        agents = build_subagents(bot_config, import_tools=False)
        view = parent_view(bot_config.parent.name, bot_config.parent.instructions, agents)
        render = render_markdown if fmt == "md" else render_copilot_studio
        try:
            text = render(view, agent=agent)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    else:
        try:
            text = render_instructions(load_bot(config), format=fmt, agent=agent)  # type: ignore[arg-type]
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    if output is not None:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from exc
    else:
        click.echo(text, nl=False)
