"""Two requests said together that share their words, for the request segmenter
(:mod:`harness.detect.requests`): "when and where does it start", "what's the price and warranty",
"tell me their address and rating", "where does it leave and arrive".

The check a segmented message feeds must flag a reply that answers only one of two things asked
at once, so each is a request of its own, with the words said once for both carried into each:
the frame before the first ("what's the"), the words after the second ("of the place", "does it
start"). Every rule reads a bounded number of words around one joining word, so a message is
still read in one pass.
"""

from __future__ import annotations

from typing import NamedTuple

from harness.detect._request_words import (
    _ASKING,
    _AUX,
    _CLAUSE_VERB,
    _DETERMINERS,
    _FILLERS,
    _GENERIC,
    _PREPOSITIONS,
    _PRONOUNS,
    _SUBJECT,
    _SUBORDINATORS,
    _VERBS,
    _WH,
    _frame,
    _has_topic,
    _noun_clause,
    _Tok,
    _words,
)


class _Cut(NamedTuple):
    """A cut between two requests: the words the second carries over from the first, and the
    words the first carries back from the second."""

    carry: list[_Tok]
    back: list[_Tok]
    splits: tuple[int, ...] = ()
    """Where the first part is cut again: the commas of a list said in one frame ("what's the
    address, phone number and rating"), as positions in it; each item carries ``carry``."""


# --- two requests that share their words ("when and where does it start") -----------------------

# Prepositions (a closed class of English): what follows one after the second thing asked
# for belongs to both ("the phone number and rating of the place").
_PREPS = _PREPOSITIONS | _words(
    "of between near over under around across through within without via per than"
)
# Closed classes of English beside the ones above: coordinators, object and possessive pronouns,
# forms of "be", numerals.
_CLOSED = (
    _WH | _AUX | _PRONOUNS | _DETERMINERS | _PREPS | _SUBORDINATORS | _VERBS | _GENERIC
) | _words(
    """
    or but so nor not no me us him them mine yours ours theirs hers its be been being
    zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty
    fifty hundred thousand million half
    """
)
# Words that may stand in a request's frame before the thing it asks about ("can you tell me the",
# "what about", "is there any", "I want to know the"): closed classes and the request verbs.
_FRAME = (
    _WH | _AUX | _PRONOUNS | _VERBS | _GENERIC | _words("about out be there if whether also just")
)
_OPENERS = _WH | _AUX | _VERBS | _SUBJECT | _PRONOUNS
# Words that make "X and Y" one thing ("both men's and women's", "between 10 and 11").
_PAIRED = _words("both either neither between among")
# Particles that end a phrasal verb ("fly out from").
_PARTICLES = _words("out up off down away back over")
# Words that open a question inside a request ("can you tell me *if* ...").
_EMBEDS = _WH | _words("if whether")
# The words a part that does not end its sentence opens with when it shares words with the part
# before it (only "when and where does it start, ..." and "... if ... and if ..., ..."): the
# others end the sentence, so the segmenter asks only about these.
_SHARED_OPENERS = _EMBEDS | _DETERMINERS
# Unions made once (a union in a function makes a new set at every call).
_OPENERS_OR_DETS = _OPENERS | _DETERMINERS
_OBJECTS = _DETERMINERS | _words("it them there please one")  # of a preposition after a thing
_WH_AUX = _WH | _AUX
_PREPS_PARTICLES = _PREPS | _PARTICLES


def _clause(piece: list[_Tok], limit: int = 12) -> list[_Tok]:
    """The last clause of ``piece`` (after its last comma or semicolon), from its opening word
    ("yes whats the address" opens at "whats"); empty when longer than ``limit`` words (a
    decision reads a bounded number of words)."""
    j = len(piece)
    stop = max(0, j - limit)
    while j > stop and piece[j - 1].word != "":
        j -= 1
    if j == stop and stop > 0:
        return []
    clause = piece[j:]
    while clause and clause[0].word in _FILLERS:
        clause = clause[1:]
    for n in range(1, min(3, len(clause))):
        if clause[0].word not in _OPENERS_OR_DETS and clause[n].word in _OPENERS:
            return clause[n:]
    return clause


def _bare(word: str) -> bool:
    """A word that names something: no closed-class word, request verb, number or clause
    marker."""
    return (
        word not in _CLOSED
        and not any(ch.isdigit() for ch in word)
        and not _CLAUSE_VERB.search(word)
    )


def _shared_tail(rw: list[str]) -> bool:
    """Whether the words after the second thing asked for are what both share: one or two
    prepositions with their objects ("of the place", "of that hotel for my reference"), what
    is said of both ("going to be like", "be like"), or "please" or "too"."""
    if rw in (["please"], ["like"], ["too"]):  # "what is the wind and humidity like"
        return True
    if rw[0] in _AUX or rw[0] in ("be", "going", "supposed"):
        # "the humidity and wind going to be like"; not a question ("... and ask can I")
        return len(rw) <= 6 and "and" not in rw and not (len(rw) > 1 and rw[1] in _PRONOUNS)
    if rw[0] not in _PREPS or len(rw) > 8 or sum(w in _PREPS for w in rw) > 2:
        return False
    return rw[-1] not in _PREPS and all(w in _PREPS or w in _OBJECTS or _bare(w) for w in rw)


def _coordinated(
    left: list[_Tok], right: list[_Tok], *, last: bool, carried: list[_Tok], strong: bool
) -> _Cut | None:
    """Two requests said together after "and", that share their words: the question words of one
    question ("when and where does it start", "how humid and windy is it"), two things asked for
    in one frame ("what's the price and warranty", "tell me their address and rating", "is it free
    and safe for children"), two actions of one question ("where does it leave and arrive") or two
    "if" clauses after one verb ("do you know if pets are allowed and if it is furnished"). None
    when ``right`` is no such request."""
    rw = [t.word for t in right]
    r0 = 1 if rw[0] in _PREPOSITIONS and len(rw) > 1 and rw[1] in _WH else 0
    if len(right) > 12 and rw[r0] not in _SHARED_OPENERS:
        return None  # a long part shares no words with the one before it, unless it opens so
    head = 0
    while head < min(3, len(rw)) and (_bare(rw[head]) or (head and rw[head] in _VERBS)):
        head += 1
    if rw[r0] not in _SHARED_OPENERS and not (
        head and (head == len(rw) or rw[head] in _AUX or _shared_tail(rw[head:]))
    ):
        return _actions(_clause(left), rw, last=last) if last and len(rw) <= 2 else None
    clause = _clause(left)
    words = [t.word for t in clause]
    if not words:
        return None
    if words[0] in _WH and (len(words) == 1 or (len(words) == 2 and _bare(words[1]))):
        if rw[r0] in _WH:  # "when and where does it start", "when and at what airport ..."
            return _Cut([], _predicate(right, r0 + 1))
        if (
            words[0] == "how"
            and len(words) == 2
            and _bare(rw[0])
            and (len(rw) == 1 or rw[1] in _AUX)
        ):  # "how humid and windy is it going to be"
            return _Cut(clause[:1], _predicate(right, 1))
    if last and rw[0] in _WH and not _has_topic(rw[1:]) and words[0] in _WH_AUX:
        return _Cut([], [])  # "how long is the ride and how much (is it)", "where is it and when"
    k = 0
    while k < len(clause) and (
        words[k] in _FRAME or (words[k] == "to" and k + 1 < len(words) and words[k + 1] in _ASKING)
    ):
        k += 1
    # a question word with the order of a statement after it ("when it starts", not "when does
    # it start", a question of its own), or "if"/"whether" and a clause
    asks = (rw[0] in _WH and not _direct(rw)) or (rw[0] in ("if", "whether") and len(rw) > 2)
    if (asks or (rw[0] in _DETERMINERS and not _noun_clause(rw))) and words[0] in _OPENERS:
        # "do you know if ... and if ...", "can you tell me if they serve alcohol and their
        # phone number", "can you tell me where it is and when it starts", "do you know
        # their address and whether they allow pets"
        embedded = next((j for j in range(1, min(k + 1, len(words))) if words[j] in _EMBEDS), 0)
        if embedded:
            return _Cut(clause[:embedded], [])
        if asks and rw[0] not in _WH and k > 1 and not strong:
            return _Cut(clause[:k], [])
        # "yes, what is the address and the price", "can you please tell me the address as
        # well as the starting time"
        frame = (
            (clause[:k] if k < len(words) and words[k] in _DETERMINERS else _frame(clause))
            if rw[0] in _DETERMINERS
            else []
        )
        if frame and _stands_in(rw):  # "the price of the red lamp and the other one": the
            frame = _up_to_object(clause, len(frame)) or frame  # price of the other one
        if frame:
            return _Cut(frame, [])
    if rw[0] in _DETERMINERS and carried and words[0] in _DETERMINERS:
        return _Cut(carried, [])  # "tell me the weather, the traffic and the news"
    if not last:
        return None
    if not head or not _has_topic(rw[:head]):
        return _actions(clause, rw, last=last)
    back: list[_Tok] = []
    if head < len(rw):  # what follows the second thing belongs to both: "... of the place"
        if not (_shared_tail(rw[head:]) or (words[0] in _WH and _question_tail(rw[head:]))):
            return _actions(clause, rw, last=last)
        back = right[head:] if rw[head] not in ("please", "too") else []
    if not _PAIRED.isdisjoint(words):
        return None  # "both men's and women's hair", "between 10 and 11": one thing
    if _plural(words[-1]) and _plural(rw[head - 1]):
        return None  # "the terms and conditions", "pros and cons": a pair of plurals is one
    own = _thing_frame(clause, k)
    if own is None:
        return _actions(clause, rw, last=last)
    if k:
        return _Cut(own, back)  # "what's the price and warranty": the frame carried over
    if carried:  # "what's the address, phone number and rating": the same frame again
        return _Cut(carried, back)
    asked = right[-1].mark == "?" or rw[-1] == "please"
    listed = _listed(left, len(left) - len(clause))
    if listed is not None and (listed[0] or asked):  # "what's the address, phone number and
        return _Cut(listed[0], back, listed[1])  # rating", "address, phone and rating?"
    if asked:  # "their address and rating?"
        return _Cut(own, back)
    return None


# What stands in for a thing named before ("the other one", "the blue ones", "the rest"; closed
# classes).
_STAND_INS = _words("one ones other others rest")


def _stands_in(rw: list[str]) -> bool:
    """Whether the part ``rw`` after "and" stands in for the thing named before it (a
    determiner, at most two words, then "one", "ones", "other" or "rest"): "the other one",
    "that one", "the green ones", "the rest"; not a counted noun, "a table for one")."""
    return (
        1 < len(rw) <= 4
        and rw[-1] in _STAND_INS
        and rw[0] in _DETERMINERS
        and not any(w in _PREPS for w in rw[1:-1])
    )


def _up_to_object(clause: list[_Tok], k: int) -> list[_Tok]:
    """``clause`` up to the first preposition after its first ``k`` words that a determiner
    follows, whose object a part that stands in for it replaces ("what is the price of" in
    "what is the price of the lamp in the kitchen"); empty when there is none."""
    for j in range(k, len(clause) - 1):
        if clause[j].word in _PREPS and clause[j + 1].word in _DETERMINERS:
            return clause[: j + 1]
    return []


def _question_tail(rw: list[str]) -> bool:
    """Whether the words after the second thing asked for end a question about both, after a
    question word: an auxiliary, a pronoun and at most a preposition ("what album and genre
    *is it*", "what genre and album *is it from*")."""
    return (
        len(rw) in (2, 3)
        and rw[0] in _AUX
        and rw[1] in _PRONOUNS
        and (len(rw) == 2 or rw[2] in _PREPS)
    )


def _plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))


def _thing_frame(clause: list[_Tok], k: int) -> list[_Tok] | None:
    """The frame of a clause that asks for one thing ("what's the" of "what's the price", the
    clause's first ``k`` words and a determiner; "their" of "their address"; nothing for a
    bare "address"), or None when the clause does not end in one to three plain words (the
    first may be a verb before a plain word: "start time", "check in time"). A frame led by a
    request verb must say whose thing it asks for ("tell me the", not "go ahead")."""
    words = [t.word for t in clause]
    det = k < len(words) and words[k] in _DETERMINERS
    thing = words[k + det :]
    if (
        not thing
        or len(thing) > 3
        or not all(_bare(w) or ((j or len(thing) > 1) and w in _VERBS) for j, w in enumerate(thing))
        or not _bare(thing[-1])
        or not _has_topic(thing)
    ):
        return None
    if k and not det and words[0] in _VERBS and "me" not in words[:k] and "us" not in words[:k]:
        return None
    return clause[: k + det]


def _listed(
    left: list[_Tok], start: int, limit: int = 4
) -> tuple[list[_Tok], tuple[int, ...]] | None:
    """For the last item of a list said in one frame ("phone number" in "what's the address,
    phone number"), which begins at ``start`` in ``left``: the frame of the list's first item and
    the positions of the commas between the items; None when ``left`` holds no such list (up to
    ``limit`` items back)."""
    end = start - 1
    commas: list[int] = []
    for _ in range(limit):
        if end < 1 or left[end].mark != "," or left[end].word:
            return None
        commas.append(end)
        item = _clause(left[:end])
        if not item:
            return None
        words = [t.word for t in item]
        k = 0
        while k < len(words) and words[k] in _FRAME:
            k += 1
        frame = _thing_frame(item, k)
        if frame is None:
            return None
        if frame or end == len(item):  # the list's first item, or a list with no frame
            return frame, tuple(reversed(commas))
        end -= len(item) + 1
    return None


def _actions(clause: list[_Tok], rw: list[str], *, last: bool) -> _Cut | None:
    """ "where does it leave and arrive", "what time does it open and close": a question whose
    last word is an action, and another action said after it, asks two things."""
    if not last or not clause or clause[0].word not in _WH:
        return None
    words = [t.word for t in clause]
    aux = next((j for j in range(1, min(4, len(words))) if words[j] in _AUX), 0)
    if not aux:
        return None
    if len(rw) > 2 or not _action(rw[0]) or (len(rw) == 2 and rw[1] not in _PREPS):
        return None
    end = len(words)
    while end > aux + 2 and words[end - 1] in _PREPS_PARTICLES and len(words) - end < 2:
        end -= 1  # "does it fly out from"
    subject = words[aux + 1 : end - 1]  # "it", "the bus", "the station the bus"
    if (
        not subject
        or len(subject) > 5
        or subject[-1] in _DETERMINERS
        or not all(w in _PRONOUNS or w in _DETERMINERS or _bare(w) for w in subject)
        or not _action(words[end - 1])
    ):
        return None
    return _Cut(clause[: end - 1], [])


def _action(word: str) -> bool:
    """A word that may be what a question's subject does ("leave", "open", "going")."""
    return _bare(word) or word in _VERBS or word.removesuffix("ing") in _VERBS


def _direct(words: list[str]) -> bool:
    """Whether a part opening with a question word is a question of its own: "what's", "when
    can I", "how much do I" (not "when it starts")."""
    if words[0].endswith("'s") or (len(words) > 1 and words[1] in _AUX):
        return True
    return (
        len(words) > 2 and words[1] in ("much", "many", "long") and not _AUX.isdisjoint(words[2:4])
    )


def _predicate(right: list[_Tok], k: int) -> list[_Tok]:
    """What ``right`` says from its first auxiliary at or after ``k`` ("does it start" of "where
    does it start"): the words two question words share."""
    for j in range(k, len(right)):
        if right[j].word in _AUX:
            return right[j:]
    return []
