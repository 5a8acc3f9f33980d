"""The missed-request check's reporting level as a user writes it (``sure`` or a number from 0
to 1), read once for ``--min-confidence`` (``harness detect`` and ``simulate``) and the pytest
plugin's ``--harness-min-confidence``."""

from __future__ import annotations

from harness.exceptions import UsageError

__all__ = ["SURE", "level", "reporting_level"]

SURE = "sure"
"""The value that names the check's calibrated sure level."""


def level(value: str, *, option: str = "--min-confidence") -> float:
    """``value`` as a number from 0 to 1.

    Raises:
        UsageError: it is not one (the message starts with ``option``).
    """
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0.0 <= number <= 1.0:
        raise UsageError(f"{option}: {value!r} is not a number from 0 to 1 or {SURE!r}")
    return number


def reporting_level(
    value: str | None, *, meaning_model: str | None = None, option: str = "--min-confidence"
) -> float:
    """The level for ``value``: 0 when it is None or empty; ``sure``: the report threshold of
    the confidence the check will use (``meaning_model``'s fitted one when it reads meaning,
    else the default matcher's); else the number.

    Raises:
        UsageError: ``value`` is neither ``sure`` nor a number from 0 to 1.
    """
    if value is None or not value.strip():
        return 0.0
    if value.strip().lower() == SURE:
        if meaning_model is not None:
            from harness.detect._meaning import semantic_confidence

            return semantic_confidence(meaning_model).report_threshold
        from harness.detect.answers import matcher

        return matcher().report_threshold
    return level(value, option=option)
