"""docs/cli.md's command table lists every ``harness`` command and nothing else, and every synopsis
on a page (a code block line starting ``harness CMD``) uses only options that command accepts."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TABLE_ROW = re.compile(r"^\| `harness (\w+)[^`]*` \|", re.MULTILINE)
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def _commands() -> dict[str, click.Command]:
    context = click.Context(cli)
    found = {}
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        assert command is not None
        found[name] = command
    return found


def _options(command: click.Command) -> set[str]:
    options = {"--help", "-h"}
    for param in command.params:
        options.update((*param.opts, *param.secondary_opts))
    return options


def test_the_command_table_lists_every_command_and_only_those() -> None:
    table = TABLE_ROW.findall((DOCS / "cli.md").read_text(encoding="utf-8"))
    assert sorted(table) == sorted(_commands())


def _synopses() -> list[tuple[str, str, str]]:
    """(page, command, the synopsis with its continuation lines) of every ``harness CMD ...``
    line inside a code block; a line starting with spaces continues the one above it."""
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        for body in FENCE.findall(page.read_text(encoding="utf-8")):
            lines = body.splitlines()
            for index, line in enumerate(lines):
                text = line.removeprefix("$ ")
                if not text.startswith("harness ") or len(text.split()) < 2:
                    continue
                after = lines[index + 1 :]
                stop = next((i for i, t in enumerate(after) if not t.startswith(" ")), len(after))
                continuation = after[:stop]
                found.append((page.name, text.split()[1], " ".join([text, *continuation])))
    return found


@pytest.mark.parametrize(("page", "name", "synopsis"), _synopses())
def test_every_option_in_a_synopsis_is_accepted_by_its_command(
    page: str, name: str, synopsis: str
) -> None:
    commands = _commands()
    if name.startswith("-"):
        return  # `harness --version`, `harness --debug ...`: options of the group
    assert name in commands, f"{page}: harness {name} is not a command"
    code = synopsis.split("#", 1)[0]  # a comment after the command is prose
    used = set(OPTION.findall(code.split(name, 1)[1]))
    unknown = sorted(used - _options(commands[name]) - {"--debug"})
    assert unknown == [], f"{page}: {synopsis}"
