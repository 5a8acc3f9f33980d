"""The ``harness`` command line.

Sub-commands are imported only when used, so ``harness lint`` never loads aiohttp or openai: each
is imported by its own function in ``_COMMANDS`` (a plain import, which import-linter sees). Every
command is a ``HarnessCommand`` (``harness.cli.command``), the one place where errors become one
clear line on stderr and an exit code (2 for usage and input errors, 1 for run errors);
``--debug`` shows the traceback instead. Ctrl-C ends any command with exit code 130; SIGTERM (a CI
job cancelled or timed out), from the console script, the same way with exit code 143.

The group gives every command the shared conventions (``harness.cli.options``): ``-q/-v`` and
its exit codes at the end of its ``--help``, so a new command cannot forget them. The current
directory is importable (appended to ``sys.path``, after the installed packages), so
``harness chat bot:bot`` finds ``bot.py`` as ``python -m`` would.
"""

from __future__ import annotations

import io
import logging
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

import click

from harness._version import __version__
from harness.cli.command import HarnessCommand, on_sigterm, process_end, process_start
from harness.cli.options import EXIT_INTERRUPTED, EXIT_TERMINATED, add_verbosity, reset_logging

__all__ = ["cli", "main"]


def _chat() -> click.Command:
    from harness.cli.commands import chat_command

    return chat_command


def _instructions() -> click.Command:
    from harness.cli.commands import instructions_command

    return instructions_command


def _lint() -> click.Command:
    from harness.cli.lint import lint_command

    return lint_command


def _simulate() -> click.Command:
    from harness.cli.simulate import simulate_command

    return simulate_command


def _detect() -> click.Command:
    from harness.cli.detect import detect_command

    return detect_command


def _compare() -> click.Command:
    from harness.cli.compare import compare_command

    return compare_command


def _scenario() -> click.Command:
    from harness.cli.scenario import scenario_command

    return scenario_command


def _serve() -> click.Command:
    from harness.cli.serve import serve_command

    return serve_command


def _new() -> click.Command:
    from harness.cli.scaffold import new_command

    return new_command


_COMMANDS: dict[str, Callable[[], click.Command]] = {
    "chat": _chat,
    "instructions": _instructions,
    "lint": _lint,
    "simulate": _simulate,
    "detect": _detect,
    "compare": _compare,
    "scenario": _scenario,
    "serve": _serve,
    "new": _new,
}
"""Each command's name and the function that imports it, when it is used."""

_HELP = {
    "chat": "Talk to a bot in the terminal, with every sender shown.",
    "instructions": "Print the generated instructions of a config or a Python bot.",
    "lint": "Check agent configs (this SDK's and Copilot Studio's) for design faults.",
    "simulate": "Run scenario conversations against a bot and detect duplicates and misses.",
    "detect": "Detect duplicate messages, missed requests and silent leaks in transcripts.",
    "compare": "Compare two runs' JSON reports: findings added, fixed and unchanged.",
    "scenario": "Make a scenario from a recorded conversation that went wrong (from-transcript).",
    "serve": "Serve a bot over HTTP as a Bot Framework bot.",
    "new": "Create a starter bot with scenarios and tests that pass as created.",
}

_EXIT_CODES = {
    "chat": "0 the chat ended (exit, quit, Ctrl-D); 1 a turn failed (its model or the bot "
    "could not answer) or a run error; 2 a usage or config error; 130 ended by Ctrl-C.",
    "instructions": "0 printed; 2 a usage or config error; 130 ended by Ctrl-C.",
    "lint": "0 no error-level findings; 1 error-level findings; 2 a usage error; "
    "130 ended by Ctrl-C.",
    "simulate": "0 no error-level findings (warnings allowed); 1 error-level findings or a "
    "scenario that could not complete; 2 bad input or a usage error; 130 ended by Ctrl-C.",
    "detect": "0 no error-level findings (warnings allowed); 1 error-level findings, or "
    "borderline pairs the --judge model could not decide; 2 bad input or a usage error; "
    "130 ended by Ctrl-C.",
    "compare": "0 no regression; 1 a regression; 2 bad input or a usage error; 3 incomplete "
    "(no conversation in common, conversations of BASE missing from NEW, files NEW could not "
    "read that BASE read, pairs a judge could not decide, or different --min-confidence).",
    "scenario": "0 written; 2 bad input or a usage error; 130 ended by Ctrl-C.",
    "serve": "0 stopped by Ctrl-C or SIGTERM; 1 a run error; 2 a usage or config error.",
    "new": "0 created; 2 a usage error (the folder is a file or not empty); 130 ended by Ctrl-C.",
}
_DEFAULT_EXIT_CODES = "0 success; 1 a run error; 2 a usage or config error; 130 Ctrl-C."


def _with_conventions(name: str, command: click.Command) -> click.Command:
    if not isinstance(command, HarnessCommand):
        raise TypeError(f"the {name!r} command must be a HarnessCommand (its one exit path)")
    add_verbosity(command)
    codes = _EXIT_CODES.get(name, _DEFAULT_EXIT_CODES)
    command.epilog = f"Exit codes: {codes}"
    return command


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        load = _COMMANDS.get(cmd_name)
        return None if load is None else _with_conventions(cmd_name, load())

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _HELP[name]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)  # the command's HarnessCommand ends it, errors included
        finally:
            reset_logging()


@click.group(
    cls=_LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="Exit codes: each command's --help lists its own; 130 after Ctrl-C, 143 after SIGTERM.",
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


def _tolerant_output() -> None:
    """Let standard output (and standard error) replace what their encoding cannot encode, so a
    report with a check mark or an emoji reaches a cp1252 console (or ``PYTHONIOENCODING=ascii``)
    with ``?`` in its place rather than stopping the command with ``UnicodeEncodeError``. This is
    for text only (the lines, table and github formats, messages on standard error): JSON,
    JUnit, HTML and SARIF go to standard output as UTF-8 bytes, as they go to ``-o FILE``
    (:func:`harness.cli.options.write_output`), so they stay well-formed and keep every
    character."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="replace")


def main() -> None:
    """Console-script entry point."""
    process_start()
    _tolerant_output()
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        # End as Ctrl-C does (a line on stderr, no half-written report), not silently.
        signal.signal(signal.SIGTERM, on_sigterm)
    try:
        cli.main(prog_name="harness", standalone_mode=True)
    except SystemExit as exc:
        process_end(exc.code)
        if exc.code in (EXIT_INTERRUPTED, EXIT_TERMINATED):
            # Exit now: a sync tool still running in a worker thread would hold a normal exit
            # (which joins the threads) until it returns.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exc.code)
        raise
