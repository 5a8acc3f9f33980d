"""``harness scenario ACTION FILE...``: scenario files made from other material.

``from-transcript`` turns recorded conversations that went wrong into a scenario file that fails
until the bot is fixed; ``from-botium`` and ``from-kit`` import the tests a team already has
(Botium convos, Copilot Studio Kit test sets)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, cast

import click

from harness.cli.command import HarnessCommand
from harness.cli.options import agent_config_option, output_option, write_output
from harness.detect.detectors import detect
from harness.detect.readers import ReadNote, load_transcript, settle_notes
from harness.exceptions import UsageError
from harness.runtime.loading import load_bot
from harness.simulate.from_transcript import scenario_yaml
from harness.simulate.importers import (
    MATCHING_MODES,
    MatchingMode,
    botium_scenarios,
    imported_yaml,
    kit_scenarios,
)
from harness.simulate.modes import load_agent_modes

__all__ = ["scenario_command"]


@click.command("scenario", cls=HarnessCommand)
@click.argument("action", type=click.Choice(["from-transcript", "from-botium", "from-kit"]))
@click.argument(
    "transcripts",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE...",
)
@click.option(
    "--bot",
    metavar="BOT",
    help="The bot: config or module:attr, written as 'bot:' (a config path as seen from FILE).",
)
@agent_config_option()
@click.option(
    "--matching",
    type=click.Choice(MATCHING_MODES),
    default="wildcardIgnoreCase",
    show_default=True,
    help="from-botium: how bot text is matched (Botium's SCRIPTING_MATCHING_MODE).",
)
@click.option(
    "--expand-utterances",
    is_flag=True,
    help="from-botium: one scenario per utterance of each user utterance list, not the first only.",
)
@output_option("Write the scenario file to FILE instead of standard output.")
def scenario_command(
    action: Literal["from-transcript", "from-botium", "from-kit"],
    transcripts: tuple[Path, ...],
    bot: str | None,
    config_path: Path | None,
    matching: str,
    expand_utterances: bool,
    output: Path | None,
) -> int:
    """Make a scenario file from other material.

    from-transcript: one scenario per conversation of each FILE (this SDK's JSONL, a Bot
    Framework transcript, a Copilot Studio transcript from Dataverse, a Direct Line capture), with
    the conversation's user turns and, as comments, what the detectors found in it; run it with
    `harness simulate FILE --bot BOT` and it fails while those findings come back.

    from-botium: Botium .convo.txt files, with the .pconvo.txt and .utterances.txt files they use.

    from-kit: Copilot Studio Kit test sets exported as CSV.

    What has no counterpart (buttons, cards, intents, topic and AI-judged tests, ...) is listed
    as comments at the top of the file.
    """
    written = _bot_from(bot, output)
    if action == "from-botium":
        mode = cast("MatchingMode", matching)  # click's Choice only lets MATCHING_MODES through
        imported = botium_scenarios(transcripts, matching=mode, expand_utterances=expand_utterances)
        write_output(imported_yaml(imported, tool="Botium", bot=written), output)
        return 0
    if action == "from-kit":
        imported = [s for path in transcripts for s in kit_scenarios(path)]
        write_output(imported_yaml(imported, tool="the Copilot Studio Kit", bot=written), output)
        return 0
    modes = load_agent_modes(config_path) if config_path is not None else None
    conversations = []
    notes: list[ReadNote] = []
    silent: list[str] = []
    for path in transcripts:
        for transcript in load_transcript(path, agent_modes=modes, notes=notes):
            if not any(m.role == "user" for m in transcript):  # nothing a scenario could say
                silent.append(f"{path}: conversation {transcript.conversation}")
                continue
            conversations.append((transcript, detect(transcript)))
    for note in settle_notes(notes):  # the scenario holds only the conversations given
        click.echo(f"warning: {note}", err=True)
    if not conversations:
        raise UsageError(
            "no conversation with a user message, so no scenario to write "
            f"({'; '.join(silent)}): a scenario replays the user's turns"
        )
    for where in silent:
        click.echo(f"warning: {where}: skipped, it has no user message", err=True)
    agents = None
    if bot is not None:
        parent = load_bot(bot)  # the scenario names only agents this bot has
        agents = {parent.name, *parent.subagents}
    source = ", ".join(p.name for p in transcripts)
    text = scenario_yaml(conversations, source=source, bot=written, agents=agents)
    write_output(text, output)
    return 0


def _bot_from(bot: str | None, output: Path | None) -> str | None:
    """The ``bot:`` to write. A scenario file's ``bot:`` path is read relative to the file, so a
    relative config path (given from the current directory) is written as seen from the output
    file's folder; absolute where no relative path leads there (another drive). A ``module:attr``
    bot, an absolute path and a file written to standard output keep ``bot`` as given."""
    if bot is None or output is None or not (bot.endswith((".yaml", ".yml")) or "/" in bot):
        return bot
    if Path(bot).is_absolute():
        return bot
    try:
        return Path(os.path.relpath(bot, output.parent)).as_posix()
    except ValueError:  # Windows: the bot and the output are on different drives
        return str(Path(bot).absolute())
