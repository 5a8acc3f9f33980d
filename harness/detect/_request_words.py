"""The word classes the request segmenter reads a message by (:mod:`harness.detect.requests`).

They are closed classes of English (question words, auxiliaries, pronouns, determiners,
subordinators, prepositions) and the verbs people open a request with.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from harness.text._shapes import AUXILIARIES, GREETINGS, VERBS, WH_SET


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Question words: the planner's (``harness.text._shapes.WH_SET``, one list) and the contractions
# "when's", "who's".
_WH = WH_SET | _words("when's who's")
# Auxiliaries and modals: the closed class the planner's split reads by too (one list), and
# "hadn't".
_AUX = AUXILIARIES | _words("hadn't")
_SUBJECT = _words(
    "i i'm i'd i've i'll im ive id we we're we'd we've we'll there's theres let's lets"
)
# Verbs people open a request with (imperatives and "please ..."), not nouns they ask about: the
# planner's (``harness.text._shapes.VERBS``, one list) and the few only the check reads by, but
# "mark", a name as often ("call Anna, Mark and Joe": no request opens at "Mark").
_VERBS = (frozenset(VERBS.split("|")) - _words("mark")) | _words(
    "please define spell flip roll sync walk go"
)
# More verbs a user's request opens with (common imperatives of requests, a closed list), read in
# a user's message only: a bot's sentences are cut as the answer matcher's clauses were fitted.
_USER_VERBS = _words(
    """
    compare purchase complete write print display research verify rent fix repair estimate
    arrange prepare select choose view count
    """
)
# Words that ask for something without naming it: a part made of these and the closed classes
# above ("I need your help", "any suggestions") is no request of its own.
_GENERIC = _words(
    """
    me us so many much need want like love wish help assistance something anything one ones
    options recommendations recommendation suggestions suggestion advice know thanks thank
    sure now then too kindly
    """
)
_DETERMINERS = _words("my the a an your our his her its their this that these those some any")
# Words that introduce a title or a name said after them ("play the song Where Is My Mind", "a
# reminder called what to pack", "find the album thanks a lot"): the nouns of what is said, played
# or watched, and the participles that name (closed classes), and the possessives that make such a
# noun a thing of the speaker's instead ("lock my card thanks a lot", "freeze my card what is ...").
_TITLE_NOUNS = _words("song note message card movie film album track show book episode")
_NAMING = _words("called named titled")
_OWNERS = _words("my our your his her their")


def _owned(words: list[str]) -> bool:
    """Whether the noun ending ``words`` is owned: the nearest determiner in the four words before
    it is a possessive ("my walmart credit card", not "the song")."""
    for w in reversed(words[-5:-1]):
        if w in _DETERMINERS:
            return w in _OWNERS
    return False


_SUBORDINATORS = _words("if since because although though unless once while before after as")
_PREPOSITIONS = _words("on in at for from with about during to into by")
# A phrase of time that sets the scene for the request after its comma ("up to this point, how
# much ...", "the next time it rains, remind me ..."): subordinators of time and the phrases that
# work as one (closed classes).
_SCENE_OPENERS = _words("until till whenever upon")
_SCENE_PHRASES = frozenset(
    tuple(phrase.split())
    for phrase in (
        "up to",
        "as of",
        "so far",
        "next time",
        "the next time",
        "every time",
        "each time",
        "any time",
        "by the time",
    )
)
_PRONOUNS = _SUBJECT | _words("you it he she they")
# Words that join two requests, and words that may follow them before the request starts.
_JOINERS = _words("and plus also then additionally")
_FILLERS = _words("and also then plus additionally too ok okay")
# Joining words that only ever join requests ("also" and "plus" after a comma, "as well as").
_STRONG = _words("also plus then additionally")
# Discourse connectives that add or order requests (a closed class of English: "oh, and", "PS",
# "what's more", "btw", "besides that", "secondly", "last but not least"): they lead into the
# next request without being one. The ones whose first word is in _LEADS only when a comma or a
# request's opening word follows ("next, ...", "first are there", "after that how do I"), so
# "next week's weather", "first class" and "after that date" keep their words.
_MARKERS = tuple(
    tuple(m.split())
    for m in (
        "oh",
        "ps",
        "p.s",
        "btw",
        "by the way",
        "what's more",
        "whats more",
        "last thing",
        "one last thing",
        "moreover",
        "furthermore",
        "lastly",
        "finally",
        "next",
        "first",
        "second",
        "third",
        "fourth",
        "firstly",
        "secondly",
        "thirdly",
        "fourthly",
        "first off",
        "first of all",
        "to start",
        "to start with",
        "to begin with",
        "after that",
        "afterwards",
        "in addition",
        "besides that",
        "besides this",
        "apart from that",
        "aside from that",
        "other than that",
        "on top of that",
        "separately",
        "unrelated",
        "last but not least",
        "while you're at it",
        "meanwhile",
        "in the meantime",
        "another thing",
        "one more thing",
    )
)
_LEADS = _words("next finally first second third fourth to after another one")
# The ones a bot's sentence is read with (``segment_requests`` with ``statement``): the
# matcher was fitted on a bot's clauses cut at these alone.
_STATEMENT_MARKERS = tuple(
    tuple(m.split())
    for m in (
        "oh",
        "ps",
        "p.s",
        "what's more",
        "whats more",
        "by the way",
        "last thing",
        "moreover",
        "furthermore",
        "lastly",
        "finally",
        "next",
    )
)


# Connectives that join two requests wherever they stand, with no comma before them ("... for 12
# btw can you ...", "... tickets oh and I need ..."); "oh" only before a joining word.
_ANYWHERE = frozenset({("btw",), ("by", "the", "way"), ("after", "that"), ("oh",)})

# An announcement of requests to come ("Quick questions:", "A few things:", "I have two
# requests:"): one of these nouns, with only quantities and the closed classes around it.
_ANNOUNCED = _words("question questions thing things request requests query queries item items")
_ANNOUNCING = (
    _ANNOUNCED
    | _GENERIC
    | _DETERMINERS
    | _FILLERS
    | _PRONOUNS
    | _AUX
    | _words("few couple several quick other more last final one two three four another of")
)


# Markers of a clause with its own verb (after a determiner: "my bag didn't arrive").
_CLAUSE_VERB = re.compile(r"n't$|^(?:got|get|gets|went|came|arrived|broke|was|were)$")


class _Tok(NamedTuple):
    """One token of a sentence (a tuple: a long message has thousands, made in a loop)."""

    word: str  # lower case, edge punctuation removed ("" for a comma or semicolon)
    start: int
    end: int
    mark: str  # "," ";" "?" "." or "" (the punctuation the token is or ends with)


_ASKING = _VERBS | _GENERIC
_FRAME_OPENERS = _WH | _VERBS | _AUX | _SUBJECT
# The words a request opens with; the words a subject opens with; greetings ("hey", "yo", not
# "there" or "so").
_LEAD_OPENERS = _WH | _AUX | _SUBJECT | _VERBS
_SUBJECT_STARTS = _PRONOUNS | _DETERMINERS
_GREETING = frozenset(GREETINGS) - {"there", "so"}
# (unions made once: a set union in a function made a new set at every call)


# Determiners after which a request verb is a noun ("cancel my order", "the transfer").
_NOUN_AFTER = _DETERMINERS - {"that"}


def _has_topic(words: list[str], *, nouns: bool = False) -> bool:
    """Whether a part names something beyond asking words ("tell me", "how much", "I need
    your help", "do you have any recommendations" do not); with ``nouns``, a request verb after
    a determiner is the noun it names ("cancel my order", "check the transfer")."""
    return any(
        w not in _WH
        and w not in _AUX
        and w not in _PRONOUNS
        and w not in _DETERMINERS
        and w not in _GENERIC
        and (
            w.removesuffix("ing") not in _ASKING
            or (nouns and k > 0 and words[k - 1] in _NOUN_AFTER)
        )
        for k, w in enumerate(words)
    )


def _noun_clause(words: list[str]) -> bool:
    """A clause with its own subject and verb that opens with a noun phrase: "my bag didn't
    arrive", "x has given me a rate"; not a question's inversion ("pepper should I add")."""
    if words[0] in _PREPOSITIONS or words[0] in ("or", "but", "so", "nor"):
        return False
    for k in (1, 2, 3):
        if (
            k < len(words)
            and words[k] != "am"
            and (words[k] in _AUX or _CLAUSE_VERB.search(words[k]))
        ):
            if k + 1 == len(words) and words[k] in _AUX:
                return False  # "... between dollars and pesos is": an embedded question's end
            following = words[k + 1] if k + 1 < len(words) else ""
            return following not in _PRONOUNS
    return False


def _frame(left: list[_Tok]) -> list[_Tok]:
    """The words before the first object of a request ("what is" in "what is my limit"), when
    that request opens with a question word, an auxiliary or a request verb."""
    if left[0].word not in _FRAME_OPENERS:
        return []
    for k in range(1, min(len(left), 5)):
        if left[k].word in _DETERMINERS:
            return left[:k]
    return []
