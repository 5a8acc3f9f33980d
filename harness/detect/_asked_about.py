"""Whether a question back is about a request (:func:`asked_elsewhere`), read by the answer
matcher (:mod:`harness.detect.answers`) so that a bot that leaves a request out and asks about
another task in its place ("what's the weather tomorrow" answered by "How many people will be
dining?") is not read as following that request up.

A question back that shares no word with any request may still follow one up ("In what city?"
for "find me a dentist"), so the matcher lets it answer one. Two things the detector learned
from the Schema-Guided Dialogue *train* dialogues (CC BY-SA 4.0) say more:

- the words real systems ask with about one kind of task only ("bedroom", "cuisine", "seat";
  ``_models/asking_words.json``, counted by ``tools/detector/fit_asking_words.py``): a question
  without one ("In what city?", "For which date?") may follow up nearly any request, and is
  left alone;
- the association table of the matcher (the words of a reply with those of the request before
  it): the question's words go with a request's words directly ("city" with "dentist"), or keep
  the same company in it ("music" and "concert" both go with "live", "band", "festival").

When the question asks with a word of one kind of task, and the table knows every word of the
request and ties none of them to any word of the question, the question is about another task.
Unknown is not evidence: a request with a word the table never saw (a locksmith, a roofer, a
flat: a task the dialogues may not have had), or naming its task by a pronoun ("search for a
convenient one"), keeps the lenient reading.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from harness.detect._answer_terms import DEICTIC, Associations, words_of

__all__ = ["asked_elsewhere", "neighbours", "task_words"]

_ASKING = Path(__file__).resolve().parent / "_models" / "asking_words.json"

# The least share of the smaller company two words keep in common for them to be of one task
# (chosen on the development splits: "music" and "concert" 0.48, "album" and "music" 0.34,
# "bedroom" and "flight" 0.02; 0.15 and 0.35 moved the figures by a few turns).
SAME_COMPANY = 0.25

_WORD = re.compile(r"[a-z']+")
# Before another word they are determiners ("this weekend", "that place"), naming nothing
# elsewhere (a closed class).
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
# A capitalised word inside a sentence, or a word with a digit: a name or a value the request
# gives ("Ridin High", "AA123"), which says nothing of what its task is.
_NAMED = re.compile(r"(?<=[\w,;:] )[A-Z][\w'’-]*|\b\w*\d[\w-]*")

# The company of the tables read (the shipped matcher's, a test's), each made once.
_MADE: list[tuple[Associations, dict[str, frozenset[str]]]] = []


@cache
def _asking() -> frozenset[str]:
    return frozenset(json.loads(_ASKING.read_text(encoding="utf-8"))["words"])


def neighbours(table: Associations) -> dict[str, frozenset[str]]:
    """Per word the table knows, on either side (a reply's or a request's), the words it goes
    with, and itself."""
    for known, company in _MADE:
        if known is table:
            return company
    out: dict[str, set[str]] = {}
    for word, row in table.items():
        for other in row:
            out.setdefault(word, {word}).add(other)
            out.setdefault(other, {other}).add(word)
    company = {w: frozenset(c) for w, c in out.items()}
    del _MADE[:-3]  # a few tables at most (tests make their own)
    _MADE.append((table, company))
    return company


def task_words(request: str) -> frozenset[str]:
    """The words of a request that may name its task: its content words without names and
    values; none when it names its task by a pronoun ("book it", "find a cheaper one", "is
    that open": its task is named elsewhere)."""
    said = _WORD.findall(request.lower())
    if any(
        w in DEICTIC and not (w in _DEMONSTRATIVES and k + 1 < len(said))
        for k, w in enumerate(said)
    ):
        return frozenset()
    return words_of(_NAMED.sub(" ", request))


def _tied(question: str, request: frozenset[str], table: Associations) -> bool | None:
    """Whether the question's words go with the request's (None: nothing says either way)."""
    company = neighbours(table)
    said = [w for w in words_of(question) if w in company]
    asking = _asking()
    if not any(w in table and w in asking for w in said):
        return None
    if not request or not all(w in company for w in request):
        return None
    for w in said:
        row, mine = table.get(w, {}), company[w]
        for r in request:
            if row.get(r, 0.0) > 0 or table.get(r, {}).get(w, 0.0) > 0:
                return True
            theirs = company[r]
            if len(mine & theirs) >= SAME_COMPANY * min(len(mine), len(theirs)):
                return True
    return False


def asked_elsewhere(question: str, request: str, table: Associations) -> bool:
    """Whether ``question``, a question back, is about another task than ``request``: it asks
    with a word of one kind of task and ``table`` knows the request's words and ties none of
    them to the question's ("How many bedrooms do you need?" for "what time is the movie")."""
    return _tied(question, task_words(request), table) is False
