"""``harness lint PATH...``: the click command (registered by ``harness.cli``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import click

from harness.cli.command import HarnessCommand
from harness.cli.options import output_option, write_output
from harness.exceptions import UsageError
from harness.lint._engine import lint_paths
from harness.lint.fix import fix_paths, python_fix_notes
from harness.lint.load_python import is_python_target
from harness.lint.model import LintReport
from harness.lint.reporters import (
    render_github,
    render_json,
    render_sarif,
    render_text,
    summary,
)
from harness.lint.settings import find_pyproject, load_settings

__all__ = ["lint_command"]


def _unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as an input (None: it exists)."""
    try:
        if path.exists():
            return None
        if path.is_symlink():
            return "broken symbolic link (its target does not exist)"
    except OSError as exc:  # a name too long for the file system, a loop of links...
        return (exc.strerror or type(exc).__name__).lower()
    return "no such file or folder"


@click.command("lint", cls=HarnessCommand)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "lines", "json", "sarif", "github"]),
    default="text",
    show_default=True,
    help="Output format (text: one finding per line, coloured on a terminal; lines: the same, "
    "never coloured, as detect and simulate spell it; github: GitHub Actions annotations).",
)
@click.option(
    "--select",
    multiple=True,
    metavar="IDS",
    help="Rules to run: ids, prefixes, names or ALL, comma-separated (repeatable).",
)
@click.option(
    "--ignore", multiple=True, metavar="IDS", help="Rules to skip, comma-separated (repeatable)."
)
@click.option(
    "--fix",
    is_flag=True,
    help="Add missing contract inputs and outputs to this SDK's YAML configs, then lint.",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="pyproject.toml with [tool.harness.lint] (default: the nearest one above the cwd).",
)
@output_option("Write the report to FILE instead of standard output.")
def lint_command(
    paths: Sequence[Path],
    output_format: str,
    select: Sequence[str],
    ignore: Sequence[str],
    fix: bool,
    config_file: Path | None,
    output: Path | None,
) -> int:
    """Check agent configs for the design faults that cause duplicate messages.

    PATH may be this SDK's YAML config, a bot built in Python (module:attr, imported from the
    current directory), a Copilot Studio workspace folder (agent.mcs.yml, or the newer layout's
    settings.mcs.yml), an exported solution folder (botcomponents/, bots/), a
    botdefinition.json, a single .mcs.yml or component file, or a folder holding several of them;
    a path where nothing is recognised is an error (HC101). Colour follows the terminal and
    NO_COLOR. Exit codes: 0 no errors, 1 errors found, 2 usage error.
    """
    problems = {p: _unreadable(p) for p in paths if not is_python_target(str(p))}
    missing = [p for p, problem in problems.items() if problem]
    for path in missing:
        click.echo(f"error: {problems[path]}: {path}", err=True)
    existing = [p for p in paths if p not in missing]
    if not existing:
        return 2
    if config_file is not None and not config_file.is_file():
        raise UsageError(f"no such config file: {config_file}")
    pyproject = config_file or find_pyproject(Path.cwd())
    settings = load_settings(pyproject)
    chosen_select = list(select) if select else settings.select
    chosen_ignore = [*settings.ignore, *ignore]
    if fix and existing:
        for note in python_fix_notes(str(p) for p in existing):
            click.echo(note, err=True)
        fixed = fix_paths([p for p in existing if p.exists()])
        for note in fixed.notes:
            click.echo(note, err=True)
        if fixed.fixes:
            entries = "entry" if fixed.fixes == 1 else "entries"
            files = "file" if len(fixed.files) == 1 else "files"
            click.echo(
                f"Fixed {fixed.fixes} {entries} (contract inputs, outputs, descriptions) "
                f"in {len(fixed.files)} {files}: {', '.join(fixed.files)}",
                err=True,
            )
    report = lint_paths(
        existing,
        select=chosen_select,
        ignore=chosen_ignore,
        severities=dict(settings.severities),
    )
    _write(report, output_format, output)
    if missing:
        return 2
    return 1 if report.errors else 0


def _write(report: LintReport, output_format: str, output: Path | None) -> None:
    if output_format == "json":
        text = render_json(report)
    elif output_format == "sarif":
        text = render_sarif(report)
    elif output_format == "github":
        text = render_github(report)
    else:
        if output is None:
            render_text(report, file=sys.stdout, color=False if output_format == "lines" else None)
            return
        text = render_text(report)
    write_output(text, output, utf8=output_format in ("json", "sarif"))
    if output is not None:  # the report went to a file: say how it came out, and where
        click.echo(f"{summary(report).rstrip('.')}; report written to {output}", err=True)
