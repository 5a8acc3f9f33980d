"""Where the offline planner's split (:mod:`harness.planning.split`) may cut a message: the
punctuation and joining words between requests, the layout of lists and lines, and the openings
of a new request in unpunctuated text.

Everything here is a closed class of English or of layout, none a list for one message:

- **Lines and list markers.** A line break ends a request, and a list item's marker ("1.", "2)",
  "(3)", "#4", "-", "*", "•") opens one. Inline numbered items ("1) ... 2) ...") are cut at each
  marker after the first, when the message has a first one.
- **Discourse connectives**, the adverbs and phrases that add or order what is said ("btw", "by
  the way", "oh and", "then", "after that", "secondly", "on top of that", "separately", ...):
  they join two requests, and at a request's start they are a lead-in, not what it asks.
- **A new request in a run-on** ("whats my balance can you book a table for 2 tonight", in a
  message with no punctuation inside it; "then" and "after that" in any message): a cut
  that needs the piece after it to pass the same test as a piece after a bare comma (a *soft*
  cut). It is only a candidate where a request opening follows a request that is complete:
  a question word with its auxiliary ("what is", "how much money do", "whats"; not the embedded
  "what my balance is"), an auxiliary and its subject ("can you", "do i", "is there"), "I" and a
  verb of wanting or needing, "my ..." with its verb ("my luggage is lost"), or a request verb
  with its object ("book a", "tell me"); after three words or more, none of which leaves the
  clause open ("to", "the", "me", "know", "if", ...).

The word classes it shares with the missed-request check's segmenter (auxiliaries, question
words, request verbs, connectives) and the shapes of a statement (``states``, ``goes_on``,
``refers_back``, ``points_back``) are in :mod:`harness.text._shapes`.
"""

from __future__ import annotations

import re

from harness.models._arg_people import person_noun
from harness.text._shapes import (
    ASKS_FIRST,
    AUX_SET,
    AUX_WORDS,
    CLAUSE_OPENERS,
    CONTRACTED,
    GREETINGS,
    LEAD,
    OPEN_END,
    SCENE,
    SOFT_REACH,
    SUBJECTS,
    VERBS,
    WANTS,
    WH_SET,
    WH_WORDS,
    WORD,
    is_field,
    word_class,
)
from harness.text.spelled import NUMBER_WORDS

# A US state's postal code after a comma ends a place's name ("from Tampa, FL to Denver, CO"),
# not a request. The codes that are also English words (in, me, oh, ok, or, hi, id) are left out.
_STATE = (
    "(?:a[klrz]|c[aot]|d[ce]|fl|ga|i[al]|k[sy]|la|m[adinost]|n[cdehjmvy]|pa|ri|s[cd]|t[nx]|ut"
    "|v[at]|w[aivy])"
)

# Nor does a state's name ("for Charlottesville, Virginia for March 7th").
_STATE_NAME = (
    "(?:alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia"
    "|hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts"
    "|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey"
    "|new mexico|new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania"
    "|rhode island|south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington"
    "|west virginia|wisconsin|wyoming)"
)
# A comma before a year ("from May 1st, 2020 to June 2nd, 2020") is no cut either, nor one before
# a quotation ("how do I say, 'good morning' in Italian").

# What follows a request verb when it opens a request: its object or particle.
_OBJECT = "me|us|my|our|a|an|the|some|all|any|up|out|off|it|this|that|these|those|\\$?\\d"

_JOINERS = r"(?:and then|and also|and|also|plus|as well as)"
# The joining words a cut takes out of the text: the only words of the message no plan entry
# holds (``harness.planning.rules`` checks that every other word is planned).
JOINER = re.compile(r"\b" + _JOINERS + r"\b", re.IGNORECASE)
# Connectives that join requests wherever they stand ("... btw ...", "..., oh and ...").
# The connective is left at the start of the piece after it, where the lead-in keeps its words.
_STRONG = r"(?:btw|by the way|oh and|oh also)"
# A cut: its kind ("comma" for a bare comma, "lead" for a colon, "end" for a sentence end, a line
# break or an emoticon, "join" for a joining word, "soft" for the opening of a request in a
# run-on) decides whether the piece after it may be glued back. Linear in the text: a cut that
# starts with a run of punctuation or white space starts where the run starts (the
# look-behinds: a cut never ends inside such a run, it takes the run whole), runs are taken whole
# (``++``, ``*+``), and no run is shared out between two quantifiers.
_CUT_TEMPLATE = (
    r"(?P<join>(?P<end>(?<![?!.;])[?!.;]++\s++|\?\s*+$|(?<!\s)[^\S\n]*+\n\s*+"
    r"|(?<!\s)\s++(?::-?\)|:-?\(|:D|;-?\))(?:\s++|$)MARKS)"
    r"|(?:(?<!\s)\s*+,|,|(?<!\s))\s++\b(?:" + _JOINERS + r")\b[\s,]++"
    r"|(?:(?<!\s)\s*+,|,|(?<!\s))\s++(?=" + _STRONG + r"\b)"
    r"|(?<!\s)\s*+,\s*+\b(?:then|after that)\b[\s,]++"
    r"|(?:(?<!\s)\s*+,|,|(?<!\s))\s++[&+]\s++"
    r"|(?<!\s)\s++(?:/|--|[-–—])\s++)"
    r"|(?P<comma>(?:(?<!\s)\s++)?,\s++(?!" + _STATE + r"\b(?![-'])|(?:19|20)\d\d\b|['\"‘“]"
    r"|" + _STATE_NAME + r"\b))"
    r"|(?P<lead>(?<!\s):\s++)"
    r"|(?P<soft>(?<=[\w'])\s++(?:then|after that)\s++"
    r"|(?<=[\w'])\s++(?=(?:" + WH_WORDS + r")(?:'s|s)\b"
    r"|(?:" + WH_WORDS + r")(?:\s++(?!(?:" + SUBJECTS + r")\b)[\w'$]++){0,3}?\s++"
    r"(?:" + AUX_WORDS + r")\b"
    r"|(?:" + AUX_WORDS + r")\s++(?:" + SUBJECTS + r")\b"
    r"|(?:i'm|im|i'd|i)\s++(?:need|want|wanna|would|must|have to|'d like|like to|lost"
    r"|looking)\b"
    r"|my(?:\s++[\w']++){1,2}?\s++(?:is|was|has|got|isn't|wasn't|hasn't|didn't|won't|doesn't)\b"
    r"|please\s++(?:" + VERBS + r")\b"
    r"|(?:" + VERBS + r")\s++(?:" + _OBJECT + r")\b))"
)
CUT = re.compile(_CUT_TEMPLATE.replace("MARKS", ""), re.IGNORECASE)
# With inline numbered items ("1) where is my W-2 2) when is payday"): a cut at each marker
# after the first.
CUT_LISTED = re.compile(
    _CUT_TEMPLATE.replace("MARKS", r"|(?<!\s)\s++(?:\(?[2-9][.)]|#[2-9])\s++"), re.IGNORECASE
)
# Punctuation inside a message: a writer who punctuates marks where a request ends, so a soft
# cut at a request's opening is only looked for in a message without any.
PUNCTUATED = re.compile(r"[,;!?]|[.:](?=\s)")
FIRST_MARK = re.compile(r"(?:^|[\s:])(?:\(?1[.)]|#1)\s", re.IGNORECASE)

_VERB_SET = frozenset(VERBS.split("|")) | word_class("i i'd i've we need want wanna like please")
# Words only a clause has (auxiliaries, copulas and modals, "got", negation, question words,
# subject pronouns): a piece with one says its own verb ("my card got declined", "my luggage is
# not here"); a piece without one may be a bare noun phrase ("and my W-2") that shares the verb
# before it.
CLAUSE_WORDS = AUX_SET | WH_SET | word_class("be been got gets not never i we you they he she")
_SOFT_WORDS = 3
"""The fewest words a request has before a soft cut may end it."""


def soft_cut_allowed(text: str, start: int, at: int, *, joined: bool = False) -> bool:
    """Whether a soft cut at ``at`` may end the request that starts at ``start``: it is complete.

    That is: it has ``_SOFT_WORDS`` words or more besides its lead-in; it asks (it opens as a
    question or an imperative does, or says what is wanted or needed: a statement such as "i am
    going to germany soon" is the context of the question after it); it says a verb (an
    auxiliary, a request verb, or "I"/"we" and what they need); it does not open with a phrase
    that sets the scene ("to my task list", "while on the flight"); each question word in it has
    its auxiliary after it ("how many days do I have", not "how many days" or "tell me what
    time"); and its last word leaves nothing open. After a joining word (``joined``: "then",
    "after that") it only needs its words and no phrase that sets the scene ("if it rains then
    ...").
    """
    before = text[max(start, at - SOFT_REACH) : at]
    opening = LEAD.match(before)
    words = WORD.findall((before[opening.end() :] if opening else before).lower())
    while words and words[0] in GREETINGS:
        del words[0]
    if joined:
        return len(words) >= _SOFT_WORDS and words[0] not in SCENE
    if (
        len(words) < _SOFT_WORDS
        or words[-1] in OPEN_END
        or words[-1].endswith(CONTRACTED)
        or words[0] in SCENE
    ):
        return False
    if not (words[0] in ASKS_FIRST or any(w in WANTS for w in words)):
        return False  # a statement ("i am going to germany soon") is the context of what follows
    verb = False
    asking = False  # a question word whose auxiliary has not come yet
    for word in words:
        if word in AUX_SET:
            verb, asking = True, False
        elif word in WH_SET:
            asking = True  # until its auxiliary, or "to" ("how to get my paycheck")
        elif word == "to":
            asking = False
        elif word in _VERB_SET:
            verb = True
    return verb and not asking


# "go ahead and" before a verb: one verb said in two ("I'll go ahead and book it", "Let's go
# ahead and check flights", "went ahead and"), whose "and" joins no requests (closed class).
_GO = word_class("go goes going went gone")
GO_AHEAD = re.compile(
    r"^(?:[\w']++\s++){0,4}?(?:go|goes|going|went|gone)\s++ahead\s++and\s++(?=\w)",
    re.IGNORECASE,
)
"""A request's opening up to "go ahead and" ("I'll go ahead and ", "Let's go ahead and "): it
says nothing of what is asked; the request is routed on the rest."""


def inside_clause(text: str, start: int, cut: str) -> bool:
    """Whether the joining word ``cut`` (cut from ``text`` at ``start``) is "also" inside a
    clause: after a personal pronoun, a modal or a contraction ("I'd also like", "I'm also
    looking", "we also need", "can also"), or the "and" of "go ahead and" ("I'll go ahead and
    book it"), where it joins no two requests."""
    said = cut.strip().lower()
    words = WORD.findall(text[max(0, start - 40) : start].lower())  # bounded: linear
    if said == "and":  # not after a comma (", and" is no "and" here: it joins)
        return len(words) >= 2 and words[-1] == "ahead" and words[-2] in _GO
    if said != "also":  # not after a comma: ", also" joins
        return False
    return bool(words) and (words[-1] in CLAUSE_OPENERS or words[-1].endswith((*CONTRACTED, "'m")))


# A place and then its region or country after a comma ("in Toronto, Canada on the 13th", "to
# San Jose, Costa Rica"): the preposition of place before the name (a closed class), and the
# capitalised words of both names.
_PLACE_FROM = word_class("in to from at near around")
_NAME_WORD = re.compile(r"[A-Z][\w'.-]*+")
_REGION = re.compile(r"([A-Z][\w'-]*+)(?:\s++([\w']++))?")
_PLACE_NAME_WORDS = 3
_SUBJECT_SET = frozenset(SUBJECTS.split("|"))


def names_region(text: str, start: int, end: int) -> bool:
    """Whether the comma cut ``text[start:end]`` is inside a place's name: capitalised words after
    a preposition of place before it ("in Sydney", "to San Jose"), and after it a capitalised word
    that opens no request and is followed by no clause ("Australia on the 14th", "Canada.")."""
    after = _REGION.match(text, end)
    if after is None:
        return False
    region, following = after.group(1).lower(), (after.group(2) or "").lower()
    if (
        region in ASKS_FIRST
        or region in GREETINGS
        or region in CLAUSE_OPENERS
        or region in _SUBJECT_SET
        or LEAD.match(text, end, end + 40)
    ):
        return False  # "in Paris, Can you ...", "in Paris, My card ...", "in Paris, Also ..."
    if following in AUX_SET or following in WH_SET or following in CLAUSE_OPENERS:
        return False
    words = WORD.findall(text[max(0, start - 60) : start])  # bounded: linear in the text
    named = 0
    while words and _NAME_WORD.fullmatch(words[-1]) and named < _PLACE_NAME_WORDS:
        words.pop()
        named += 1
    return bool(named and words and words[-1].lower() in _PLACE_FROM)


def fields_joined(pieces: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """``pieces`` (the kind of the cut before each, the cut's text, the piece) with each "label:
    value" detail after a request one piece again ("... on Thursday. tonnes: 2"): the colon
    between its label and its value announces no request."""
    out: list[tuple[str, str, str]] = []
    for kind, cut_text, piece in pieces:
        if (
            kind == "lead"
            and len(out) > 1
            and cut_text.strip() == ":"
            and is_field(f"{out[-1][2]}: {piece}")
        ):
            before_kind, before_cut, label = out[-1]
            out[-1] = (before_kind, before_cut, f"{label}: {piece}")
            continue
        out.append((kind, cut_text, piece))
    return out


# A quantity named in parts ("for 3 adults and 2 children", "2 large and 1 small pizza", "for two
# of us plus a baby", "for me and my 3 sisters"): a count (a numeral, "one", a number word) before
# a noun phrase, then "and", "plus", "&" or "+", then another count ("a"/"an" too) before a noun
# phrase with no verb of its own. Its joining word joins the parts of one quantity, no two
# requests. After "a"/"an" only a person ("a baby", "a small child": WordNet's people nouns) or a
# count ("a dozen eggs") is a part: "2 pizzas and a taxi" names two things, perhaps for two agents. A part after it with a verb of its own ("and 2 children need a cot", "and book 2
# taxis") or a question's opening is a clause, and is still cut.
_COUNTS = NUMBER_WORDS | word_class("one a an dozen couple few")
_PART_JOINS = word_class("and plus & +")
# What a counted noun phrase before the joining word ends with: at most a few words after its
# count, none a preposition but "of" ("three of us", "2 pounds of rice"): "2 tickets to Rome and
# a hotel room" names two things with their own places, not parts of one quantity.
_PART_WORDS = 4
_PREPOSITIONS = word_class(
    "to in on at for from with by about into onto over under near via per than as like"
)
_OWNERS = word_class("my our your his her their")
_SPEAKER = word_class("me us")
# A request verb's word one or two words after these is a noun ("my shopping list", "the order").
_NOUN_BEFORE = _OWNERS | word_class("the a an this that these those some any")
_NUMERAL = re.compile(r"\d[\d,.]*+")


def _counts(word: str, *, article: bool) -> bool:
    """Whether ``word`` is a count: a numeral or a number word ("a"/"an" when ``article``)."""
    if word in ("a", "an"):
        return article
    return word in _COUNTS or _NUMERAL.fullmatch(word) is not None


def _verbless(words: list[str]) -> bool:
    """Whether ``words`` say no verb of their own (closed classes: auxiliaries, question words,
    pronoun subjects, request verbs, verbs of wanting, negation)."""
    for index, word in enumerate(words):
        if word in CLAUSE_WORDS or word in WANTS or word.endswith("n't"):
            return False
        if word in _VERB_SET and not _NOUN_BEFORE.intersection(words[max(0, index - 2) : index]):
            return False  # "my shopping list", "the order": a request verb's word as a noun
    return True


def names_parts(before: str, cut: str, piece: str) -> bool:
    """Whether the joining word ``cut`` joins two parts of one quantity: ``before`` ends with a
    counted noun phrase (or the speaker after a preposition: "for me") and ``piece`` is a count
    before a noun phrase (after "my", "our", ...), with no verb of its own."""
    if cut.strip(" ,").lower() not in _PART_JOINS:
        return False
    said = WORD.findall(piece.lower())
    if said and said[0] in _OWNERS:
        del said[0]
    if len(said) < 2 or not _counts(said[0], article=True) or not _verbless(said):
        return False
    if said[0] in ("a", "an") and not (
        said[1] in _COUNTS or any(person_noun(w) for w in said[1:3])
    ):
        return False  # "order 2 pizzas and a taxi": a thing of its own, not one more of a party
    written = WORD.findall(before[-SOFT_REACH:])
    words = [w.lower() for w in written]
    if len(words) >= 2 and words[-1] in _SPEAKER and words[-2] in _PREPOSITIONS:
        return True  # "for me and my 3 sisters", "with us and 2 guests"
    for back in range(1, min(_PART_WORDS, len(words) - 1) + 1):
        tail = words[-back:]
        if any(w in _PREPOSITIONS for w in tail) or not _verbless(tail):
            return False
        if written[-back][:1].isupper() and words[-back] != "i":
            return False  # a name after a number ("to 638 El Camino Real"): an address
        if _counts(words[-back - 1], article=False):
            return True
    return False
