"""Which sentences of a message belong to the request next to them rather than asking on
their own (:mod:`harness.planning.split` reads them after a sentence end or a comma): a statement
of the request's values after it ("It will be for 4 people.", "I leave on the 12th.", "I'm
thinking March 5th."), of what the speaker prefers ("I prefer a garden."), a fragment that
describes it, gives its schedule or says where or when ("preferably one with wifi", "leaving on
the 7th", "at Roxie Theater"), a condition on it ("it has to have laundry service", "I need it
to allow pets"), its schedule after "and" ("... and leave by the 7th"), and a plan or
something coming up stated before a request ("I'm planning a trip to Lima. Can you find me a
flight?", "I have an upcoming trip."). The shapes come from Schema-Guided
Dialogue train user turns, where one request often comes with its context and details in
sentences of their own; every word class here is a closed class of English.
"""

from __future__ import annotations

import re
from itertools import pairwise

from harness.text._shapes import (
    AUX_SET,
    GREETINGS,
    SOFT_REACH,
    STATES_FROM,
    VERBS,
    WANTS,
    WH_SET,
    opens_request,
    states,
    word_class,
)
from harness.text.facts import DATE_WORDS

_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Values: a piece of these alone ("march 10", "the 18th", "yesterday") is a part of a request.
VALUE_WORDS = DATE_WORDS | frozenset(
    _WORDS.findall(
        """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
    thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
    thirtieth yesterday today tomorrow tonight noon midnight am pm"""
    )
)
NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?")

# A statement with a request verb or a word of interest or asking asks ("I let my bank know ...",
# "I'm interested in requesting ..."): the request verbs of ``harness.text._shapes.VERBS``, the
# adjectives of wanting and the stem of "inquire" (closed classes).
_ASKING = frozenset(VERBS.split("|")) | word_class("interested hoping keen eager inquir")
# How a statement of a request's values goes on after its subject (closed classes, see
# ``_states_values``): a present form of "be", in the subject ("I'm", "it's") or after it, or
# "will"; the subjects, the words that bring in something new and the adverbs that may come
# between. Any other verb ("I lost", "I've notified", "it was declined") reports or asks.
_BE = word_class("am is are be")
_BE_SUBJECTS = word_class("i'm im we're it's there's")
_FUTURE = word_class("will shall gonna i'll we'll it'll")
_SUBJECTS = STATES_FROM | word_class("im it'll")  # the subjects `states` reads, and two spellings
_NEW = word_class("a an some another")  # what brings in a thing not named before
_ADVERBS = word_class("just also really actually currently soon now probably still only all")
# The verbs of intending in the present, which state a plan as "will be" does ("I plan to leave
# next Thursday", "I anticipate departing on the 13th"; a closed class).
_INTENDS = word_class("plan plans intend intends expect expects anticipate anticipates aim aims")
# A number of its own, not one inside a name ("my W-2").
_STANDALONE_NUMBER = re.compile(r"(?<![\w-])\d++(?:st|nd|rd|th|:\d\d)?(?![\w-])")
# Who states a plan, the auxiliaries and adverbs between them and its "-ing" verb, and the verbs
# in "-ing" that want, try, think or ask rather than plan (closed classes).
_PLANNER = frozenset({"i", "we", "i'm", "im", "we're", "i'll", "we'll"})
_PROGRESSIVE = word_class(
    "am are will shall be gonna just also really actually currently soon now probably"
)
_NOT_PLANS = word_class(
    "need want look try wish hop wonder think hav gett wait request apply report"
    " interest search seek ask"
)
# The verbs whose present tense states a schedule, as "will" does ("I leave on the 12th", "it
# starts at 5 pm", "we fly out on the 3rd"; a closed class, present forms only: a past tense, "I
# left", reports).
_SCHEDULED = word_class(
    "leave leaves arrive arrives depart departs return returns start starts begin begins"
    " end ends finish finishes fly flies land lands"
)
# "thinking" states a choice of value ("I'm thinking March 5th", "I was thinking the 11th"), not
# a wish; "was" and "were" are a polite present before it.
_CHOOSING = "thinking"
_WAS = word_class("was were")
_MERIDIEM = frozenset({"am", "pm"})  # a value after a number only ("i am", "5 pm")
_CARDINALS = word_class(
    "one two three four five six seven eight nine ten eleven twelve half quarter"
)


def gives_details(piece: str) -> bool:
    """Whether ``piece`` only states values ("It will be for 4 people.", "I'm leaving on March
    3rd", "There are two of us"): it states (``harness.text._shapes.states``: a subject pronoun
    first, no word of wanting or asking), goes on as a value does (:func:`_states_values`) and
    names a date, a time or a number. A report of what happened ("I lost my card yesterday", "It
    was declined 3 times") or a statement of its own verb ("I'll require a car on the 5th") asks
    on its own."""
    words = _WORDS.findall(piece.lower())
    if not states(piece):
        words = _as_pronoun(words)  # "The show starts at 8": "it starts at 8"
        if not words or not states(" ".join(words)):
            return False
    if any(_asks_word(w) for w in _without_check_in(words)):
        return False
    if not _states_values(words):
        return False
    return _STANDALONE_NUMBER.search(piece) is not None or any(
        (word in VALUE_WORDS and word not in _MERIDIEM) or word in _CARDINALS for word in words
    )


# A subject that names what the request is about ("the reservation", "my flight", "our check-in
# date"): a determiner and up to three words of no clause (closed classes).
_NAMING = word_class("the my our")
_NAME_WORDS = 3
# Words no name of a thing has: an auxiliary, a question word or a subject pronoun ("my card was
# declined", "the one i want"; closed classes). A request verb may be a noun ("the show").
_NOT_NAME = AUX_SET | WH_SET | word_class("i i'm i'd we you they he she it")


def _as_pronoun(words: list[str]) -> list[str]:
    """``words`` with a subject that names a thing ("the show", "my flight") said as "it", when
    they open with one and a present "be", "will" or a verb of a schedule follows it; else no
    words."""
    if not words or words[0] not in _NAMING:
        return []
    for k, word in enumerate(words[1 : _NAME_WORDS + 2], 1):
        if word in _BE or word in _FUTURE or word in _SCHEDULED:
            return ["it", *words[k:]] if k > 1 else []
        if word in _NOT_NAME or word in _NAMING or _STANDALONE_NUMBER.fullmatch(word):
            return []
    return []


# How a statement of what the speaker prefers opens ("I prefer a garden", "I like Stephen
# Merchant movies", "We'd prefer the 9th"): "I" or "we", adverbs or the modal "would", and a verb
# of liking in the present, or "prefer" after a modal (closed classes).
_PREFERRER = word_class("i we i'd we'd")
_LIKES = word_class("prefer like love enjoy")
_PREFER_ADVERBS = word_class("really also just definitely especially only")
_MODAL = "would"
# What opens a clause of its own after the verb ("I prefer that you send it", "I prefer you call
# me").
_CLAUSE_AFTER = word_class("that you")
# A closing "too" or "as well" adds a request or a want to the ones before ("I'd prefer a car
# too"); it says nothing of what it asks (``harness.planning.split`` routes without it).
TRAILING = re.compile(r"(?<![\s,])[\s,]++(?:too|as well)[\s.?!]*+$", re.IGNORECASE)


def prefers(piece: str) -> bool:
    """Whether ``piece`` only states what the speaker prefers ("I prefer flexible tickets", "I
    like movies by Jordan Peele", "I'd prefer the 9th"): "I" or "we", a verb of liking in the
    present ("I'd like" and "I would like" want something new), no "to", "that" or "you" after
    it, and no question word or request verb. A closing "too" or "as well", or "also" before a
    modal "prefer" ("I'd also prefer a hotel"), adds a want of its own."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if len(words) < 3 or words[0] not in _PREFERRER or TRAILING.search(piece) is not None:
        return False
    k = 1
    while k < len(words) and (words[k] in _PREFER_ADVERBS or words[k] == _MODAL):
        k += 1
    if k >= len(words) - 1 or words[k] not in _LIKES or words[k + 1] in _CLAUSE_AFTER | {"to"}:
        return False
    modal = words[0].endswith("'d") or _MODAL in words[1:k]
    if modal and (words[k] != "prefer" or "also" in words[1:k]):
        return False
    return not any(_asks_word(w) for w in words[k + 1 :])


def _asks_word(word: str) -> bool:
    """Whether ``word`` is a question word or a word of asking (``_ASKING``): a statement with one
    asks something of its own."""
    return word in WH_SET or word in _ASKING or _stem(word) in _ASKING


def _states_values(words: list[str]) -> bool:
    """Whether the words of a statement go on after its subject as a statement of values does
    (the shape of Schema-Guided Dialogue train user turns that inform a request's slots after
    it): a present "be" or a verb of intending ("I plan to leave"), then no past participle
    ("It's declined") and no "-ing" verb of wanting, trying or having ("I'm having trouble"), or
    "thinking" ("I'm thinking March 5th", also after "was"); a verb of a schedule in the present
    ("I leave on the 12th", "it starts at 5 pm"); or "will" and a verb that wants nothing and
    brings in nothing new ("I will return on the 13th", "I'll pick it up at 10"; not "I'll
    require a car"). Any other finite verb (a
    past tense, regular or not, a perfect, "was"/"were" or a present verb of its own) reports or
    asks."""
    start = next((k for k, word in enumerate(words) if word in _SUBJECTS), len(words))
    words = words[start:]
    if not words:
        return False
    be = words[0] in _BE_SUBJECTS
    future = words[0] in _FUTURE
    for k, word in enumerate(words[1:], 1):
        if word in _ADVERBS:
            continue
        if word in _WAS and words[k + 1 : k + 2] == [_CHOOSING]:
            continue
        if word == _CHOOSING and (be or words[k - 1] in _WAS):
            return True
        if word in _SCHEDULED and not (be or future):
            return True
        if word in _FUTURE and not be:
            future = True
            continue
        if word in _BE or (word in _INTENDS and not be):
            be = True
            continue
        if be:
            if word.endswith("ing"):
                return _stem(word) not in _NOT_PLANS
            return not word.endswith("ed")  # "it's declined": a report
        # "will" and a verb of its own: a plan, unless it wants or brings in something new.
        after = words[k + 1] if k + 1 < len(words) else ""
        return future and _stem(word) not in _NOT_PLANS and after not in _NEW
    return be


def sets_scene(statement: str, piece: str) -> bool:
    """Whether ``statement`` sets the scene of the request ``piece``: it only states
    (``harness.text._shapes.states``), and ``piece`` opens as a request does or says what is
    wanted."""
    if not _plans(statement) or gives_details(statement):
        return False
    return opens_request(piece) or any(w in WANTS for w in _WORDS.findall(piece.lower()))


def _plans(statement: str) -> bool:
    """Whether ``statement`` tells what the speaker is doing or will do ("I'm planning a trip",
    "We will be travelling to Lima", "I'm relocating for work"): "I" or "we", an auxiliary of
    the progressive or the future and a verb in "-ing" that is no word of wanting, trying or
    thinking (closed classes). A report ("I think a thief used my card", "there are charges on
    my card") or a wish ("I'm hoping to apply for a card") is a request of its own."""
    words = _WORDS.findall(statement[:SOFT_REACH].lower())
    while words and words[0] in GREETINGS:
        del words[0]
    if _expects(words):
        return True
    if not states(statement) or not words or words[0] not in _PLANNER:
        return False
    for word in words[1:]:
        if word in _PROGRESSIVE:
            continue
        return word.endswith("ing") and _stem(word) not in _NOT_PLANS
    return False


# What the speaker has coming ("I have an upcoming trip", "We've got a wedding coming up", "I
# have a trip soon"): "I have", "we have", "I've got" or "we've got" (not a bare "got": "I got a
# trip" may report), and a word of the near future (closed classes).
_HAVING = word_class("i we i've we've")
_COMING = word_class("upcoming soon coming")
_EXPECTS_WORDS = 10


def _expects(words: list[str]) -> bool:
    """Whether ``words`` (a statement's, greetings dropped) say that the speaker has something
    coming ("I have an upcoming trip", "I've got a trip coming up"): "I have", "we have", "I've
    got" or "we've got", a word of the near future, and no other verb of a clause, no word of
    wanting or asking and nothing negated (closed classes)."""
    if len(words) > _EXPECTS_WORDS or not words or words[0] not in _HAVING:
        return False
    rest = words[1:] if words[0].endswith("'ve") else words[2:]
    if (words[0].endswith("'ve") and rest[:1] != ["got"]) or (
        words[0] in ("i", "we") and words[1:2] != ["have"]
    ):
        return False
    rest = rest[1:] if rest[:1] == ["got"] else rest
    return any(w in _COMING for w in rest) and not any(
        w in _OWN_CLAUSE or w in WANTS or w in _ASKING or w.endswith("n't") or w in ("no", "not")
        for w in rest
    )


def ends_sentence(cut_text: str) -> bool:
    """Whether the cut ``cut_text`` ends a sentence inside a line (no line break, no list)."""
    return cut_text.strip()[:1] in (".", "!", "?") and "\n" not in cut_text


def _stem(word: str) -> str:
    """``word`` without an "-ing" or "-ed" ending ("requesting": "request")."""
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)]
    return word


# How a fragment that describes what the request before it asks for opens: a hedge ("preferably
# one with wifi", "maybe something cheap"), an indefinite pronoun ("something kid friendly") or
# "with" ("with subtitles, please"); and the words after which a relative clause goes on
# describing it ("a pizza place which is not very costly"). Closed classes.
_DESCRIBES_FROM = word_class(
    "maybe perhaps preferably ideally possibly like something anything somewhere someplace"
    " with without specifically particularly especially"
)
# The prepositions of place and time that open a fragment naming where or when ("at Roxie
# Theater", "around Fresno.", "for a stay from March 2nd to the 7th"; a closed class). "About"
# before a number names a time ("about 6 pm"); before anything else, after a comma, it narrows
# what the request is about ("..., specifically, about my savings account"), and a sentence that
# opens with it opens a topic of its own ("About my refund from last week.").
_WHERE_WHEN = word_class("at in on near around for from during")
_ABOUT = word_class("about")
# Phrases that open with such a preposition and name no place or time: they turn the talk
# ("On second thought never mind", "at least", "for example"; a closed class).
_TURNS = frozenset(
    (
        "on second",
        "on the other",
        "in any",
        "in addition",
        "in that",
        "at least",
        "at any",
        "for example",
        "for instance",
    )
)
# Words that say a fragment is a request of its own, added to the one before ("At the airport a
# rental car too").
_ADDS = frozenset(("too", "as well"))
# Subject pronouns and "there": after an auxiliary, the inverted order of a question ("which hotel
# do you suggest", "where can I park", "is there parking").
_INVERTED = word_class("i we you they he she it there")
_RELATIVE = word_class("which that who where whose")
# How a fragment that gives the schedule of what the request before it books opens: the "-ing"
# form of a verb of coming and going, alone or with its particle ("leaving on the 7th",
# "returning Sunday", "checking in on the 1st", "getting back on March 10th"). Closed classes.
_SCHEDULE_ING = word_class(
    "leaving arriving departing returning flying landing staying traveling travelling"
)
_SCHEDULE_PHRASES = frozenset(
    ("checking in", "checking out", "getting back", "coming back", "heading back", "flying back")
)
# Words only a clause of its own has: an auxiliary, a question word, a subject pronoun or a
# request verb (closed classes).
_OWN_CLAUSE = (
    AUX_SET | WH_SET | frozenset(VERBS.split("|")) | word_class("i i'm i'd we you they he she")
)
_FRAGMENT_WORDS = 12


def describes(piece: str, *, asked: bool = False) -> bool:
    """Whether ``piece`` is a fragment that describes what the request before it asks for
    ("preferably one which allows pets", "Maybe Jon Pardi or anything Country", "Something kid
    friendly", "with subtitles, please") or gives its schedule ("leaving on the 7th", "checking
    in on the 1st of March"): it opens with a hedge, an indefinite pronoun or "with"
    (``_DESCRIBES_FROM``), or with the "-ing" form of a verb of coming and going
    (``_SCHEDULE_ING``, ``_SCHEDULE_PHRASES``), is short, and has no clause of its own before any
    relative word, nor a question after it (``asked``: a question mark ends the piece, a
    sentence of its own)."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if not words or len(words) > _FRAGMENT_WORDS:
        return False
    if words[0] not in _DESCRIBES_FROM and not schedules(piece):
        return False
    return _no_clause(words, asked=asked)


def names_where_or_when(piece: str, *, asked: bool = False, topic: bool = False) -> bool:
    """Whether ``piece`` is a fragment that says where or when ("at Roxie Theater", "around
    Fresno.", "for a stay from March 2nd to the 7th"): it opens with a preposition of place or
    time (``_WHERE_WHEN``; "about" before a number, or not as a sentence's opening: ``topic``),
    asks no question ("From which airport?", "at what time"; ``asked``: a question mark ends the
    piece, a sentence of its own, "In Lisbon?"), turns no talk ("On second thought",
    ``_TURNS``), adds nothing ("At the airport a car too"), is short and has no clause of its own
    before any relative word. Whether it belongs to the request before it or sets the scene of
    the one after it is the split's call."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if not words or len(words) > _FRAGMENT_WORDS or asked:
        return False
    if words[0] in _ABOUT:
        if topic and (len(words) < 2 or not words[1][:1].isdigit()):
            return False
    elif words[0] not in _WHERE_WHEN:
        return False
    if (len(words) > 1 and words[1] in WH_SET | _RELATIVE) or " ".join(words[:2]) in _TURNS:
        return False
    if words[-1] in _ADDS or " ".join(words[-2:]) in _ADDS:
        return False
    return _no_clause(words)


def schedules(piece: str) -> bool:
    """Whether ``piece`` opens with the "-ing" form of a verb of coming and going ("leaving on
    the 7th", "checking out Sunday")."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    return bool(words) and _schedules(words)


def _no_clause(words: list[str], *, asked: bool = False) -> bool:
    """Whether ``words`` have no clause of their own (``_OWN_CLAUSE``) before a relative word,
    and none that asks after it: a relative word can be a question word too ("which hotel do
    you suggest?"), so a question mark at the end (``asked``) or an auxiliary before a subject
    pronoun ("do you", "is there") after it makes a question, not a relative clause."""
    for index, word in enumerate(words[1:], start=1):
        if word in _RELATIVE:
            return not asked and not any(
                a in AUX_SET and b in _INVERTED for a, b in pairwise(words[index:])
            )
        if word in _OWN_CLAUSE:
            return False
    return True


def _schedules(words: list[str]) -> bool:
    """Whether ``words`` open with the "-ing" form of a verb of coming and going."""
    return words[0] in _SCHEDULE_ING or " ".join(words[:2]) in _SCHEDULE_PHRASES


# "Check in" and "check out" are the coming and going of a stay ("I will be checking in by the
# 1st", "check out at 11"), not a request to check something; before a thing ("I will check out
# the Louvre") they ask to see it: a statement of values may have them only before a time, a
# date, a preposition or nothing.
_CHECK = word_class("check checking")
_IN_OUT = word_class("in out")
# The prepositions of time and place a stay's "check in" may come before (closed class).
_WHEN_WHERE = word_class(
    "on by at from in around before after until till through via to for this next"
)


def _without_check_in(words: list[str]) -> list[str]:
    """``words`` without the verb of each "check in" or "check out" of a stay ("checking in on the
    1st")."""
    return [w for k, w in enumerate(words) if not (w in _CHECK and _checks_in(words[k + 1 :]))]


def _checks_in(after: list[str]) -> bool:
    """Whether ``after`` (the words after "check") open with "in" or "out" and then a time, a
    date, a preposition of one or nothing."""
    if not after or after[0] not in _IN_OUT:
        return False
    nxt = after[1:2]
    return (
        not nxt or nxt[0] in _WHEN_WHERE or nxt[0] in VALUE_WORDS or bool(NUMBER.fullmatch(nxt[0]))
    )
