"""The joining words between the requests of a sentence, for the request segmenter
(:mod:`harness.detect.requests`).

A joining region is a comma or semicolon, "and", "plus", "as well as", with the fillers after
them ("and also", ", and then") and the lead-in markers that add or order requests ("btw",
"besides that", "Secondly,"). How a sentence is read (:class:`_Reading`) says which markers it
knows: a user's message every discourse connective of a request (:data:`_USER`), a bot's sentence
only the few the matcher's clauses were fitted with (:data:`_STATEMENT`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.detect._request_words import (
    _ANYWHERE,
    _AUX,
    _FILLERS,
    _LEAD_OPENERS,
    _LEADS,
    _MARKERS,
    _PREPOSITIONS,
    _PRONOUNS,
    _STATEMENT_MARKERS,
    _STRONG,
    _SUBJECT,
    _VERBS,
    _WH,
    _Tok,
    _words,
)


def _markers_at(markers: tuple[tuple[str, ...], ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The markers by their first word, longest first ("first of all" is taken before "first")."""
    return {
        first: tuple(sorted((m for m in markers if m[0] == first), key=len, reverse=True))
        for first in {m[0] for m in markers}
    }


@dataclass(frozen=True, slots=True)
class _Reading:
    """How a sentence is read: the lead-in markers it knows, and whether connectives and "then"
    join requests with no comma before them (:data:`_ANYWHERE`)."""

    markers_at: dict[str, tuple[tuple[str, ...], ...]]
    anywhere: bool
    joining: frozenset[str]
    """The words of a joining region that only ever join requests."""


_MARKER_WORDS = frozenset(m[0] for m in _MARKERS)
_USER = _Reading(_markers_at(_MARKERS), anywhere=True, joining=_STRONG | _MARKER_WORDS)
_STATEMENT = _Reading(_markers_at(_STATEMENT_MARKERS), anywhere=False, joining=_STRONG)


# Not after a subject, an auxiliary, a question or relative word ("who", "which", "that"), "to".
_NOT_BEFORE_ALSO = _AUX | _PRONOUNS | _WH | _FILLERS | {"to", "that"}
# Auxiliaries that leave their clause's verb to come ("can my wife also use ..."); a copula or
# "have" is a verb of its own ("is the pool open also book a massage").
_VERB_TO_COME = _AUX - {"am", "is", "are", "was", "were", "has", "have", "had"}
_OPENS_ITSELF = _WH | _AUX | _SUBJECT
# What a question may open after (a question word, a joining word: "... and can my wife also").
_OPENS_AFTER = _WH | frozenset({"and", "or", "but", "so", "plus"})
# Question and relative words with no verb in them (not "what's", "hows").
_WH_ALONE = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "how", "that"})
_REGION_STARTS = _FILLERS | {m[0] for m in _ANYWHERE} | {"", "as"}
"""The words a joining region can start with (:func:`_region` is 0 at any other)."""


def _region(toks: list[_Tok], i: int, reading: _Reading) -> int:
    """How many tokens from ``i`` join two parts: a comma or semicolon, "and", "plus", "as well
    as", with the fillers after them ("and also", ", and then"); 0 when none starts at ``i``."""
    if reading.anywhere and _dated(toks, i):
        return 0  # "from may 01, 2019 to may 05, 2019": the comma of a date joins nothing
    j = i
    while j < len(toks):
        if toks[j].word == "" or toks[j].word in _FILLERS:
            if (
                j == i
                and toks[j].word not in ("", "and", "plus")
                and not _also(toks, i)
                and not (reading.anywhere and _then(toks, i))
            ):
                break  # "also" or "then" alone inside a clause joins nothing
            j += 1
        elif toks[j].word == "as" and _words_at(toks, j, ("as", "well", "as")):
            j += 3
        elif j > i and (size := _marker_at(toks, j, reading)):
            j += size  # ", and what's more, ..."
        elif j == i and reading.anywhere and (size := _marker_at(toks, j, reading, anywhere=True)):
            j += size  # "... for 12 btw can you ...", "... tickets oh and I need ..."
        else:
            break
    return j - i


# A day of the month ("1", "01", "1st", "23rd") and a year ("2019"; closed forms).
_DAY = re.compile(r"(0?[1-9]|[12][0-9]|3[01])(st|nd|rd|th)?")
_YEAR = re.compile(r"(19|20)[0-9][0-9]")


# The months, written out or cut short (a closed class).
_MONTHS = _words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)


# Days said as words: the ordinals of the month and the days of the week (closed classes).
_DAY_WORDS = _words(
    """
    first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
    thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
    thirtieth twenty-first twenty-second twenty-third twenty-fourth twenty-fifth twenty-sixth
    twenty-seventh twenty-eighth twenty-ninth thirty-first
    monday tuesday wednesday thursday friday saturday sunday
    """
)


def _a_day(word: str) -> bool:
    """Whether ``word`` is a day: "ninth", "friday", "9th" (a number with its ending)."""
    if word in _DAY_WORDS:
        return True
    day = _DAY.fullmatch(word)
    return day is not None and day.group(2) is not None


def _days_listed(left: list[_Tok], region: list[_Tok], right: list[_Tok]) -> bool:
    """Whether ``right``, after "and" or "or", is a second day of the date ``left`` ends in ("for
    the ninth and the tenth of May", "on friday or saturday"): the day before it follows "the",
    a preposition or a month."""
    if {t.word for t in region} not in ({"and"}, {"or"}) or len(left) < 2 or not right:
        return False
    k = 1 if right[0].word == "the" and len(right) > 1 else 0
    return (
        not left[-1].mark
        and _a_day(left[-1].word)
        and (left[-2].word in _PREPOSITIONS or left[-2].word in _MONTHS or left[-2].word == "the")
        and _a_day(right[k].word)
    )


def _dated(toks: list[_Tok], i: int) -> bool:
    """Whether ``toks[i]`` is the comma between a date's day and its year ("may 01, 2019", "the
    3rd, 2027"): a month or "the" before the day ("the" only before a day with its ending), not
    any number ("set the volume to 10, 2020 hits ...")."""
    if not (
        1 < i < len(toks) - 1
        and toks[i].word == ""
        and toks[i].mark == ","
        and (day := _DAY.fullmatch(toks[i - 1].word)) is not None
        and _YEAR.fullmatch(toks[i + 1].word) is not None
    ):
        return False
    before = toks[i - 2].word
    return before in _MONTHS or (before == "the" and day.group(2) is not None)


def _also(toks: list[_Tok], i: int) -> bool:
    """Whether an "also" with no comma before it may join two requests ("book a flight also
    what's the weather"): not after a subject, auxiliary or question word ("I also need", "can
    you also")."""
    if toks[i].word != "also" or i == 0 or toks[i - 1].mark or not toks[i - 1].word:
        return False
    before = toks[i - 1].word
    if before == "that" and i > 1 and (toks[i - 2].word in _VERBS or toks[i - 2].word in _AUX):
        return True  # "cancel that also book a cab": "that" is what was cancelled
    if before in _NOT_BEFORE_ALSO:
        return False
    # before a verb, "also" may be the adverb of a clause whose subject came before it (before
    # a question or a subject of its own it joins: "when's my next paycheck also could you ...")
    return not (
        i + 1 < len(toks) and toks[i + 1].word not in _OPENS_ITSELF and _subject_before(toks, i)
    )


def _subject_before(toks: list[_Tok], i: int) -> bool:
    """Whether the words before ``toks[i]`` are the subject of a clause whose verb is still to
    come: a question word, a relative word or an auxiliary opening a question, then at most four
    words with no verb ("which banks also send ...", "a hotel whose staff also book ...", "how
    many airlines also fly ...", "can my wife also use ...")."""
    for k in range(i - 1, max(-1, i - 6), -1):
        word = toks[k].word
        if not word or toks[k].mark:
            return False  # a comma or a sentence's end before: no clause open
        if word in _WH or word == "that":
            # not "what about the weather also ...", "cancel that also ...", "when's my ..."
            after, before = toks[k + 1].word, toks[k - 1].word if k else ""
            return (
                word in _WH_ALONE
                and after not in _PREPOSITIONS
                and before not in _VERBS
                and before not in _AUX
            )
        if word in _VERB_TO_COME:  # opening a question: after a joining word too ("and can my")
            return k == 0 or not toks[k - 1].word or toks[k - 1].word in _OPENS_AFTER
        if word in _VERBS or word in _AUX or word in _PRONOUNS:
            return False
    return False


def _then(toks: list[_Tok], i: int) -> bool:
    """Whether a "then" with no comma before it may join two requests ("get a dentist for me
    then set a reminder"): after a word, before a request's opening word."""
    if toks[i].word != "then" or i == 0 or toks[i - 1].mark or not toks[i - 1].word:
        return False
    return i + 1 < len(toks) and toks[i + 1].word in _LEAD_OPENERS


def _marker_at(toks: list[_Tok], j: int, reading: _Reading, *, anywhere: bool = False) -> int:
    """The number of words of a lead-in marker at ``j`` (:data:`_MARKERS`), or 0; with
    ``anywhere``, only one that joins requests with no comma before it (:data:`_ANYWHERE`)."""
    for marker in reading.markers_at.get(toks[j].word, ()):
        if anywhere and marker not in _ANYWHERE:
            continue
        if _words_at(toks, j, marker):
            k = j + len(marker)
            after = toks[k] if k < len(toks) else None
            if anywhere and (j == 0 or toks[j - 1].mark or not toks[j - 1].word):
                continue  # after a comma or a sentence's end the region starts there
            if marker == ("oh",):
                if anywhere and (after is None or after.word not in ("and", "also")):
                    continue
            elif marker[0] in _LEADS or (anywhere and marker != ("btw",)):
                if after is None:
                    # The end of what was read: a part cut off at a comma ("First off, ...").
                    opens = reading.anywhere and not anywhere
                else:
                    opens = after.word == "" or after.word in _LEAD_OPENERS
                if not opens:
                    continue
            return len(marker)
    return 0


def _words_at(toks: list[_Tok], i: int, words: tuple[str, ...]) -> bool:
    return tuple(t.word for t in toks[i : i + len(words)]) == words


_EDGE_LIMIT = 24
"""How many joining words at a piece's start :func:`_head` skips at most."""


def _head(piece: list[_Tok], reading: _Reading, limit: int = 12) -> tuple[int, list[_Tok]]:
    """The number of words of ``piece`` without the joining words at its edges, and its first
    ``limit`` words (all a decision needs: a long message is not re-read at every comma). At
    most :data:`_EDGE_LIMIT` joining words are skipped: a piece opening with a long run of them
    ("ok ok ok ...") was re-read at every word that might start a request."""
    a, b = 0, len(piece)
    while a < min(b, _EDGE_LIMIT):
        if piece[a].word == "" or piece[a].word in _FILLERS:
            a += 1
        elif reading.anywhere and (size := _marker_at(piece, a, reading)):
            a += size  # "besides that, ...": a lead-in, not a request
        else:
            break
    while b > a and piece[b - 1].word == "":
        b -= 1
    return b - a, piece[a : min(b, a + limit)]
