"""Words: normalising, the one stemmer, stop words and content words.

One definition for the whole SDK, so that the detector, the runtime guard, the rules model and the
linter agree on what a word is.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def _split_words(text: str) -> list[str]:
    return text.split()


__all__ = [
    "DESCRIPTION_STOPWORDS",
    "NEGATIONS",
    "QUOTE_LIMIT",
    "REQUEST_STOPWORDS",
    "STOPWORDS",
    "content_words",
    "keyword_texts",
    "may_hold",
    "normalise",
    "quote",
    "shorten",
    "stem",
    "tokens",
    "words_and_negation",
    "words_of_name",
]

STOPWORDS = frozenset(
    _split_words(
        """
    a about above after again all also am an and any are as at be been before being below both but
    by could did do does doing down during each few for from further had has have having he her
    here hers herself him himself his how i if in into is it its itself just let me more most my
    myself of off on once only or other our ours ourselves out over own same she should so some
    such than that the their theirs them themselves then there these they this those through to
    too under until up very was we were what when where which while who whom why will with would
    you your yours yourself yourselves s t ll ve re d m can may might must shall us okay ok sure
    please hi hello hey thanks thank great news well right now currently also just still yet via
    per i'm you're it's that's we're they're i've you've we've i'll you'll we'll i'd you'd get got
    """
    )
)
"""Words that say nothing about the subject."""

NEGATIONS = frozenset(
    _split_words(
        """
    not no never none nothing nobody cannot can't won't isn't aren't doesn't don't didn't hasn't
    haven't hadn't wasn't weren't couldn't shouldn't wouldn't nor without unable cant wont isnt
    arent doesnt dont didnt hasnt havent hadnt wasnt werent couldnt shouldnt wouldnt
    """
    )
)
"""Words that negate a statement."""

# The stop-word lists, each named for its purpose, all here. ``STOPWORDS`` is the text layer's
# (claims, duplicates, the guard); the two below were tuned for their own readers and are kept as
# they are, so that routing and the linter's findings do not move.
REQUEST_STOPWORDS = frozenset(
    _split_words(
        """
    a an the and or but if then also plus as of to in on at by for with from about into over
    after before is are was were be been being am do does did doing have has had having i me my
    mine we our ours you your yours he she it its they them their this that these those what
    which who whom whose when where why how can could would should will shall may might must
    please tell know let need want like just get got give show find check any some much many
    more most there here not no yes so too very really okay ok hi hello hey thanks thank up out
    now today next one
    """
    )
)
"""Words that say nothing about where a user's request should go (the rules model's router)."""

DESCRIPTION_STOPWORDS = frozenset(
    _split_words(
        """
    a about above after again against all also am an and any are as at be been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours agent agents subagent subagents assistant bot bots handle handles handling answer
    answers answering question questions request requests user users help helps helping provide
    provides providing information info use used uses using route routes routing ask asks asking
    related relating regarding task tasks perform performs performing give gives get gets able
    ability anything everything something specific general various etc e g ie via like including
    """
    )
)
"""Words every routing description uses ("agent", "handles", "questions"), with the ordinary stop
words: they say nothing about which agent is meant (the linter's description similarity)."""

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_WORD = re.compile(r"[^\W_]+")


def normalise(text: str) -> str:
    """Lower case, Unicode NFKC, Markdown and punctuation removed, white space collapsed.

    Two texts with the same ``normalise`` are the same message to a reader.
    """
    if not text.isascii():  # NFKC leaves ASCII as it is
        text = unicodedata.normalize("NFKC", text).replace("’", "'")
    return " ".join(_WORD.findall(text.lower().replace("'", "")))


def may_hold(text: str, needles: tuple[str, ...]) -> bool:
    """Whether ``text`` may hold one of ``needles`` (lower-case ASCII) in some case: False only
    for an ASCII text that holds none of them, in which a pattern that needs one of them, even
    under ``re.IGNORECASE``, cannot match. A test in C that spares a pattern's scan of most
    texts; outside ASCII, where case folding goes wider than ``str.lower``, always True."""
    if not text.isascii():
        return True
    lower = text.lower()
    return any(needle in lower for needle in needles)


def tokens(text: str) -> list[str]:
    """The lower-case word tokens of ``text`` (apostrophes kept inside words)."""
    lower = text.lower()
    if "’" not in lower:
        return _TOKEN.findall(lower)
    return [t.replace("’", "'") for t in _TOKEN.findall(lower)]


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A light suffix stripper shared by the whole SDK: plurals, -ing, -ed, -ly, a final -e.

    Deliberately conservative: "booked"/"booking"/"books" → "book", "charges"/"charged" → "charg".
    """
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif (len(word) > 4 and word.endswith("ed")) or (len(word) > 5 and word.endswith("ly")):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "planned" -> "plann" -> "plan"
    return word


@lru_cache(maxsize=65_536)
def content_words(text: str) -> frozenset[str]:
    """Stems of the words of ``text`` that carry meaning (no stop words, no pure numbers)."""
    return _content(tokens(text))


def words_and_negation(text: str) -> tuple[frozenset[str], bool]:
    """``content_words(text)``, and whether ``text`` holds a negation ("not", "can't", "no"),
    from one pass over its tokens."""
    found = tokens(text)
    # Tokens hold no white space: one ends with "n't" exactly when "n't " is in them joined.
    negated = not NEGATIONS.isdisjoint(found) or "n't " in " ".join(found) + " "
    return _content(found), negated


def _content(found: list[str]) -> frozenset[str]:
    stems = _STEMS
    if len(stems) > _STEMS_SIZE:
        stems.clear()
    try:  # every token seen before (most are): the stems looked up in C
        out = set(map(stems.__getitem__, found))
    except KeyError:
        pass
    else:
        out.discard("")
        return frozenset(out)
    out = set()
    for t in found:
        kept = stems.get(t)
        if kept is None:
            kept = stems[t] = _content_stem(t)
        if kept:
            out.add(kept)
    return frozenset(out)


_STEMS: dict[str, str] = {}
"""Each token's content stem, once worked out ("" for a token that is no content word)."""
_STEMS_SIZE = 65_536


def _content_stem(t: str) -> str:
    """The stem ``t`` adds to the content words, or "" (a stop word, a negation, a number)."""
    if t in NEGATIONS or t in STOPWORDS:
        return ""
    if "'" in t:
        t = t.partition("'")[0]  # "where's" -> "where", "agent's" -> "agent"
        if t in STOPWORDS:
            return ""
    if len(t) > 1 and not t.isdigit():
        return stem(t)
    return ""


QUOTE_LIMIT = 80
"""The most characters of a user's text a bot quotes back (in an apology, a "can't help with")."""


def quote(text: str, *, limit: int = QUOTE_LIMIT) -> str:
    """``text`` on one line, cut at a word to at most ``limit`` characters (``…`` marks the cut).

    For quoting the user's own words back: a long message is never echoed whole.
    """
    line = " ".join(text[: 4 * limit].split())
    if len(line) <= limit and len(text) <= 4 * limit:
        return line
    cut = line[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def shorten(text: str, limit: int) -> str:
    """``text`` on one line (each run of white space one space), cut to at most ``limit``
    characters; ``…`` marks the cut.

    For quoting a message or a value in a note, a label or a log line: unlike :func:`quote` it
    cuts anywhere, not at a word.
    """
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


# Where a CamelCase name's words meet ("RentalCars", "ReserveHotel"), and where an acronym run ends
# ("ATMLocator": "ATM Locator").
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# A word of one or two letters, what a brand's camel case leaves ("e Bay", "Fed Ex").
_FRAGMENT = re.compile(r"[^\W\d_]{1,2}")


def words_of_name(name: str) -> str:
    """ "lost_luggage", "RentalCars", "ATMLocator" and "check-balance" as words, as the planner's
    matcher and the offline word gate read an agent's name or a tool's name."""
    return _CAMEL.sub(" ", name).replace("_", " ").replace("-", " ")


def keyword_texts(keyword: str) -> list[str]:
    """How an agent's keyword (a tool's name, a routing word) is read: a name in snake or kebab
    case as its words; a CamelCase one as written and as its words when each of them has three
    letters or more ("ReorderPrescription", "getWeather"), as written only otherwise: a brand's
    camel case ("iPhone", "eBay", "FedEx") does not join words, and "bay" or "phone" alone is
    not the brand."""
    if " " in keyword.strip():
        return [keyword]
    words = words_of_name(keyword)
    if not _CAMEL.search(keyword):
        return [words]
    if not any(_FRAGMENT.fullmatch(p) for p in words.split()):
        return [keyword, words]
    return [keyword]
