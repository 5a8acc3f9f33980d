"""The ``chat`` and ``instructions`` commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource
from rich.console import Console

from harness.cli.command import HarnessCommand
from harness.cli.model_flags import ModelFlags, model_options
from harness.cli.options import (
    directline_options,
    output_option,
    parse_headers,
    verbosity,
    write_output,
)
from harness.exceptions import ConfigError, UsageError
from harness.runtime.config_files import build_subagents, load_config
from harness.runtime.loading import load_bot
from harness.runtime.parent import check_models
from harness.runtime.views import parent_view, render_instructions
from instructions import copilot_studio_lengths, render_copilot_studio, render_markdown

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["chat_command", "instructions_command"]


@click.command("chat", cls=HarnessCommand)
@click.argument("config", metavar="[BOT]", required=False)
@click.option(
    "--endpoint",
    metavar="URL",
    help="Talk to a served bot: its /api/messages URL (the chat is its Bot Framework channel).",
)
@click.option(
    "--conversation",
    metavar="ID",
    help="With --endpoint: continue this conversation (the banner names a new chat's id).",
)
@click.option(
    "--header",
    "headers",
    multiple=True,
    metavar="NAME:VALUE",
    help="With --endpoint: an HTTP header for every post (e.g. 'Authorization: Bearer ...').",
)
@directline_options("Talk to a bot behind Direct Line 3.0: the endpoint up to /conversations.")
@click.option(
    "--quiet-period",
    type=float,
    help="With --endpoint or --directline: seconds without a new reply that end a turn "
    "(default: 0.5 with --endpoint, 3 with --directline).",
)
@click.option(
    "--reply-timeout",
    type=float,
    default=60.0,
    show_default=True,
    help="With --directline: seconds to wait for a turn's first reply (as in harness simulate).",
)
@click.option(
    "--turn-timeout",
    type=click.FloatRange(min=0, min_open=True),
    help="The longest a whole turn may take: with --directline (default: --reply-timeout plus "
    "60, at least 120), with --endpoint (default 30), as in harness simulate.",
)
@model_options()
@click.pass_context
def chat_command(
    ctx: click.Context,
    config: str | None,
    model: str | None,
    base_url: str | None,
    model_settings: tuple[str, ...] = (),
    endpoint: str | None = None,
    conversation: str | None = None,
    headers: tuple[str, ...] = (),
    directline: str | None = None,
    directline_secret: str | None = None,
    directline_token: str | None = None,
    transport: str = "websocket",
    quiet_period: float | None = None,
    reply_timeout: float = 60.0,
    turn_timeout: float | None = None,
) -> int:
    """Talk to the bot in BOT (a YAML config or module:attr), or to a served one with --endpoint
    or --directline; every message shows who sent it.

    Arrow keys edit the line and recall earlier messages. /plan shows the last turn's scoped
    requests, /floor who holds the floor, /help the commands. Ctrl-D or exit quits; Ctrl-C quits
    at once, cancelling a turn in progress. A model request that fails ends its turn, not the chat.
    A served bot sends its plan for /plan when it runs under `harness serve`.
    """
    console = Console(highlight=False, soft_wrap=True)  # a long message is one line in a pipe
    given = [
        n for n, v in (("BOT", config), ("--endpoint", endpoint), ("--directline", directline)) if v
    ]
    if len(given) != 1:
        raise UsageError(
            "give one of BOT, --endpoint URL or --directline URL"
            + (f", not {' and '.join(given)}" if given else "")
        )
    if config is None:
        if model or base_url or model_settings:
            raise UsageError("--model, --base-url and --model-setting need an in-process BOT")
        if conversation and not endpoint:
            raise UsageError("--conversation applies to --endpoint only")
        if headers and not endpoint:
            raise UsageError("--header applies to --endpoint only")
        return _chat_remote(
            ctx,
            console,
            endpoint=endpoint,
            conversation=conversation,
            headers=headers,
            directline=directline,
            secret=directline_secret,
            token=directline_token,
            transport=transport,
            quiet_period=quiet_period,
            reply_timeout=reply_timeout,
            turn_timeout=turn_timeout,
        )
    if endpoint or directline or conversation or headers:
        raise UsageError("--conversation and --header apply to --endpoint only")
    from harness.cli.chat import chat

    bot = ModelFlags.parse(model, base_url, model_settings).load_bot(config)
    check_models(bot)
    return chat(bot, console=console, verbosity=verbosity(ctx))


def _chat_remote(
    ctx: click.Context,
    console: Console,
    *,
    endpoint: str | None,
    conversation: str | None,
    headers: tuple[str, ...],
    directline: str | None,
    secret: str | None,
    token: str | None,
    transport: str,
    quiet_period: float | None,
    reply_timeout: float,
    turn_timeout: float | None,
) -> int:
    from harness.cli.remote_chat import chat_remote, directline_bot, endpoint_bot

    if endpoint is not None:
        from harness.simulate.endpoint import EndpointTarget

        if ctx.get_parameter_source("reply_timeout") == ParameterSource.COMMANDLINE:
            # As in harness simulate: an endpoint's one limit is the whole turn's.
            raise UsageError(
                "--reply-timeout does not apply to --endpoint; its turn limit is --turn-timeout"
            )
        target = EndpointTarget(
            endpoint,
            quiet_period=0.5 if quiet_period is None else quiet_period,
            turn_timeout=30.0 if turn_timeout is None else turn_timeout,
            headers=parse_headers(headers) or None,
            ask_plan=True,  # for /plan
        )
        return chat_remote(
            endpoint_bot(target, conversation), console=console, verbosity=verbosity(ctx)
        )
    from harness.simulate.directline import DirectLineTarget

    assert directline is not None
    if secret and token:
        raise UsageError("give --directline-secret or --directline-token, not both")
    if turn_timeout is not None and turn_timeout < reply_timeout:
        raise UsageError(
            f"--directline: --turn-timeout ({turn_timeout:g}s) is below --reply-timeout "
            f"({reply_timeout:g}s), which it would cut short"
        )
    channel = DirectLineTarget(
        directline,
        secret=secret or None,
        token=None if secret else token or None,
        transport="polling" if transport == "polling" else "websocket",
        quiet_period=3.0 if quiet_period is None else quiet_period,
        reply_timeout=reply_timeout,
        turn_timeout=turn_timeout,  # None: DirectLineTarget's default, as harness simulate's
    )
    return chat_remote(directline_bot(channel), console=console, verbosity=verbosity(ctx))


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
        from harness.lint.starter import refusal

        # The starter config goes where the output goes (`> agents.yaml` saves it); the
        # explanation, and exit code 2, follow: instructions were asked for, not generated.
        message, starter = refusal(config, output=None if output is None else str(output))
        if starter:
            _write_utf8(starter, output)
        raise UsageError(message)
    sources = None
    if path.suffix in (".yaml", ".yml") or path.exists() or ":" not in config:
        bot_config = load_config(config)
        agents = build_subagents(bot_config, import_tools=False)
        view = parent_view(bot_config.parent.name, bot_config.parent.instructions, agents)
        try:
            if fmt == "md":
                text = render_markdown(view, agent=agent)
            else:
                from harness.lint.starter import copilot_studio_sources

                sources = copilot_studio_sources(path.read_text(encoding="utf-8"))
                text = render_copilot_studio(view, agent=agent, sources=sources)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    else:
        bot = _python_bot(config)
        text = render_instructions(bot, format=fmt, agent=agent)  # type: ignore[arg-type]
        view = parent_view(bot.name, bot.instructions, list(bot.subagents.values()))
    _write_utf8(text, output)
    if fmt == "copilot-studio":
        # The fragment's `# WARNING` comment is easy to miss in a paste: say it here too.
        for length in copilot_studio_lengths(view, agent=agent, sources=sources):
            if length.over_limit:
                click.echo(f"warning: {length.warning()}", err=True)


def _python_bot(target: str) -> Parent:
    """:func:`load_bot` on ``module:attr``; an attribute the module does not have is named as
    such ("tools has no attribute 'nothing'"), not as an object that is no Parent."""
    module_name, _, attr = target.partition(":")
    if not module_name.strip() or not attr.strip():
        raise ConfigError(
            f"{target!r} is not module:attr: give the module and the attribute naming a "
            "harness.Parent (or a function returning one), e.g. bot:bot for bot.py"
        )
    try:
        return load_bot(target)
    except ConfigError as exc:
        module = sys.modules.get(module_name)
        if module is None or hasattr(module, attr):
            raise
        raise ConfigError(
            f"{module_name} has no attribute {attr!r}: {target!r} must name a harness.Parent "
            "(or a function returning one) defined in the module"
        ) from exc


def _write_utf8(text: str, output: Path | None) -> None:
    """:func:`write_output`, but a stdout whose encoding cannot hold the text (a Windows ``>``
    redirect in the console's code page, say) gets UTF-8 bytes, as YAML readers expect, rather
    than a UnicodeEncodeError."""
    stdout = sys.stdout
    buffer = getattr(stdout, "buffer", None)
    if output is None and buffer is not None:
        try:
            text.encode(stdout.encoding or "utf-8")
        except (UnicodeEncodeError, LookupError):
            stdout.flush()
            buffer.write(text.encode("utf-8", "replace"))  # a lone surrogate becomes "?"
            buffer.flush()
            return
    write_output(text, output)
