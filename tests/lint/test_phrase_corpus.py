"""The phrase readers on the first labelled corpus: a regression test (the corpus was written with
the reader in view, so these are not measurements; docs/lint.md gives the out-of-sample figures of
``tests/text``).

``tests/fixtures/lint/phrase-corpus.tsv`` holds instruction and description sentences, each labelled
with what it says: a silence prohibition (``silence``, any addressee), a hint on how to read
``answered`` (``answered``), a scope anchor (``scope``), an instruction to address the user
(``address``), or none of them, including look-alikes (conditionals, negated conditions, quoted
examples, Power Fx references, Markdown lists).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from harness.lint.phrases import anchors_scope, forbids_user_messages, hints_answered, user_address
from tests.lint.conftest import LINT

CLASSES: dict[str, Callable[[str], bool]] = {
    "silence": forbids_user_messages,
    "answered": hints_answered,
    "scope": anchors_scope,
    "address": lambda text: user_address(text) is not None,
}


def _corpus() -> list[tuple[frozenset[str], str]]:
    rows: list[tuple[frozenset[str], str]] = []
    for line in (LINT / "phrase-corpus.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, text = line.split("\t", 1)
        labels = frozenset(label.split(",")) - {"none"}
        assert labels <= set(CLASSES), line
        rows.append((labels, text))
    return rows


CORPUS = _corpus()


def test_the_corpus_is_large_and_covers_every_class() -> None:
    assert len(CORPUS) >= 300
    for name in CLASSES:
        assert sum(1 for labels, _ in CORPUS if name in labels) >= 25, name
    assert sum(1 for labels, _ in CORPUS if not labels) >= 80


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_precision_and_recall_per_class(name: str) -> None:
    read = CLASSES[name]
    false_pos = [text for labels, text in CORPUS if name not in labels and read(text)]
    false_neg = [text for labels, text in CORPUS if name in labels and not read(text)]
    true_pos = sum(1 for labels, text in CORPUS if name in labels and read(text))
    precision = true_pos / ((true_pos + len(false_pos)) or 1)
    recall = true_pos / ((true_pos + len(false_neg)) or 1)
    assert precision >= 0.97, f"{name}: precision {precision:.3f}; read wrongly: {false_pos}"
    assert recall >= 0.97, f"{name}: recall {recall:.3f}; missed: {false_neg}"
