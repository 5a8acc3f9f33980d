"""``harness compare BASE.json NEW.json``: findings added, fixed and unchanged between two runs'
JSON reports. Exit 1 on a regression, 3 when the comparison is incomplete (no conversation in
common, BASE's conversations missing from NEW, files NEW could not read that BASE read, pairs a
judge could not decide, runs with different --min-confidence), 0 otherwise, 2 on bad input or
usage."""

from __future__ import annotations

from pathlib import Path

import click

from harness.cli.command import HarnessCommand
from harness.cli.options import output_option, write_output
from harness.detect.compare import (
    ComparisonFormat,
    compare_reports,
    load_report,
    render_comparison,
)

__all__ = ["compare_command"]


@click.command("compare", cls=HarnessCommand)
@click.argument("base", type=click.Path(dir_okay=False, path_type=Path), metavar="BASE.json")
@click.argument("new", type=click.Path(dir_okay=False, path_type=Path), metavar="NEW.json")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="Report format (markdown: for a pull-request comment).",
)
@click.option(
    "--allow-missing",
    is_flag=True,
    help="Conversations of BASE missing from NEW (a renamed or removed scenario) are listed "
    "only; without it they make the comparison incomplete (exit 3). It covers nothing else: "
    "unread files and undecided judge pairs still do.",
)
@output_option("Write the comparison to FILE instead of standard output.")
def compare_command(
    base: Path, new: Path, fmt: ComparisonFormat, allow_missing: bool, output: Path | None
) -> int:
    """Compare two JSON reports of `harness simulate` or `harness detect` (--format json): per
    conversation and finding kind, the findings added, fixed and unchanged, and pass-rate changes.

    A regression (exit 1) is an error-level finding NEW has and BASE had not, a conversation that
    completed in BASE and failed in NEW, or a lower pass rate. Findings are matched by kind,
    method, turn and senders, not by their wording.

    Conversations are matched by file and name; files written another way (relative and
    absolute paths, two checkouts' roots) match through one prefix rewrite of BASE's paths,
    which the report names; files are never paired by their file name alone. The comparison is
    incomplete (exit 3, not "no regression") when no conversation matches, conversations of
    BASE are missing from NEW, NEW could not read files or rows BASE read (those neither read
    are listed only), a --judge model could not decide pairs in either report, or the runs had
    different --min-confidence.
    """
    comparison = compare_reports(load_report(base), load_report(new), allow_missing=allow_missing)
    write_output(render_comparison(comparison, fmt), output, utf8=fmt == "json")
    return comparison.exit_code
