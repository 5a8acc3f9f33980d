"""Splitting a user message into the requests it makes, without asking the bot's planner.

The missed-request check must not grade the runtime with the runtime's own answer key: a request
the planner dropped or merged into another would be invisible to it. So the check reads the
user's message itself, with :func:`segment_requests`, which imports no planner (it reads by the
closed classes of ``harness.text._shapes``, as the planner's split does, and keeps a statement and
what it leads to together: ``harness.detect._together``).

A message is cut into sentences (``harness.text``), then at commas, semicolons, "and", "also",
"plus", "as well as" and "and then" where what follows opens a request of its own: a question
word, an auxiliary ("can you", "is"), a subject ("I need", "we"), a verb that asks for something
("tell", "book", "reset"), or a clause with its own verb ("my bag didn't arrive"). What follows a
joining word without any of these is part of the same request: "salt and pepper", "terms and
conditions", "between 10 and 11". Discourse connectives that add or order requests ("btw", "oh
and", "besides that", "Secondly,", "last but not least", "then" before a request's opening word)
join two requests too, and lead into the next without being part of it. A list item's number
("(1)", "#2", "3-") is no word of its request, and in a message that numbers a first item it
ends the item before it ("(1) ... (2) ..."); a "+" or "&" standing alone is "plus" or "and", and a
title's dot before a name ("Dr. Okafor") ends nothing; an announcement before a colon ("Quick questions:",
"A few things:") is no request. Words said once for two requests are carried over:

- a frame before two objects: "what is my credit limit and my routing number" gives "what is my
  routing number";
- a counted noun: "how many PTO days have I used and how many are left" gives "how many PTO days
  are left".

Two things asked at once that share their words are two requests, because the check must flag a
reply that answers only one of them (:mod:`harness.detect._coordination`): the question words of
one question ("when and where does it start" gives "when does it start" and "where does it
start", the words after the second carried back, :attr:`Request.carried_after`), two things in one
frame ("tell me their address and rating", "what's the address, phone number and rating"), two
actions of one question ("where does it leave and arrive").

Not every part asks for an answer of its own: "Thanks a lot", "That sounds great", "Yes, please".
:func:`needs_answer` tells them apart with a small model learned from dialogue acts; the check
matches such parts but does not report them.

The word classes (``harness.detect._request_words``) are closed classes of English and common
request verbs; docs/simulate.md gives how well the segmenter does on sets it was not tuned on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from harness.detect._coordination import _SHARED_OPENERS, _coordinated, _Cut
from harness.detect._needs import NeedsModel, needs_answer, needs_probability
from harness.detect._request_words import (
    _ANNOUNCED,
    _ANNOUNCING,
    _ANYWHERE,
    _AUX,
    _DETERMINERS,
    _FILLERS,
    _LEADS,
    _MARKERS,
    _NAMING,
    _PREPOSITIONS,
    _PRONOUNS,
    _SCENE_OPENERS,
    _SCENE_PHRASES,
    _STATEMENT_MARKERS,
    _STRONG,
    _SUBJECT,
    _SUBORDINATORS,
    _TITLE_NOUNS,
    _VERBS,
    _WH,
    _frame,
    _has_topic,
    _noun_clause,
    _owned,
    _Tok,
    _words,
)
from harness.detect._together import kept_together
from harness.text import split_sentences
from harness.text._shapes import ASKS_FIRST, GREETINGS, TITLES

__all__ = ["NeedsModel", "Request", "needs_answer", "segment_requests"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """One request of a user message."""

    text: str
    """The request as it would be asked on its own (with any carried-over words)."""
    start: int
    """Where its own words start in the message."""
    end: int
    """Where its own words end in the message (``message[start:end]`` is what the user wrote)."""
    carried: str = ""
    """Words said once for this request and the one before it, carried over ("what is")."""
    carried_after: str = ""
    """Words said once after this request for it and the next one, carried back ("does it
    start" in "when and where does it start")."""


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
# A run of dashes or a slash standing alone joins two parts as a semicolon does.
_DASH = re.compile(r"-{2,}|[—–/]")

_TOKEN = re.compile(r"[^\s,;]+|[,;]")
_EDGE = ".,;:!?\"'()“”‘’"


_DASH_STARTS = frozenset("-—–/")
"""The characters a :data:`_DASH` token starts with (the pattern is tried on those only)."""


_MARKS = {"?": "?", ".": ".", "!": "."}
"""The mark of a token by its last character."""


# A question or an exclamation with no space before the next sentence ("the price?Where is it").
_GLUED = re.compile(r"[?!](?=[^\W\d_])")


# A list item's number standing alone ("1.", "2)", "(3)", "#4", "5-"), and the first one of a list.
_ITEM = re.compile(r"\(?\d{1,2}[.)]|#\d{1,2}|\d{1,2}-")
_ITEM_STARTS = frozenset("(#0123456789")
_FIRST_ITEM = re.compile(r"(?:^|\s)(?:\(1\)|1\)|#1|1-)(?=\s)|(?:^|[:\n])\s*1(?:\.|\s-)(?=\s)")
"""A list's first item: "(1)", "1)", "#1", "1-" anywhere, "1." or "1 -" opening the message, a
line or what follows a colon (not "the number of tickets is 1.")."""
_NUMBER = re.compile(r"\d{1,2}")
_DIGIT_NEXT = re.compile(r"\s*+\d")
_DASHED = re.compile(r"(?<![^\s,;])(\d{1,2})\s++-(?=[\s,;]|$)(?!\s*+\d)")
"""A number and a dash standing alone ("2 - ..."; not "2 - 3 nights"), with the number's group."""


def _dashed_items(message: str) -> frozenset[int]:
    """Where the numbers of a numbered message's items written "N -" stand: each the next number
    of its list, the last one before the number after it ("1 - a room for 2 - a quiet one 2 -
    a gym": the second "2"), so a quantity before a dash ("a table for 4 - outdoor") numbers
    nothing; a "1 -" starts a list again."""
    items: list[int] = []
    number, pending = 1, -1  # the last item's number, where the next one stands (-1: not seen)
    for m in _DASHED.finditer(message):
        n = int(m.group(1))
        if n == 1:
            if pending >= 0:
                items.append(pending)
            number, pending = 1, -1
        elif n == number + 1:
            pending = m.start(1)  # a later one replaces it: the earlier was a quantity
        elif n == number + 2 and pending >= 0:
            items.append(pending)
            number, pending = number + 1, m.start(1)
    if pending >= 0:
        items.append(pending)
    return frozenset(items)


_SIGNS = {"+": "plus", "&": "and"}
"""A sign standing alone between two words is the word it stands for ("Barnes & Noble" stays one
request as "Barnes and Noble" does: what follows opens no request)."""
_NAME = re.compile(r"\s*+([A-Z][\w']*+)")
"""What follows a title's dot before a name: a word with a capital letter (its group)."""


# An emoticon (":)", ";-(", ":D", "<3") or a run of emoji and pictographs (with their variation
# selector and joiner) after a word: it ends the sentence as a full stop does. An emoticon glued
# to what comes before follows a word of two letters or more, not a number or a single letter
# ("a 2:3 split", "7:3", "C:/" are no faces; "balance:)" and "for 2 :)" are); a heart may also
# be "less than 3" (:func:`_stopped`).
_SMILEY = re.compile(
    r"(?:(?<=[^\W\d_]{2})|(?<=\w)\s++)(?:[:;=][-'^]?[()\[\]DPpOo3|/\\*]++|<3++|\^_*+\^)(?=\s|$)"
    r"|(?<=\w)\s*+"
    "[\u2600-\u27bf\U0001f000-\U0001faff][\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]*+"
)


_SMILEY_MARKS = frozenset(":;=<^")
"""The characters an emoticon starts with (:data:`_SMILEY` is tried only on a sentence with one,
or with a character past ASCII)."""


def _without_emoji_end(text: str) -> str:
    """``text`` without the emoji and pictographs at its end (their variation selector and
    joiner too; one pass from the end: a pattern anchored at the end re-read a long run of emoji
    from each of its characters)."""
    k = len(text)
    while k and (
        "\u2600" <= text[k - 1] <= "\u27bf"
        or "\U0001f000" <= text[k - 1] <= "\U0001faff"
        or text[k - 1] in "\ufe0f\u200d"
    ):
        k -= 1
    return text[:k]


_AFTER = re.compile(r"\s*+([\w']*+)")
"""The word after an emoticon (its group; empty at the end or before a sign)."""


def _stopped(match: re.Match[str]) -> str:
    """A full stop for an emoticon or emoji (:data:`_SMILEY`), at its place in the message; a
    "<3" is a heart only at the end or before a word a request opens with ("love you <3 can
    you ..."), and "less than 3" before anything else ("in <3 days")."""
    face = match.group()
    if face.lstrip()[0] == "<":
        after = _AFTER.match(match.string, match.end())
        word = after.group(1).lower() if after else ""
        if word and word not in _LEAD_OPENERS:
            return face
    return "." + " " * (len(face) - 1)


def _tokens(
    text: str, offset: int, *, listed: bool = False, items: frozenset[int] = frozenset()
) -> list[_Tok]:
    """The tokens of ``text`` (at ``offset`` in the message); with ``listed`` (the message
    numbers its items from 1), a list item's number is a token of its own that ends the item
    before it (its word empty, its mark "#"); one written "N -" inside a line only where
    ``items`` has it (:func:`_dashed_items`)."""
    out: list[_Tok] = []
    append = out.append
    new = tuple.__new__  # about half the cost of the named tuple's own constructor, per token
    for m in _TOKEN.finditer(text):
        raw = m.group()
        start, end = m.span()
        if raw.isalpha():  # most tokens: a plain word, no mark, nothing to strip
            append(new(_Tok, (raw.lower(), offset + start, offset + end, "")))
            continue
        if ("?" in raw or "!" in raw) and (glued := _GLUED.search(raw)):
            cut = glued.end()  # two tokens, the first ending its sentence
            out += _tokens(raw[:cut], offset + start, listed=listed, items=items)
            out += _tokens(raw[cut:], offset + start + cut, listed=listed, items=items)
            continue
        if raw in ",;":
            append(new(_Tok, ("", offset + start, offset + end, raw)))
            continue
        if (listed or start == 0) and raw[0] in _ITEM_STARTS and _ITEM.fullmatch(raw):
            append(new(_Tok, ("", offset + start, offset + end, "#")))
            continue
        if raw[0] in _DASH_STARTS and _DASH.fullmatch(raw):
            append(new(_Tok, ("", offset + start, offset + end, ";")))
            continue
        if (
            raw == "-"
            and out
            and (
                len(out) == 1
                or (listed and out[-1].start in items and not _DIGIT_NEXT.match(text, end))
            )
            and _NUMBER.fullmatch(out[-1].word)
        ):
            # "1 - ..." opening a line, or "2 - ..." inside a numbered message's line: the
            # number and its dash (not "1 - 2", not "for 2 - 3 nights", not "for 4 - outdoor")
            item = out.pop()
            append(new(_Tok, ("", item.start, offset + end, "#")))
            continue
        if raw in _SIGNS:  # "... right now + schedule a flight", "... my mastercard & what is"
            append(new(_Tok, (_SIGNS[raw], offset + start, offset + end, "")))
            continue
        word = raw.lower()
        if "’" in word:
            word = word.replace("’", "'")
        word = word.strip(_EDGE)
        if not word:
            continue
        mark = _MARKS.get(raw[-1], "")
        if mark == "." and word in TITLES and raw[0].isupper() and _names(text, end):
            mark = ""  # "Dr. Patel": the title's dot ends nothing (not "... my dr. What is ...")
        append(new(_Tok, (word, offset + start, offset + end, mark)))
    if len(out) > 1 and out[-1].mark == "#" and text[out[-2].end - offset - 1] != ":":
        # A number ending its sentence ("I need 2."), not an item after a colon ("Question: 1.")
        last = out.pop()
        raw = text[last.start - offset : last.end - offset]
        append(new(_Tok, (raw.lower().strip(_EDGE), last.start, last.end, _MARKS.get(raw[-1], ""))))
    return out


def _names(text: str, end: int) -> bool:
    """Whether a name follows a title's dot at ``end`` of ``text``: a capitalised word that
    opens no request or question (:data:`~harness.text._shapes.ASKS_FIRST`: "Dr. What is ..."
    is a sentence ending in a title and a question)."""
    name = _NAME.match(text, end)
    return name is not None and name.group(1).lower() not in ASKS_FIRST


@lru_cache(maxsize=8192)
def segment_requests(message: str, *, statement: bool = False) -> tuple[Request, ...]:
    """The requests of a user message, in order.

    Args:
        message: what the user wrote.
        statement: read a bot's sentence instead: cut at the joining words and the few lead-in
            markers the matcher's clauses were fitted with, not at every discourse connective
            of a request ("First, ...", "... then ...", "... btw ...").

    Returns:
        One :class:`Request` per request; a message with a single request (or no words) gives
        one (or none).
    """
    requests: list[Request] = []
    reading = _STATEMENT if statement else _USER
    listed = _FIRST_ITEM.search(message) is not None
    items = _dashed_items(message) if listed else frozenset()
    for sentence in split_sentences(message):
        # "... on my calendar :) can you ...": the emoticon is a full stop, no word of a request
        text = sentence.text
        if not statement and (not text.isascii() or _SMILEY_MARKS.intersection(text)):
            text = _SMILEY.sub(_stopped, text)
        toks = _tokens(text, sentence.start, listed=listed, items=items)
        requests.extend(_segment_sentence(message, toks, reading))
    if not statement and len(requests) > 1:
        requests = kept_together(message, requests, needs_probability)
    return tuple(requests)


def _segment_sentence(message: str, toks: list[_Tok], reading: _Reading) -> list[Request]:
    # (tokens, carried tokens, tokens carried back from the next request)
    pieces: list[tuple[list[_Tok], list[_Tok], list[_Tok]]] = []
    current: list[_Tok] = []
    carried: list[_Tok] = []
    i = 0
    while i < len(toks):
        if (
            reading.anywhere
            and current
            and message[current[-1].end - 1] == ":"
            and _announces(current)
        ):
            current = []  # "Quick questions:", "A few things:" lead into what follows
        # Only a comma, a semicolon, a filler word or "as" opens a joining region (_region).
        region = _region(toks, i, reading) if toks[i].word in _REGION_STARTS else 0
        # A question or a sentence ended before it, or a list item's number opens it.
        hard = bool(current) and (
            current[-1].mark in ("?", ".")
            or toks[i].mark == "#"
            or (
                toks[i].word in _RUN_ON_OPENERS  # the cheap test first: most words open nothing
                and reading.anywhere
                and not region
                and _runs_on(message, current, toks, i)
            )
        )
        if current and (region or hard):
            # After a hard cut only whether words follow counts (_opens): reading the whole
            # piece there made a long unpunctuated message quadratic, one run-on cut at a time.
            after = _next_piece(toks, i + region, limit=1 if hard else len(toks))
            last = bool(after) and (after[-1].mark != "" or after[-1] is toks[-1])
            cut = _opens_request(
                current,
                toks[i : i + region],
                hard,
                after,
                last=last,
                carried=carried,
                reading=reading,
            )
            if cut is not None:
                if cut.splits:  # a list said in one frame: each item carries it
                    ends = [*cut.splits, len(current)]
                    pieces.append((current[: ends[0]], carried, cut.back))
                    pieces += [(current[a + 1 : b], cut.carry, cut.back) for a, b in pairwise(ends)]
                else:
                    pieces.append((current, carried, cut.back))
                current, carried = [], cut.carry
                i += region
                continue
        if region > 1:  # a joining region that starts no request stays in this one
            current.extend(toks[i : i + region])
            i += region
        else:
            current.append(toks[i])
            i += 1
    pieces.append((current, carried, []))
    out = []
    for piece, carry, back in pieces:
        piece = _trim(piece, reading)
        if not piece or (
            reading.anywhere and message[piece[-1].end - 1] == ":" and _announces(piece)
        ):
            continue  # "A few things:" ending its line
        start = piece[0].start
        own = message[start : piece[-1].end].rstrip(_EDGE.replace("'", "")).strip()
        if own and own[-1] >= "\u2600":  # "my keys😞": an emoji glued to the last word
            own = _without_emoji_end(own)
        frame = message[carry[0].start : carry[-1].end] if carry else ""
        tail = (
            message[back[0].start : back[-1].end].rstrip(_EDGE.replace("'", "")).strip()
            if back
            else ""
        )
        text = _joined(frame, own)
        out.append(
            Request(
                text=f"{text} {tail}" if tail else text,
                start=start,
                end=start + len(own),
                carried=frame,
                carried_after=tail,
            )
        )
    return [r for r in out if any(map(str.isalnum, r.text))]


# An auxiliary that opens a question when a subject follows it ("can you", "do i", "will we").
_ASKING_AUX = frozenset({"can", "could", "would", "will", "do", "does", "did", "should", "may"})
_ASKED = frozenset({"you", "i", "we"})
_RUN_ON_OPENERS = _ASKING_AUX | _WH
"""The words a question running on opens with (:func:`_runs_on` is tried at these only)."""
# Pronouns by which a question points back to what was said before it (a closed class).
_POINTING_BACK = frozenset({"it", "that", "this", "they", "them", "one", "there"})
# Words after which a question goes on the clause before it, embedded or as its object: a verb
# of knowing or asking, a preposition, an object pronoun, a subordinator, a closed class.
_EMBEDS = (
    _PREPOSITIONS
    | _SUBORDINATORS
    | _AUX
    | _WH
    | _PRONOUNS
    | _DETERMINERS
    | _words(
        """
    know knows knew wonder wondering wondered curious sure idea ask asking asked tell told show
    explain understand remember forget see figure find learn decide check out me us him them
    please so and or but then that whether not
    """
    )
)


def _runs_on(message: str, current: list[_Tok], toks: list[_Tok], i: int) -> bool:
    """Whether a question opens at ``toks[i]`` with no punctuation or joining word before it,
    after a question or an imperative of its own ("what is my balance can you book a cab",
    "please search for some fun things to do what are the requirements ..."): an auxiliary
    before "you", "i" or "we" and two more words, or a question word whose auxiliary and subject
    follow within four words (an embedded question keeps its order: "tell me what the status
    is"). Not after a statement ("I lost my card how do I report it" asks once), nor a word that
    takes a question as its object or leaves its clause unfinished (:data:`_EMBEDS`), nor inside
    a question whose question word has no auxiliary yet ("what time can you come"), nor when
    the question points back ("... until Thursday can I do that"), nor after a word that
    introduces a title ("play the song where is my mind"; not "lock my card what is ...")."""
    before = current[-1]
    if (
        before.mark
        or before.word in _EMBEDS
        or before.word in _NAMING
        or (before.word in _TITLE_NOUNS and not _owned([t.word for t in current[-5:]]))
        or not message[before.end - 1].isalnum()
        or not message[toks[i].start].isalpha()
    ):
        return False
    size, head = _head(current, _USER)
    while head and head[0].word in _GREETING:
        head, size = head[1:], size - 1  # "yo can i ..."
    if (
        size < 3
        or not head  # the first words read were all greetings or fillers ("um um um ...")
        or not (head[0].word in _WH or head[0].word in _AUX or head[0].word in _VERBS)
    ):
        return False
    word = toks[i].word
    ahead = [t.word for t in toks[i + 1 : i + 6]]
    if not _POINTING_BACK.isdisjoint(ahead):
        return False
    if word in _ASKING_AUX:
        if len(ahead) < 3 or ahead[0] not in _ASKED or not ahead[1] or not ahead[2]:
            return False
    elif word in _WH and word != "whose":
        inverted = word.endswith("s")  # "whats", "what's", "whens"
        for k, w in enumerate(ahead[:4]):
            if w in _AUX and k + 1 < len(ahead) and ahead[k + 1] in _SUBJECT_STARTS:
                inverted = True
                break
            if w in _AUX or not w:
                break
        if not inverted:
            return False
    else:
        return False
    # the question before has its auxiliary: no question word left waiting for one
    words = [t.word for t in current[-12:]]
    asked = [k for k, w in enumerate(words) if w in _WH]
    return not asked or any(w in _AUX for w in words[asked[-1] + 1 :])


def _announces(part: list[_Tok]) -> bool:
    """Whether ``part`` (before a colon) only announces the requests after it."""
    words = [t.word for t in part if t.word]
    return any(w in _ANNOUNCED for w in words) and all(w in _ANNOUNCING for w in words)


def _joined(frame: str, own: str) -> str:
    """``frame`` put before ``own``, without saying twice the words they both start with."""
    if not frame:
        return own
    frame_words, own_words = frame.split(), own.split()
    k = 0
    while k < min(len(frame_words), len(own_words)) and (
        frame_words[k].lower() == own_words[k].lower()
    ):
        k += 1
    return " ".join([*frame_words, *own_words[k:]])


_NOT_BEFORE_ALSO = _AUX | _PRONOUNS | _WH | _FILLERS
_LEAD_OPENERS = _WH | _AUX | _SUBJECT | _VERBS
_ALSO_OPENERS = _WH | _AUX | _SUBJECT
_SUBJECT_STARTS = _PRONOUNS | _DETERMINERS
_REGION_STARTS = _FILLERS | {m[0] for m in _ANYWHERE} | {"", "as"}
"""The words a joining region can start with (:func:`_region` is 0 at any other)."""


def _region(toks: list[_Tok], i: int, reading: _Reading) -> int:
    """How many tokens from ``i`` join two parts: a comma or semicolon, "and", "plus", "as well
    as", with the fillers after them ("and also", ", and then"); 0 when none starts at ``i``."""
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


def _also(toks: list[_Tok], i: int) -> bool:
    """Whether an "also" with no comma before it may join two requests ("book a flight also
    what's the weather"): not after a subject, auxiliary or question word ("I also need", "can
    you also")."""
    if toks[i].word != "also" or i == 0 or toks[i - 1].mark or not toks[i - 1].word:
        return False
    before = toks[i - 1].word
    return before not in _NOT_BEFORE_ALSO


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


def _next_piece(toks: list[_Tok], j: int, *, limit: int) -> list[_Tok]:
    """The words from ``j`` up to the next comma, semicolon, joining word or sentence end (at
    most ``limit`` of them)."""
    out: list[_Tok] = []
    end = min(len(toks), j + limit)
    while j < end and toks[j].word and toks[j].word not in ("and", "plus"):
        out.append(toks[j])
        if toks[j].mark:
            break
        j += 1
    return out


def _opens_request(
    left: list[_Tok],
    region: list[_Tok],
    hard: bool,
    right: list[_Tok],
    *,
    last: bool = False,
    carried: list[_Tok] | None = None,
    reading: _Reading = _USER,
) -> _Cut | None:
    """Whether ``right`` starts a new request after ``left`` (``last``: ``right`` ends the
    sentence; ``carried``: the words ``left`` carried over from the request before it), and
    the words carried over and back; None when it does not."""
    if (
        right
        and not hard
        and (
            last
            or right[0].word in _SHARED_OPENERS
            or (len(right) > 1 and right[1].word in _WH)  # "and at what time does it start"
        )
    ):
        joiners = {t.word for t in region}
        if joiners - {""}:
            strong = not joiners.isdisjoint(reading.joining) or len(region) >= 3
            shared = _coordinated(left, right, last=last, carried=carried or [], strong=strong)
            if shared is not None:
                return shared
    cut, carry = _opens(left, region, hard, right, last=last, reading=reading)
    return _Cut(carry, []) if cut else None


def _opens(
    left: list[_Tok],
    region: list[_Tok],
    hard: bool,
    right: list[_Tok],
    *,
    last: bool = False,
    reading: _Reading = _USER,
) -> tuple[bool, list[_Tok]]:
    """Whether ``right`` starts a new request after ``left``, and the words it carries over
    (``last``: ``right`` ends the sentence)."""
    size, left = _head(left, reading)
    if not size or not right:
        return False, []
    if hard:  # a question or a sentence ended before it
        return True, []
    if size < 2:
        return False, []  # "hi, what's ...", "ok and ..."
    joiners = {t.word for t in region}
    comma_only = joiners <= {""}
    also_only = joiners == {"also"}  # "... trip also what is the weather": a question or "I ..."
    strong = bool(joiners & reading.joining) or len(region) >= 3  # ", and also", "as well as"
    if (comma_only or joiners == {"then"}) and _subordinate(left):
        # "if I travel to Peru, do I need a visa", "on my list, add milk", "if it snows then ..."
        return False, []
    words = [t.word for t in right]
    if also_only and words[0] not in _ALSO_OPENERS:
        return False, []
    if words[0] in _PREPOSITIONS and len(words) > 2 and words[1] in _WH:
        words = words[1:]  # "... and at what time does it start", "and from which airport"
    if (
        not comma_only
        and len(words) >= 3
        and words[0] in _WH
        and words[1] in _AUX
        and words[2] in _SUBJECT_STARTS
    ):
        return True, []  # "... and when does it start": a question of its own ("..., how do I"
        # after a comma goes on with the same request)
    if not _has_topic(words):
        return False, []  # "... and tell me", "... and how much"
    first = words[0]
    if first in _WH and len(words) > 1 and words[1] in _PRONOUNS and not strong:
        return False, []  # a relative or embedded clause: "attractions for me, which I can visit"
    if first in _WH:
        if len(words) >= 3 and words[1] in ("many", "much") and words[2] in _AUX:
            return True, _counted_noun(left, words[1])  # "how many are left"
        return True, []
    if first in _AUX or first in _SUBJECT or first in _VERBS:
        return True, []
    if strong and (first in _SUBORDINATORS or any(w in _WH for w in words[1:3])):
        return True, []  # ", also if I go to Peru is it safe", "and also about how much"
    if any(_asks(words, k) for k in (1, 2, 3)):
        return True, []  # "my visa card, what's the apr on it", "about how much will it be"
    if _noun_clause(words):
        return True, []  # "my bag didn't arrive", "new insurance is obtainable how"
    if first in _DETERMINERS:
        frame = _frame(left)
        return bool(frame), frame
    return strong and len(words) >= 3, []


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


def _asks(words: list[str], k: int) -> bool:
    """Whether ``words[k]`` opens a question: "what's", or a question word before an auxiliary."""
    if k + 1 >= len(words) or words[k] not in _WH:
        return False
    return words[k].endswith("'s") or words[k + 1] in _AUX


_GREETING = frozenset(GREETINGS) - {"there", "so"}
_SCENE_FIRST = frozenset(phrase[0] for phrase in _SCENE_PHRASES)


def _subordinate(left: list[_Tok]) -> bool:
    """Whether ``left`` opens with a subordinate clause or a phrase that leads into its request."""
    while len(left) > 1 and (left[0].word in _GREETING or not left[0].word):
        left = left[1:]  # "Hello, up to this point, ..."
    first = left[0].word
    if first in _SUBORDINATORS or first in _PREPOSITIONS or _words_at(left, 0, ("now", "that")):
        return True
    if (first in _SCENE_OPENERS or first in _SCENE_FIRST) and not any(
        t.word in _WH or t.word in _AUX for t in left
    ):  # "up to this point, ...", "the next time it rains, ..." (not "so far how many ...")
        words = tuple(t.word for t in left[:3])
        if first in _SCENE_OPENERS or words[:2] in _SCENE_PHRASES or words in _SCENE_PHRASES:
            return True
    return first == "when" and len(left) > 1 and left[1].word not in _AUX


def _counted_noun(left: list[_Tok], quantifier: str) -> list[_Tok]:
    """``how many PTO days`` from ``how many PTO days have I used``: the question words and the
    noun they count, up to the earlier request's auxiliary."""
    words = [t.word for t in left]
    if len(words) < 4 or words[:2] != ["how", quantifier]:
        return []
    for k in range(3, len(words)):
        if words[k] in _AUX:
            return left[:k]
    return []


def _trim(piece: list[_Tok], reading: _Reading) -> list[_Tok]:
    """A piece without the joining words and punctuation at its edges."""
    a, b = 0, len(piece)
    while a < b:
        if piece[a].word == "" or piece[a].word in _FILLERS:
            a += 1
        elif piece[a].word == "as" and _words_at(piece, a, ("as", "well", "as")):
            a += 3
        elif size := _marker_at(piece, a, reading):
            a += size  # "PS what time is it", "oh also, ..."
        else:
            break
    while b > a and piece[b - 1].word == "":
        b -= 1
    if reading.anywhere and b - a > 3 and piece[a].word in _ANNOUNCE_STARTS:
        a += _announced_first(piece[a:b])
    return piece[a:b]


_ANNOUNCE_STARTS = _ANNOUNCING | _GREETING
_ANNOUNCE_SPEAKER = _words("i i've ive i'm im we help")


def _announced_first(piece: list[_Tok]) -> int:
    """How many words at the start of ``piece`` only announce the requests that follow with no
    punctuation between ("couple of things i want to ...", "hey there two things how do i ...",
    "hello i have several requests whats ..."): words of an announcement up to the last word
    naming requests, the speaker's own or with no verb and no article, and then a word a request
    opens with; 0 when there is none ("the items in my cart ...", "a few things i need to buy"
    name things they ask about)."""
    last = -1
    for k, tok in enumerate(piece[:8]):
        if tok.mark and tok.word in _ANNOUNCED:
            return 0  # "A few things." was cut before: this is no run-on
        if tok.word in _ANNOUNCED:
            last = k
        elif tok.word not in _ANNOUNCE_STARTS:
            break
    if last < 0 or last + 1 >= len(piece) or piece[last + 1].word not in _LEAD_OPENERS:
        return 0
    words = {t.word for t in piece[: last + 1]}
    if words.isdisjoint(_ANNOUNCE_SPEAKER) and not (
        words.isdisjoint(_AUX) and words.isdisjoint(_DETERMINERS)
    ):
        return 0  # "do my items ...", "a few things i need to buy" speak of them
    return last + 1
