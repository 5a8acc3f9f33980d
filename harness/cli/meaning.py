"""``--meaning``: the model the missed-request check reads meaning with, loaded the same way by
``harness simulate`` (and its ``--jobs`` processes) as by ``harness detect``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.detect.embeddings import Embedder

__all__ = ["MEANINGS", "meaning_reader"]

MEANINGS = ("wordllama", "minilm")
"""The ``--meaning`` choices: each names an embedder with its own fitted check confidence."""


def meaning_reader(meaning: str | None, *, semantic: bool) -> Embedder | None:
    """The embedder the check reads meaning with for ``--meaning`` (loaded now, so a missing
    extra fails before the first conversation, naming it), or None: no ``--meaning``, or
    ``--meaning wordllama`` with ``--semantic`` (whose WordLlama the check reads already).

    Raises:
        MissingExtraError: the model's extra (``minilm`` or ``embeddings``) is not installed.
    """
    if meaning == "minilm":
        from harness.detect.embeddings import MiniLMEmbedder

        reader = MiniLMEmbedder()
        reader.load()
        return reader
    if meaning == "wordllama" and not semantic:
        from harness.detect.embeddings import LocalEmbedder

        local = LocalEmbedder()
        local.load(feature="the missed-request check's WordLlama meaning (--meaning wordllama)")
        return local
    return None
