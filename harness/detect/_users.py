"""The user's side of a conversation, as the duplicate detector reads it: did they ask again?"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from operator import attrgetter
from typing import TYPE_CHECKING, overload

from harness.detect._apology import ACKNOWLEDGEMENT, APOLOGY, FILLER, GREETING, MARKS
from harness.detect._people import _CALLED
from harness.detect._request_words import (
    _DETERMINERS,
    _FILLERS,
    _JOINERS,
    _LEAD_OPENERS,
    _MARKERS,
    _PREPOSITIONS,
    _PRONOUNS,
    _SUBORDINATORS,
)
from harness.detect.restate import Restatement
from harness.detect.transcript import Message
from harness.text import Analysis, analysed_part, content_words, normalise
from harness.text._shapes import GREETINGS, TITLES
from harness.text.claims import message_facts
from harness.text.words import may_hold

if TYPE_CHECKING:
    from harness.detect._features import UserLike

__all__: list[str] = []

_CUES = (
    r"\b(?:again|repeat|remind me|one more time|once more|say (?:that|it|this)|come again|"
    r"didn'?t (?:catch|get|see|hear|understand)|missed (?:that|it|the)|"
    r"what did (?:you|it|they) say|pardon|resend|re-send|recap|can you go over|"
    r"lost (?:it|that|track))\b"
    r"|^\s*+(?:sorry|what|huh|eh|pardon)\s*+[?!.]*+\s*+$"  # possessive: linear in white space
    r"|^\s*(?:sorry|pardon|excuse me)\b[^.!]*\?"
)
_CUE = re.compile(_CUES, re.IGNORECASE)
"""A cue that says it asks again ("again", "repeat", "sorry?"): unlike "what ... was", which also
asks the first time."""
_REASK = re.compile(_CUES + r"|\bwhat (?:\w+ )?(?:was|were)\b", re.IGNORECASE)
"""A cue of asking again, or "what ... was" anywhere: the pair scorer's ``reask`` features, as
they were fitted."""
_REASK_NEEDS = (
    *("again", "repeat", "remind", "one more", "once more", "say", "didn", "missed", "what"),
    *("pardon", "resend", "re-send", "recap", "go over", "lost", "sorry", "huh", "eh", "excuse"),
)
"""A word or part of one that every match of :data:`_REASK` holds (``may_hold``)."""
_OPENED = re.compile(
    r"\s*+(?:(?:"
    + "|".join((APOLOGY, FILLER, GREETING, ACKNOWLEDGEMENT, r"all\s++right"))
    + r")(?![\w'\u2019])"
    + MARKS
    + r")++",
    re.IGNORECASE,
)
"""A message's opening of apologies, fillers, greetings and acknowledgements ("sorry, ...", "oops
sorry but ...", "hey, ...", "all right, so ...", "ok ..."; :mod:`harness.detect._apology`), never
a connective that adds a question ("and", "also"), each a whole word ("there" is none of
"There's ...")."""
_NAME = re.compile(
    r"((?i:"
    + "|".join(sorted(_CALLED))
    + r")\b|(?i:"
    + "|".join(sorted(TITLES))
    + r")\.|[A-Z][\w'-]*+)(?:\s++([A-Z][\w'-]*+))?+(\s*+[,!:\u2013\u2014-])?+"
    + MARKS
)
"""One or two capitalised words, or what an assistant is called ("bot"; the segmenter's class),
and the comma or dash after them: the name a user may call the bot by ("hey Sam, ...", "Dr. Lee
- ...", "hello bot, ..."). A dot in it is a title's ("Dr.", :data:`harness.text._shapes.TITLES`):
a name runs across no sentence end ("Ok Fine.It is ...", "Ok, Good. Thanks")."""
_NOT_NAMES = (
    _LEAD_OPENERS
    | _PRONOUNS
    | _DETERMINERS
    | _PREPOSITIONS
    | _SUBORDINATORS
    | _JOINERS
    | _FILLERS
    | GREETINGS
    | frozenset(marker[0] for marker in _MARKERS)
    | frozenset(("and", "but", "or", "not", "of"))
)
"""Words that open a question, a clause or a phrase, or that the request segmenter reads as a
joining word or a lead-in, not a name ("Hey, What time ...", "Ok I need ...", "Ok, But ...",
"Thanks, Also ...", "Ok, Then which ...", "Sure, Next ...")."""
_ASKS_AGAIN = re.compile(
    _CUES
    + r"|(?:^|[.!?;]\s*|^\s*+(?:(?:so|and|wait|ok(?:ay)?|"
    + APOLOGY
    + "|"
    + FILLER
    + r")\b"
    + MARKS
    + r")++)what (?:\w+ )?(?:was|were)\b",
    re.IGNORECASE,
)
"""The stated rule's re-ask (:func:`reasked_on_topic`): "what ... was" only where it opens a
question ("ok what was the time"), not inside a statement ("that is what he was raving about")."""
_QUESTION = re.compile(
    r"\?|^\s*(?:what|when|where|which|who|how|why|is|are|was|were|do|does|did|can|could|will|"
    r"would|should|has|have)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^\s*(?:ok(?:ay)?,?\s*)?(?:can|could|would|will) (?:you|it|we|i)\b|\bplease\b",
    re.IGNORECASE,
)
_CAPABILITIES = re.compile(
    r"\bwhat (?:else )?(?:can|could|do|will) (?:you|it|this bot|the bot) (?:help|do|offer|assist)"
    r"|\bhow (?:else )?(?:can|could|do) you help\b|\bwhat (?:are|is) (?:you|this)\b"
    r"|\bwho (?:are|is) (?:you|this)\b|\bwhat (?:services|options|things)\b",
    re.IGNORECASE,
)
"""The user asks what the bot is or does: a greeting that introduces it answers that."""
_CAPABILITIES_NEEDS = ("what", "how", "who")
_REQUEST_NEEDS = ("can", "could", "would", "will", "please")
"""Words every match of :data:`_CAPABILITIES`, of :data:`_REQUEST`, holds (``may_hold``)."""
_ASKING = frozenset(
    content_words(
        "help need want know tell like find give show check look see wonder ask please could "
        "would say repeat again remind sorry info information detail details quick question "
        "send resend recap go over mean exactly"
    )
)


@dataclass(slots=True)
class _User:
    text: str
    turn: int
    words: frozenset[str] = field(default=frozenset())
    reask: bool = False
    question: bool = False
    norm: str = ""
    facts: frozenset[str] = frozenset()
    capabilities: bool = False
    """It asks what the bot is or can do."""
    request: bool = False
    """It asks for something to be done ("book the 6:15", "can it be after 2pm?", "yes")."""
    plan: frozenset[str] = frozenset()
    """The request keys the turn's plan routed, when known."""

    def __reduce__(self) -> tuple[type[_User], tuple[object, ...]]:
        # The constructor's arguments in field order: loads faster than the fields one by one
        # (users travel between ``harness detect``'s worker processes).
        return (
            _User,
            (
                self.text,
                self.turn,
                self.words,
                self.reask,
                self.question,
                self.norm,
                self.facts,
                self.capabilities,
                self.request,
                self.plan,
            ),
        )

    @classmethod
    def of(cls, message: Message) -> _User:
        text = analysed_part(message.text)  # the analysis budget: a long message's start
        words = content_words(text) - _ASKING
        question = _QUESTION.search(text) is not None
        return cls(
            text=text,
            turn=message.turn,
            words=frozenset(words),
            reask=may_hold(text, _REASK_NEEDS) and _REASK.search(text) is not None,
            question=question,
            norm=normalise(text),
            facts=message_facts(message.text),
            request=not question
            or (may_hold(text, _REQUEST_NEEDS) and _REQUEST.search(text) is not None),
            capabilities=may_hold(text, _CAPABILITIES_NEEDS)
            and _CAPABILITIES.search(text) is not None,
        )


class _Users:
    """The user messages so far, in turn order, found by turn in O(log n)."""

    def __init__(self) -> None:
        self.items: list[_User] = []
        self.turns: list[int] = []
        self.requested: dict[str, list[int]] = {}
        """The turns of the requests (:attr:`_User.request`) that state each fact."""

    def add(self, user: _User) -> None:
        self.items.append(user)
        self.turns.append(user.turn)
        if user.request:
            for fact in user.facts:
                self.requested.setdefault(fact, []).append(user.turn)

    def last_between(self, after: int, upto: int, count: int) -> list[_User]:
        """The last ``count`` of :meth:`between` (a pair may stand thousands of turns apart)."""
        turns = self.turns
        start, stop = bisect_right(turns, after), bisect_right(turns, upto)
        return self.items[max(start, stop - count) : stop]

    def any_between(self, after: int, upto: int) -> bool:
        """``bool(self.between(after, upto))``, without the list."""
        turns = self.turns
        position = bisect_right(turns, after)
        return position < len(turns) and turns[position] <= upto

    def requested_between(self, after: int, upto: int, facts: frozenset[str]) -> bool:
        """Whether a request of turns ``after + 1`` to ``upto`` states one of ``facts``:
        ``any(u.request and u.facts & facts for u in self.between(after, upto))``, by fact
        rather than by message (a pair may stand thousands of turns apart)."""
        requested = self.requested
        for fact in facts:
            turns = requested.get(fact)
            if turns is not None:
                position = bisect_right(turns, after)
                if position < len(turns) and turns[position] <= upto:
                    return True
        return False

    def between(self, after: int, upto: int) -> list[_User]:
        """The user messages of turns ``after + 1`` to ``upto``."""
        return self.items[bisect_right(self.turns, after) : bisect_right(self.turns, upto)]

    def spanning(self, after: int, upto: int) -> _Between:
        """:meth:`between` as a view that copies nothing, for the rules of a pair that may
        stand thousands of turns apart and mostly read few of the messages in between."""
        turns = self.turns
        return _Between(self.items, bisect_right(turns, after), bisect_right(turns, upto))

    def of_turn(self, turn: int) -> _User | None:
        position = bisect_right(self.turns, turn) - 1
        return self.items[position] if position >= 0 and self.turns[position] == turn else None


_NORM = attrgetter("norm")


def says_any(between: Sequence[UserLike], words: AbstractSet[str]) -> bool:
    """Whether a message of ``between`` has one of ``words`` among the words of its normalised
    text: ``any(words & set(u.norm.split()) for u in between)``, searched in C over a
    :class:`_Between` (:meth:`_Between.says_any`)."""
    if isinstance(between, _Between):
        return between.says_any(words)
    return any(not words.isdisjoint(u.norm.split()) for u in between)


class _Between(Sequence[_User]):
    """``items[start:stop]`` read in place (:meth:`_Users.spanning`): the same messages in the
    same order as :meth:`_Users.between`'s list, without copying a slice of up to the whole
    conversation for each pair."""

    __slots__ = ("items", "start", "stop")

    def __init__(self, items: list[_User], start: int, stop: int) -> None:
        self.items = items
        self.start = start
        self.stop = max(start, stop)

    def __len__(self) -> int:
        return self.stop - self.start

    @overload
    def __getitem__(self, index: int) -> _User: ...
    @overload
    def __getitem__(self, index: slice) -> list[_User]: ...
    def __getitem__(self, index: int | slice) -> _User | list[_User]:
        if isinstance(index, slice):
            return self.items[self.start : self.stop][index]
        size = self.stop - self.start
        if not -size <= index < size:
            raise IndexError("user message index out of range")
        return self.items[self.start + index % size]

    def __iter__(self) -> Iterator[_User]:
        return map(self.items.__getitem__, range(self.start, self.stop))

    def says_any(self, words: AbstractSet[str]) -> bool:
        """``any(words & set(u.norm.split()) for u in self)``, searched in C: the messages'
        normalised texts joined into one string, each word looked for in it, and only a message
        whose text holds the word as a substring read word by word (once per word; a word found
        inside a longer one, or across two texts, is read and refused there)."""
        if not words or self.stop <= self.start:
            return False
        norms = list(map(_NORM, self.items[self.start : self.stop]))
        joined = "\n".join(norms)
        ends: list[int] | None = None
        for word in words:
            at = joined.find(word)
            while at >= 0:
                if ends is None:
                    ends = list(accumulate(len(n) + 1 for n in norms))
                k = bisect_right(ends, at)  # the message whose text (or separator) holds ``at``
                if word in norms[k].split():
                    return True
                at = joined.find(word, ends[k])  # on from the next message's text
        return False


def asked_same_question(first: _User | None, between: Sequence[_User]) -> bool:
    """The user asked the question before the earlier message again in between: the same text,
    or a question half of whose words the first one used, with no value the first one lacks (the
    same question about "1 bed room" after "2 bedroom" asks something new). The stated rule's
    reading of the ``same_question`` feature, which counts a changed value too."""
    if first is None:
        return False
    return any(
        u.norm == first.norm
        or (
            u.question
            and first.words
            and len(first.words & u.words) * 2 >= len(u.words) >= 2
            and u.facts <= first.facts
        )
        for u in between
    )


def reasked_on_topic(
    earlier: Analysis, later: Analysis, found: Restatement, between: Sequence[_User]
) -> bool:
    """A re-ask in between (:data:`_ASKS_AGAIN`) that names what gets repeated: a word both
    messages use or a fact they share, asking about what the earlier message said
    (:func:`asks_about`). The stated rule's reading of the ``reask_on_topic`` feature, whose cue
    also counts "what ... was" inside a statement and any word."""
    shared = earlier.facts & later.facts
    restated = set(earlier.words & later.words)
    for key in found.facts | shared:
        restated.update(content_words(key.partition(":")[2]))
    return any(
        asks_again(u.text) and (u.words & restated or u.facts & shared) and asks_about(u, earlier)
        for u in between
    )


def asks_about(user: _User, earlier: Analysis) -> bool:
    """The re-ask asks about what the earlier message said: it says it asks again ("again",
    "repeat", "sorry?"), or each word it names is a word of the earlier message, a kind of fact
    it states ("time") or a word of one of its values. "What year was Harbour Lights released?"
    after a message naming the film but no year asks for the first time."""
    if _CUE.search(user.text):
        return True
    said = set(earlier.words)
    for key in earlier.facts:
        kind, _, value = key.partition(":")
        said.update(content_words(f"{kind} {value}"))
    return user.words <= said


_STILL = re.compile(
    r"(?:^|[.!?;,]\s*|\b(?:ok(?:ay)?|so|and|but)\s+)(?:is|are|does|do|will|has|have)\b"
    r"[^.!?]*\bstill\b[^.!?]*\?",
    re.IGNORECASE,
)
"""A question whether something the bot said still holds ("is 604 still on time?", "are we still
on for 3 pm?"): it asks for the state again."""


def asks_still(user: _User, earlier: Analysis) -> bool:
    """The user asks whether what the earlier message said still holds (:data:`_STILL`), naming
    only what it said (:func:`asks_about`, "still" aside): the same state given again is the
    answer they asked for. "Is it still raining?" after a message about a flight asks something
    else."""
    if _STILL.search(user.text) is None:
        return False
    said = set(earlier.words)
    for key in earlier.facts:
        kind, _, value = key.partition(":")
        said.update(content_words(f"{kind} {value}"))
    named = user.words - {"still"}
    return bool(named or user.facts) and named <= said and user.facts <= earlier.facts


@lru_cache(maxsize=4096)
def asks_again(text: str) -> bool:
    """The user's message asks to hear something again, as the stated rule reads it
    (:data:`_ASKS_AGAIN`). Read only for the few pairs the rule is asked about, so not when each
    user message is read."""
    return _ASKS_AGAIN.search(text) is not None


def asked_again_after_apology(
    first: _User | None, between: Sequence[_User], earlier: Analysis
) -> bool:
    """The user asked the question before the earlier message again in between, after an apology,
    a filler, a greeting, a name or an acknowledgement ("sorry, when is ...", "um I'm sorry, when's
    ...", "hey Sam, what time ...", "all right, so when ..."), which the ``same_question``
    feature does not read as a question. Narrower than :func:`asked_same_question`: what follows
    the apology is the first message's text, or a question sharing two or more words with it and
    at least half of its words and of the first one's, with no value the first one lacks ("sorry,
    can I cancel my order" after "when does my order ship?" asks something new), every word of
    which the earlier bot message said (:func:`asks_about`: "sorry, when's the last coach to
    bath" after "The next coach to Bath leaves at 14:05" asks something new)."""
    if first is None or not first.words:
        return False
    for u in between:
        rest = _past_apology(u.text)
        if rest is None:
            continue
        if normalise(rest) == first.norm:
            return True
        if _QUESTION.search(rest) is None or not u.facts <= first.facts:
            continue
        words = content_words(rest) - _ASKING
        shared = len(first.words & words)
        if shared >= 2 and shared * 2 >= max(len(words), len(first.words)):
            asked = _User(text=rest, turn=u.turn, words=frozenset(words))
            if asks_about(asked, earlier):
                return True
    return False


@lru_cache(maxsize=4096)
def _past_apology(text: str) -> str | None:
    """What the message says after what it opens with before its question: apologies, fillers,
    greetings and acknowledgements (:data:`_OPENED`), and a name the bot is called by
    (:func:`_name_end`: "hey Sam, ...", "bot, ..."), in any order; None when it opens with none
    of these. Read only for the few pairs the rules are asked about."""
    at = 0
    while True:
        m = _OPENED.match(text, at)
        opened = m is not None and m.end() > at
        at = m.end() if m is not None and opened else at
        named = _name_end(text, at, greeted=opened)
        if named == at:
            break
        at = named
    return text[at:] if at else None


def _name_end(text: str, at: int, *, greeted: bool) -> int:
    """Where a name the bot is called by, at ``at``, ends (``at`` when there is none): after a
    greeting, an acknowledgement or an apology, one or two capitalised words, no word that opens
    a question or a clause ("hey Sam, ...", "hey Sam what time ...", "thanks Dr. Okafor! ..."), or
    what an assistant is called, with a comma or a dash after it ("bot, ..."). A capitalised word
    alone opening the message or a sentence is no name: "Sam, ..." cannot be told from "Yes, ..."
    or "Actually, ...", nor "Thanks. Sam ..." from "Thanks. That's all"."""
    m = _NAME.match(text, at)
    if m is None or text[:at].rstrip().endswith((".", "!", "?")):
        return at  # "Thanks. That's all": a capitalised word opening a sentence
    called = m.group(1).lower() in _CALLED and not m.group(2)
    if not (greeted or (called and m.group(3))):
        return at
    words = [w.lower().replace("’", "'").split("'")[0].rstrip(".") for w in m.group(1, 2) if w]
    if any(w in _NOT_NAMES for w in words):
        return at
    return m.end()
