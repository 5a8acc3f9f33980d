"""The ``harness`` command line (DESIGN.md section 13).

Sub-commands are imported only when used, so ``harness lint`` never loads aiohttp or openai.
Errors become one clear line on stderr and an exit code (2 for usage and input errors, 1 for run
errors); ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from harness._version import __version__
from harness.exceptions import HarnessError

__all__ = ["cli", "main"]

_LAZY = {
    "chat": "harness._cli_commands:chat_command",
    "instructions": "harness._cli_commands:instructions_command",
    "lint": "harness.lint._cli:lint_command",
    "simulate": "harness.simulate._simulate_cli:simulate_command",
    "detect": "harness.simulate._cli:detect_command",
    "serve": "harness.hosting._cli:serve_command",
    "new": "harness._scaffold:new_command",
}

_HELP = {
    "chat": "Talk to a bot in the terminal, with every sender shown.",
    "instructions": "Print the generated instructions and descriptions for a config.",
    "lint": "Check agent configs (this SDK's and Copilot Studio's) for design faults.",
    "simulate": "Run scenario conversations against a bot and detect duplicates and misses.",
    "detect": "Detect duplicate messages, missed requests and silent leaks in transcripts.",
    "serve": "Serve a bot over HTTP as a Bot Framework bot.",
    "new": "Create a starter bot with scenarios and tests that pass as created.",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_LAZY)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _LAZY.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(module_name), attr)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _HELP[name]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HarnessError as exc:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="harness")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """connected-agent harness: parent/sub-agent bots that do not repeat themselves."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def main() -> None:
    """Console-script entry point."""
    sys.exit(cli.main(prog_name="harness", standalone_mode=True))
