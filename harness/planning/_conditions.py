"""The conditions, schedules and searches after a request that go on with it rather than asking
on their own (:mod:`harness.planning.split` reads them after a comma, a sentence end or "and"): a
condition on what the request asks for ("it has to have laundry service", "I need it to allow
pets"), its schedule after "and" ("... and leave by the 7th") and a search that only narrows it
("Find something in Los Angeles."). Moved out of :mod:`harness.planning._sentences` (which holds
the closed classes they share) to keep each module short; every word class here is a closed
class of English.
"""

from __future__ import annotations

from harness.planning._sentences import (
    _ADDS,
    _CARDINALS,
    _FRAGMENT_WORDS,
    _TURNS,
    _WHEN_WHERE,
    _WHERE_WHEN,
    _WORDS,
    NUMBER,
    VALUE_WORDS,
    _no_clause,
    prefers,
)
from harness.text._shapes import AUX_SET, SOFT_REACH, VERBS, WH_SET, word_class
from harness.text.words import REQUEST_STOPWORDS

# A condition on what the request before it asks for, stated after it ("it has to have laundry
# service", "I need it to allow pets", "Please make sure it has parking", "one that allows pets").
# Who the condition is on: a pronoun that points back, or "the" and a short name of what the
# request before it names or of what any request has ("the hotel must allow pets" after a hotel,
# "the price"); a possessive ("my card has to be replaced") or "the" and a name of something else
# ("the rent has to be paid" after a transfer) reports or asks on its own. Closed classes.
_HELD_TO = word_class("it they one")
_THE = word_class("the")
_THE_WORDS = 2
_ANY_REQUEST_HAS = word_class("place one price cost total rate fare rating score")
_MUST = frozenset(("must", "has to", "have to", "needs to", "need to", "should"))
# Verbs a condition holds the thing to: what it has, lets in or is (closed class).
_CONDITIONS = word_class(
    "have has be allow allows permit permits accept accepts include includes offer offers"
    " serve serves take takes fit fits seat seats sleep sleeps welcome welcomes support supports"
    " come comes feature features"
)
_IS = word_class("is are")
_WANTERS = word_class("i we i'd we'd")
_WANT = frozenset(("need", "want", "would like", "would prefer", "like", "prefer"))
_OBJECTS = word_class("it them")
_ENSURE = frozenset(("ensure", "make sure"))
_PLEASE = word_class("please just also")
_ONE_DESCRIBED = word_class("that which with where")


def requires(piece: str, *, asked: bool = False, before: str = "") -> bool:
    """Whether ``piece`` only states a condition on what the request ``before`` it asks for: what
    it is held to by a modal of need ("it has to have laundry service", "The hotel must allow
    pets."), what the speaker needs it to do ("I need it to allow pets", "I'd like it to include
    breakfast"), what they ask to be made sure of ("Please make sure it has parking"), or "one"
    and what describes it ("one that allows pets", "one which allows pets"). It asks no question
    (``asked``, or a question word in it) and adds no request of its own ("too", "as well" at its
    end)."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if (
        asked
        or not 2 <= len(words) <= _FRAGMENT_WORDS * 2
        or words[-1] in _ADDS
        or " ".join(words[-2:]) in _ADDS
    ):
        return False
    k = 0
    while k < len(words) and words[k] in _PLEASE:
        k += 1
    rest = words[k:]
    if len(rest) > 1 and rest[0] == "one" and rest[1] in _ONE_DESCRIBED:
        # "which" and "where" here describe; a question word after them asks.
        return not any(w in WH_SET for w in rest[2:]) and _no_clause(rest)
    if not rest or any(w in WH_SET for w in words):
        return False
    named = frozenset(_WORDS.findall(before.lower()))
    if " ".join(rest[:2]) in _ENSURE or rest[0] in _ENSURE:
        held = rest[2:] if " ".join(rest[:2]) in _ENSURE else rest[1:]
        if held and held[0] == "that":
            held = held[1:]
        ensured = _held_to(held, named)
        if not ensured:
            return False
        return ensured[0] in _CONDITIONS or ensured[0] in _IS or _held_by_must(ensured)
    if rest[0] in _WANTERS:
        if rest[0] in ("i'd", "we'd"):
            rest = ["i", "would", *rest[1:]]
        for size in (2, 1):
            if " ".join(rest[1 : 1 + size]) in _WANT:
                wanted = rest[1 + size :]
                return (
                    len(wanted) > 2
                    and wanted[0] in _OBJECTS
                    and wanted[1] == "to"
                    and wanted[2] in _CONDITIONS
                )
        return False
    held_to = _held_to(rest, named)
    return held_to is not None and _held_by_must(held_to)


def _held_by_must(held_to: list[str]) -> bool:
    """Whether ``held_to`` opens with a modal of need and a verb of condition ("must allow")."""
    for size in (2, 1):
        if " ".join(held_to[:size]) in _MUST:
            return len(held_to) > size and held_to[size] in _CONDITIONS
    return False


def _held_to(words: list[str], named: frozenset[str]) -> list[str] | None:
    """The words after the subject that points back ("it", "they", "one", or "the" and up to two
    words whose last is in ``named`` or names what any request has), or None when ``words`` open
    with no such subject."""
    if not words:
        return None
    if words[0] in _HELD_TO:
        return words[1:]
    if words[0] in _THE:
        for k in range(2, min(len(words), _THE_WORDS + 2)):
            if words[k] in AUX_SET or " ".join(words[k : k + 2]) in _MUST or words[k] in _MUST:
                head = words[k - 1]
                one = head.removesuffix("s")
                if head in named or one in named or one in _ANY_REQUEST_HAS:
                    return words[k:]
                return None
    return None


# After "and", a verb of coming and going with no subject of its own, then when or where ("...
# checking in on the 1st and leave by the 7th", "... a bus and leave from LAX around 6 pm"): the
# schedule of what the request before it books (closed classes; "return my car" asks on its own).
# "Stay" and "fly" book a stay or a flight of their own ("Book a flight and stay at the Bellagio"):
# they go on only with a request before them that names one (``_OWN_KIND``). "Check in" and
# "check out" before "to" or "for" check in for something ("check in for my flight").
_GOING = word_class("leave depart arrive return stay fly come get head check pick drop")
_OWN_KIND = {
    "stay": word_class("stay staying hotel hotels room rooms"),
    "fly": word_class("fly flying flight flights return returning leave leaving depart departing"),
}
_GOING_PARTICLES = word_class("back in out")
_CHECKED_FOR = word_class("to for")
# Two verbs of coming and going only with their particle ("pick up at 3 pm", "drop off by noon").
_PAIRED = {"pick": "up", "drop": "off"}
# What the speaker comes or goes with (a vehicle, a ride, a stay, a trip, or coming and going
# itself: "I want to fly with Delta. I want to leave at 9"): only a request that
# names one has a schedule of coming and going ("Rent a car. I want to pick up at 3"); after any
# other ("Book me a table for two. I want to leave for Denver on Friday", "Reset my password and
# drop off by noon") the coming or going is a request of its own (closed class).
_TRAVELLED = word_class(
    "car cars rental rentals vehicle vehicles van vans suv sedan truck bike bikes scooter kayak"
    " flight flights plane bus buses coach coaches train trains ferry ferries boat cab cabs taxi"
    " taxis ride rides shuttle hotel hotels room rooms motel hostel apartment apartments house"
    " houses property trip trips journey ticket tickets seat seats airline airlines fly flying"
    " travel travelling traveling arrive arriving leave leaving depart departing"
)
# A lead of wanting or intending before such a verb ("I want to leave on Monday", "we'd like to
# pick up around 15:00"): the schedule is still the request's (closed classes).
_WANTING_TO = frozenset(
    f"{who} {verb} to"
    for who in ("i", "we")
    for verb in ("want", "need", "wish", "plan", "hope", "would like", "will need")
) | frozenset(("i'd like to", "we'd like to", "i'll need to", "we'll need to"))


def schedules_after_and(piece: str, *, before: str = "") -> bool:
    """Whether ``piece`` (after "and") gives the schedule of the request ``before`` it: a verb of
    coming and going with no subject (``_GOING``; "come", "get" and "head" only with "back",
    "check" only with "in" or "out", "stay" and "fly" only after a request of their kind, "pick
    up" and "drop off" only after a request naming what one comes or goes with, ``_goes_with``),
    then a
    preposition of place or time or a value, with no clause of its own and no question."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if len(words) < 2 or len(words) > _FRAGMENT_WORDS or words[0] not in _GOING:
        return False
    said = _WORDS.findall(before.lower())
    if words[0] in _OWN_KIND and _OWN_KIND[words[0]].isdisjoint(said):
        return False
    if words[0] in _PAIRED and not _goes_with(before):
        return False
    k = 1
    if words[0] in _PAIRED:
        if words[1] != _PAIRED[words[0]]:
            return False
        k = 2
    elif words[1] in _GOING_PARTICLES:
        k = 2
    elif words[0] in ("come", "get", "head", "check"):
        return False
    if k >= len(words):
        return False
    nxt = words[k]
    if words[0] == "check" and nxt in _CHECKED_FOR:
        return False
    if not (nxt in _WHEN_WHERE or nxt in VALUE_WORDS or NUMBER.fullmatch(nxt)):
        return False
    return words[-1] not in _ADDS and _no_clause(words[k - 1 :])


# A request that names no thing of its own but points back at what was offered ("Could you try
# again?", "Book it for me", "Make the reservation for me"): a request verb, a pronoun or "the"
# and words of trying, booking and the like (closed classes).
_POINTING = word_class("it this that the again once")
_NAMES_NOTHING = (
    frozenset(VERBS.split("|"))
    | REQUEST_STOPWORDS
    | word_class(
        "again once more try trying attempt mind reservation booking place go ahead amend please"
        " would could can you we me for"
    )
)


def _goes_with(before: str) -> bool:
    """Whether the request ``before`` names what one comes or goes with (``_TRAVELLED``) or
    names nothing of its own and points back at what was offered (``_POINTING``,
    ``_NAMES_NOTHING``): only then is a wanted coming or going its schedule."""
    said = _WORDS.findall(before.lower())
    if not _TRAVELLED.isdisjoint(said):
        return True
    return not _POINTING.isdisjoint(said) and all(w in _NAMES_NOTHING for w in said)


def schedules_wanted(piece: str, *, before: str = "") -> bool:
    """Whether ``piece`` says when or where the speaker wants to come or go for the request
    ``before`` it ("I want to pick up around 15:00", "We need to leave Monday next week"): "I" or
    "we" and a verb of wanting or intending with "to" (``_WANTING_TO``), then the schedule
    :func:`schedules_after_and` reads; only when ``before`` names what one comes or goes with
    (``_TRAVELLED``: a car, a flight, a hotel, a trip ...) or points back at it (``_goes_with``)."""
    if not _goes_with(before):
        return False
    lowered = " ".join(_WORDS.findall(piece[:SOFT_REACH].lower()))
    for lead in _WANTING_TO:
        if lowered.startswith(f"{lead} "):
            return schedules_after_and(lowered[len(lead) + 1 :], before=before)
    return False


# What the speaker needs something they asked for until, for or from ("I'll need it until the
# 13th", "we need them for three days"): the span of the request before it (closed classes).
_SPAN = word_class("until till through from for")
_NEEDING = frozenset(
    f"{who} {verb}"
    for who in (
        "i",
        "we",
        "i'll",
        "we'll",
        "i will",
        "we will",
        "i'd",
        "we'd",
        "i would",
        "we would",
    )
    for verb in ("need", "want", "like", "keep")
)


def needs_for_span(piece: str) -> bool:
    """Whether ``piece`` only says for how long the speaker needs what the request before it asks
    for ("I'll need it until the 13th of March", "We want them for three days"): "I" or "we", a
    verb of needing or keeping, "it" or "them", then "until", "for", "from" ... and a value, short
    and with no clause of its own."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if len(words) > _FRAGMENT_WORDS or (words[-1:] and words[-1] in _ADDS):
        return False
    for size in (3, 2):
        if " ".join(words[:size]) in _NEEDING:
            rest = words[size:]
            break
    else:
        return False
    if len(rest) < 3 or rest[0] not in _OBJECTS or rest[1] not in _SPAN:
        return False
    valued = any(w in VALUE_WORDS or w in _CARDINALS or NUMBER.fullmatch(w) for w in rest[2:])
    return valued and _no_clause(rest[1:])


# A search with no object of its own, or one that points back or brings in nothing ("Find
# something in Los Angeles.", "Look in SF.", "I want to search around Paris"), then where or
# when: it narrows the request before it (closed classes).
_SEARCH_LEADS = frozenset(
    ("please", "can you", "could you", "i want to", "i'd like to", "i would like to", "just")
)
_SEARCH = word_class("find look search try")
_SEARCH_FOR = word_class("for up")
_NOTHING_NEW = word_class("something anything one it them")
_POINTS_BACK = word_class("one it them")
# What a search narrows: a request before it that finds, looks up, shows or asks to know
# something, or needs or wants a thing ("I am in need of a doctor, please find something near
# ..."; closed classes); after another request ("Play some jazz. Look in SF.") a search asks on
# its own, unless its object points back to what was asked for ("Get me a plumber, please find
# one near ...").
_SEARCHED = word_class(
    "find finding look looking search searching show get recommend suggest locate know"
)
_WANTING = word_class("need needs want wants")
_A_THING = word_class("a an some of")
_OWNED = word_class("my our your")


def narrows(piece: str, *, before: str = "") -> bool:
    """Whether ``piece`` only narrows the search of the request ``before`` it to a place or a time
    ("Find something in Los Angeles.", "Look in SF", "Can you search around Paris?"): an
    optional lead ("please", "can you", "I want to"), a verb of searching, no object of its own
    (or "something", "one", "it": nothing new), then a preposition of place or time, short and
    with no clause of its own. The request before it searches (``_SEARCHED``) unless the object
    points back; "something for" names what is searched for ("Find something for dinner")."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    if not 2 <= len(words) <= _FRAGMENT_WORDS or words[-1] in _ADDS:
        return False
    for size in (4, 3, 2, 1):
        if " ".join(words[:size]) in _SEARCH_LEADS:
            words = words[size:]
            break
    if len(words) < 2 or words[0] not in _SEARCH:
        return False
    k = 1
    if words[k] in _SEARCH_FOR:
        k += 1
    pointed = k < len(words) and words[k] in _POINTS_BACK
    if k < len(words) and words[k] in _NOTHING_NEW:
        k += 1
        if words[k - 1] not in _POINTS_BACK and words[k : k + 1] == ["for"]:
            return False  # "something for dinner" names what is searched for
    if k >= len(words) or words[k] not in _WHERE_WHEN or " ".join(words[k : k + 2]) in _TURNS:
        return False
    if not pointed and not _searches(_WORDS.findall(before.lower())):
        return False  # "Play some jazz. Look in SF.": no search before it to narrow
    if (words[0], words[k]) == ("look", "at"):
        return False  # "look at my balance" asks to be shown something
    if words[k + 1 : k + 2] and words[k + 1] in _OWNED:
        return False  # "find it in my calendar": something of the speaker's, asked about
    return _no_clause(words[k:])


def _searches(words: list[str]) -> bool:
    """Whether ``words`` (a request) find, look up or show something, or need or want a thing."""
    return any(
        w in _SEARCHED or (w in _WANTING and words[k + 1 : k + 2] and words[k + 1] in _A_THING)
        for k, w in enumerate(words)
    )


# What says that the sentence after it narrows the request before it ("More specifically, I want
# one that is child-friendly", "In particular we need a garden"), and a courtesy that leaves
# the choice to the agent ("If you can, I would prefer Delta", "If possible I'd prefer the
# 9th"; closed classes, one to four words).
_SPECIFYING = frozenset(
    (
        "specifically",
        "more specifically",
        "to be specific",
        "to be more specific",
        "in particular",
        "more precisely",
        "precisely",
    )
)
_COURTESY = frozenset(
    (
        "if you can",
        "if you could",
        "if possible",
        "if it's possible",
        "if that's possible",
        "ideally",
        "if you don't mind",
    )
)
_WANTERS = word_class("i we i'd we'd i'm we're")
_WANTS_NARROWED = word_class("want wants need needs prefer like love looking")
# Words that say a want is one more, not the request before it narrowed ("I also need a car",
# "we need a cab too", "another room"; closed class). "as well" is read as two words.
_SAYS_NEW = word_class("also too another")


def specifies(piece: str) -> bool:
    """Whether ``piece`` says more of what the request before it asks for, after a word that
    says so ("More specifically I want an attraction which is child-friendly", "In particular
    we need three baths": ``_SPECIFYING``, then "I" or "we" wanting, needing, preferring or
    looking for something, and no word that says the want is one more: ``_says_new``), or states
    a preference behind a courtesy that leaves the choice to the agent ("If you can I would
    prefer Southwest Airlines": ``_COURTESY``, then a preference, ``prefers``). A question asks
    on its own; the caller reads this only for a piece not asked."""
    words = _WORDS.findall(piece[:SOFT_REACH].lower())
    for size in (4, 3, 2, 1):
        lead = " ".join(words[:size])
        if lead in _SPECIFYING:
            rest = words[size:]
            return (
                len(rest) >= 3
                and rest[0] in _WANTERS
                and any(w in _WANTS_NARROWED for w in rest[1:3])
                and not _says_new(rest)
            )
        if lead in _COURTESY:
            return prefers(" ".join(words[size:]))
    return False


def _says_new(words: list[str]) -> bool:
    """Whether ``words`` say their want is one more ("also", "too", "another", "as well":
    ``_SAYS_NEW``): a request of its own, however it is led in."""
    return any(w in _SAYS_NEW for w in words) or "as well" in " ".join(words)


def leads_in(piece: str) -> bool:
    """Whether ``piece`` is only a lead-in of ``specifies`` ("To be specific", "If you can"): cut
    off by a comma, it belongs to the sentence after it."""
    said = " ".join(_WORDS.findall(piece.lower()))
    return said in _SPECIFYING or said in _COURTESY
