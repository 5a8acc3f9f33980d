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
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


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

# Auxiliaries and modals (a closed class), as a question or a clause opens with them.
_AUX_WORDS = (
    "is|are|was|were|am|do|does|did|have|has|had|can|could|will|would|shall|should|may|might|must"
    "|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|haven't|hasn't|can't|cannot|couldn't"
    "|won't|wouldn't|shouldn't|isnt|arent|dont|doesnt|didnt|cant|wont"
)
_WH_WORDS = "what|when|where|which|who|whom|whose|why|how"
# Determiners and personal pronouns: a word of these after a question word makes the clause an
# embedded one ("what my balance is", "when i get home"), not a question.
_SUBJECTS = (
    "i|you|we|they|he|she|it|there|my|your|our|their|his|her|its|the|a|an|this|that|these|those"
    "|any|some|i'm|im|i'd|i've"
)
# Request verbs (imperatives people open a request with), as in the check's segmenter's class.
_VERBS = (
    "tell|show|give|find|get|check|look|book|reserve|cancel|change|update|set|reset|unlock|lock"
    "|order|buy|pay|send|transfer|add|remove|delete|put|make|schedule|remind|play|call|text|turn"
    "|start|stop|switch|open|close|create|request|submit|report|freeze|block|track|confirm"
    "|explain|list|read|search|locate|share|translate|convert|calculate|increase|decrease|raise"
    "|lower|move|rename|renew|replace|apply|activate|deactivate|suggest|recommend|inform|notify"
    "|alert|teach|say|repeat|provide|pull|take|use|bring|help|let|erase|clear|mark|cross"
)
# What follows a request verb when it opens a request: its object or particle.
_OBJECT = "me|us|my|our|a|an|the|some|all|any|up|out|off|it|this|that|these|those|\\$?\\d"
# Discourse connectives that add or order requests (a closed class), at the start of a piece.
CONNECTIVE = (
    r"(?:and|also|plus|then|so|oh|btw|by the way|after that|afterwards|besides(?: that)?"
    r"|additionally|in addition|furthermore|moreover|on top of that|apart from that"
    r"|other than that|aside from that|separately|unrelated(?:,? but)?|lastly|finally"
    r"|last but not least|firstly|first off|first of all|secondly|thirdly|fourthly"
    r"|while you'?re at it|meanwhile|in the meantime|similarly|likewise)\b"
    # Ordinals and "next" are connectives before a comma or a question ("next, ...", "next
    # what is ..."), not in "first class" or "next week".
    r"|(?:first|second|third|fourth|next|to (?:start|begin)(?: with)?)"
    r"(?=\s*+(?:,|$)|\s++(?:what|when|where|which|who|why|how|can|could|please)\b)"
)
# A list item's marker at the start of a piece (a line's or the message's).
_MARKER = r"(?:\(?\d{1,2}[.)](?=\s)|#\d{1,2}\b|\d{1,2}\s?-(?=\s)|[-*•–·](?=\s?[^\W\d_]))"
# A piece's opening that asks nothing: list markers and connectives, with their punctuation.
LEAD = re.compile(r"^\s*+(?:(?:" + _MARKER + r"|" + CONNECTIVE + r")[\s,:]*+)+", re.IGNORECASE)

_JOINERS = r"(?:and then|and also|and|also|plus|as well as)"
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
    r"|(?<=[\w'])\s++(?=(?:" + _WH_WORDS + r")(?:'s|s)\b"
    r"|(?:" + _WH_WORDS + r")(?:\s++(?!(?:" + _SUBJECTS + r")\b)[\w'$]++){0,3}?\s++"
    r"(?:" + _AUX_WORDS + r")\b"
    r"|(?:" + _AUX_WORDS + r")\s++(?:" + _SUBJECTS + r")\b"
    r"|(?:i'm|im|i'd|i)\s++(?:need|want|wanna|would|must|have to|'d like|like to|lost"
    r"|looking)\b"
    r"|my(?:\s++[\w']++){1,2}?\s++(?:is|was|has|got|isn't|wasn't|hasn't|didn't|won't|doesn't)\b"
    r"|please\s++(?:" + _VERBS + r")\b"
    r"|(?:" + _VERBS + r")\s++(?:" + _OBJECT + r")\b))"
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

_WORD = re.compile(r"[\w'$]+")
_WH_SET = frozenset(_WH_WORDS.split("|")) | {"what's", "whats", "how's", "hows", "where's"}
_AUX_SET = (
    frozenset(_AUX_WORDS.split("|"))
    | frozenset(f"{wh}{s}" for wh in _WH_WORDS.split("|") for s in ("'s", "s"))
    | _words("that's it's i'm im")
)
# Words after which the clause is still open: a soft cut never follows one (closed classes:
# determiners, prepositions, conjunctions and subordinators, auxiliaries, pronouns that ask for a
# verb or an object, and the verbs of knowing and asking that take a question after them).
_OPEN_END = (
    frozenset(_SUBJECTS.split("|"))
    | frozenset(_AUX_WORDS.split("|"))
    | _WH_SET
    | _words(
        """
        to of for in on at by with from about into over under between than as and or but nor if
        whether because since while though although unless until so that which who whom please
        me us him them know knew wonder wondering ask asking tell see understand learn sure
        idea curious out find check let help can't just also still really even
        """
    )
)
# Words a phrase that sets the scene opens with (prepositions and subordinators).
_SCENE = _words("to in on at for from with about by during after before while since because if as")
_VERB_SET = frozenset(_VERBS.split("|")) | _words("i i'd i've we need want wanna like please")
# How a request opens (a question, an imperative) or what it says it wants: a piece that has
# none of these is a statement, the context of the question after it.
_ASKS_FIRST = _WH_SET | _AUX_SET | frozenset(_VERBS.split("|")) | _words("please id i'd")
_GREETINGS = _words("hi hello hey yo there ok okay so well um uh hmm")
# Words only a clause has (auxiliaries, copulas and modals, "got", negation, question words,
# subject pronouns): a piece with one says its own verb ("my card got declined", "my luggage is
# not here"); a piece without one may be a bare noun phrase ("and my W-2") that shares the verb
# before it.
CLAUSE_WORDS = _AUX_SET | _WH_SET | _words("be been got gets not never i we you they he she")
_WANTS = _words("need needs want wants wanna like looking")
_AUXILIARIES = frozenset(_AUX_WORDS.split("|"))
# Verbs a statement goes on with after "and" when the subject is the one before it (closed
# classes): the verbs of needing and wanting, with which no imperative opens ("i took a new job and
# need help with my 401k"), and an auxiliary that no subject follows: "am" without "i" ("i want a
# cab and am a group of one"), a negated one but "don't" ("and can't find my luggage"), or any
# before a participle, "been" or an adverb ("and was returned to me"). "and does France ..." and
# "and can you ..." open questions.
_GOES_ON = _words("need needs want wants wanna")
_NEGATED = frozenset(
    w for w in _AUXILIARIES if w.endswith(("n't", "nt")) or w == "cannot"
) - _words("don't dont")
# How a question or an imperative opens ("i'm", "that's" state).
_OPENS_ASKING = _WH_SET | _AUXILIARIES | frozenset(_VERBS.split("|")) | _words("please")
_REFERRING = _words("it them")
# A statement's subject (a closed class: the pronouns a speaker states about themselves or a
# situation with), and the words of wishing or asking a statement has no room for.
# What a clause's "also" may follow: a personal pronoun or a modal (closed classes).
_CLAUSE_OPENERS = _words("i im we you they he she can could would will should might may must")
_STATES_FROM = _words("i i'm i'll i've we we're we'll we've there there's it it's")
_ASKING_WORDS = _AUXILIARIES - _words("am is are was were be been will") | _words(
    "wish prefer hope love trying try please help let's"
)
_ONE_OF = _words("new another replacement")
# "one" standing for a thing named before ("I'd like one with a balcony"): not after a word that
# makes it a number or a choice ("no one", "this one"), and followed by what describes it.
_NOT_PRONOUN = _words("no any every each some only just which what this the")
_AFTER_ONE = _words("with that which for in on at from near around please too instead")
_PARTICIPLE_NEXT = _words("be been being not never just still also already really")
# An auxiliary's contraction ("my job'll"): a verb follows it.
_CONTRACTED = ("'ll", "'d", "'ve", "'re", "n't")
_SOFT_WORDS = 3
"""The fewest words a request has before a soft cut may end it."""
_SOFT_REACH = 200
"""How much of the text before a soft cut is read (the work per candidate stays bounded)."""


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
    before = text[max(start, at - _SOFT_REACH) : at]
    opening = LEAD.match(before)
    words = _WORD.findall((before[opening.end() :] if opening else before).lower())
    while words and words[0] in _GREETINGS:
        del words[0]
    if joined:
        return len(words) >= _SOFT_WORDS and words[0] not in _SCENE
    if (
        len(words) < _SOFT_WORDS
        or words[-1] in _OPEN_END
        or words[-1].endswith(_CONTRACTED)
        or words[0] in _SCENE
    ):
        return False
    if not (words[0] in _ASKS_FIRST or any(w in _WANTS for w in words)):
        return False  # a statement ("i am going to germany soon") is the context of what follows
    verb = False
    asking = False  # a question word whose auxiliary has not come yet
    for word in words:
        if word in _AUX_SET:
            verb, asking = True, False
        elif word in _WH_SET:
            asking = True  # until its auxiliary, or "to" ("how to get my paycheck")
        elif word == "to":
            asking = False
        elif word in _VERB_SET:
            verb = True
    return verb and not asking


def goes_on(previous: str, piece: str) -> bool:
    """Whether ``piece``, after "and", goes on with the statement ``previous`` (the same subject,
    no subject of its own): ``previous`` opens as a statement does (not as a question, an
    imperative or "please"), and ``piece`` opens with a verb that has no subject of its own
    (``_GOES_ON``, an auxiliary without its subject)."""
    before = _WORD.findall(previous[:_SOFT_REACH].lower())
    words = _WORD.findall(piece[:_SOFT_REACH].lower())
    while before and before[0] in _GREETINGS:
        del before[0]
    if len(words) < 2 or not before or before[0] in _OPENS_ASKING:
        return False
    first: str = words[0]
    second: str = words[1]
    if first in _GOES_ON or first in _NEGATED:
        return True
    if first == "am":
        return second != "i"
    return first in _AUXILIARIES and (second in _PARTICIPLE_NEXT or second.endswith("ed"))


def opens_request(piece: str) -> bool:
    """Whether ``piece`` opens as a request does: a question word, an auxiliary, a request verb or
    "please" first."""
    words = _WORD.findall(piece[:_SOFT_REACH].lower())
    return bool(words) and words[0] in _ASKS_FIRST


def inside_clause(text: str, start: int, cut: str) -> bool:
    """Whether the joining word ``cut`` (cut from ``text`` at ``start``) is "also" inside a
    clause: after a personal pronoun, a modal or a contraction ("I'd also like", "I'm also
    looking", "we also need", "can also"), where it joins no two requests."""
    if cut.strip().lower() != "also":  # not after a comma: ", also" joins
        return False
    words = _WORD.findall(text[max(0, start - 40) : start].lower())  # bounded: linear
    return bool(words) and (
        words[-1] in _CLAUSE_OPENERS or words[-1].endswith((*_CONTRACTED, "'m"))
    )


def states(text: str) -> bool:
    """Whether ``text`` only states (closed classes): after any greeting, it opens as no question
    or imperative does and has no word of wanting ("There is an urgency to go out", "I'll be
    travelling soon"; not "I want a cab", "can you ...", "book ...")."""
    opening = LEAD.match(text)
    words = _WORD.findall(text[opening.end() if opening else 0 :][:_SOFT_REACH].lower())
    while words[1:] and words[0] in _GREETINGS and words[0] not in _STATES_FROM:
        del words[0]
    return (
        bool(words)
        and words[0] in _STATES_FROM
        and not any(w in _WANTS or w in _ASKING_WORDS for w in words)
    )


def refers_back(previous: str, piece: str) -> bool:
    """Whether ``piece`` asks something about what the statement ``previous`` names, by a pronoun
    (closed classes): "it" or "them" as an object ("my card has been erased and I need to report
    it"; not in "what is it", "it is"), or "a new one", "another one". ``previous`` states (it
    opens as no question or imperative does and wants nothing: "I want ..." is a request), and
    ``piece`` is no question or clause with its own auxiliary ("... and my bags didn't make it")."""
    opening = LEAD.match(previous)
    before = _WORD.findall(previous[opening.end() if opening else 0 :][:_SOFT_REACH].lower())
    while before and before[0] in _GREETINGS:
        del before[0]
    if not before or before[0] in _OPENS_ASKING or any(w in _WANTS for w in before):
        return False
    return points_back(piece)


def points_back(piece: str) -> bool:
    """Whether ``piece`` asks something about what was named before it, by a pronoun (closed
    classes): "it" or "them" as an object ("please reserve it for 7 pm"; not in "what is it",
    "it is"), "a new one", "another one", or "one" before what describes it ("I'd like one with
    a balcony"); and it is no question or clause with its own auxiliary."""
    words = _WORD.findall(piece[:_SOFT_REACH].lower())
    if any(w in _AUXILIARIES or w in _WH_SET or w.endswith("n't") for w in words):
        return False
    for index, word in enumerate(words):
        if word in _REFERRING and index > 0 and words[index - 1] not in _OPEN_END - _SCENE:
            return True
        if word == "one" and index and words[index - 1] in _ONE_OF:
            return True
        if (
            word == "one"
            and index
            and words[index - 1] not in _NOT_PRONOUN
            and index + 1 < len(words)
            and words[index + 1] in _AFTER_ONE
        ):
            return True
    return False
