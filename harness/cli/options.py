"""The options every ``harness`` command shares, so that they are spelt the same everywhere.

- ``-q/--quiet`` and ``-v/--verbose`` are added to every command by the group
  (:func:`add_verbosity`): a command reads the level with :func:`verbosity`.
- ``-o/--output FILE`` is the one spelling of the output file (:func:`output_option`): the
  group checks it can be written before the command runs (:func:`check_output`), and the
  command writes it with :func:`write_output`.
- ``--format`` of the commands that report findings (``detect``, ``simulate``):
  :func:`report_format_option`; ``text`` is a table on a terminal and one line per finding
  elsewhere (:func:`report_layout`).
- ``--config CONFIG`` on the commands that read transcripts (``detect``, ``scenario``) is the
  bot's agent config (:func:`agent_config_option`).
- Each command's ``--help`` ends with its exit codes (set by the group from ``harness.cli``).
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from harness.exceptions import UsageError

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "add_verbosity",
    "agent_config_option",
    "check_output",
    "output_option",
    "parse_headers",
    "report_format_option",
    "report_layout",
    "reset_logging",
    "stderr_is_terminal",
    "stdout_is_terminal",
    "verbosity",
    "write_output",
]

EXIT_INTERRUPTED = 130
"""The exit code after Ctrl-C: 128 + SIGINT, as shells report a command ended by Ctrl-C."""
EXIT_TERMINATED = 143
"""The exit code after SIGTERM (a CI job cancelled or timed out): 128 + SIGTERM."""

F = TypeVar("F", bound=Callable[..., Any])

_HANDLER_NAME = "harness-cli-verbose"


def output_option(help: str = "Write to FILE instead of standard output.") -> Callable[[F], F]:
    """``-o/--output FILE``, passed as ``output: Path | None``. Every command writes it with
    :func:`write_output`, which makes missing folders; the help says so."""
    return click.option(
        "-o",
        "--output",
        "output",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help=f"{help} Missing folders of FILE are made.",
    )


def agent_config_option() -> Callable[[F], F]:
    """``--config CONFIG``, the bot's agent config, read for each sub-agent's mode (a silent
    agent's message is a leak); passed as ``config_path: Path | None``."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False, path_type=Path),
        help="The bot's agent config (this SDK's YAML, or a Python bot as module:attr): tells "
        "each sub-agent's mode (for silent-mode leaks).",
    )


def directline_options(help: str) -> Callable[[F], F]:
    """``--directline URL`` (with ``help``), ``--directline-secret``, ``--directline-token`` and
    ``--transport``: how ``simulate`` and ``chat`` reach a bot behind Direct Line 3.0."""
    options = [
        click.option("--directline", metavar="URL", help=help),
        click.option(
            "--directline-secret",
            envvar="DIRECTLINE_SECRET",
            help="The Direct Line secret (default: $DIRECTLINE_SECRET).",
        ),
        click.option(
            "--directline-token",
            envvar="DIRECTLINE_TOKEN",
            help="A Direct Line token instead of the secret (default: $DIRECTLINE_TOKEN).",
        ),
        click.option(
            "--transport",
            type=click.Choice(["websocket", "polling"]),
            default="websocket",
            show_default=True,
            help="With --directline: receive replies on the WebSocket or by polling.",
        ),
    ]

    def apply(function: F) -> F:
        for option in reversed(options):
            function = option(function)
        return function

    return apply


REPORT_FORMATS = ("text", "table", "lines", "github", "json", "junit", "html")
"""The ``--format`` values of ``harness detect`` and ``harness simulate``."""


def report_format_option() -> Callable[[F], F]:
    """``--format`` of a findings report, passed as ``fmt: str`` (see :func:`report_layout`)."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(REPORT_FORMATS),
        default="text",
        show_default=True,
        help="Report format. text: a table on a terminal, one line per finding otherwise (a CI "
        "log, a pipe, -o FILE); table or lines: always that layout; github: GitHub Actions "
        "annotations; json, junit, html.",
    )


def report_layout(fmt: str, output: Path | None) -> str:
    """The report format to render: ``text`` becomes ``text`` (the table) when the report goes
    to a terminal and ``lines`` when it goes anywhere else; ``table`` is ``text``."""
    if fmt == "table":
        return "text"
    if fmt != "text":
        return fmt
    return "text" if output is None and stdout_is_terminal() else "lines"


def stdout_is_terminal() -> bool:
    """True when standard output is a terminal (not a pipe, a file or a CI log)."""
    return sys.stdout is not None and sys.stdout.isatty()


def stderr_is_terminal() -> bool:
    """True when standard error is a terminal (not a pipe, a file or a CI log)."""
    return sys.stderr is not None and sys.stderr.isatty()


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 pair: what a JavaScript bot leaves when it cuts a string inside an emoji.
JSON carries it (``"\\ud83d"``) and Python reads it, but UTF-8 cannot encode it."""


def write_output(text: str, output: Path | None, *, utf8: bool = False) -> None:
    """Write a command's report to ``output`` (``-o FILE``), or to standard output without one.

    A file is written in UTF-8. So is standard output with ``utf8`` (a machine format: JSON, JUnit,
    HTML, SARIF, which declare or assume UTF-8), as bytes whatever the console's encoding; without
    it, text goes through the console's encoding, what it cannot encode replaced (the console script
    sets ``errors="replace"``). A lone surrogate in the text (a message cut inside an emoji) is
    written as U+FFFD. The file is written beside ``output`` and renamed over it once complete, so
    an earlier report is replaced whole or not at all; missing folders on the way are made (as
    pytest's ``--junitxml`` does). A device or pipe (``-o /dev/stdout``) is written to as it is.

    Raises:
        UsageError: the file cannot be written.
    """
    if not text.isascii():  # isascii is O(1): CPython knows it of every string
        text = _LONE_SURROGATE.sub("\ufffd", text)
    if output is None:
        buffer = getattr(sys.stdout, "buffer", None)
        if utf8 and buffer is not None:
            sys.stdout.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()
        else:
            click.echo(text, nl=False)
        return
    try:
        if output.exists() and not output.is_file():
            output.write_text(text, encoding="utf-8")
            return
        output.parent.mkdir(parents=True, exist_ok=True)
        _replace(output.resolve() if output.is_symlink() else output, text)
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from exc


def _replace(target: Path, text: str) -> None:
    """Write ``text`` to a new file beside ``target`` and rename it over ``target`` (with the
    earlier file's permissions, else those a new file gets; in place when only the file, not its
    folder, is writable)."""
    temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except PermissionError:
        if not target.is_file():
            raise
        target.write_text(text, encoding="utf-8")
        return
    try:
        if target.is_file():  # a report locked down (0600: it quotes users) stays so
            os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def check_output(output: Path) -> None:
    """Stop before a command runs when ``output`` cannot be written at its end: a file where one
    of its folders should be, or a folder this process may not write in.

    Raises:
        UsageError: naming the file and why.
    """
    folder = output.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise UsageError(f"cannot write {output}: {folder} is not a folder")
    if output.exists() and not output.is_file():
        return  # a device or a pipe: written to as it is
    if not os.access(folder, os.W_OK | os.X_OK) and not os.access(output, os.W_OK):
        raise UsageError(f"cannot write {output}: {folder} is not writable")


def verbosity(ctx: click.Context | None = None) -> int:
    """-1 with ``-q``, 0 by default, 1 with ``-v``, 2 with ``-vv``."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None or not isinstance(ctx.obj, dict):
        return 0
    return int(ctx.obj.get("verbose", 0)) - int(bool(ctx.obj.get("quiet", False)))


def _store(key: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        ctx.ensure_object(dict)[key] = value
        _apply_logging(verbosity(ctx))

    return callback


def _apply_logging(level: int) -> None:
    """-q hides log records below WARNING; -v shows this SDK's INFO records, -vv its DEBUG ones."""
    reset_logging()
    if level < 0:
        logging.disable(logging.INFO)
    elif level > 0:
        handler = logging.StreamHandler()
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        logger = logging.getLogger("harness")
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG if level > 1 else logging.INFO)
        logger.propagate = False  # once, even where a command configures the root logger (serve)


def reset_logging() -> None:
    """Undo what ``-q`` / ``-v`` changed (the CLI runs in-process in tests)."""
    logging.disable(logging.NOTSET)
    logger = logging.getLogger("harness")
    for handler in list(logger.handlers):
        if handler.get_name() == _HANDLER_NAME:
            logger.removeHandler(handler)
            logger.setLevel(logging.NOTSET)
            logger.propagate = True


def add_verbosity(command: click.Command) -> None:
    """Give ``command`` the ``-q/--quiet`` and ``-v/--verbose`` options (once)."""
    names = {param.name for param in command.params}
    if "quiet" not in names:
        command.params.append(
            click.Option(
                ["-q", "--quiet"],
                is_flag=True,
                expose_value=False,
                callback=_store("quiet"),
                help="Print only the result and errors (no banners, notes or progress).",
            )
        )
    if "verbose" not in names:
        command.params.append(
            click.Option(
                ["-v", "--verbose"],
                count=True,
                expose_value=False,
                callback=_store("verbose"),
                help="Say more: log messages on standard error (-vv for debug detail).",
            )
        )


def parse_headers(headers: Sequence[str]) -> dict[str, str]:
    """``--header 'Name: value'`` options as a dict.

    Raises:
        UsageError: a header is not ``Name: value``.
    """
    parsed: dict[str, str] = {}
    for header in headers:
        name, sep, value = header.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"--header must look like 'Name: value', got {header!r}")
        parsed[name.strip()] = value.strip()
    return parsed
