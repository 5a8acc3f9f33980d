"""Held-out material, and a switch that keeps a test run from reading it.

Figures measured on a held-out set are the ones docs and notes quote, so a developer should look at
them once, at the end of a change, aggregates only. Set ``HARNESS_SKIP_HELD_OUT=1`` and every test
that would read a held-out set skips instead (its loader calls :func:`guard`), whatever its name:

    HARNESS_SKIP_HELD_OUT=1 make test

The held-out sets: the multi-intent splits in :data:`MULTI_INTENT` (``tests/fixtures/multi_intent``),
CLINC150's ``val`` and ``test`` out-of-scope and no-agent utterances, SGD dev (the detector's figures,
the SGD agents' routing), and the blind duplicate corpora (blind2, blind3,
blind-status). Development material (the dev corpus's
cross-validation, SGD train, ``dev``, ``styled``, ``ways-dev``, ``own``, ``sgd-train``,
``sgd-real-train``) never skips. Without the variable nothing changes.
"""

from __future__ import annotations

import os

import pytest

__all__ = ["MULTI_INTENT", "SWITCH", "guard", "skipping"]

SWITCH = "HARNESS_SKIP_HELD_OUT"
MULTI_INTENT = frozenset(
    {"fresh", "holdout", "sgd-dev", "sgd-real-dev", "test", "unseen", "val", "ways-held"}
)
"""The multi-intent splits (``tests/fixtures/multi_intent/<split>.jsonl``) that are held out."""


def skipping() -> bool:
    """Whether this run keeps away from held-out material."""
    return os.environ.get(SWITCH, "") not in ("", "0")


def guard(what: str) -> None:
    """Skip the calling test when the run keeps away from held-out material (``what`` names it)."""
    if skipping():
        pytest.skip(f"{what} is held out ({SWITCH} is set)")
