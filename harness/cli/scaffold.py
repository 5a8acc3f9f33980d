"""``harness new DIR``: a starter bot, its scenarios and its tests, which pass as created.

The files are package data (``harness/templates/new``), so a pip user needs no clone of the
repository to start. ``$name`` in the YAML and Markdown templates becomes the bot's name.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from importlib import resources
from pathlib import Path
from string import Template

import click

from harness.cli.command import HarnessCommand
from harness.exceptions import UsageError

__all__ = ["new_command", "scaffold"]

_FILES = ("bot.yaml", "tools.py", "scenarios.yaml", "test_bot.py", "pyproject.toml", "README.md")
_SUBSTITUTED = (".yaml", ".md")


def scaffold(directory: Path, *, name: str | None = None) -> list[Path]:
    """Write a starter bot into ``directory`` (created if missing) and return the files written.

    Args:
        directory: a new or empty folder.
        name: the parent agent's name; by default the folder's name, as letters, digits and ``_``.

    Raises:
        UsageError: when ``directory`` is a file or a folder with files in it.
    """
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} is a file; give a new folder")
    if directory.is_dir() and any(directory.iterdir()):
        raise UsageError(f"{directory} is not empty; give a new or empty folder")
    bot_name = name or _name_from(directory)
    templates = resources.files("harness") / "templates" / "new"
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file in _FILES:
        text = (templates / file).read_text(encoding="utf-8")
        if file.endswith(_SUBSTITUTED):
            # ``$quoted_name`` for the name field: a name YAML would read as another type
            # ("null", "true", "123", "0x10") stays a string. A JSON string is a YAML
            # double-quoted scalar.
            text = Template(text).substitute(name=bot_name, quoted_name=json.dumps(bot_name))
        target = directory / file
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def _name_from(directory: Path) -> str:
    name = re.sub(r"[^0-9A-Za-z_]+", "_", directory.resolve().name).strip("_").lower()
    return name or "bot"


@click.command("new", cls=HarnessCommand)
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="The parent agent's name (default: the folder's name).")
def new_command(directory: Path, name: str | None) -> None:
    """Create a starter bot in DIRECTORY: bot.yaml, tools.py, scenarios.yaml and test_bot.py.

    The scenarios and the tests pass as created.
    """
    written = scaffold(directory, name=name)
    click.echo(f"created {directory}/: {', '.join(p.name for p in written)}")
    click.echo("next:")
    for step in (
        f"cd {_shell_word(directory)}",
        "harness chat bot.yaml",
        "harness simulate scenarios.yaml",
        "pytest",
    ):
        click.echo(f"  {step}")


def _shell_word(path: Path) -> str:
    """``path`` as one word of the user's shell, to paste as it is: quoted for a POSIX shell, or
    in double quotes for Windows' shells when it holds spaces."""
    if os.name == "nt":
        return subprocess.list2cmdline([str(path)])
    return shlex.quote(str(path))
