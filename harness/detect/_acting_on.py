"""Requests that act on or pass on what the piece before them says, which
:mod:`harness.detect._together` keeps in one request with it: the shapes it reads for them,
apart from its own joining of pieces, context statements, pronouns and closers.

- A telling, or a request pointing back by a pronoun, that passes on or acts on a statement of
  the speaker's own things ("my card got scratched, can you tell my bank to send a new one", "i
  bent my card, could you report it", "I'm out of checks, please order new ones":
  :func:`_tells_of_it`), when it tells nothing of its own or what it tells is about the
  statement (:func:`_told_of_it`; "I lost my credit card, remind my wife to buy milk" is two).
- A polite request that acts on the wish before it ("I want a quiet hotel, could you book one
  for me": :func:`_wish_then_ask`); not one that asks for something else ("I want to see a film,
  can you check my balance").
- A telling that passes on a note ("note that I will be in Lisbon next week and let my bank
  know": :func:`_notes_then_tells`).
- A look-up and the telling of what it finds ("pull up my calendar and tell me what I have on
  Friday": :func:`_looks_then_tells`); not "check my balance and tell me the weather in Boston".

The closed classes :mod:`harness.detect._together` reads as well live here too (what a
statement of the speaker's own things opens with, the verbs of telling, the thanks before an
imperative), with :func:`_imperative`, a piece's first words from its verb. The shapes read
closed classes of English and the content words of the (bounded) pieces they are given.
"""

from __future__ import annotations

import re

from harness.detect._request_words import _PREPOSITIONS, _WH
from harness.text import content_words
from harness.text._shapes import GREETINGS, SOFT_REACH, VERBS, WANTS, WORD, points_back, states

# What a statement about the speaker's own things opens with (closed classes: the first person's
# pronouns and possessives, the definite article): "my card was declined", "I applied".
_SAYS_OF = frozenset({"i", "we", "my", "our", "the"})
_VERB_SET = frozenset(VERBS.split("|"))
# Verbs of looking something up (a closed class): what is found is what the request after "and"
# asks to be told ("check my account and let me know how much I spent").
_LOOKING = frozenset({"check", "search", "look", "pull", "find", "open", "go", "see", "browse"})
_TELLING_ME = frozenset({"tell", "show", "give"})
# Words by which what is told points back to a look-up (closed classes): the speaker as its
# subject ("what I have on Friday"), a pronoun or "there" for what it finds ("what you find",
# "what's in it", "what's there"), and the nouns naming what a look-up yields ("the results").
_TOLD_OF_IT = frozenset(
    {"i", "i'm", "i've", "i'd", "we", "we're", "we've", "it", "its", "it's", "they", "them"}
    | {"there", "there's", "you", "result", "results", "finding", "findings"}
)
# What a polite request opens with before its verb ("please", "can you", "could you").
_POLITE = frozenset({"please", "can", "could", "would", "will", "you"})
_THANKS = frozenset({"thanks", "thank", "great", "cool", "perfect"})
# Who a telling is told to when it is no one else (the speaker: "tell me", "let us know").
_TOLD = frozenset({"me", "us"})
# The words :func:`_tells_of_it` needs one of in the request (tried first: most have none).
_PASSES_ON = re.compile(
    r"\b(?:tell|let|inform|notify|remind|warn|alert|advise|report|it|them|one|ones|replacement)\b",
    re.IGNORECASE,
)
# "new ones", "a replacement": a thing named before, again (points_back reads "one" only).
_NEW_ONES = re.compile(r"\b(?:(?:new|replacement|more)\s++ones|(?:a|the)\s++replacement)\b")
# Verbs of telling or informing someone (a closed class; "let" only in "let them know"): what
# an imperative may ask of the one the imperative before it names.
_TELLING = frozenset({"tell", "let", "inform", "notify", "remind", "warn", "alert", "advise"})
# The words after which a telling says what it tells (closed classes): "remind my wife to buy
# milk", "tell them that ...", "let the desk know ...", "warn him about ...", "ask what ...".
_TELLS_WHAT = frozenset({"to", "that", "about", "of", "if", "whether", "know"}) | _WH
# Adverbs of when that tell nothing ("let them know right away"; a closed class).
_ONLY_WHEN = frozenset({"right", "away", "now", "asap", "immediately", "today", "please", "too"})


def _tells_of_it(first: str, second: str) -> bool:
    """Whether ``second`` asks to pass on or act on what the statement ``first`` says of the
    speaker's own things ("my card got scratched, can you tell my bank to send a new one", "the
    strip on my card is scratched, let the card company know", "i bent my card, could you
    report it", "I'm out of checks, please order new ones"): ``first`` opens with
    :data:`_SAYS_OF` or only states, and asks and wants nothing; ``second``, after a polite opening,
    points back to it by a pronoun (:func:`~harness.text._shapes.points_back`, "new ones", "a
    replacement"), or tells someone else (a verb of :data:`_TELLING` not before "me" or "us", or
    "report") about it (:func:`_told_of_it`)."""
    if _PASSES_ON.search(second, 0, SOFT_REACH) is None:
        return False  # the cheap test first: most requests name no telling and no pronoun
    before = WORD.findall(first[:SOFT_REACH].lower())
    while before[1:] and before[0] in GREETINGS:
        del before[0]
    if (
        not before
        or (before[0] not in _SAYS_OF and not states(first))
        or "," in first
        or any(w in WANTS or w in _WH or w == "you" for w in before)
    ):
        return False
    words = _imperative(second, polite=True)
    if len(words) < 2 or words[0] in _POLITE:
        return False
    rest = " ".join(words)
    if points_back(rest) or _NEW_ONES.search(rest) is not None:
        return True
    if words[0] == "report" or (
        words[0] in _TELLING
        and words[1] not in _TOLD
        and (words[0] != "let" or "know" in words[2:6])
    ):
        return _told_of_it(first, words)
    return False


# The speaker's subject and the words of a wish after it (closed classes): "I want", "we'd
# like", "I'm looking for", "I am interested in", "I feel like", "I have to".
_WISHER = frozenset({"i", "i'm", "im", "i'd", "id", "we", "we're", "we'd"})
_WISHING = WANTS | frozenset({"interested", "wish", "love", "feel", "have", "would"})
# Words an asked-for object is said with that name nothing of it (closed classes: the speaker,
# determiners, prepositions, and the words that point back to a thing or only rate it: "find
# me a good one", "search for some options").
_NAMES_NOTHING = frozenset(
    {"me", "us", "for", "to", "with", "a", "an", "the", "some", "any", "my", "our", "out"}
    | {"one", "ones", "something", "anything", "options", "good", "nice", "great", "please"}
)
_ASKING_POLITELY = frozenset({"please", "can", "could", "would", "will"})
# Verbs of getting the bot to find or obtain a thing (a closed class): only these act on a wish
# by naming its thing again ("I want a table for four, can you book a table for four at Nobu");
# "tell", "check", "show", "cancel" or "pay" ask for something else about it.
_ACQUIRING = frozenset({"find", "search", "look", "book", "reserve", "get", "recommend", "suggest"})
# Words that open what is said of an asked-for thing after it (closed classes): prepositions,
# relative words and the participles of place and showing ("a hotel located near the harbour",
# "the films shown in Leeds", "flights that leave at noon").
_PLACE_OR_KIND = _PREPOSITIONS | frozenset(
    {"near", "around", "close", "that", "which", "who", "where", "located", "shown", "showing"}
    | {"playing", "leaving", "departing"}
)


def _wish_then_ask(first: str, second: str) -> bool:
    """Whether ``second`` asks the bot to act on the wish ``first`` states ("I want a quiet
    hotel, could you find me one", "we need to see a dentist, can you search for a dentist
    near us"): ``first`` opens with the speaker and a word of wanting, with no comma and no
    question word; ``second`` is a polite imperative whose object names nothing of its own
    (points back, or rates only) or, after a verb of finding or getting (:data:`_ACQUIRING`),
    names only things of the wish before any place or kind said after it; not "I want to see a
    film, can you check my balance" nor "I want to fly to Paris, can you tell me the weather in
    Paris", two requests."""
    before = WORD.findall(first[:SOFT_REACH].lower())
    while before[1:] and before[0] in GREETINGS:
        del before[0]
    if (
        not before
        or before[0] not in _WISHER
        or "," in first
        or not any(w in _WISHING for w in before[1:4])
        or any(w in _WH for w in before)
    ):
        return False
    opening = WORD.findall(second[:12].lower())[:1]
    words = _imperative(second, polite=True)
    if not opening or opening[0] not in _ASKING_POLITELY or not words or words[0] not in _VERB_SET:
        return False
    told = [w for w in words[1:] if w not in _VERB_SET and w not in _NAMES_NOTHING]
    if not content_words(" ".join(told)):
        return True  # "could you find me one", "please look for some good options"
    wished = content_words(" ".join(w for w in before if w not in _WISHING))
    named = content_words(" ".join(_head_of(words[1:])))
    return words[0] in _ACQUIRING and bool(named) and named <= wished


def _head_of(words: list[str]) -> list[str]:
    """The words that name the asked-for thing in ``words`` (an object after its verb), up to
    the place or kind said after it: "dentist" from "for a dentist near the office", "table"
    from "a table for four at Nobu"."""
    head: list[str] = []
    for w in words:
        if w in _VERB_SET or (w in _NAMES_NOTHING and w not in _PLACE_OR_KIND):
            continue
        if w in _PLACE_OR_KIND:
            if head:
                break
            continue
        head.append(w)
    return head


# Verbs of noting something down (a closed class): "mark down that ...", "note that ...".
_NOTING = frozenset({"mark", "note", "write", "jot", "record", "log", "remember"})


def _notes_then_tells(first: str, second: str) -> bool:
    """Whether ``second`` asks to pass on what the note ``first`` takes, telling nothing of its
    own ("note that I will be in Lisbon next week and let my bank know", "mark down that we
    moved and notify the post office"): ``first`` notes down a clause ("that ..."), ``second``
    is a telling of someone else (:data:`_TELLING`) with nothing of its own to tell; not "...
    and tell my wife to buy milk"."""
    before = _imperative(first, polite=True)
    if not before or before[0] not in _NOTING or "that" not in before[1:4]:
        return False
    words = _imperative(second, polite=True)
    return (
        len(words) > 1
        and words[0] in _TELLING
        and words[1] not in _TOLD
        and (words[0] != "let" or "know" in words[2:6])
        and _told_of_it("", words)
    )


def _told_of_it(first: str, words: list[str]) -> bool:
    """Whether the telling ``words`` (from its verb) is about what the statement ``first`` says:
    it tells nothing of its own ("let the front desk know", "notify security", "report to the
    bank"), or what it tells (after "to", "that", "about", "know" or a question word; what
    "report" names) shares a content word with ``first`` ("my bike got stolen, notify the police
    about the stolen bike"); not "I lost my credit card, remind my wife to buy milk", two
    requests."""
    if words[0] == "report":
        told = words[1:]
        if "to" in told:
            told = told[: told.index("to")]  # "report to the bank": where, not what
    else:
        at = next((k for k in range(2, len(words)) if words[k] in _TELLS_WHAT), len(words))
        told = words[at + 1 :]
    told = [w for w in told if w not in _ONLY_WHEN]
    return not told or bool(content_words(first) & content_words(" ".join(told)))


def _looks_then_tells(first: str, second: str) -> bool:
    """Whether ``first`` asks to look something up and ``second`` to tell what was found
    ("pull up my calendar and tell me what I have on Friday", "can you check my account and let
    me know how much I spent", "search for films at the Odeon and tell me the film times"): a
    verb of looking (:data:`_LOOKING`, after "please" or "can you"), then "tell me", "show me",
    "give me" or "let me know" before a question word or "the", and what is told points back to
    what is looked up, by a word of :data:`_TOLD_OF_IT` or a content word of the look-up; not
    "check my balance and tell me the weather in Boston", two requests."""
    before = _imperative(first, polite=True)
    words = WORD.findall(second[:60].lower())
    if not before or before[0] not in _LOOKING or len(words) < 3 or words[1] != "me":
        return False
    told = words[2:]
    if words[0] == "let":
        if told[0] != "know":
            return False
        told = told[1:]
    elif words[0] not in _TELLING_ME:
        return False
    if not told or (told[0] not in _WH and told[0] != "the"):
        return False
    # what is told must be what was looked up ("check my balance and tell me the weather in
    # Boston" asks twice): the speaker's own ("what I have on Friday", "how much I spent"), what
    # the look-up finds ("what you find", "the results"), or a thing the look-up names
    return not _TOLD_OF_IT.isdisjoint(told[1:]) or bool(
        content_words(" ".join(before[1:])) & content_words(" ".join(told))
    )


def _imperative(piece: str, *, polite: bool = False) -> list[str]:
    """The first words of ``piece`` from its verb: without a greeting or thanks before it
    ("Thanks, alert my bank"), and with ``polite`` a polite opening ("could you check ...")."""
    words = WORD.findall(piece[:60].lower())
    k = 0
    while k < len(words) and (
        words[k] in GREETINGS or words[k] in _THANKS or (polite and words[k] in _POLITE)
    ):
        k += 1
    return words[k:]
