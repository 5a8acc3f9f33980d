"""How the offline planner cuts a message into requests (its own rules: the independent
missed-request check in ``harness.detect`` has its segmenter, and neither reuses the other's; both
read the closed classes and statement shapes of ``harness.text._shapes``).

A message is cut at sentence ends, semicolons, commas and the words that join requests ("and",
"and also", "also", "plus", "as well as"), at line breaks and list markers, at discourse
connectives ("btw", "then", "Secondly,") and, in a run-on with no punctuation, where a new request
opens after a complete one (``harness.planning._cuts``). No piece is lost: one that is no request on its own
joins a neighbour. A piece with no content words ("thanks", "how do I do it"), or only words that
stand for a request without saying what it asks ("I have a few questions", "great"), opens the
request after it (after a colon or a sentence end) or ends the one before it; a piece of values
alone ("March 10", "the 18th") ends the request before it, or opens the one after its comma. A
piece cut off by a comma alone starts a request only when it says enough to be routed on its own
(``starts_request``); otherwise it is the rest of the piece before it. A statement that goes on
after "and" without a subject of its own ("I took a new job and need help with my 401k") is one
request (``harness.text._shapes.goes_on``), and so is a statement and what a pronoun of the
piece after it points back to ("my card has been erased and I need to report it",
``refers_back``), or a phrase or a clause of time that sets the scene before a comma ("when
travelling in Chicago, what should I see"). A title's dot ("Dr. Paley") and an "&" inside a name
("Barnes & Noble") cut nothing, nor does the comma between a place and its country ("in Toronto,
Canada on the 13th"). Sentences around a request that ask nothing of their own stay with it
(``harness.planning._sentences``): a statement of its values or of what the speaker prefers
after it ("It will be for 4 people.", "The show starts at 8.", "I prefer a garden."), a fragment
that describes what it asks for ("preferably one with wifi"), gives its schedule ("leaving on the
7th") or says where or when ("at Roxie Theater"), a condition on what it asks for ("..., it has
to have laundry service", "I need it to allow pets."), its schedule after "and" without a subject
("... checking in on the 1st and leave by the 7th"), and a plan or something coming up
stated before it ("I'm planning a trip. Can you find me a flight?", "I have an upcoming trip.");
a name alone that opens the message before a comma ("Denver, get me a cab there") opens the
request it is about; a reply that declines or puts off ("Maybe later.", "No, not right now.")
asks nothing; "go ahead and" before a verb cuts nothing ("I'll go ahead and book it"); a
statement of values or a preference after "and" ("... and it's for four") and a sentence that
says more of what the request asks for ("More specifically I want ...", "If you can, I would
prefer ...") stay with it; a statement before ", so" gives the reason for the request after it
("I'll be in Denver on the 2nd, so I need a cab"): one request, routed on what it asks. A piece
that shares the previous
request's frame gets it back: "... and the W-2" after "where is my payslip" becomes "where is the
W-2", and "how many are left" after "how many PTO days have I used" becomes "how many PTO days are
left".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from harness.models._text import content_tokens
from harness.planning._asking import ACKNOWLEDGEMENTS_FILE, asks_something
from harness.planning._asking import AUX as _AUX
from harness.planning._asking import QUESTION as _QUESTION
from harness.planning._asking import WH as _WH
from harness.planning._asking import asks as _asks
from harness.planning._asking import declines as _declines
from harness.planning._conditions import (
    narrows,
    needs_for_span,
    requires,
    schedules_after_and,
    schedules_wanted,
    specifies,
)
from harness.planning._cuts import (
    CLAUSE_WORDS,
    CUT,
    CUT_LISTED,
    FIRST_MARK,
    GO_AHEAD,
    PUNCTUATED,
    fields_joined,
    inside_clause,
    names_parts,
    names_region,
    soft_cut_allowed,
)
from harness.planning._reasons import (
    _PRONOUNS,
    _asks_what,
    _gives_reason,
    _lead_ins_joined,
    _so_after,
)
from harness.planning._sentences import (
    NUMBER,
    TRAILING,
    VALUE_WORDS,
    describes,
    ends_sentence,
    gives_details,
    names_where_or_when,
    prefers,
    schedules,
    sets_scene,
)
from harness.text._shapes import (
    CONNECTIVE,
    GREETINGS,
    LEAD,
    NUMBER_ABBREV,
    NUMBERED_NEXT,
    TITLES,
    VERBS,
    goes_on,
    is_field,
    opens_request,
    points_back,
    refers_back,
    word_class,
)
from harness.text.words import REQUEST_STOPWORDS

__all__ = [
    "ACKNOWLEDGEMENTS_FILE",
    "asks_something",
    "opens_question",
    "split_request_parts",
    "split_requests",
]

_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_LAST_WORD = re.compile(r"(?<![\w'-])[A-Za-z][\w'-]*+$")
# Words that open a noun phrase: a piece that starts with one lacks its verb ("and my W-2").
_DETERMINER = frozenset({"the", "my", "a", "an", "your", "our", "their", "his", "her", "its"})
_COMPARED = 200
"""The longest request a comma piece is compared with whole (``starts_request``); past it, with
the piece the request opened with. A request of one or two real sentences is shorter; a message
of thousands of unroutable comma pieces would otherwise cost time in the square of its length."""
# Words a phrase or short clause that sets the scene opens with (where, when, why: "in Portland",
# "between the 4th and the 9th", "since I switched employers"), and its most words.
_PREFACE = frozenset(
    {
        "in",
        "on",
        "for",
        "at",
        "from",
        "with",
        "about",
        "regarding",
        "if",
        "since",
        "because",
        "between",
        "during",
        "after",
        "before",
        "including",
        "while",
        "once",
        "until",
    }
)
_PREFACE_WORDS = 8
_WHEN = frozenset({"when", "whenever"})
_COUNT = re.compile(r"^(how (?:many|much))\s++(.*)$", re.IGNORECASE)
_MARKER_ONLY = re.compile(r"\s*+\(?\d{1,2}")
_CONNECTIVE = re.compile(r"\s*+" + CONNECTIVE, re.IGNORECASE)
_STRENGTH = {"soft": 0, "comma": 0, "join": 1, "end": 2, "lead": 3}
"""Which cut says more about the piece after it: an announcement's colon, a sentence end, a
joining word, a bare comma."""
# "between A and B" names two things of one request: its "and" joins no requests.
_BETWEEN = re.compile(r"\bbetween\b", re.IGNORECASE)
_AND_WORD = re.compile(r"\band\b", re.IGNORECASE)
_AND = re.compile(r"(?:\s*+,)?\s*+and\s++", re.IGNORECASE)


def split_requests(message: str, starts_request: Callable[[str, str], bool]) -> list[str]:
    """The requests of ``message`` in order, each with its own (possibly completed) text.

    Args:
        message: the user's message.
        starts_request: whether a piece cut off by a bare comma is a request of its own after the
            request before it (``starts_request(piece, previous)``; the planner passes "it routes
            to an agent on its own by its words, or by its meaning to another agent than the
            request before it").
    """
    return [text for text, _ in split_request_parts(message, starts_request)]


def split_request_parts(
    message: str, starts_request: Callable[[str, str], bool]
) -> list[tuple[str, str]]:
    """``split_requests``, each request with the part of it that says what it asks: its text
    without an opening that asks nothing ("Hi,", "Okay", "A couple of things:") and without a
    closing "too" or "as well" (route a request on that part; plan it with its whole text)."""
    text = message.strip()
    pieces: list[tuple[str, str, str]] = []  # (kind of the cut before it, its text, piece)
    kind, cut_text, start = "join", "", 0
    # A run-on: no punctuation inside the message (a request's opening may end the one before).
    run_on = PUNCTUATED.search(text.rstrip("?.! ")) is None
    for match in (CUT_LISTED if FIRST_MARK.search(text) else CUT).finditer(text):
        soft = match.group("soft")
        if soft is not None and (
            not (run_on or soft.strip())
            or not soft_cut_allowed(text, start, match.start(), joined=bool(soft.strip()))
        ):
            continue
        if (
            match.group(0)[:1] == "."
            and (start == 0 or "\n" in cut_text)
            and _MARKER_ONLY.fullmatch(text, start, match.start())
        ):
            continue  # "1." at a line's start marks a list item; it ends no sentence
        if _inside_name(text, match.start(), match.end(), match.group(0)):
            continue  # "Dr. Adam Paley", "Barnes & Noble": a title or a name goes on
        if _numbering(text, match.start(), match.end(), match.group(0)):
            continue  # "No. of dogs: 3", "berth no. 7": an abbreviation's dot ends nothing
        if inside_clause(text, match.start(), match.group(0)):
            continue  # "I'd also like a cab": "also" inside a clause joins nothing
        pieces.append((kind, cut_text, text[start : match.start()]))
        kind = next((k for k in ("comma", "lead", "end", "soft") if match.group(k)), "join")
        cut_text, start = match.group(0), match.end()
    pieces.append((kind, cut_text, text[start:]))
    pieces = _lead_ins_joined(pieces)
    pieces = fields_joined(pieces)
    # Per request: its text, the part that asks, the piece it opened with (what a comma piece is
    # compared with once the request is longer than ``_COMPARED``: the work per piece stays
    # bounded however long a request grows) and whether it asks something of its own.
    requests: list[tuple[str, str, str, bool]] = []
    pending = ""  # the strongest cut since the last piece, when a piece between was empty
    # A piece that asks nothing, after a request: where it belongs (the request before it, or as
    # an announcement the one after it) depends on the cut after it. (glue, cut before it, text)
    held: tuple[str, str, str] | None = None
    carried = ""  # the lead-ins with words of their own since the last piece ("Separately,")
    for index, (kind, cut_text, raw) in enumerate(pieces):
        opening = LEAD.match(raw)
        piece = (raw[opening.end() :] if opening else raw).strip(" ,;:")
        if opening and content_tokens(opening.group(0)):
            # A connective with words of its own ("btw", "Secondly,") stays in the request's
            # text, so no word is lost; the request is routed on the rest.
            carried = f"{carried}{' '.join(opening.group(0).split())} "
        if kind == "comma" and opening and _CONNECTIVE.match(raw):
            kind = "join"  # "..., while you're at it play ...": a connective joins requests
        if pending and kind == "lead":
            kind = "join"  # "... card. Also: do i have ...": the colon follows a connective
        cut = max(pending, kind, key=_STRENGTH.__getitem__) if pending else kind
        if not piece:
            # "... one. Also, if I have yen, ...": "Also" is empty once stripped; the piece
            # after it still follows a sentence end, not just the comma after "Also".
            pending = cut
            continue
        pending = ""
        said, carried = f"{carried}{piece}", ""
        # A piece of values alone ("march 10", "the 18th") is part of a request, not one: it
        # opens the request after it when a comma follows ("yesterday, my card was declined"),
        # else it ends the one before it ("for march 7 and march 10", "april 1st and 2nd").
        # A question about a value ("what do I have on Monday") is a request of its own.
        # So is a detail written "label: value" after a request ("... Thursday. copies: 25").
        field = bool(requests) and is_field(piece)
        values = (_only_values(piece) or field) and not opens_question(piece)
        # What follows the piece: a question mark ends it, a sentence of its own ("In Lisbon?";
        # "..., near the harbour?" ends the question it is part of), or a comma and what comes
        # after it (a schedule goes on: "leaving Friday, returning Sunday"; anything else is a
        # request whose scene it may set).
        after = pieces[index + 1] if index + 1 < len(pieces) else None
        asked = cut != "comma" and (
            raw.rstrip().endswith("?") or (after is not None and after[1].lstrip()[:1] == "?")
        )
        comma_follows = after is not None and after[0] == "comma"
        scene_follows = comma_follows and not _fragment(after[2] if after else "")
        opens = (
            values
            and not field
            and index + 1 < len(pieces)
            and pieces[index + 1][0] == "comma"
            and not (requests and _ends_in_value(requests[-1][1]))
        )
        # A name alone that opens the message before a comma ("Paris, Uber me there") names
        # what the request after it is about: it opens that request and is not routed on. A
        # capitalised piece that routes on its own ("Flight Status, book me a hotel") is a
        # request, unless the request after it points back to it ("Denver, get me a cab there").
        named = (
            not requests
            and index + 1 < len(pieces)
            and pieces[index + 1][0] == "comma"
            and _names_only(piece, text)
            and (_REFERS_TO_NAME.search(pieces[index + 1][2]) or not starts_request(piece, ""))
        )
        content = _asks(piece) and not opens and not named
        if held is not None:
            glue, held_cut, held_said = held
            held = None
            if cut == "lead" or (content and "end" in (cut, held_cut)):
                # "..., and one more question: when is payday", "... Last thing, I need a cab":
                # it announces the request after it.
                requests.append((f"{held_said}{_glue(cut, cut_text)}{said}", piece, piece, content))
                continue
            # Else it ends the request before it ("..., thanks, and ..."), and the piece after it
            # follows the stronger of the two cuts.
            whole, asks, head, had = requests[-1]
            requests[-1] = (f"{whole}{glue}{held_said}", f"{asks}{glue}{held_said}", head, had)
            cut = max(held_cut, cut, key=_STRENGTH.__getitem__)
        if not requests:
            requests.append((said, piece, piece, content))
            continue
        whole, asks, head, had = requests[-1]
        glue = _glue(cut, cut_text)
        if cut == "lead":  # "A couple of things: ...": the announcement opens the request
            requests[-1] = (f"{whole}: {said}", piece, piece, had or content)
        elif (
            content
            and _so_after(cut_text, opening)
            and _gives_reason(head)
            and TRAILING.search(piece) is None
        ):
            # "I will be in Denver on the 2nd, so I need a cab": a statement and, after ", so",
            # what it makes the speaker ask for are one request, routed on what is asked ("too"
            # or "as well" after it says the statement was a want of its own).
            requests[-1] = (f"{whole}, so {said}", piece, piece, True)
        elif cut in ("comma", "soft") and _prefaces(asks):
            # "in Portland, what is there to do": the phrase sets the scene for its request.
            glue = ", " if cut == "comma" else _glue(cut, cut_text)
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, had or content)
        elif not had:  # "hi, ...", "ok so ..." or "I have a few questions. ...": no request yet
            # "Nope, I'm good": a piece that asks only with what opened it declines.
            content = content and not _declines(f"{whole}{glue}{said}"[:_COMPARED])
            requests[-1] = (f"{whole}{glue}{said}", piece, piece, content)
        elif _AND.fullmatch(cut_text) and _open_between(asks[-_COMPARED:]):
            requests[-1] = (f"{whole} and {said}", f"{asks} and {piece}", head, True)
        elif not opening and names_parts(asks[-_COMPARED:], cut_text, piece):
            # "for 3 adults and 2 children", "2 large and 1 small pizza": the parts of one
            # quantity, each a count before a noun phrase with no verb of its own.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif opens:
            requests.append((said, piece, piece, False))
        elif _AND.fullmatch(cut_text) and goes_on(asks[-_COMPARED:], piece):
            # "i took a new job and need help with my 401k": one statement goes on, its subject
            # shared; what it asks is one request.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif (cut == "comma" or _AND.fullmatch(cut_text)) and refers_back(
            asks[-_COMPARED:], _no_meridiem(piece)
        ):
            # "my card has been erased and I need to report it": what the statement names is
            # what the piece asks about.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif cut == "end" and points_back(_no_meridiem(piece)):
            # "I'd like a table at a restaurant. Please reserve it for 7 pm.": a new sentence whose
            # object is a pronoun asks about what the sentence before it named.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif not opening and _joins_before(cut, cut_text, piece, asks[-_COMPARED:], asked=asked):
            # "Help me find a house there, it has to have laundry service", "... checking in on
            # the 1st and leave by the 7th", "I'd like to find some attractions. Find something in
            # Los Angeles.": a condition on what the request asks for, its schedule after "and",
            # or a search that narrows it is part of it.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif (
            (cut == "comma" or ends_sentence(cut_text))
            and had
            and not opening
            and (
                (describes(piece, asked=asked) and not (schedules(piece) and scene_follows))
                or (
                    names_where_or_when(piece, asked=asked, topic=cut != "comma")
                    and not comma_follows
                )
            )
        ):
            # "Find me a hotel room, preferably one with wifi", "... a hotel there, around
            # Fresno.": a fragment that describes what the request asks for, or says where or
            # when, is part of it (one that says where or when, or gives a schedule, before a
            # comma may set the scene of the request after it instead: "..., for today only, how
            # many meetings ...", "Leaving for Paris next week, what's the weather like there?").
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif (
            (ends_sentence(cut_text) or (_AND.fullmatch(cut_text) and not _asks_what(asks)))
            and had
            and not opening
            and (gives_details(piece) or prefers(piece))
        ):
            # "I'd like a bus to Fresno. It will be for 4 people.": a statement of values or of
            # a preference after a request, in the same line and with no connective but "and"
            # ("... Premium Economy and it's going to be a group of four"; not after a question
            # for a fact), gives its details; it asks nothing of its own.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif (
            (cut == "comma" or (ends_sentence(cut_text) and cut_text.strip()[:1] != "?"))
            and not opening
            and asks == head
            and sets_scene(asks, piece)
        ):
            # "I'm planning a trip to Lima. Can you find me a flight?", "I'm going to Peru, let my
            # bank know": a plan stated before a request, in the same sentence or line, sets its
            # scene; the two are one request, routed on both.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        elif not content and not values:
            held = (glue, cut, said)
        elif values or (
            cut == "comma" and not starts_request(piece, asks if len(asks) <= _COMPARED else head)
        ):
            # A run-on's new request opens where a complete request ends (``soft_cut_allowed``);
            # after a bare comma, a piece must say enough to be routed on its own.
            requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{piece}", head, True)
        else:
            # A new sentence says its own verb and object: nothing carries over a sentence end
            # ("How do I locate my credit score? My card was stolen.").
            # Nor over a line, a list item or a run-on's new request.
            carry = cut not in ("end", "soft")
            text_ = _carry_frame(asks, piece, starts_request) if carry else piece
            requests.append((f"{said[: len(said) - len(piece)]}{text_}", text_, piece, True))
    if held is not None:
        glue, _, said = held
        whole, asks, head, had = requests[-1]
        requests[-1] = (f"{whole}{glue}{said}", f"{asks}{glue}{said}", head, had)
    if carried and requests:  # a closing connective ("... Thanks. Separately")
        whole, asks, head, had = requests[-1]
        requests[-1] = (f"{whole} {carried.strip()}", asks, head, had)
    return [(whole, _asked(asks)) for whole, asks, _, _ in requests] or [(text, text)]


def _joins_before(cut: str, cut_text: str, piece: str, before: str, *, asked: bool) -> bool:
    """Whether ``piece``, after the cut ``cut_text``, goes on with the request ``before`` it: a
    condition on what it asks for (``requires``; after a comma, a sentence end or "and"), its
    schedule after "and" (``schedules_after_and``) or a search that narrows it (``narrows``;
    after a comma, a sentence end or "and")."""
    anded = _AND.fullmatch(cut_text) is not None
    if not (anded or cut == "comma" or ends_sentence(cut_text)):
        return False
    plain = _no_meridiem(piece)
    return (
        requires(piece, asked=asked, before=before)
        or (anded and schedules_after_and(plain, before=before))
        or narrows(plain, before=before)
        or (
            not asked
            and (
                schedules_wanted(plain, before=before) or needs_for_span(plain) or specifies(plain)
            )
        )
    )


# "am" after a time ("at 9 am") is no auxiliary: the shapes of ``harness.text._shapes`` read it as
# one ("I'd like it to leave at 9 am" asks no question of its own).
_MERIDIEM_AM = re.compile(r"(?<=\d)(\s*+)am\b", re.IGNORECASE)


def _asked(asks: str) -> str:
    """What a request asks, without a closing "too" or "as well" and an opening "I'll go ahead
    and" (``GO_AHEAD``)."""
    asks = TRAILING.sub("", asks) or asks
    return GO_AHEAD.sub("", asks, count=1) or asks


def _fragment(raw: str) -> bool:
    """Whether the piece ``raw`` goes on with the request before it: a schedule, a description
    or where or when ("..., returning Sunday", "..., around noon"), or a piece that asks nothing
    ("..., please.")."""
    piece = raw.strip(" ,;:")
    return describes(piece) or names_where_or_when(piece) or not _asks(piece)


def _no_meridiem(piece: str) -> str:
    """``piece`` with "am" after a number written "a.m.", so that no shape reads it as a verb."""
    return _MERIDIEM_AM.sub(r"\1a.m.", piece)


def _inside_name(text: str, start: int, end: int, cut: str) -> bool:
    """Whether the cut ``text[start:end]`` is inside a name: a title's dot before a capitalised
    word ("Dr. Adam Paley", a closed class of titles), or "&" between two capitalised words
    ("Barnes & Noble", "Johnson & Johnson"), or a comma between a place and its region or country
    ("in Toronto, Canada on the 13th": ``harness.planning._cuts.names_region``)."""
    mark = cut.strip()
    if not mark or not text[end : end + 1].isupper():
        return False
    before = _LAST_WORD.search(text, max(0, start - 40), start)  # bounded: linear in the text
    if before is None:
        return False
    if mark == ".":
        return before.group(0).lower() in TITLES
    if mark == ",":
        return names_region(text, start, end)
    return mark == "&" and before.group(0)[:1].isupper() and not opens_question(text[end:])


_NUMBERING = re.compile(rf"\s*{NUMBERED_NEXT}", re.IGNORECASE)


def _numbering(text: str, start: int, end: int, cut: str) -> bool:
    """Whether the cut ``text[start:end]`` is the dot of "no." (number) before "of" or a digit
    ("No. of guests: 4", "room no. 12")."""
    if cut.strip() != "." or _NUMBERING.match(text, end) is None:
        return False
    before = _LAST_WORD.search(text, max(0, start - 40), start)  # bounded: linear in the text
    return before is not None and before.group(0).lower() == NUMBER_ABBREV


def _glue(cut: str, cut_text: str) -> str:
    """What joins a piece to the request before it: the cut as written ("and", ", and", "."),
    with single spaces."""
    said = " ".join(cut_text.split())
    if cut == "comma" or said[:1] in (",", ";"):
        return f"{said or ','} "
    if said[:1] in (".", "?", "!", ":"):
        return f"{said} "
    return f" {said} " if said else " "


def _ends_in_value(text: str) -> bool:
    """Whether ``text``'s last word is a value ("for march 7"): a value after it continues it."""
    words = _WORDS.findall(text[-40:].lower())
    return bool(words) and (words[-1] in VALUE_WORDS or NUMBER.fullmatch(words[-1]) is not None)


def _only_values(piece: str) -> bool:
    """Whether ``piece`` is made of values (dates, days, numbers, ordinals) and stop words alone."""
    valued = False
    for word in _WORDS.findall(piece.lower()):
        if word in VALUE_WORDS or NUMBER.fullmatch(word):
            valued = True
        elif word not in REQUEST_STOPWORDS:
            return False
    return valued


def _prefaces(text: str) -> bool:
    """Whether ``text`` is a short phrase that sets the scene for what follows a comma ("in
    Portland", "on my Visa", "if I use Citibank"): it opens with a preposition or "if"."""
    if len(text) > 16 * _PREFACE_WORDS:
        return False
    words = text.lower().split()
    if len(words) > _PREFACE_WORDS or any(w in _WH for w in words[1:]):
        return False  # longer, or a question ("at what time will my flight board")
    if any(opens_request(part) for part in text.split(",")[1:]):
        return False  # a phrase and its request already ("on my list, add dishes")
    # "when travelling in Chicago", "when I go to Mexico": a clause of time, not a question ("when
    # is payday" has its auxiliary second).
    return words[0] in _PREFACE or (
        words[0] in _WHEN and len(words) > 1 and (words[1] in _PRONOUNS or words[1].endswith("ing"))
    )


# A name alone before a comma ("Paris, Uber me there", "Lake Tahoe, what's the weather there"):
# up to three capitalised words, none of which opens a question, a request or a greeting, or is
# a preposition, an article or a conjunction, which join a phrase ("Weather in Boston"; closed
# classes).
_NAME = re.compile(r"[A-Z][\w'.&-]*+(?:\s++[A-Z][\w'.&-]*+){0,2}")
_NOT_NAMES = (
    _QUESTION
    | GREETINGS
    | frozenset(VERBS.split("|"))
    | _PRONOUNS
    | _PREFACE
    | _DETERMINER
    | word_class("of to into near by and or but")
)
# How a request points back to the name before its comma ("Denver, get me a cab there"; closed).
_REFERS_TO_NAME = re.compile(r"\b(?:there|it|its|them|their)\b", re.IGNORECASE)


def _names_only(piece: str, message: str) -> bool:
    """Whether ``piece`` is a name alone (capitalised words, no word of a question, a request, a
    greeting or a phrase): it names what the request after its comma is about. In a message
    written in capitals, capitals name nothing ("WEATHER IN BOSTON, BOOK A CAB")."""
    return (
        _NAME.fullmatch(piece) is not None
        and not message.isupper()
        and not any(w in _NOT_NAMES for w in _WORDS.findall(piece.lower()))
    )


def _open_between(text: str) -> bool:
    """Whether ``text``'s last "between" has no "and" after it yet ("between rubles")."""
    last = max((m.end() for m in _BETWEEN.finditer(text)), default=-1)
    return last >= 0 and _AND_WORD.search(text, last) is None


def opens_question(piece: str) -> bool:
    """Whether ``piece`` opens as a question does (a question word or an auxiliary first)."""
    words = piece.split(maxsplit=1)
    return bool(words) and words[0].lower() in _QUESTION


def _carry_frame(previous: str, piece: str, routed: Callable[[str, str], bool]) -> str:
    """``piece`` completed with the verb or object it shares with ``previous``, when it has none."""
    words = piece.split()
    if words[0].lower() in _DETERMINER:
        if any(w in CLAUSE_WORDS or w.endswith("n't") for w in _WORDS.findall(piece.lower())):
            return piece  # a clause of its own: "my luggage is not here", "my card got declined"
        # "and my W-2" after "where is my payslip": the verb words before the previous object.
        before = previous.split()
        for index, word in enumerate(before):
            if word.lower() in _DETERMINER:
                if index:
                    return " ".join([*before[:index], piece])
                break
        return piece
    count = _COUNT.match(piece)
    if count and not routed(piece, previous):
        # "how many are left" after "how many PTO days have I used": the object comes back.
        earlier = _COUNT.match(previous)
        if earlier and earlier.group(1).lower() == count.group(1).lower():
            obj: list[str] = []
            for word in earlier.group(2).split():
                if word.lower() in _AUX:
                    break
                obj.append(word)
            if obj and obj != count.group(2).split()[: len(obj)]:
                return f"{count.group(1)} {' '.join(obj)} {count.group(2)}"
    return piece
