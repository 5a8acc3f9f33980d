"""``harness scenario from-transcript TRANSCRIPT...``: turn recorded conversations that went wrong
into a scenario file that fails until the bot is fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import click

from harness.cli.command import HarnessCommand
from harness.cli.options import output_option, write_output
from harness.detect.detectors import detect
from harness.detect.readers import load_transcript
from harness.runtime.loading import load_bot
from harness.simulate.from_transcript import scenario_yaml
from harness.simulate.modes import load_agent_modes

__all__ = ["scenario_command"]


@click.command("scenario", cls=HarnessCommand)
@click.argument("action", type=click.Choice(["from-transcript"]))
@click.argument(
    "transcripts",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="TRANSCRIPT...",
)
@click.option("--bot", metavar="BOT", help="The bot: config or module:attr, written as 'bot:'.")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The bot's agent config: tells each sub-agent's mode (for silent-mode leaks).",
)
@output_option("Write the scenario file to FILE instead of standard output.")
def scenario_command(
    action: Literal["from-transcript"],
    transcripts: tuple[Path, ...],
    bot: str | None,
    config_path: Path | None,
    output: Path | None,
) -> int:
    """Make scenarios from recorded conversations.

    from-transcript: one scenario per conversation of each TRANSCRIPT (this SDK's JSONL, a Bot
    Framework transcript, a Copilot Studio transcript from Dataverse, a Direct Line capture), with
    the conversation's user turns and, as comments, what the detectors found in it; run it with
    `harness simulate FILE --bot BOT` and it fails while those findings come back.
    """
    modes = load_agent_modes(config_path) if config_path is not None else None
    conversations = []
    for path in transcripts:
        for transcript in load_transcript(path, agent_modes=modes):
            conversations.append((transcript, detect(transcript)))
    agents = None
    if bot is not None:
        parent = load_bot(bot)  # the scenario names only agents this bot has
        agents = {parent.name, *parent.subagents}
    source = ", ".join(p.name for p in transcripts)
    text = scenario_yaml(conversations, source=source, bot=bot, agents=agents)
    write_output(text, output)
    return 0
