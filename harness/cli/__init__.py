"""The ``harness`` command line: the group and its entry point (``harness.cli.app``), the shared
options (``harness.cli.options``), the bot-level commands (``harness.cli.commands``), the terminal
chat (``harness.cli.chat``) and ``harness new`` (``harness.cli.scaffold``). The simulator, linter
and hosting commands live with their packages (``*/_cli.py``) and are loaded only when used."""

from harness.cli.app import cli, main

__all__ = ["cli", "main"]
