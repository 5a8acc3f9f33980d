"""Whether a piece of a user's message asks for an answer, read from its form and from where it
stands in the message, where the needs model's words say little (:mod:`harness.detect._needs`,
:mod:`harness.detect.requests`, :mod:`harness.detect._together`).

The needs model weighs the words it saw in dialogue; an id, a code or a name is a word it never
saw, and a number it learned from details given to a bot ("for 4 people", "at 7:30") counts
against asking. Three shapes are told from the closed classes of English instead:

- **A yes/no question said whole** ("Has UA 15 boarded yet", "Did invoice INV-2231 go out", "Is
  gate B12 open") asks, whatever its nouns: an auxiliary of being, doing or having, then its
  subject (a determiner, a personal pronoun, or a name or an id: capitalised or with a digit).
  A modal asks so only before a determiner ("Can the 7:45 train take bikes"): "can you make it
  9:30", "could I pick it up at 6" change a detail of a request already made.
- **A problem added after a request** ("How many miles do I have? Also, my suitcase never
  showed up"): after "also", "plus", "and", "btw" or "oh, and", a statement of a failure (a
  thing that never arrived, does not work, was lost, stolen, declined or cancelled; the speaker
  charged twice or locked out) about something the request before it does not name. Before a
  request ("My flight got cancelled. Can you find me a hotel?") the same statement is the
  reason for it, and a detail ("for 4 people") or a wish ("also, I don't want to pay more than
  200") is no failure.
- **A re-ask** ("Can you check again?", "Please look once more", "Are you sure?") asks the
  earlier request again; a statement beside it with no joining word ("The lab said they
  called.") is why the user asks again, no request of its own (:func:`re_asks`,
  :func:`gives_reason`).
"""

from __future__ import annotations

import re

from harness.detect._request_words import _DETERMINERS, _VERBS, _WH
from harness.text import content_words
from harness.text._shapes import AUXILIARIES, GREETINGS, WANTS, WORD


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
    toks = WORD.findall(text[:80])
    if len(toks) < 3:
        return False
    first, second = toks[0].lower(), toks[1]
    low = second.lower()
    if first not in _POLAR and first not in _MODALS:
        return False  # the cheap test first: most pieces open otherwise
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


# --- a problem added after a request -------------------------------------------------------------

# What stands between a request and a problem added after it: the words that add (a closed class
# of connectives), with punctuation; at least one of them.
_ADDING = re.compile(
    r"[\s,.;:!?\-]*+(?:(?:(?:oh[\s,]++)?and|also|plus|additionally|btw|by\s++the\s++way"
    r"|one\s++more\s++thing|another\s++thing|on\s++top\s++of\s++that)[\s,.;:!\-]*+)++",
    re.IGNORECASE,
)
# Who a problem happens to or to what: a thing of the speaker's or one named, or the speaker.
_SUBJECTS = _words("my our the his her their your i we i'm im i've ive")
_SPEAKER = _words("i we i'm im i've ive")
# Words of a failure said of a thing (closed list of the common ones): lost, broken, declined.
_FAILED = _words(
    """
    broken broke lost missing stolen damaged declined cancelled canceled delayed crashed
    crashing crashes stuck frozen froze leaking leaked overcharged expired bounced failed
    failing cracked flooded wrong dead
    """
)
# The speaker's own failures: locked out, lost, overcharged (never got or received: a negation).
_SPEAKER_FAILED = _words("overcharged locked lost")
_TWICE = re.compile(
    r"\b(?:charged|billed)\s++(?:me\s++)?(?:twice|double|two\s++times)\b|\bdouble[\s-]?+charged\b",
    re.IGNORECASE,
)
"""Charged twice, said of the speaker or a card: "I was charged twice", "they billed me twice"."""
_NEGATIONS = _words(
    """
    never not no didn't didnt hasn't hasnt haven't havent wasn't wasnt weren't werent isn't isnt
    aren't arent won't wont can't cant cannot couldn't couldnt doesn't doesnt don't dont
    """
)
# Negations of a past or perfect event (what the speaker says did not happen to them).
_NOT_HAPPENED = _words("never didn't didnt hasn't hasnt haven't havent wasn't wasnt")
# Verbs of arriving, working and getting through: what a thing that fails does not do.
_ARRIVING = _words(
    """
    arrive arrived arrives arriving come came comes show showed shown turn turned work works
    working worked load loads loading start starts starting open opens opening connect connects
    connecting charge charges charging go goes going went through deliver delivered delivering
    get got gotten receive received respond responded responding print printing sync syncing
    boot booting ship shipped post posted clear cleared process processed refund refunded
    """
)


def added_problem(before: str, between: str, piece: str) -> bool:
    """Whether ``piece`` reports a problem of its own, added after the request ``before`` by a
    word that adds (``between``: what the message says between them): "What's my balance? Also,
    my card never arrived". Not a detail of that request (the piece names a thing ``before``
    names, or states no failure)."""
    if _ADDING.fullmatch(between) is None:
        return False
    return reports_problem(piece) and content_words(piece).isdisjoint(content_words(before))


def reports_problem(piece: str) -> bool:
    """Whether ``piece`` states a failure: of a thing (:data:`_FAILED`, a past or perfect
    negation, or a negation before a verb of arriving or working: "my suitcase never showed up",
    "my refund hasn't been processed", "the app won't load", "our wifi is down") or of the
    speaker ("I was charged twice", "I never got my refund"); not a question, a request, a wish
    or a plan ("I won't arrive until 10")."""
    words = WORD.findall(piece[:120].lower())
    if len(words) < 3 or words[0] not in _SUBJECTS:
        return False
    if any(w in WANTS or w in _WH for w in words):
        return False
    rest = words[1:]
    if _TWICE.search(piece) is not None:
        return True
    if words[0] in _SPEAKER:
        negated = any(
            w in _NOT_HAPPENED and any(v in _ARRIVING for v in rest[k + 1 : k + 3])
            for k, w in enumerate(rest)
        )
        return negated or any(w in _SPEAKER_FAILED for w in rest)
    if any(w in _FAILED or w in _NOT_HAPPENED for w in rest) or _DOWN.search(piece) is not None:
        return True  # "my refund hasn't been processed": what should have happened did not
    return any(
        w in _NEGATIONS and any(v in _ARRIVING for v in rest[k + 1 : k + 4])
        for k, w in enumerate(rest)
    )


_DOWN = re.compile(r"\b(?:is|are|was|were|'s|went|been)\s++down\b", re.IGNORECASE)
"""A service that stopped: "our wifi is down", "the site went down"."""


# --- a re-ask and its reason -------------------------------------------------------------------

# A word of asking again (a closed class): "again", "once more", "one more time", "double-check",
# "recheck"; "are you sure" asks the bot to look again.
_AGAIN = re.compile(
    r"\b(?:again|once\s++more|one\s++more\s++time|double[\s-]?+check(?:ing)?|re-?check(?:ing)?)\b",
    re.IGNORECASE,
)
_SURE = re.compile(r"\W*+(?:are|r)\s++(?:you|u)\s++(?:really\s++)?sure\b", re.IGNORECASE)


def re_asks(piece: str) -> bool:
    """Whether ``piece`` asks the bot to do again what it was asked ("Can you check again", "try
    once more please", "could you double-check", "are you sure"): a word of asking again in a
    question or an imperative of at most ten words."""
    if _AGAIN.search(piece) is None and _SURE.match(piece) is None:
        return False  # the cheap test first
    words = WORD.findall(piece.lower())
    while words[1:] and words[0] in GREETINGS:
        del words[0]  # "hmm, can you check again"
    return 0 < len(words) <= 10 and (
        words[0] in AUXILIARIES
        or words[0] in _VERBS
        or words[0] in _REDOING
        or words[0] == "please"
    )


# Verbs of doing a look-up again that the request verbs lack (a closed class).
_REDOING = _words("try retry recheck verify search")


def gives_reason(piece: str) -> bool:
    """Whether ``piece`` only states (no question, no imperative, no wish): beside a re-ask it is
    why the user asks again ("The lab said they called", "I got an email saying it was sent")."""
    words = WORD.findall(piece[:120].lower())
    return (
        len(words) >= 2
        and words[0] not in AUXILIARIES
        and words[0] not in _VERBS
        and words[0] != "please"
        and not any(w in _WH or w in WANTS for w in words)
    )
