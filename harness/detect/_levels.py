"""What a user chooses for the missed-request check, read once for the command line
(``harness detect`` and ``simulate``) and the pytest plugin: its reporting level (``sure`` or a
number from 0 to 1: ``--min-confidence``, ``--harness-min-confidence``) and its reader of
meaning (``--meaning``, ``--harness-meaning``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.exceptions import UsageError

if TYPE_CHECKING:
    from harness.detect.embeddings import Embedder

__all__ = ["MEANINGS", "SURE", "level", "meaning_reader", "reporting_level"]

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


MEANINGS = ("wordllama", "minilm")
"""The readers of meaning a user can name: each an embedder with its own fitted check
confidence."""


def meaning_reader(
    meaning: str | None, *, semantic: bool = False, option: str = "--meaning"
) -> Embedder | None:
    """The embedder the check reads meaning with for ``meaning`` (loaded now, so a missing
    extra fails before the first conversation, naming it), or None: no ``meaning``, or
    ``wordllama`` with ``semantic`` (``--semantic``, whose WordLlama the check reads already).

    Args:
        meaning: one of :data:`MEANINGS`, or None.
        semantic: the run detects paraphrased duplicates with WordLlama already.
        option: how the user named it, for the error's wording.

    Raises:
        MissingExtraError: the model's extra (``minilm`` or ``embeddings``) is not installed.
        UsageError: ``meaning`` is not one of :data:`MEANINGS`.
    """
    if meaning == "minilm":
        from harness.detect.embeddings import MiniLMEmbedder

        reader = MiniLMEmbedder()
        reader.load()
        return reader
    if meaning == "wordllama":
        if semantic:
            return None
        from harness.detect.embeddings import LocalEmbedder

        local = LocalEmbedder()
        local.load(feature=f"the missed-request check's WordLlama meaning ({option} wordllama)")
        return local
    if meaning:
        raise UsageError(f"{option}: {meaning!r} is not one of {', '.join(MEANINGS)}")
    return None
