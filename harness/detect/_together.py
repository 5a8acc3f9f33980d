"""Pieces of a user's message that the request segmenter (:mod:`harness.detect.requests`) cut
apart but that make one request: the shapes of a statement that the planner's split keeps
together as well, read by the closed classes both share (:mod:`harness.text._shapes`), without
the planner.

- A statement that only states, before a comma or a semicolon ("I'm going to Peru, do I need a
  visa", "I got a new job, can you help me with my 401k rollover"), is the context of the request
  after it (:func:`~harness.text._shapes.states`: it opens with a pronoun a speaker states with
  and has no word of wanting or asking), when it has no question word and the learned model of
  what needs an answer (:class:`~harness.detect.requests.NeedsModel`) gives it less than even
  odds of asking for one ("I lost my card" asks on its own; "I got a new job" does not).
- A quotation after a comma is what the request before it is about ("how do I say, 'good
  morning' in Italian", "translate the phrase, 'where is the station' into French").
- A piece that opens with "or" asks the same thing again ("has my application been received, or
  what is its status").
- A piece that asks about what a statement before it names, by a pronoun ("my card is stolen, I
  need to report it", "I can't find my mastercard and I want to report it as lost":
  :func:`~harness.text._shapes.refers_back`), or a short question about it with a pronoun or
  nothing of its own ("my card was declined yesterday, what happened", "my vacation, has it been
  approved yet", "my card was declined and I'm wondering why").
- A statement about the speaker's own things that goes on after "and" without a subject of its
  own ("I was on flight AB123 and haven't been able to locate my luggage":
  :func:`~harness.text._shapes.goes_on`).
- An imperative and a verb of telling whose object is a pronoun pointing back to what the first
  names, after a bare "and" ("alert my bank and let them know I'm travelling"); a second action
  on it is a request of its own ("check my balance and send it to my wife"), but taking
  something out and placing it is one move ("take $40 from savings and put it in checking").
- A statement going on with "would like" ("I am visiting Porto and would like a hotel").
- A request that acts on or passes on what the piece before it says: a telling of a statement
  of the speaker's own things ("my card got scratched, can you tell my bank to send a new one"),
  a polite request acting on a wish ("I want a quiet hotel, could you book one for me"), a
  telling of a note, and a look-up and the telling of what it finds ("pull up my calendar and
  tell me what I have on Friday"): these shapes are read in :mod:`harness.detect._acting_on`.

"Have" that possesses or makes a perfect tense, and the month "may", are stating words here ("I
have a new job, ..."), and a greeting or thanks before an imperative does not hide it.

A closer at the end of a request, set off by punctuation ("..., thank you so much", "... - that's
all") or one no title or name is made of ("... thanks a lot", "... thx"), is no word of it. A piece that only announces requests to come, the speaker's own or with
no verb ("I have several requests.", "Can you help me with a few things?"), is no request (one
before a colon never was); a question about items ("Were there two items?") is one.

Each step reads a bounded window of the pieces joined so far (:func:`_window`), so the work is
linear in the message's length.

Only pieces of one sentence joined by a comma, a semicolon, a lone dash ("I am out of cash - can
you transfer 500 to checking") or a bare "and" are kept together: "also", "plus", "as well as"
and the discourse connectives add a request of their own, and words said once for two requests
(:mod:`harness.detect._coordination`) make two.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from harness.detect._acting_on import (
    _SAYS_OF,
    _TELLING,
    _THANKS,
    _VERB_SET,
    _imperative,
    _looks_then_tells,
    _notes_then_tells,
    _tells_of_it,
    _wish_then_ask,
)
from harness.detect._apology import APOLOGY, FILLER, MARKS
from harness.detect._people import _CALLED
from harness.detect._request_tokens import _SMILEY
from harness.detect._request_words import (
    _ANNOUNCED,
    _ANNOUNCING,
    _AUX,
    _NAMING,
    _TITLE_NOUNS,
    _WH,
    _owned,
)
from harness.text._shapes import (
    AUXILIARIES,
    GREETINGS,
    SOFT_REACH,
    WANTS,
    WORD,
    goes_on,
    opens_request,
    points_back,
    refers_back,
    states,
)

if TYPE_CHECKING:
    from harness.detect.requests import Request


# What may stand between two pieces of one request: a comma, a semicolon, a lone dash (which
# the segmenter reads as a semicolon), a bare "and". (Nothing but a space stands between two
# pieces only where a question runs on after a clause.)
_BETWEEN = re.compile(r"\s*+(?:,|;|(?:,\s*+)?and)\s*+|\s++-\s++|[^\S\n]++", re.IGNORECASE)
_CONTEXT_BETWEEN = re.compile(r"\s*+[,;]\s*+|\s++-\s++|[^\S\n]++")
_AND = re.compile(r"\s*+and\s*+", re.IGNORECASE)
# Pronouns that point back to a thing named before (a closed class).
_POINTING = frozenset({"it", "that", "this", "they", "them"})
# Verbs of taking money or a thing out, and of placing it somewhere (closed classes): "take $40
# from savings and put it in checking" moves it once; "check my balance and send it" asks twice.
_TAKING = frozenset({"take", "withdraw", "pull", "grab"})
_PLACING = frozenset({"put", "transfer", "deposit", "move", "place", "add"})
# The prepositions of where a thing is taken to (a closed class).
_DESTINATION = frozenset({"to", "into", "onto", "towards"})
# An impersonal "it" (of the weather: "is it raining", "is it going to snow", "is it cold")
# points back to nothing: the weather's verbs and adjectives (a closed class).
_WEATHER = frozenset(
    {
        "rain", "raining", "rainy", "snow", "snowing", "snowy", "hail", "hailing", "sleet",
        "drizzle", "drizzling", "pour", "pouring", "storm", "storming", "stormy", "thunder",
        "sunny", "cloudy", "windy", "foggy", "humid", "hot", "cold", "warm", "chilly", "freezing",
        "cool", "wet", "dry", "icy",
    }
)  # fmt: skip
# The speaker announcing requests of their own (the first person) or asking for help with them.
_SPEAKER = frozenset({"i", "i've", "ive", "i'm", "im", "i'd", "we", "we've", "we're", "help"})
# An announcement of requests to come, said as a sentence or a part of its own: the words the
# segmenter's announcements before a colon have, greetings, and the prepositions of "help me with
# a few things" (closed classes).
_ANNOUNCES = _ANNOUNCING | GREETINGS | frozenset({"with", "about", "for", "some", "out"})
# "Go ahead" before "and" and the request it lets go ahead ("please go ahead and book it").
_GO_AHEAD = re.compile(r"(?:(?:please|ok|okay|so|now)\s++)?go\s++ahead", re.IGNORECASE)
_QUOTES = frozenset("'\"‘“")
"""What a quotation opens with: a quoted piece is what the request before it is about."""
# A word of :data:`_ANNOUNCED` (what :func:`_announces` reads a piece's words for).
_NAMES_ANNOUNCED = re.compile(
    r"\b(?:questions?|things?|requests?|quer(?:y|ies)|items?|help)\b", re.IGNORECASE
)
# The words :func:`~harness.text._shapes.points_back` needs one of (tried first: most pieces
# have none).
_POINTS = re.compile(r"\b(?:it|them|one)\b", re.IGNORECASE)
# "have", "has", "had" possessing ("I have a new job") or in a perfect tense ("there has been
# fraud on my card"), the month "may" before a day ("I'll be in Aiken on may 12"), and "trying"
# in a past tense ("I was at the pump trying to pay"): stating words, not the auxiliaries a
# question or a wish opens with (closed classes: determiners, numbers, "been", the adverbs of a
# perfect tense, a regular participle).
_STATING_AUX = re.compile(
    r"\b(?:have|has|had)\b(?=\s++(?:a|an|the|my|our|some|no|\d+|been|not|never|just|already"
    r"|\w+ed)\b)|\bmay\b(?=\s++\d)"
    r"|\b(?:was|were)\b[^,.;?!]{0,40}?\btrying\b",
    re.IGNORECASE,
)
_EVEN = 0.5
"""A stating piece the needs model gives at least these odds of asking is a request of its own."""


def kept_together(
    message: str, requests: list[Request], needs: Callable[[str], float]
) -> list[Request]:
    """``requests`` (of ``message``, in order) with the pieces that make one request joined and
    those that only announce requests left out (unless nothing else is left), closers cut off;
    ``needs(piece)`` is how likely a piece asks for an answer of its own (the needs model)."""
    # "I have several requests.", "Can you help me with a few things?": no request of their own
    # (one pass, the cheap tests inline: this runs on every multi-request message)
    kept = [
        r
        for r in requests
        if _NAMES_ANNOUNCED.search(r.text) is None or not _announces(message[r.start : r.end])
    ] or requests
    # "Morning!", "thx", "that's all" standing alone beside other requests: no request of their own
    kept = [r for r in kept if not _only_courtesy(r.text)] or kept
    # "sorry, when's the next one", "excuse me, ...", "..., sorry": an apology beside another
    # request asks nothing of its own ("sorry I missed that" asks for the answer again: kept)
    kept = [r for r in kept if not _only_apology(r.text)] or kept
    # "..., thank you so much": no words of it
    requests = [_closed(r) for r in kept]
    # Runs of pieces that make one request, joined once at the end: each step reads a bounded
    # window of the run so far (:func:`_window`), so the work stays linear in the message.
    runs = [[requests[0]]]
    for after in requests[1:]:
        run = runs[-1]
        if _together(message, run[0], run[-1].end, after, needs):
            run.append(after)
        else:
            runs.append([after])
    return [_joined(message, run) for run in runs]


def _joined(message: str, run: list[Request]) -> Request:
    """One request of the pieces of ``run`` (the first piece's words, then the message's)."""
    first, last = run[0], run[-1]
    if len(run) == 1:
        return first
    return replace(first, text=first.text + message[first.end : last.end], end=last.end)


def _window(message: str, start: int, end: int) -> str:
    """What is read of the (maybe joined) piece ``message[start:end]``: its first
    :data:`~harness.text._shapes.SOFT_REACH` characters, as the planner's split reads."""
    return message[start : min(end, start + SOFT_REACH)]


def _together(
    message: str, before: Request, end: int, after: Request, needs: Callable[[str], float]
) -> bool:
    """Whether ``after`` is of one request with the run of pieces from ``before`` to ``end``."""
    if before.carried_after or after.carried or after.carried_after:
        return False  # words said once for two requests: two requests
    between = message[end : after.start]
    if _BETWEEN.fullmatch(between) is None:
        return False
    first = _window(message, before.start, end)
    second = message[after.start : after.end]
    if _GO_AHEAD.fullmatch(first) and _AND.fullmatch(between):
        return True  # "go ahead and change my pin": no request of its own
    if second[:1] in _QUOTES:
        return True  # "translate the sentence, 'we will be there soon' into Portuguese"
    if _CONTEXT_BETWEEN.fullmatch(between) and _context(first, needs, own=_asks_bot(second)):
        return True
    if _CONTEXT_BETWEEN.fullmatch(between) and _trails(message, first, after, needs):
        return True  # "where is my parcel, I ordered it in May": what the request is about
    if _CONTEXT_BETWEEN.fullmatch(between) and _follows_up(first, second):
        return True  # "tell me about my application; did it go through": asks of it again
    if _CONTEXT_BETWEEN.fullmatch(between) and _says_more_of_it(message, first, after):
        return True  # "my luggage is nowhere in sight, it might be lost": the same thing
    if (_AND.fullmatch(between) or _CONTEXT_BETWEEN.fullmatch(between)) and _prefers(second):
        return True  # "rent me a car in Dallas and I would prefer an SUV": how it is wanted
    if _AND.fullmatch(between) and _condition_goes_on(first, second):
        return True  # "what should I do if I'm at the airport and my bag is not here"
    if _AND.fullmatch(between) and not _opens_asking(second) and _context(first, needs, own=True):
        return True  # "i was buying qtips at walmart and my card got declined"
    if _AND.fullmatch(between) and _states(first) and _states_of_own(second):
        return True  # "I was at the shop trying to pay and my card got declined": what happened
    if _tells_of_it(first, second):
        return True  # "my card snapped, can you tell my bank to send a replacement"
    if _CONTEXT_BETWEEN.fullmatch(between) and _wish_then_ask(first, second):
        return True  # "I want a quiet hotel, could you book one for me"
    if (
        _opening(second) == "or"
        or (_POINTS.search(second) is not None and _points_back(first, second))
        or _asks_about(first, second)
    ):
        return True  # "has my application been received, or what is its status": one asked
    return _AND.fullmatch(between) is not None and (
        (_opening(first) in _SAYS_OF and (goes_on(first, second) or _wants_on(first, second)))
        or _reaches_then_sees(first, second)
        or _wants_it_done(first, second)
        or _asks_of_it(first, second)
        or _looks_then_tells(first, second)
        or _notes_then_tells(first, second)
    )


def _trails(message: str, first: str, after: Request, needs: Callable[[str], float]) -> bool:
    """Whether ``after``, the last part of its sentence, only says what the request ``first``
    before its comma is about ("how do I get a new pin, I forgot mine", "book me a cab, a
    shared ride is fine"): it asks nothing (no question word, no auxiliary or request verb
    first), wants nothing ("..., I need a hotel too") and has less than even odds of needing an
    answer (the needs model: not "..., my card was stolen"); not a part that leads into one
    after it ("..., I'm going abroad soon, I should tell the bank"). An emoji or emoticon after
    it ends its sentence; spaces, brackets and quotes before what follows are skipped."""
    if _SMILEY.match(message, after.end) is None:
        rest = message[after.end :].lstrip(_CLOSING)[:1]
        if (rest and rest not in _SENTENCE_ENDS) or _states(first):
            return False
    elif _states(first):
        return False
    piece = message[after.start : after.end]
    if "," in piece or _opens_asking(piece):
        return False
    words = WORD.findall(piece.lower())
    return (
        not any(w in _WH or w in _WANTING for w in words)
        and _WISHED.search(piece) is None
        and needs(piece) < _EVEN
    )


# What ends a sentence after its last word, and what may stand between them; the words of
# wanting and needing, and a wish said without them ("a pizza would be great"; closed classes).
_SENTENCE_ENDS = frozenset(".!?\n")
_CLOSING = " \t)]\"'\u201d\u2019"
_WANTING = WANTS | frozenset({"needing", "wanting", "love", "wish"})
_WISHED = re.compile(r"\bwould\s+be\s+(?:great|nice|good|lovely)\b|\bcould\s+use\b", re.I)


def _opens_asking(piece: str) -> bool:
    """Whether ``piece`` opens as a question or an imperative does: a question word in its first
    three words ("from which airport is it"), an auxiliary, "please" or a request verb first."""
    words = WORD.findall(piece[:40].lower())[:3]
    return not words or (
        words[0] in AUXILIARIES
        or words[0] in _VERB_SET
        or words[0] == "please"
        or any(w in _WH for w in words)
    )


def _opening(piece: str) -> str:
    words = WORD.findall(piece[:40].lower())
    return words[0] if words else ""


def _states(piece: str) -> bool:
    """Whether ``piece`` only states (:func:`~harness.text._shapes.states`), reading "have" that
    possesses or makes a perfect tense, and the month "may", as the stating words they are."""
    if states(piece):
        return True
    masked = _STATING_AUX.sub(" ", piece)
    return masked != piece and states(masked)


# Common irregular past tenses a statement of what happened says (a closed class).
_PAST = frozenset(
    {"got", "broke", "fell", "came", "went", "ran", "left", "took", "lost", "stole", "froze"}
)


def _asks_bot(piece: str) -> bool:
    """Whether ``piece`` asks the bot itself: a question ("can you ...", "what ...") or
    "please"; not an imperative to tell someone else ("remind Sarah to ...")."""
    words = WORD.findall(piece[:40].lower())[:1]
    return bool(words) and (words[0] in AUXILIARIES or words[0] in _WH or words[0] == "please")


def _states_of_own(piece: str) -> bool:
    """Whether ``piece`` only states something of the speaker's own things ("my rent is due
    tomorrow", "our heating broke"): it opens with "my" or "our", has a verb (an auxiliary, a
    past tense) in the words after its noun, and reads as a statement would with a thing ("it")
    as its subject (:func:`~harness.text._shapes.states`); not a noun phrase alone ("my next
    paycheck")."""
    words = WORD.findall(piece[:SOFT_REACH].lower())
    while words[1:] and words[0] in GREETINGS:
        del words[0]
    return (
        len(words) > 2
        and words[0] in ("my", "our")
        and any(w in AUXILIARIES or w in _PAST or w.endswith("ed") for w in words[2:6])
        and states(" ".join(["it", *words[2:]]))
    )


def _points_back(first: str, second: str) -> bool:
    """Whether ``second`` asks about what the statement ``first`` names, by a pronoun: as the
    planner reads it (:func:`~harness.text._shapes.refers_back`), or after a statement it does
    not read as one ("there has been fraud on my card and I need to report it": it takes "there"
    for a greeting's, as in "hi there")."""
    if refers_back(first, second) or (_states(first) and points_back(second)):
        return True
    # "I no longer need to wash dishes; take it off my list": a want denied is no request
    unwanted = _UNWANTED.sub(" ", first)
    return unwanted != first and refers_back(unwanted, second)


def _context(piece: str, needs: Callable[[str], float], *, own: bool = False) -> bool:
    """Whether ``piece`` only states and asks nothing of its own: no question word past its
    first ("I'm curious what plan I'm on" asks), no comma inside, and less than even odds of
    needing an answer; with ``own``, a statement of the speaker's own things counts
    (:func:`_states_of_own`)."""
    if not (_states(piece) or (own and _states_of_own(piece))) or "," in piece:
        return False
    return not any(w in _WH for w in WORD.findall(piece.lower())[1:]) and needs(piece) < _EVEN


def _asks_about(first: str, second: str) -> bool:
    """Whether ``second`` is a short question about what the statement ``first`` says of the
    speaker's own things ("what happened", "why", "I wanna know why", "has it been approved
    yet", "what is that exactly"); not after a question, a want or a word to the bot ("what's their number and do
    they allow pets", "I'm sorry, can you tell me the time, and is it refundable")."""
    before = WORD.findall(first.lower())
    words = WORD.findall(second.lower())
    while before[1:] and before[0] in GREETINGS:
        del before[0]  # "so my card was declined and I want to know why"
    if (
        not before
        or not words
        or "," in first
        or any(w in WANTS or w in _WH or w == "you" for w in before)
    ):
        return False
    if before[0] not in _SAYS_OF:
        # "it turns out my card was declined and I wanna know why": a statement all the same
        return words[-1] == "why" and len(words) <= 5 and not opens_request(first)
    if words[-1] == "why" and len(words) <= 5:
        return True  # "I wanna know why", "I'm wondering why"
    if words[0] not in _WH and words[0] not in AUXILIARIES:
        return False
    if len(words) <= 2:
        return True  # "what happened", "why not"
    if len(words) > 5 or _POINTING.isdisjoint(words[1:3]):
        return False
    # "is it raining in Boston": an impersonal "it" points back to nothing
    return "it" not in words[1:3] or _WEATHER.isdisjoint(words[words.index("it") + 1 :])


# Words a follow-up question may say before its subject ("how long will ...", "how long
# before ...") and the words of a subject that is a thing named before ("it", "a new one", "the
# replacement one"), or the two speakers ("can I sign up through you"; closed classes).
_DEGREE = frozenset({"long", "much", "many", "soon", "often", "far"})
_UNTIL = frozenset({"until", "till", "before"})
_FOLLOW_SUBJECTS = frozenset({"it", "they", "this", "that"})
_SPEAKERS = frozenset({"i", "we", "you"})
_ONE_BEFORE = frozenset({"a", "the", "new", "another", "replacement"})
_NEWER = frozenset({"new", "another", "replacement"})
# Words that open an object of a question's own ("did they send the invoice", "is it in my
# account"): determiners and possessives (a closed class).
_OWN_OBJECT = frozenset(
    {"a", "an", "the", "my", "your", "our", "their", "his", "her", "these", "those", "some"}
)
# The auxiliaries a question of a status opens with ("has it gone through", "did they ship
# it", "when will it arrive"; no modal of ability or of asking: "can they come today", "could
# you move it" ask for an action) and the words of a status of a thing under way: sent,
# processed, arriving, taking time (closed classes).
_STATUS_ASKING = frozenset(
    {"did", "has", "have", "had", "is", "are", "was", "were", "will", "does", "do"}
)
_STATUS = frozenset(
    {"through", "arrive", "arrived", "arrives", "arriving", "ship", "shipped", "ships"}
    | {"processed", "approved", "received", "delivered", "dispatched", "posted", "cleared"}
    | {"sent", "take", "takes", "taking", "done", "ready", "finished", "accepted", "status"}
    | {"come", "comes", "coming", "came"}
)


def _follows_up(first: str, second: str) -> bool:
    """Whether ``second``, after a comma or a semicolon, only asks how what the statement
    ``first`` names is going ("my council tax payment went out on Monday; has it gone through",
    "I lost my key fob; how long will a new one take", "I applied for a licence, have you
    processed my application"): ``first`` is a statement, no request (no question word, no
    auxiliary first, no verb of its own first: "tell me my balance, is it too late to transfer"
    asks twice), and ``second`` is a short question (eight words at most) of a status
    (:data:`_STATUS`: "go through", "arrive", "ship", "take") whose subject, right after its
    auxiliary, is a pronoun for a thing named before, "(a new) one", or the bot, and that names
    no object of its own: no determiner or possessive after its subject but before a word that
    says again a word of ``first`` ("my application" after "applied"). A question of a new
    property ("does it have parking", "is it open late") or of an action ("can you renew it")
    asks something new."""
    words = WORD.findall(second[:80].lower())
    if not 3 <= len(words) <= 8 or (words[0] not in _WH and words[0] not in _STATUS_ASKING):
        return False  # the cheap test first: most pieces are no short question of a status
    if _STATUS.isdisjoint(words) or "with" in words:
        return False  # "does it have parking", "will it come with a charger": a new thing asked
    before = WORD.findall(first[:SOFT_REACH].lower())
    if not before or "?" in first:
        return False
    opening = _imperative(first)[:1]
    if not opening or opening[0] in AUXILIARIES or any(w in _WH for w in before):
        return False  # "great, is there enough money ..., what do I have on Friday": two
    if (_imperative(first, polite=True) or opening)[0] in _VERB_SET:
        return False  # "look up my parcel, has it shipped": the look-up is a request of its own
    k = 0
    if words[0] in _WH:
        k = 2 if words[1] in _DEGREE else 1
    if k and k < len(words) and words[k] in _UNTIL:
        k += 1  # "how long before a new one arrives": no auxiliary before the subject
    elif k >= len(words) or words[k] not in _STATUS_ASKING:
        return False  # "can they come today", "could you move it": an action asked
    else:
        k += 1
    speaker = k < len(words) and words[k] in _SPEAKERS
    if speaker and (words[0] in _WH or words[k] != "you"):
        return False  # "..., where can I check my credit rating": a question of its own
    if k < len(words) and (speaker or words[k] in _FOLLOW_SUBJECTS):
        k += 1
    else:
        j = k
        while j < len(words) and j - k < 2 and words[j] in _ONE_BEFORE:
            j += 1
        if j >= len(words) or words[j] != "one" or _NEWER.isdisjoint(words[k:j]):
            return False  # "does the one on Bridge Street have wifi" names one of its own
        k = j + 1
    rest = words[k:]
    if not _WEATHER.isdisjoint(rest):
        return False
    said = {w[:5] for w in before if len(w) > 2}
    owned = [[w for w in rest[i + 1 : i + 3] if len(w) > 2] for i, w in enumerate(rest)]
    owned = [o for o, w in zip(owned, rest, strict=True) if w in _OWN_OBJECT]
    if any(not o or not all(w[:5] in said for w in o) for o in owned):
        return False  # "did they send the invoice", "would you look for a bus": its own object
    # the bot as the subject: what is asked must be the thing named before ("have you
    # processed my application"), not a new one
    return not speaker or bool(owned) or not _POINTING.isdisjoint(rest)


# The speaker's words of wanting that open a wish ("I need to", "I'd like", "I want to know";
# closed classes) and the objects that point back to a thing a statement named ("report it",
# "report this", "my new one").
_WISHERS = frozenset({"i", "i'd", "id", "we", "we'd"})
_WISHES = WANTS | frozenset({"would", "wish", "have"})
_IT_BACK = frozenset({"it", "this", "them"})
_NEW_ONE = re.compile(r"\b(?:(?:a|the|my|your)\s++)?(?:new|replacement|another)\s++one\b")


def _wants_it_done(first: str, second: str) -> bool:
    """Whether ``second``, after "and", wants something done about what the statement ``first``
    names, by a pronoun or "a new one" ("my card broke in half and i need to report this", "my
    luggage has not arrived and I would like help locating it", "my card was stolen and I want
    to know when I get my new one"): ``first`` opens as a statement of the speaker's own things
    (:data:`_SAYS_OF`) with no question word, ``second`` opens with the speaker and a word of
    wanting; not "my flight was cancelled and I need a hotel", which names a thing of its own."""
    words = WORD.findall(second[:40].lower())
    if len(words) < 3 or words[0] not in _WISHERS or words[1] not in _WISHES:
        return False  # the cheap test first
    before = WORD.findall(first[:SOFT_REACH].lower())
    if not before or before[0] not in _SAYS_OF or any(w in _WH for w in before):
        return False
    if any(w in _WISHES and w != "have" for w in before[:4]):
        return False  # "i wish to pay my cable bill and i have to ... do it": a wish, no statement
    words = WORD.findall(_NEW_ONE.sub(" it ", second[:SOFT_REACH].lower()))
    back = next((i for i, w in enumerate(words) if w in _IT_BACK), None)
    # nothing of its own named before the pronoun ("... and I have to transfer my 401k but I
    # don't know how to do it" points to its own object)
    return back is not None and _OWN_OBJECT.isdisjoint(words[2 : max(2, back - 1)])


# A want said as no longer there ("I no longer need", "we don't want"): stating, not asking.
_UNWANTED = re.compile(
    r"\b(?:no\s++longer|(?:do|does|did)\s*+n[o']?t|don'?t|doesn'?t|didn'?t)\s++"
    r"(?:need|want|require)(?:\s++to)?\b",
    re.IGNORECASE,
)
# The words of a request of its own in a piece that otherwise says more ("if you could",
# "please"; a closed class).
_ASKS_OWN_WORDS = frozenset({"you", "your", "please", "pls", "plz"})
# A preference about the request before ("... and I would prefer an SUV", "..., I'd prefer a
# window seat"): how the same thing is wanted.
_PREFERS = re.compile(r"(?:i|we)(?:\s++would|'d|\s++d)?\s++prefer\b", re.IGNORECASE)
# Words that make a preference a request for one more thing ("we'd prefer a hotel near the
# Colosseum too, can you find one"; a closed class).
_ONE_MORE = frozenset({"too", "also", "additionally"}) | _ASKS_OWN_WORDS


def _prefers(piece: str) -> bool:
    """Whether ``piece`` only says how the request before is wanted ("I would prefer an SUV",
    "I'd prefer a window seat"): it opens with a preference and asks nothing of its own (no
    question mark, no "you" or "please", no "too" or "also")."""
    if not _PREFERS.match(piece) or "?" in piece:
        return False
    words = WORD.findall(piece[:SOFT_REACH].lower())
    return _ONE_MORE.isdisjoint(words) and "as well" not in piece.lower()


# What a statement about a thing named before opens with ("it might be lost", "they're closed").
_IT_SUBJECTS = frozenset({"it", "they", "it's", "its", "they're", "theyre"})
# The modals that open an indirect request after "it" ("it would be great if you ...", "it
# should be easy to get a cab, can you book one") and the words of a request of its own
# ("if you could", "please"; closed classes).
_WOULD = frozenset({"would", "could", "should", "can", "d"})
_ASKS_OWN = _ASKS_OWN_WORDS
# The words a question opens with when it asks what to do or what follows under a condition
# ("what should I do if ...", "what happens if ..."; a closed class).
_WHAT_IF = frozenset({"should", "do", "happens", "happen", "will", "would", "can"})


def _says_more_of_it(message: str, first: str, after: Request) -> bool:
    """Whether ``after``, after a comma or a semicolon, only says more about what the statement
    ``first`` names, with that thing as its subject ("my luggage is nowhere in sight, it might be
    lost", "my parcel was due Monday, it still hasn't come"): ``first`` opens as a statement of
    the speaker's own things (:data:`_SAYS_OF`) with no question word, and ``after`` is a
    statement (no question mark after it) opening with "it" or "they" and an auxiliary; not an
    impersonal "it" of the weather ("..., it might rain"), not "it would/could/should ..."
    (:data:`_WOULD`: "it would be great if you booked a hotel", "it would also be nice to know
    the parking options" ask), and no word of a request of its own (:data:`_ASKS_OWN`: "you",
    "please")."""
    piece = message[after.start : after.end]
    words = WORD.findall(piece[:SOFT_REACH].lower())
    if not words or words[0] not in _IT_SUBJECTS:
        return False  # the cheap test first
    before = WORD.findall(first[:SOFT_REACH].lower())
    if not before or before[0] not in _SAYS_OF or any(w in _WH for w in before):
        return False
    if len(words) < 2 or any(w in _WH for w in words):
        return False
    if words[0] in ("it", "they") and words[1] not in AUXILIARIES:
        return False
    if words[1] in _WOULD or not _ASKS_OWN.isdisjoint(words):
        return False  # "it would be great if you could book a hotel too": a request of its own
    if message[after.end : after.end + 2].lstrip()[:1] == "?":
        return False
    return _WEATHER.isdisjoint(words)


def _condition_goes_on(first: str, second: str) -> bool:
    """Whether ``second``, after "and", goes on with the condition a question ``first`` asks
    under ("what should I do if I'm waiting at the airport and my luggage is not here"): ``first``
    opens "what should/do/happens ..." (:data:`_WHAT_IF`) and has "if" after; ``second`` only
    states something of the speaker's own things (:func:`_states_of_own`). Not an embedded
    question ("can you tell me if the pharmacy is open and my prescription is ready" asks
    twice)."""
    before = WORD.findall(first[:SOFT_REACH].lower())
    if len(before) < 3 or before[0] != "what" or before[1] not in _WHAT_IF:
        return False  # "can you tell me if the pharmacy is open and my prescription is ready"
    return "if" in before[2:] and _states_of_own(second)


# Verbs of reaching someone or looking something up before "and see if" ("call the vet and see
# if they have a slot", "check my account and see if the refund came in"; a closed class): the
# seeing is what the call or look-up is for. "book a table and see if they have parking" asks
# twice.
_REACHING = frozenset(
    {"call", "contact", "ring", "phone", "email", "text", "message", "ask", "check", "look"}
    | {"search", "open", "go", "browse", "pull"}
)
_SEEING = frozenset({"see", "check", "find"})
_LOOKING_UP = frozenset({"check", "look", "search", "open", "browse", "pull"})
# The pronouns for the one reached ("call the vet and see if they have a slot").
_REACHED = frozenset({"they", "he", "she", "it", "they're", "theyre"})


def _reaches_then_sees(first: str, second: str) -> bool:
    """Whether ``first`` asks to reach someone or look something up and ``second`` ("see if
    ...", "check whether ...", "find out if ...") says what for: one request. Not when the
    seeing has the speaker or the bot as its subject ("see if you can find a hotel too" asks
    for a new action), an existential "there" ("check whether there's a train after 6") or the
    weather; after a call or a message, its subject is the one reached ("they", "he") or a
    thing ``first`` names."""
    before = _imperative(first, polite=True)
    words = WORD.findall(second[:SOFT_REACH].lower())
    if not before or before[0] not in _REACHING or len(words) < 2 or words[0] not in _SEEING:
        return False
    if words[0] == "find" and words[1] == "out":
        words = words[1:]
    if len(words) < 3 or words[1] not in ("if", "whether"):
        return False
    subject = words[2]
    if subject in _SPEAKERS or subject in ("there", "there's", "theres"):
        return False  # "see if you can book a tee time", "check whether there's a train": new
    if not _WEATHER.isdisjoint(words):
        return False  # "open my banking app and check whether it will rain": new
    if before[0] in _LOOKING_UP or subject in _REACHED:
        return True  # "check my account and see if the refund came in", "call the vet and
        # see if they have a slot"
    # a call or a message: what is seen is of the one reached ("email my landlord and find
    # out if the gym is open" asks twice)
    said = {w[:5] for w in before if len(w) > 2}
    return subject in _OWN_OBJECT and len(words) > 3 and words[3][:5] in said


def _wants_on(first: str, second: str) -> bool:
    """Whether ``second`` goes on with the statement ``first`` by a wish with no subject of its
    own ("I am travelling to Leeds and would like a hotel near the station"): "would like",
    "would love" (the wanting words :func:`~harness.text._shapes.goes_on` reads, said politely)."""
    words = WORD.findall(second[:40].lower())
    return len(words) > 2 and words[0] == "would" and words[1] in ("like", "love") and states(first)


def _asks_of_it(first: str, second: str) -> bool:
    """Whether ``first`` is an imperative and ``second`` tells what it names something, by a
    pronoun pointing back to it ("alert my bank and let them know ...", "call the school and
    tell them ..."): a verb of telling (:data:`_TELLING`), not any second action on it ("check
    my balance and send it to my wife" asks twice), and not "... and tell me if they serve
    alcohol", a question of its own."""
    before = _imperative(first)
    words = WORD.findall(second[:SOFT_REACH].lower())
    if before[:1] and before[0] in _TAKING and words[1:2] and words[1] in _POINTING:
        # "take $40 from savings and put it in checking": one move; a taking that names where
        # it goes ("take my car to the shop and put it in my calendar") is done before the second
        return words[0] in _PLACING and _DESTINATION.isdisjoint(before[1:])
    return (
        bool(before)
        and len(words) > 1
        and before[0] in _VERB_SET
        and words[0] in _TELLING
        and words[1] in _POINTING
        and (words[0] != "let" or words[2:3] == ["know"])
    )


# Greetings, thanks and sign-offs (closed classes): a piece made only of them ("Morning!",
# "Good evening", "thx", "that's all", "thanks in advance") asks for nothing beside other requests.
_COURTESY = (
    GREETINGS
    | _THANKS
    | frozenset({"good", "morning", "afternoon", "evening", "hiya", "howdy", "greetings"})
    | frozenset({"you", "so", "very", "much", "a", "lot", "bunch", "million", "ty", "thx"})
    | frozenset({"cheers", "that's", "thats", "all", "in", "advance", "please", "pls", "plz"})
)


def _only_courtesy(piece: str) -> bool:
    """Whether ``piece`` is only a greeting, thanks or a sign-off (:data:`_COURTESY`), maybe with
    the name the bot is called by ("hello, bot"; not the name alone, that may be a topic)."""
    if len(piece) > 40:
        return False  # the cheap test first: five words of courtesy are shorter
    words = WORD.findall(piece.lower())
    return (
        len(words) <= 5
        and all(w in _COURTESY or w in _CALLED for w in words)
        and any(w in _COURTESY for w in words)
    )


_APOLOGISES = re.compile(
    MARKS
    + r"(?:(?:"
    + FILLER
    + r"|ok(?:ay)?)\b"
    + MARKS
    + r")*+(?:"
    + APOLOGY
    + r"\b"
    + MARKS
    + r")++"
)
"""Only apologies or attention-getters, maybe after fillers ("sorry", "oops sorry", "I'm so sorry
to bother you", "excuse me", "my apologies"; :mod:`harness.detect._apology`, a closed class)."""
_NOT_HEARD = re.compile(
    MARKS + r"(?:(?:" + FILLER + r"|ok(?:ay)?|" + APOLOGY + r")\b" + MARKS + r")*+"
    r"(?:i|we)\s++(?:just\s++)?(?:missed|(?:(?:did|could|do)\s*+n[o']?t|can'?t|can\s*+not)\s++"
    r"(?:quite\s++)?(?:catch|get|hear|understand|follow))"
    r"(?:\s++(?:that|it|this|you|what\s++you\s++(?:said|wrote|meant)))?+" + MARKS
)
"""A word of not having heard or followed what was said ("I missed that", "sorry, I didn't quite
catch it", "I can't hear you"), maybe after an apology, and nothing else: the object may only be
a pronoun or "what you said" ("I missed my coach" names what went wrong)."""


def _only_apology(piece: str) -> bool:
    """Whether ``piece`` only apologises (:data:`_APOLOGISES`): beside another request, before or
    after it, it asks nothing of its own."""
    return _APOLOGISES.fullmatch(piece.lower().replace("\u2019", "'")) is not None


def not_heard(piece: str) -> bool:
    """Whether ``piece`` only says the user did not hear or follow what was said, maybe after an
    apology (:data:`_NOT_HEARD`): a request to say the earlier answer again. The segmenter keeps
    it (beside a new question it is a request of its own); the missed-request check leaves it out
    when the request beside it asks the earlier question again."""
    return _NOT_HEARD.fullmatch(piece.lower().replace("\u2019", "'")) is not None


def _announces(piece: str) -> bool:
    """Whether ``piece`` only announces requests ("I have several requests", "need help with a
    few things", "Can you help me with a few things", "A few questions") or asks for help with
    nothing named ("could you help me with something", "I need some help"): the speaker's own
    (the first person or "help") or said with no verb; not a question about items ("Were there
    two items?")."""
    if _NAMES_ANNOUNCED.search(piece) is None:
        return False  # the cheap test first: most pieces name no request to come
    words = WORD.findall(piece.lower())
    return (
        any(w in _ANNOUNCED or w == "help" for w in words)
        and all(w in _ANNOUNCES for w in words)
        and (not _SPEAKER.isdisjoint(words) or _AUX.isdisjoint(words))
    )


# A closer said at the end of a request (a closed class of thanks and sign-offs), set off by
# punctuation: "... between 5 and 530, thank you so much", "... state what they are - thanks a
# lot"; not a title or a name ("play the song Thank You", "call Ty").
_CLOSER = re.compile(
    r"(?<=\w)\s*+[,.!;:\u2013\u2014-][\s,.!;:\u2013\u2014-]*+"
    r"(?:thanks?(?:\s+you)?(?:\s+(?:so|very)\s+much|\s+a\s+(?:lot|bunch|million)|\s+in\s+advance)?"
    r"|ty|thx|cheers|that'?s\s+all)[\s.!]*$",
    re.IGNORECASE,
)


# Closers that end a request with no punctuation before them: the ones no title or name is
# made of ("... my cable bill thanks a lot", "... right away thx"; not a bare "thank you" or "ty").
_BARE_CLOSER = re.compile(
    r"(?<=\w)\s++(?:thanks(?:\s+(?:so|very)\s+much|\s+a\s+(?:lot|bunch|million)|\s+in\s+advance)?"
    r"|thank\s+you\s+(?:so|very)\s+much|thank\s+you\s+in\s+advance|thx|cheers)[\s.!]*$",
    re.IGNORECASE,
)
# Words after which thanks are what is said or named, not a closer (closed classes: verbs of
# saying, writing, playing and watching, and the words that introduce a title); a title's noun
# only when no possessive owns it: "find the album thanks a lot" names it, "lock my card thanks a
# lot" thanks.
_QUOTING = (
    _TITLE_NOUNS
    | _NAMING
    | frozenset({"say", "says", "said", "saying", "write", "text", "send", "play", "watch", "read"})
)
_PUTTING_ON = frozenset({("put", "on"), ("turn", "on"), ("listen", "to")})
"""Two words after which thanks are what is played ("put on thanks a million")."""


_CLOSER_ENDS = (
    "thanks",
    "thank",
    "you",
    "much",
    "lot",
    "bunch",
    "million",
    "ty",
    "thx",
    "cheers",
    "all",
    "advance",
)
"""How a closer ends (what :data:`_CLOSER` is tried on)."""


def _closed(request: Request) -> Request:
    """``request`` without a closer at its end (when two words or more are left)."""
    if request.carried_after or not request.text[-8:].lower().endswith(_CLOSER_ENDS):
        return request  # the cheap test first
    m = _CLOSER.search(request.text) or _BARE_CLOSER.search(request.text)
    if m is None or len(request.text[: m.start()].split()) < 2:
        return request
    if m.re is _BARE_CLOSER and _names_thanks(request.text[: m.start()], m.group()):
        return request  # "send a note saying thanks a lot": what is said, not a closer
    cut = len(request.text) - m.start()
    return replace(request, text=request.text[: m.start()], end=request.end - cut)


def _names_thanks(before: str, closer: str) -> bool:
    """Whether thanks said with no punctuation before them (``closer``) are what ``before`` says,
    plays or names, not a closer: after a word of :data:`_QUOTING` or :data:`_PUTTING_ON`, or
    written as a title, a word past the first capitalised ("find the movie Thanks a Million";
    not in a message in capitals)."""
    words = WORD.findall(before.lower())
    if words[-1] in _QUOTING and (words[-1] not in _TITLE_NOUNS or not _owned(words)):
        return True  # "send a note saying thanks a lot" (not "lock my card thanks a lot")
    if tuple(words[-2:]) in _PUTTING_ON:
        return True
    later = closer.split()[1:]
    return not closer.isupper() and any(w[:1].isupper() for w in later)
