"""The user's answer to an agent's question: a reply that only gives the value asked for
("£20", "ABC123", "the 14th", "My ID is GM4471", "He's a beginner"), and the request it completes.

An agent that lacks a required value asks the user for it; the user's next message usually gives
the value alone, or with a few framing words. Read as the answer, the value travels to the agent
as data beside the request it completes (``subagents.UserAnswer``), so the same agent makes the
change with it.

Inside the offline model only, the value is joined to its request's working text with a mark
(``join_answer``: "top up my wallet, answer: 20"), so its readers can tell a value given when
asked ("20": the amount asked for) from a number the user typed in one message ("pay invoice
2231, 2024"). The mark holds a character the model removes from every text it is given
(``unmarked``), so nothing a user types (", answer: 20") reads as an answer; only the model's
own join makes one, from ``ActContext.answers``.

Used by the offline planner (``harness.planning._answers``: a reply to a question a direct or
silent agent asked) and by the offline model itself (a conversational agent holding the floor
gets the reply). Closed classes of English only, no bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from harness.text._shapes import GREETINGS, VERBS, word_class
from harness.text.facts import DATE_WORDS
from harness.text.spelled import NUMBER_WORDS
from harness.text.words import NEGATIONS, REQUEST_STOPWORDS, stem

__all__ = [
    "ANSWER_MARK",
    "given_value",
    "join_answer",
    "mask_answer",
    "split_answer",
    "strip_marks",
    "unmarked",
]

ANSWER_MARK = "answer:"
"""The word before the value a request was completed with ("top up my wallet, answer: 20")."""
_SEAL = "\u2063"
"""An invisible separator after the mark: the model's own join has it, and ``unmarked`` takes it
out of any text the model is given, so a typed ", answer: 20" is never a mark."""
_MARKS = re.compile(rf"(,\s*)({ANSWER_MARK}{_SEAL})", re.IGNORECASE)
# The value after the last mark: it may hold commas ("12 windows, on Friday": two details).
_JOINED = re.compile(
    rf",\s*{ANSWER_MARK}{_SEAL}\s*(?P<value>(?:(?!{ANSWER_MARK}{_SEAL}).)+?)\s*$",
    re.IGNORECASE | re.DOTALL,
)
_MARKED = re.compile(rf",\s*{ANSWER_MARK}{_SEAL}\s*", re.IGNORECASE)

# What may surround a value without saying anything else (closed classes): "yes, £20 please",
# "it's ABC123", "make it the 14th, thanks", "He's a beginner", "My ID is GM4471", "for 4 days".
_OPENERS = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|sure|ok|okay|right|fine|great|alright)\b[\s,.!-]*"
    r"|(?:it's|it is|its|that's|that is|make it|it'll be|it would be|it should be)\s+"
    r"|(?:he|she|they|we|i|it|this|that)(?:'s|'re|'m|\s+is|\s+are|\s+am|'ll be|\s+will be)\s+"
    r"|(?:my|his|her|their|our|the)\s+(?:[a-z]+\s+){0,2}?[a-z']+\s+(?:is|are|was|=)\s+"
    r"|there(?:'ll| will)? be\s+|there(?:'s| is| are)\s+"
    r"|(?:for|a|an)\s+(?!(?:week|fortnight|month|day|quarter)\b))",
    re.IGNORECASE,
)
_CLOSERS = re.compile(
    r"[\s,.!-]*\b(?:please|pls|thanks|thank you|thx|cheers|ta)[\s,.!]*$", re.IGNORECASE
)
# "the premium one": the value the words name.
_ONE = re.compile(r"^(?:the|that)\s+(?P<value>.+?)\s+one$", re.IGNORECASE)
# "2 more days": the count is the value.
_MORE = re.compile(r"\b(\d+)\s+(?:more|extra|additional|further)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d")
# Words that join the parts of a value ("the 14th of March", "at 3pm", "to Sam", "next Monday").
_JOINING = frozenset(
    ["the", "of", "on", "at", "for", "to", "from", "by", "in", "and", "a", "next", "this", "coming"]
)
_VALUE_WORDS = DATE_WORDS | frozenset(
    [
        "yesterday",
        "today",
        "tomorrow",
        "tonight",
        "noon",
        "midnight",
        "am",
        "pm",
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
    ]
)
# A word alone that declines, hesitates or asks for a person, never a value (closed class).
_NOT_VALUES = frozenset(
    [
        "nope",
        "nah",
        "nevermind",
        "never",
        "stop",
        "wait",
        "sorry",
        "hmm",
        "hm",
        "um",
        "uh",
        "maybe",
        "dunno",
        "idk",
        "later",
        "oops",
        "whoops",
        "human",
        "agent",
        "operator",
        "person",
        "representative",
    ]
)
# Words that qualify a date, a time or an amount without being one ("next Tuesday", "the day
# after tomorrow", "Saturday afternoon", "half past 4", "around 2pm", "in 2 weeks"): closed
# classes of English time and quantity phrases. They count only beside a value.
_QUALIFYING = word_class(
    "next this coming after before in within week weekend fortnight day days weeks morning"
    " afternoon evening night lunchtime half quarter past o'clock oclock around about"
    " approximately roughly ish early late midday us"
)
_VERBS = frozenset(VERBS.split("|"))
_MAX_WORDS = 6
"""A longer message says more than a value."""


def given_value(message: str, *, framing: Iterable[str] = ()) -> str | None:
    """The value ``message`` gives, without the words around it ("yes, £20 please" gives "£20",
    "My ID is GM4471" "GM4471", "the premium one" "premium"); None when the message says
    anything but a value: a question, a verb of a request, a pronoun, a greeting, a negation.

    A value is a token with a digit or a currency sign (and the word after a number: "4 days",
    "20 quid"), a date or day word ("the 14th", "next Monday", "tomorrow"), a capitalised name
    ("Sam", "Premium") or one lower-case word ("gold", "a beginner"), with the words that
    qualify a date, a time or an amount when the reply gives one ("next Tuesday", "Saturday
    afternoon", "around 2pm"; never "in a bit"); several details may come at once ("two adults,
    Saturday the 9th": ``_answer_values`` reads them). ``framing``: the words of
    the request and the question the message answers, which may name the value ("lesson
    L-7781" after "What is your lesson number?")."""
    text = message.strip()
    if "?" in text or len(text) > 80:
        return None
    while True:
        shorter = _CLOSERS.sub("", _OPENERS.sub("", text)).strip(" ,.!;:-")
        one = _ONE.fullmatch(shorter)
        if one is not None:
            shorter = one.group("value")
        if shorter == text:
            break
        text = shorter
    text = _MORE.sub(r"\1", text)
    words = text.split()
    if not words or len(words) > _MAX_WORDS:
        return None
    framed = {stem(w.lower()) for w in framing}
    core = [w for w in words if w.lower().strip(",.;:!") not in _JOINING]
    # A word that qualifies a date, a time or an amount ("next", "afternoon", "around") is part
    # of the value only when the reply gives one: "in a bit" and "about that" give none.
    real = any(
        _NUMBER.search(b) or b[:1] in ("£", "$", "€") or b.lower() in _VALUE_WORDS | NUMBER_WORDS
        for b in (w.strip(",.;:!'\"()") for w in words)
    )
    valued = False
    after_number = False
    for word in words:
        bare = word.strip(",.;:!'\"()")
        low = bare.lower()
        number = after_number
        after_number = bool(_NUMBER.search(bare)) or low in NUMBER_WORDS
        if after_number or bare[:1] in ("£", "$", "€") or low in _VALUE_WORDS:
            valued = True
        elif low in _JOINING and len(words) > 1:
            continue
        elif real and low in _QUALIFYING and len(words) > 1:
            continue  # "next Tuesday", "Saturday afternoon", "around 2pm": part of the value
        elif number and bare.isalpha() and low not in _VERBS:
            continue  # what a number counts: "4 days", "20 quid"
        elif (
            low in REQUEST_STOPWORDS
            or low in _VERBS
            or low in GREETINGS
            or low in NEGATIONS
            or low in _NOT_VALUES
            or not bare.replace("-", "").isalpha()
        ):
            return None
        elif stem(low) in framed and len(core) > 1:
            continue  # the request's own noun: "lesson L-7781"
        elif bare[:1].isupper() or len(core) == 1:
            valued = True  # a name, or one word alone ("gold" for a choice of plan)
        else:
            return None
    return text if valued else None


def unmarked(text: str) -> str:
    """``text`` without the character that seals an answer's mark: what the model reads of any
    text it is given, so no typed text carries a mark."""
    return text.replace(_SEAL, "")


def strip_marks(text: str) -> str:
    """``text`` with each mark of an answer taken out ("top up my wallet, answer: 20" reads "top
    up my wallet, 20"): what the offline model says or passes on."""
    return _MARKED.sub(", ", text)


def join_answer(request: str, value: str) -> str:
    """The request an agent asked about, completed with the ``value`` the user gave, marked as
    an answer ("top up my wallet" and "20": "top up my wallet, answer: 20", sealed): the offline
    model's working text, never shown or sent."""
    return f"{request.rstrip(' .!?;,')}, {ANSWER_MARK}{_SEAL} {value}"


def split_answer(text: str) -> tuple[str, str] | None:
    """The request and the value of a request completed with an answer (``join_answer``); None
    for any other text."""
    found = _JOINED.search(text)
    if found is None:
        return None
    return text[: found.start()], found.group("value")


def mask_answer(text: str) -> str:
    """``text`` with each mark of an answer (``join_answer``) blanked out, every other character
    where it was: what a reader of values reads ("send money,         Sam" names Sam)."""
    return _MARKS.sub(lambda m: f"{m.group(1)}{' ' * len(m.group(2))}", text)
