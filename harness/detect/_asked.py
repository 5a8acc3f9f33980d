"""Whether a piece of a user's message is a yes/no question said whole, which asks for an answer
where the needs model's words say little (:mod:`harness.detect._needs`, read by
:mod:`harness.detect.missed`).

The needs model weighs the words it saw in dialogue; an id, a code or a name is a word it never
saw, and a number it learned from details given to a bot ("for 4 people", "at 7:30") counts
against asking. A yes/no question said whole ("Has UA 15 boarded yet", "Did invoice INV-2231 go
out", "Is gate B12 open") asks, whatever its nouns: an auxiliary of being, doing or having, then
its subject (a determiner, a personal pronoun, or a name or an id: capitalised or with a digit).
A modal asks so only before a determiner ("Can the 7:45 train take bikes"): "can you make it
9:30", "could I pick it up at 6" change a detail of a request already made.

Read only where the sentence says it is a question (:func:`yes_or_no_questions`): its sentence ends
with "?" or with no mark. A sentence that ends with "." is a statement whose subject was left
out ("Had the flu all week.", "Was the 3rd time this month I've called."), and an inverted
auxiliary before a comma and a clause is a condition ("Should the 5:45 be full, the 6:15 works
too").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from harness.detect._request_words import _DETERMINERS
from harness.text._shapes import WORD


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The auxiliaries of being, doing and having a yes/no question opens with ("do" is left out: "do
# it at 11:15" is an imperative as often), and the modals (closed classes).
_POLAR = _words("is are was were does did has have had")
_MODALS = _words("can could will would should may might must shall")
# The determiners a subject opens with, and the personal pronouns (closed classes).
_NOUN_OPENERS = _DETERMINERS - frozenset({"a", "an", "some", "any"})
_PERSONAL = _words("i you he she it we they there")


def polar_question(text: str) -> bool:
    """Whether ``text`` is a yes/no question said whole: a be, do or have auxiliary, then a
    subject (a determiner, a personal pronoun, a name or an id, maybe after its noun), then more
    ("Has UA 15 boarded yet", "Did invoice INV-2231 go out"); or a modal before a determiner
    ("Will the 7:45 train stop at Leeds"; not "can you make it 9:30")."""
    # The cheap test first: most pieces open otherwise, and their first word alone says so (the
    # first word of ``text[:80]``, found without the copy and the list of every word).
    opener = WORD.search(text, 0, 80)
    if opener is None or ((low := opener.group().lower()) not in _POLAR and low not in _MODALS):
        return False
    toks = WORD.findall(text[:80])
    if len(toks) < 3:
        return False
    first, second = toks[0].lower(), toks[1]
    low = second.lower()
    if first in ("have", "has", "had") and second.isdigit():
        return False  # "have 2 tickets": having, no question
    if first == "have" and low == "it":
        return False  # "have it be at 19:00", "have it sent to me": an imperative
    # a name or an id, maybe after the noun it names ("UA 15", "invoice INV-2231", "patient 3321")
    named = low not in _PERSONAL and (second[0].isupper() or any(map(str.isdigit, second)))
    if first in _POLAR:
        third = toks[2]  # an id after the noun it names: a digit, or a code in capitals
        id_after = any(map(str.isdigit, third)) or (len(third) > 1 and third.isupper())
        return low in _NOUN_OPENERS or low in _PERSONAL or named or id_after
    # a modal before a name asks of a thing as often as it offers a change ("can 401ks be
    # moved" is answered in words the matcher may not tie to the id): only a determiner here
    return low in _NOUN_OPENERS


# What ends a sentence: a run of marks before a space or the message's end ("Dr. Patel" too: a
# question after an abbreviation is read as a statement, the safe side).
_SENTENCE_END = re.compile(r"[.?!]++(?=\s|$)")
# The auxiliaries an inverted condition opens with ("Should it rain, ...", "Had I known, ...",
# "Were the room free, ..."): a closed class.
_CONDITIONAL = _words("should had were")
# A comma, then a clause rather than a word that joins a second question ("..., and is there").
_CLAUSE_AFTER = re.compile(r",\s*+(?!(?:and|or|but|also|plus)\b)\w", re.IGNORECASE)


def yes_or_no_questions(message: str, spans: Iterable[tuple[int, int]]) -> list[bool]:
    """For each piece ``message[start:end]`` of ``spans``, whether it is a yes/no question said
    whole (:func:`polar_question`) in a sentence that ends with "?" or with no mark, and not an
    inverted condition: "should", "had" or "were", then a comma and a clause before the
    sentence ends ("Should the 5:45 be full, the 6:15 works too", "Had the 7:45 left, I'd take
    the bus"). The sentence ends are found once for the message, so the work is linear in it."""
    marks: list[re.Match[str]] | None = None
    out = []
    for start, end in spans:
        piece = message[start:end]
        if not polar_question(piece):
            out.append(False)  # most pieces: no sentence end needed
            continue
        if marks is None:
            marks = list(_SENTENCE_END.finditer(message))
        k = bisect_left(marks, end, key=re.Match.start)
        mark = marks[k] if k < len(marks) else None
        out.append(_asks_so(message, start, piece, mark))
    return out


def _asks_so(message: str, start: int, piece: str, mark: re.Match[str] | None) -> bool:
    if mark is not None and mark.group()[-1] != "?":
        return False  # "Had the flu all week.": a statement, its subject left out
    opener = WORD.search(piece)
    if opener is None or opener.group().lower() not in _CONDITIONAL:
        return True
    # the comma of a condition comes soon after its opener (bounded: linear work)
    stop = min(len(message) if mark is None else mark.start(), start + len(piece) + 80)
    return _CLAUSE_AFTER.search(message, start + opener.end(), stop) is None
