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
conditions", "between 10 and 11"; but "please" before "and" ends a request said without a verb
("Room service at 8 please and a wake-up call at 6:30"). Discourse connectives that add or order
requests ("btw", "oh and", "besides that", "Secondly,", "last but not least", "then" before a
request's opening word) join two requests too, and lead into the next without being part of it. A list item's number
("(1)", "#2", "3-") is no word of its request, and in a message that numbers a first item it
ends the item before it ("(1) ... (2) ..."); a "+" or "&" standing alone is "plus" or "and", and a
title's dot before a name ("Dr. Okafor") ends nothing; an announcement before a colon ("Quick
questions:", "A few things:") is no request. Words said once for two requests are carried over:

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
request verbs; docs/simulate.md gives how well the check does on sets it was not tuned on, and
docs/journal/simulate.md the segmenter's figures on each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from harness.detect._coordination import _SHARED_OPENERS, _coordinated, _Cut
from harness.detect._joining import (
    _EDGE_LIMIT,
    _REGION_STARTS,
    _STATEMENT,
    _USER,
    _days_listed,
    _head,
    _marker_at,
    _Reading,
    _region,
    _words_at,
)
from harness.detect._leads import _answered_lead, _leads_in, _participle_lead, _subordinate
from harness.detect._needs import NeedsModel, needs_answer, needs_model, needs_probability
from harness.detect._part_tests import (
    _adverb,
    _adverbial,
    _asks,
    _counted_noun,
    _framed_alone,
    _gapped,
    _goes_on,
    _listed_imperative,
    _names_again,
    _object_opens,
    _same_subject,
)
from harness.detect._people import (
    _ADDRESSING,
    _addresses,
    _another_list,
    _named_only,
    _with_speaker,
)
from harness.detect._request_tokens import (
    _EDGE,
    _FIRST_ITEM,
    _GREETED_ITEM,
    _GREETED_LEAD,
    _NAMED_HELLO,
    _SMILEY,
    _SMILEY_MARKS,
    _numbered_items,
    _stopped,
    _tokens,
    _without_emoji_end,
)
from harness.detect._request_words import (
    _ANNOUNCED,
    _ANNOUNCING,
    _AUX,
    _DETERMINERS,
    _FILLERS,
    _GREETING,
    _LEAD_OPENERS,
    _PREPOSITIONS,
    _PRONOUNS,
    _SUBJECT,
    _SUBJECT_STARTS,
    _SUBORDINATORS,
    _USER_VERBS,
    _VERBS,
    _WH,
    _frame,
    _has_topic,
    _noun_clause,
    _Tok,
)
from harness.detect._run_ons import _ANNOUNCE_STARTS, _RUN_ON_OPENERS, _announced_first, _runs_on
from harness.detect._together import kept_together
from harness.text import split_sentences
from harness.text._records import slot_maker

__all__ = [
    "NeedsModel",
    "Request",
    "needs_answer",
    "needs_model",
    "needs_probability",
    "segment_requests",
]


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
    # Both patterns need a "1" (a list's first item): most messages have none, and the test in C
    # spares their two scans of the whole message.
    listed = "1" in message and (
        _FIRST_ITEM.search(message) is not None
        or (not statement and _GREETED_ITEM.search(message) is not None)
    )
    items = _numbered_items(message) if listed else frozenset()
    # "Hi Sam! 1 - ...": a sentence before the list that only greets is no request
    lead = _GREETED_LEAD.match(message) if listed and not statement else None
    greeted = lead.end() if lead else 0
    for sentence in split_sentences(message):
        if sentence.end <= greeted:
            continue
        # "... on my calendar :) can you ...": the emoticon is a full stop, no word of a request
        text = sentence.text
        if not statement and (not text.isascii() or _SMILEY_MARKS.intersection(text)):
            text = _SMILEY.sub(_stopped, text)
        toks = _tokens(text, sentence.start, listed=listed, items=items, dashes=not statement)
        requests.extend(_segment_sentence(message, toks, reading))
    if greeted:  # "Hi Sam 1) ...": the greeting before the list's first item is no request
        requests = [r for r in requests if r.end > greeted] or requests
    if not statement and (named := _NAMED_HELLO.match(message)):
        # "Hi Sam, can you book a cab": a greeting with a name or a group is no request
        requests = [r for r in requests if r.end > named.end()] or requests
    if not statement and len(requests) > 1:
        requests = kept_together(message, requests, needs_probability)
    return tuple(requests)


_EDGE_SPOKEN = _EDGE.replace("'", "")
"""The edge marks stripped from the end of a request's text (an apostrophe stays: "Smiths'")."""


def _segment_sentence(message: str, toks: list[_Tok], reading: _Reading) -> list[Request]:
    # (tokens, carried tokens, tokens carried back from the next request)
    pieces: list[tuple[list[_Tok], list[_Tok], list[_Tok]]] = []
    current: list[_Tok] = []
    carried: list[_Tok] = []
    plain = 0  # how many tokens ``current`` opens with that are courtesy only (_courtesy_end)
    i = 0
    count = len(toks)
    anywhere = reading.anywhere
    # Whether a token of the sentence ends in a colon (most sentences have none: the test below
    # is then skipped for each of their tokens).
    colons = anywhere and bool(toks) and message.find(":", toks[0].start, toks[-1].end) >= 0
    while i < count:
        tok = toks[i]
        if colons and current and message[current[-1].end - 1] == ":" and _announces(current):
            current, plain = [], 0  # "Quick questions:", "A few things:" lead into what follows
        # Only a comma, a semicolon, a filler word or "as" opens a joining region (_region).
        region = _region(toks, i, reading) if tok.word in _REGION_STARTS else 0
        # A question or a sentence ended before it, or a list item's number opens it.
        hard = bool(current) and (
            current[-1].mark in ("?", ".")
            or tok.mark == "#"
            or (
                tok.word in _RUN_ON_OPENERS  # the cheap test first: most words open nothing
                and anywhere
                and not region
                and _runs_on(message, current, toks, i)
            )
        )
        if current and (region or hard):
            # After a hard cut only whether words follow counts (_opens): reading the whole
            # piece there made a long unpunctuated message quadratic, one run-on cut at a time.
            after = _next_piece(toks, i + region, limit=1 if hard else len(toks))
            last = bool(after) and (after[-1].mark != "" or after[-1] is toks[-1])
            j = i + region + len(after)  # what follows a comma after it ("and if ..., what")
            led = j + 1 < len(toks) and toks[j].mark == "," and toks[j + 1].word in _LEAD_OPENERS
            listed = j + 1 < len(toks) and toks[j].word == "and" and toks[j + 1].word in ("i", "we")
            addressed = (
                j + 1 < len(toks)
                and toks[j].mark == ","
                and _addresses(toks, i, region, after, toks[j + 1].word)
            )
            if addressed:  # and the piece before says more than courtesy ("hello, bot, ...")
                plain = _courtesy_end(current, plain)
                addressed = plain < len(current)
            cut = _opens_request(
                current,
                toks[i : i + region],
                hard,
                after,
                last=last,
                carried=carried,
                reading=reading,
                led=led,
                listed=listed,
                addressed=addressed,
            )
            if cut is not None:
                if cut.splits:  # a list said in one frame: each item carries it
                    ends = [*cut.splits, len(current)]
                    pieces.append((current[: ends[0]], carried, cut.back))
                    pieces += [(current[a + 1 : b], cut.carry, cut.back) for a, b in pairwise(ends)]
                else:
                    pieces.append((current, carried, cut.back))
                current, carried, plain = [], cut.carry, 0
                i += region
                continue
        if region > 1:  # a joining region that starts no request stays in this one
            current.extend(toks[i : i + region])
            i += region
        else:
            current.append(tok)
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
        own = message[start : piece[-1].end].rstrip(_EDGE_SPOKEN).strip()
        if own and own[-1] >= "\u2600":  # "my keys😞": an emoji glued to the last word
            own = _without_emoji_end(own)
        frame = message[carry[0].start : carry[-1].end] if carry else ""
        tail = message[back[0].start : back[-1].end].rstrip(_EDGE_SPOKEN).strip() if back else ""
        text = _joined(frame, own)
        out.append(
            _request(f"{text} {tail}" if tail else text, start, start + len(own), frame, tail)
        )
    return [r for r in out if any(map(str.isalnum, r.text))]


@slot_maker(Request)
def _request(text: str, start: int, end: int, carried: str, carried_after: str) -> Request:
    """``Request(text=text, start=start, ...)``, the same object, its fields set through their
    slots rather than by the frozen class's ``__init__`` (one ``object.__setattr__`` per field:
    several times the cost, for each request of every user message of a long conversation);
    :func:`~harness.text._records.slot_maker`."""
    return Request(text=text, start=start, end=end, carried=carried, carried_after=carried_after)


def _courtesy_end(piece: list[_Tok], start: int) -> int:
    """Where the greetings and names of the bot ``piece`` opens with end, read on from ``start``
    (a piece only grows until it is cut: read once, a long run of "hello, bot, ..." stays
    linear)."""
    k = start
    while k < len(piece) and (
        not piece[k].word or piece[k].word in _GREETING or piece[k].word in _ADDRESSING
    ):
        k += 1
    return k


def _announces(part: list[_Tok]) -> bool:
    """Whether ``part`` (before a colon) only announces the requests after it."""
    words = [t.word for t in part if t.word]
    if words and words[-1] in _WHAT_FOLLOWS:  # "Please help me with these:"
        return all(w in _ANNOUNCING or w in _PREPOSITIONS or w == "please" for w in words)
    return any(w in _ANNOUNCED for w in words) and all(w in _ANNOUNCING for w in words)


# The words that stand for what follows a colon (a closed class: "... with these:", "... the
# following:").
_WHAT_FOLLOWS = frozenset({"these", "following"})


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


_ALSO_STATES = _WH | _AUX | _SUBJECT
_ALSO_OPENERS = _ALSO_STATES | _VERBS
"""What a request after "also" opens with; in a bot's sentence, no imperative."""


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
    led: bool = False,
    listed: bool = False,
    addressed: bool = False,
) -> _Cut | None:
    """Whether ``right`` starts a new request after ``left`` (``last``: ``right`` ends the
    sentence; ``carried``: the words ``left`` carried over from the request before it; ``led``:
    a comma and a request's opening word follow ``right``; ``listed``: "and I" or "and we"
    follows it; ``addressed``: ``right`` is only a greeting or the name of the bot, and a comma
    follows it, after a ``left`` that says more than courtesy), and the words carried over and
    back; None when it does not."""
    if addressed and reading.anywhere and not hard:
        return _Cut([], [])  # "..., and ai, look up my balance": the bot addressed anew
    if listed and reading.anywhere and not hard and _another_list(left, region, right):
        return _Cut([], [])  # "my son and I want pizza and my wife and I want sushi"
    if reading.anywhere and not hard and _with_speaker(left, region, right):
        return None  # "book a table for me and my wife": one group of people
    if reading.anywhere and not hard and _days_listed(left, region, right):
        return None  # "a day off for the ninth and the tenth of May": one date, two days
    if reading.anywhere and not hard and _gapped(left, right):
        return None  # "pay 200 toward my card, and the remainder to my loan": one move
    if led and reading.anywhere and not hard and _leads_in(left, region, right):
        return _Cut([], [])  # "... and if I'm in Lima, what time is it": the phrase leads in
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
    whole = left
    size, left = _head(left, reading)
    if not size or not right:
        return False, []
    if hard:  # a question or a sentence ended before it
        return True, []
    if size < 2:
        return False, []  # "hi, what's ...", "ok and ..."
    joiners = {t.word for t in region}
    comma_only = joiners <= {""}
    if reading.anywhere and comma_only and size <= len(left) and _adverbial(left):
        return False, []  # "More specifically, I need ...": adverbs alone lead in, ask nothing
    also_only = joiners == {"also"}  # "... trip also what is the weather": a question or "I ..."
    strong = bool(joiners & reading.joining) or len(region) >= 3  # ", and also", "as well as"
    if (
        (comma_only or joiners == {"then"})
        and (not reading.anywhere or all(t.mark != ";" for t in region))
        and (_subordinate(left) or (reading.anywhere and _participle_lead(left, right)))
        and not (reading.anywhere and _answered_lead(left))
    ):
        # "if I travel to Peru, do I need a visa", "on my list, add milk", "if it snows then ..."
        # (not after a semicolon, a dash or a slash, nor once the clause it leads into was said)
        return False, []
    words = [t.word for t in right]
    if (
        reading.anywhere and len(words) > 2 and words[0] in _GREETING
    ):  # "... and hi I need a cab", "hey there can"
        words = words[2:] if words[1] == "there" else words[1:]
    if also_only and (
        words[0] not in (_ALSO_OPENERS if reading.anywhere else _ALSO_STATES)
        or (words[0] in _VERBS and len(words) > 1 and words[1] in _PREPOSITIONS)
    ):
        return False, []  # "... also cancel my visit", not "a hotel also close to the beach"
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
    if (
        reading.anywhere
        and (whole[-1].mark == ";" or any(t.mark == ";" for t in region))
        and (words[0] in _WH or words[:2] in (["see", "if"], ["see", "whether"]))
    ):
        return True, []  # "... the music / how much", "...; see if my refund came": its own
    if reading.anywhere and comma_only and _listed_imperative(left, words):
        return True, []  # "Reserve two kayaks, email me the waiver": a verb with its own object
    if not _has_topic(words, nouns=reading.anywhere):
        return False, []  # "... and tell me", "... and how much" (not "... also cancel my order")
    first = words[0]
    if first in _WH and len(words) > 1 and words[1] in _PRONOUNS and not strong:
        return False, []  # a relative or embedded clause: "attractions for me, which I can visit"
    if first in _WH:
        if len(words) >= 3 and words[1] in ("many", "much") and words[2] in _AUX:
            return True, _counted_noun(left, words[1])  # "how many are left"
        return True, []
    if reading.anywhere and joiners == {"and"} and first in ("i", "we") and _named_only(whole):
        return False, []  # "my wife and I need a table", "when Tom, Ann and I land in Oslo, ..."
    if reading.anywhere and joiners == {"and"} and _same_subject(whole, words):
        return False, []  # "I'm at the airport and have been for hours": the verb goes on
    if first in _AUX or first in _SUBJECT or first in _VERBS:
        return True, []
    if (
        reading.anywhere
        and first in _USER_VERBS
        and len(words) > 1
        and _object_opens(first, words[1])
    ):
        return True, []  # "... and print my statement", "... and count the days I've taken"
    if strong and (first in _SUBORDINATORS or any(w in _WH for w in words[1:3])):
        return True, []  # ", also if I go to Peru is it safe", "and also about how much"
    if any(_asks(words, k) for k in (1, 2, 3)):
        return True, []  # "my visa card, what's the apr on it", "about how much will it be"
    if _noun_clause(words):
        return True, []  # "my bag didn't arrive", "new insurance is obtainable how"
    # ", and" before a part of three words or more with no frame to carry ("..., and exchange
    # rate from dollars to yen") opens a request, as "plus" does; not at the end of a list ("sick,
    # personal, and vacation days") nor before words that go on with the clause before it
    # (_goes_on: "I'm flying to Boston, and need a hotel", "..., and back home on Friday")
    parted = (
        reading.anywhere
        and joiners == {"", "and"}
        and not _goes_on(words)
        and all(t.mark != "," for t in whole[-_EDGE_LIMIT:])
    )
    if _pleased(whole, joiners, words, reading):
        return True, _frame(left) if first in _DETERMINERS else []
    if first in _DETERMINERS:
        if reading.anywhere and comma_only and last and _framed_alone(words, whole):
            # "send me a plumber, the pipe is dripping": a frame would garble it; "a film, a
            # film by Fellini" names again what the request asks for
            return not _names_again(words, whole), []
        frame = _frame(left)
        if frame or not (strong or parted) or not reading.anywhere:
            return bool(frame), frame
    return (strong or parted) and len(words) >= 3, []


def _pleased(left: list[_Tok], joiners: set[str], words: list[str], reading: _Reading) -> bool:
    """Whether "please" closed the request before a joining "and" or "plus" and two words or
    more follow: "Room service at 8 please and a wake-up call at 6:30" asks for two things
    (a request worded without a verb has no other sign of where it ends). Not before a detail of
    the same request: what opens with a preposition, a subordinator, an adverb or "not" ("A
    table for two please and by the window if you can", "... please and if possible today")."""
    return (
        reading.anywhere
        and left[-1].word == "please"
        and not joiners.isdisjoint(_PLEASE_JOINERS)
        and len(words) >= 2
        and not _goes_on(words)
        and words[0] not in _PREPOSITIONS
        and words[0] not in _SUBORDINATORS
        and words[0] != "not"
        and not _adverb(words[0])
    )


_PLEASE_JOINERS = frozenset({"and", "plus"})


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
