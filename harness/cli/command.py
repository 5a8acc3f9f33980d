"""The one exit path of every ``harness`` command.

Each command is a :class:`HarnessCommand`: its callback returns its exit code (None for 0) and
raises on errors; :meth:`HarnessCommand.invoke` is the only place that turns either into the
process's exit code. A ``HarnessError`` becomes one ``error: ...`` line and its ``exit_code``
(2 for usage and input errors, 1 for run errors), Ctrl-C exit code 130, any other exception one
line and exit code 1; ``harness --debug`` shows the traceback instead.
"""

from __future__ import annotations

from typing import Any

import click

from harness.cli.options import EXIT_INTERRUPTED
from harness.exceptions import HarnessError

__all__ = ["HarnessCommand"]


def _debug(ctx: click.Context) -> bool:
    return bool(isinstance(ctx.obj, dict) and ctx.obj.get("debug"))


class HarnessCommand(click.Command):
    """A command whose callback returns its exit code; errors end it here, in one way."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except HarnessError as exc:
            if _debug(ctx):
                raise
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            if _debug(ctx):
                raise
            click.echo("", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # a bug, not an input error: still one line without --debug
            if _debug(ctx):
                raise
            click.echo(
                f"error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", err=True
            )
            ctx.exit(1)
        ctx.exit(int(result or 0))
