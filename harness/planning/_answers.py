"""A reply that only gives the value an agent asked for ("£20", "ABC123", "the 14th", "Sam"),
and the request it completes.

When a sub-agent asked the user for a value it needs (the runtime keeps the request it asked
about: ``PlanInput.awaiting``), the user's next message usually gives the value alone. Planned
on its own it finds no agent ("I can't help with "£20" here"); read as the answer, it joins the
request it completes, so the same agent makes the change with it. A message that says anything
else (a question, a new request, a statement: "I topped up £20 yesterday") is no such answer and
is planned as usual.
"""

from __future__ import annotations

import re

from harness.planning._sentences import VALUE_WORDS
from harness.text._shapes import GREETINGS, VERBS
from harness.text.words import NEGATIONS, REQUEST_STOPWORDS

__all__ = ["answered_request", "given_value"]

# What may surround a value without saying anything else (closed classes): "yes, £20 please",
# "it's ABC123", "make it the 14th, thanks".
_OPENERS = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|sure|ok|okay|right|fine|great|alright)\b[\s,.!-]*"
    r"|(?:it's|it is|its|that's|that is|make it|it'll be|it would be|it should be)\s+)",
    re.IGNORECASE,
)
_CLOSERS = re.compile(
    r"[\s,.!-]*\b(?:please|pls|thanks|thank you|thx|cheers|ta)[\s,.!]*$", re.IGNORECASE
)
# Words that join the parts of a value ("the 14th of March", "at 3pm", "to Sam").
_JOINING = frozenset(["the", "of", "on", "at", "for", "to", "from", "by", "in", "and", "a"])
# A word alone that declines or hesitates, never a value (closed class).
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
    ]
)
_VERBS = frozenset(VERBS.split("|"))
_MAX_WORDS = 6
"""A longer message says more than a value."""


def given_value(message: str) -> str | None:
    """The value ``message`` gives, without the words around it ("yes, £20 please" gives
    "£20"); None when the message says anything but values: a question, a verb, a pronoun, a
    greeting. A value is a token with a digit or a currency sign, a date or day word ("the
    14th", "Friday", "tomorrow"), a capitalised name ("Sam", "Premium"), or one lower-case word
    that is none of those others ("gold")."""
    text = message.strip()
    if "?" in text or len(text) > 80:
        return None
    while True:
        shorter = _CLOSERS.sub("", _OPENERS.sub("", text)).strip(" ,.!;:-")
        if shorter == text:
            break
        text = shorter
    words = text.split()
    if not words or len(words) > _MAX_WORDS:
        return None
    valued = False
    for word in words:
        bare = word.strip(",.;:!'\"()")
        low = bare.lower()
        if any(c.isdigit() for c in bare) or bare[:1] in ("£", "$", "€") or low in VALUE_WORDS:
            valued = True
        elif low in _JOINING and len(words) > 1:
            continue
        elif (
            low in REQUEST_STOPWORDS
            or low in _VERBS
            or low in GREETINGS
            or low in NEGATIONS
            or low in _NOT_VALUES
            or not bare.replace("-", "").isalpha()
        ):
            return None
        elif bare[:1].isupper() or len(words) == 1:
            valued = True  # a name, or one word alone ("gold" for a choice of plan)
        else:
            return None
    return text if valued else None


def answered_request(request: str, value: str) -> str:
    """The request an agent asked about, completed with the ``value`` the user gave: one
    self-contained request, the value after a comma ("top up my wallet" and "20": "top up my
    wallet, 20", where a bare number is read as the amount asked for)."""
    return f"{request.rstrip(' .!?;,')}, {value}"
