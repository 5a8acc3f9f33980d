"""The ``harness`` command line.

Sub-commands are imported only when used, so ``harness lint`` never loads aiohttp or openai.
Errors become one clear line on stderr and an exit code (2 for usage and input errors, 1 for run
errors); ``--debug`` shows the traceback instead. Ctrl-C ends any command with exit code 130.

The group gives every command the shared conventions (``harness.cli.options``): ``-q/-v`` and
its exit codes at the end of its ``--help``, so a new command cannot forget them. The current
directory is importable (appended to ``sys.path``, after the installed packages), so
``harness chat bot:bot`` finds ``bot.py`` as ``python -m`` would.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from typing import Any

import click

from harness._version import __version__
from harness.cli.options import EXIT_INTERRUPTED, add_verbosity, reset_logging
from harness.exceptions import HarnessError

__all__ = ["cli", "main"]

_LAZY = {
    "chat": "harness.cli.commands:chat_command",
    "instructions": "harness.cli.commands:instructions_command",
    "lint": "harness.lint._cli:lint_command",
    "simulate": "harness.simulate._simulate_cli:simulate_command",
    "detect": "harness.simulate._cli:detect_command",
    "serve": "harness.hosting._cli:serve_command",
    "new": "harness.cli.scaffold:new_command",
}

_HELP = {
    "chat": "Talk to a bot in the terminal, with every sender shown.",
    "instructions": "Print the generated instructions of a config or a Python bot.",
    "lint": "Check agent configs (this SDK's and Copilot Studio's) for design faults.",
    "simulate": "Run scenario conversations against a bot and detect duplicates and misses.",
    "detect": "Detect duplicate messages, missed requests and silent leaks in transcripts.",
    "serve": "Serve a bot over HTTP as a Bot Framework bot.",
    "new": "Create a starter bot with scenarios and tests that pass as created.",
}

_EXIT_CODES = {
    "chat": "0 the chat ended (exit, quit, Ctrl-D); 1 a run error; 2 a usage or config error; "
    "130 ended by Ctrl-C.",
    "instructions": "0 printed; 2 a usage or config error; 130 ended by Ctrl-C.",
    "lint": "0 no error-level findings; 1 error-level findings; 2 a usage error; "
    "130 ended by Ctrl-C.",
    "simulate": "0 no error-level findings (warnings allowed); 1 error-level findings; "
    "2 bad input or a usage error; 130 ended by Ctrl-C.",
    "detect": "0 no error-level findings (warnings allowed); 1 error-level findings; "
    "2 bad input or a usage error; 130 ended by Ctrl-C.",
    "serve": "0 stopped by Ctrl-C or SIGTERM; 1 a run error; 2 a usage or config error.",
    "new": "0 created; 2 the folder is a file or not empty; 130 ended by Ctrl-C.",
}
_DEFAULT_EXIT_CODES = "0 success; 1 a run error; 2 a usage or config error; 130 Ctrl-C."


def _with_conventions(name: str, command: click.Command) -> click.Command:
    add_verbosity(command)
    codes = _EXIT_CODES.get(name, _DEFAULT_EXIT_CODES)
    command.epilog = f"Exit codes: {codes}"
    return command


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_LAZY)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _LAZY.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(module_name), attr)
        return _with_conventions(cmd_name, command)

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
        except KeyboardInterrupt:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo("", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # a bug, not an input error: still one line without --debug
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(
                f"error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", err=True
            )
            ctx.exit(1)
        finally:
            reset_logging()


@click.group(
    cls=_LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="Exit codes: each command's --help lists its own; 130 after Ctrl-C.",
)
@click.version_option(__version__, prog_name="harness")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """connected-agent harness: parent/sub-agent bots that do not repeat themselves."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
    if os.getcwd() not in sys.path:
        # After the installed packages: a user's own `subagents/` must not shadow ours.
        sys.path.append(os.getcwd())
    if debug:  # what failed inside a turn (a tool's exception, with its traceback) goes to stderr
        logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
        logging.getLogger("harness").setLevel(logging.DEBUG)


def main() -> None:
    """Console-script entry point."""
    try:
        cli.main(prog_name="harness", standalone_mode=True)
    except SystemExit as exc:
        if exc.code == EXIT_INTERRUPTED:
            # Exit now: a sync tool still running in a worker thread would hold a normal exit
            # (which joins the threads) until it returns.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(EXIT_INTERRUPTED)
        raise
