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


ROOT_README = ROOT / "README.md"
CHANGELOG = ROOT / "CHANGELOG.md"
NAMES = re.compile(r"`(\w+)`")


def _listed(text: str, before: str, after: str) -> set[str]:
    """The backticked command names between ``before`` and ``after`` (whitespace-normalised)."""
    flat = " ".join(text.split())
    start = flat.index(before) + len(before)
    return set(NAMES.findall(flat[start : flat.index(after, start)]))


def test_the_output_option_is_on_the_commands_the_readme_and_changelog_name() -> None:
    """README and CHANGELOG list the commands that take ``-o/--output`` and those that have none."""
    commands = _commands()
    with_output = {n for n, c in commands.items() if {"-o", "--output"} <= _options(c)}
    without = set(commands) - with_output
    readme = ROOT_README.read_text(encoding="utf-8")
    assert _listed(readme, "that write a report or a file (", ")") == with_output
    assert _listed(readme, "write it to `-o FILE`;", "write no report") == without
    changelog = CHANGELOG.read_text(encoding="utf-8")
    assert _listed(changelog, "on every command that writes one (", ")") == with_output
    assert _listed(changelog, "`--out` spelling is removed.", "write no report") == without


FORMAT = re.compile(r"--format ([\w-]+(?:\|[\w-]+)+)")


@pytest.mark.parametrize(("page", "name", "synopsis"), _synopses())
def test_every_format_list_in_a_synopsis_is_the_commands_own(
    page: str, name: str, synopsis: str
) -> None:
    """``--format a|b|c`` in a synopsis names exactly the formats the command accepts (a list
    without ``html`` once stood in docs/simulate.md)."""
    listed = FORMAT.search(synopsis.split("#", 1)[0])
    if listed is None:
        return
    (option,) = [p for p in _commands()[name].params if "--format" in p.opts]
    assert isinstance(option.type, click.Choice)
    assert listed.group(1).split("|") == list(option.type.choices), f"{page}: {synopsis}"
