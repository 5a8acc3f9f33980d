"""The ``chat`` and ``instructions`` commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from harness.cli.command import HarnessCommand
from harness.cli.model_flags import ModelFlags, model_options
from harness.cli.options import output_option, verbosity, write_output
from harness.exceptions import UsageError
from harness.runtime.config_files import build_subagents, load_config
from harness.runtime.loading import load_bot
from harness.runtime.parent import check_models
from harness.runtime.views import parent_view, render_instructions
from instructions import render_copilot_studio, render_markdown

if TYPE_CHECKING:
    pass

__all__ = ["chat_command", "instructions_command"]


@click.command("chat", cls=HarnessCommand)
@click.argument("config", metavar="BOT")
@model_options()
@click.pass_context
def chat_command(
    ctx: click.Context,
    config: str,
    model: str | None,
    base_url: str | None,
    model_settings: tuple[str, ...] = (),
) -> int:
    """Talk to the bot in BOT (a YAML config or module:attr); every message shows who sent it.

    Arrow keys edit the line and recall earlier messages. /plan shows the last turn's scoped
    requests, /floor who holds the floor, /help the commands. Ctrl-D or exit quits; Ctrl-C quits
    at once, cancelling a turn in progress. A model request that fails ends its turn, not the chat.
    """
    from harness.cli.chat import chat

    bot = ModelFlags.parse(model, base_url, model_settings).load_bot(config)
    check_models(bot)
    console = Console(highlight=False, soft_wrap=True)  # a long message is one line in a pipe
    return chat(bot, console=console, verbosity=verbosity(ctx))


@click.command("instructions", cls=HarnessCommand)
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
        text = render_instructions(load_bot(config), format=fmt, agent=agent)  # type: ignore[arg-type]
    write_output(text, output)
