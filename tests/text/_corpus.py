"""The labelled instruction corpus (``tests/fixtures/text/corpus-*.tsv``) and its per-class scores.

Each row is ``labels<TAB>source<TAB>sentence``; labels are readings of
:data:`harness.text.instructions.ASKS` (comma-separated) or ``none``; the rows are read by
:func:`tools.reader.fit.load`. Batches, in the order they were written (each measured once before
the reader was changed for it; docs/lint.md gives those first measurements):

- ``corpus-dev.tsv``: rewrites the reader was developed on;
- ``corpus-test.tsv``: real sentences from public agent instructions and rewrites (batch 1);
- ``corpus-holdout.tsv``: more public sentences, rewrites and bot messages (batch 2);
- ``corpus-final.tsv``: rewrites and bot messages (batch 3);
- ``corpus-v2.tsv``: real sentences from 11 more published sources and rewrites by theme (batch 4,
  the first batch the learned model, ``tools/reader/fit.py``, was cross-validated on);
- ``corpus-v3.tsv``: rewrites written after the model was fitted, never fitted on (batch 5);
- ``corpus-issue.tsv``: the sentences quoted in issue 26 (a regression set, in-sample by nature).

Print the table with ``python -m tests.text._corpus``.
"""

from __future__ import annotations

from harness.text.instructions import ASKS, read_sentence
from tools.reader.fit import CORPUS, Row, load

__all__ = ["BATCHES", "CORPUS", "Row", "accuracy", "load", "recall"]

BATCHES = ("dev", "test", "holdout", "final", "v2", "v3", "issue")


def accuracy(rows: list[Row], ask: str) -> float:
    """The share of rows where the reader agrees with the label on ``ask`` (present or absent)."""
    right = sum(1 for r in rows if (ask in r.labels) == (ask in read_sentence(r.sentence)))
    return right / len(rows)


def recall(rows: list[Row], ask: str) -> tuple[int, int]:
    positives = [r for r in rows if ask in r.labels]
    return sum(1 for r in positives if ask in read_sentence(r.sentence)), len(positives)


if __name__ == "__main__":
    for batch in BATCHES:
        rows = load(batch)
        cells = []
        for ask in ASKS:
            found, total = recall(rows, ask)
            cells.append(f"{ask} {accuracy(rows, ask):.3f} ({found}/{total})")
        print(f"{batch} ({len(rows)} sentences): " + "; ".join(cells))
