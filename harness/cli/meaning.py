"""``--meaning``: the model the missed-request check reads meaning with, loaded the same way by
``harness simulate`` (and its ``--jobs`` processes) as by ``harness detect`` (and by the pytest
plugin's ``--harness-meaning``: :mod:`harness.detect._levels`); and
``--min-confidence``, the level of sureness its findings are reported at."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

from harness.detect._levels import MEANINGS, SURE, level, meaning_reader
from harness.detect._levels import reporting_level as shared_level
from harness.exceptions import UsageError

if TYPE_CHECKING:
    from harness.detect.embeddings import Embedder

__all__ = [
    "MEANINGS",
    "meaning_reader",
    "min_confidence_option",
    "recorded_level",
    "reporting_level",
]

F = TypeVar("F", bound=Callable[..., object])


def min_confidence_option() -> Callable[[F], F]:
    """``--min-confidence LEVEL`` for ``detect`` and ``simulate``."""
    return click.option(
        "--min-confidence",
        metavar="LEVEL",
        default=None,
        help="Report a missed request only when the check is at least this sure it went "
        "unanswered: a number from 0 to 1, or 'sure' for the calibrated sure level (at most "
        "1 % of fully answered turns flagged on the development sets; with --semantic or "
        "--meaning, that reader's own). Default: every finding.",
        callback=_checked,
    )


def _checked(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A usage error now (exit 2), not after the transcripts are read."""
    if value is not None and value.strip().lower() != SURE:
        try:
            level(value)
        except UsageError as exc:
            raise click.BadParameter(str(exc).removeprefix("--min-confidence: ")) from None
    return value


def recorded_level(value: str | None) -> dict[str, str | float]:
    """What a JSON report records of ``--min-confidence value`` (its ``settings``): ``sure`` or
    the number, 0 without it, so ``harness compare`` can tell two levels apart."""
    if value is not None and value.strip().lower() == SURE:
        return {"min_confidence": SURE}
    return {"min_confidence": 0.0 if value is None else level(value)}


def reporting_level(value: str | None, reader: Embedder | None) -> float:
    """The missed-request check's reporting level for ``--min-confidence value``: 0 without
    it; ``sure``: the report threshold of the confidence the check will use (``reader``'s
    fitted one when it reads meaning, else the default matcher's).

    Raises:
        UsageError: ``value`` is neither ``sure`` nor a number from 0 to 1.
    """
    model = reader.meaning_model if reader is not None else None
    return shared_level(value, meaning_model=model)
