"""The missed-request check's false alarms on fully answered turns, by cause.

Replays the default check (every finding, requests segmented, answers one message each, as
``tests.detect.multi_intent.mutation`` builds a fully answered turn) on a labelled multi-intent
set and sorts each request it flags:

- **(a) segmentation**: the flagged piece is no labelled request (by content words). It lies
  inside one labelled request (*cut in two*: a request cut in two, or a detail or a reason read as
  a request of its own), shares words with two (*kept joined*), or with one plus words of its
  own, or with none;
- **(b) matcher**: the piece is a labelled request, and no part of its own answer's message
  passes the matcher's limit for it: *held back by a rule* (the probability is 0: the rules
  above the learned score, ``answers._may_answer``, or another that zeroes it) or *scored under
  the limit*;
- **(c) taken**: a part of its answer's message passes the limit for it, and the matching gave
  that part to another request;
- **(d) other**: anything else (a request judged alone, an answer with no part).

Development sets only (a held-out split is refused under ``HARNESS_SKIP_HELD_OUT``)::

    PYTHONPATH=. .venv/bin/python -m tools.detector.false_alarms dev styled ways-dev own sgd-train
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from harness.detect.missed import _segmented, _turn_matching
from harness.text import content_words
from tests.detect.multi_intent import load, same_request

CLASSES = (
    "a: cut in two",
    "a: kept joined",
    "a: extra words",
    "a: no request",
    "b: held back by a rule",
    "b: under the limit",
    "c: taken by another request",
    "d: other",
)


def flagged_causes(message: dict[str, Any], answer: str = "answer") -> list[str]:
    """The cause (one of :data:`CLASSES`) of each request the check flags on the fully answered
    turn of a labelled message (none when it flags nothing)."""
    gold = message["requests"]
    asked = _segmented(message["text"])
    matching = _turn_matching(asked, [r[answer] for r in gold], declared=False)
    gold_words = [content_words(r["text"]) for r in gold]
    out = []
    for i in sorted(matching.missing(None)):
        piece = asked[i].text
        hits = [g for g, r in enumerate(gold) if same_request(piece, r["text"])]
        if not hits:
            out.append(_segmentation(content_words(piece), gold_words))
            continue
        rows = matching.matched.rows if matching.matched is not None else None
        if rows is None:
            out.append("d: other")
            continue
        k = rows.judged.index(i)
        parts = _message_parts([first for _, _, first, _ in rows.found], hits[0])
        above = [j for j in parts if rows.p[k][j] >= rows.limits[j]]
        if any(rows.owner.get(j, k) != k for j in above):
            out.append("c: taken by another request")
        elif above or not parts:
            out.append("d: other")
        elif all(rows.p[k][j] == 0.0 for j in parts):
            out.append("b: held back by a rule")
        else:
            out.append("b: under the limit")
    return out


def _segmentation(words: frozenset[str], gold: Sequence[frozenset[str]]) -> str:
    if any(words < g for g in gold):
        return "a: cut in two"
    touched = sum(1 for g in gold if words & g)
    if touched > 1:
        return "a: kept joined"
    return "a: extra words" if touched else "a: no request"


def _message_parts(opens: Sequence[bool], message: int) -> list[int]:
    """The parts of the ``message``-th bot message (by the parts that open a message)."""
    seen = -1
    out = []
    for j, first in enumerate(opens):
        seen += first
        if seen == message:
            out.append(j)
    return out


def causes(split: str, answer: str = "answer") -> tuple[int, Counter[str]]:
    """Fully answered turns flagged on ``split`` and the causes of their flagged requests."""
    counts: Counter[str] = Counter()
    turns = 0
    for message in load(split):
        found = flagged_causes(message, answer)
        turns += bool(found)
        counts.update(found)
    return turns, counts


def main(argv: Sequence[str]) -> None:
    for split in argv or ("dev",):
        styles = ["answer"]
        if "answer_own_terms" in load(split)[0]["requests"][0]:
            styles.append("answer_own_terms")
        for answer in styles:
            turns, counts = causes(split, answer)
            listed = ", ".join(f"{c} {counts[c]}" for c in CLASSES if counts[c])
            print(f"{split} ({answer}): {turns} turns flagged, {counts.total()} requests: {listed}")


if __name__ == "__main__":
    main(sys.argv[1:])
