"""Whether a piece of a user's message is worded as a request, where the needs model reads it as
asking for nothing (:mod:`harness.detect._needs`, read by :mod:`harness.detect.missed`).

The needs model learned from Schema-Guided Dialogue, where a short phrase with a time, a number
or "please" is most often the user's answer to the bot's question ("for 4 people", "at 11
please"): such a phrase asks for nothing. Said unprompted, beside another request of the same
message, the same shape is a request of its own: "Room service at 8 please and a wake-up call at
6:30", "Could housekeeping bring two extra towels, and a late checkout at 1pm please?". So a piece
is read as asking when the message does not answer a question of the bot's, it has another
piece, and the piece

- ends with "please" ("a late checkout at 1pm please");
- is followed by a question mark ("Parking permit for my new car?");
- opens with a modal ("could housekeeping bring two extra towels", "can the vet see her") in
  a sentence that ends with "?" or no mark, not before a name or an id;
- or opens with a wish ("I'd like a kayak for Sunday", "we need a room on the 3rd") that stands
  alone: its sentence ends after it, or a comma and "and", "also" or "plus" follow it. A wish
  that runs on into the next piece ("I want a ride to the station and a cab") leads into it.

It must not react to what was said ("That suits me well?") and must name something: a content
word besides a yes, a no or a number ("yes please", "that's all please", "sure, 2 please" and
"One, zero?" name nothing: courtesy, a bare detail, a guess at an answer).
"""

from __future__ import annotations

import re

from harness.text import content_words
from harness.text._shapes import WORD

# The modals a polite request opens with (a closed class).
_MODALS = frozenset({"can", "could", "would", "will"})
# Words that say yes or no, and numbers spelled out: no thing a request names ("Yes please",
# "One, zero?" guess at an answer).
_UNNAMING = frozenset(
    {
        *("yes", "no", "yeah", "yep", "nope", "sure", "okay", "ok"),
        *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
        *("eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand"),
    }
)


# The words a reaction to what was said opens with ("That suits me well?", "It sounds good,
# please"): it refers back, and asks for nothing new (a closed class).
_REACTING = frozenset({"that", "that's", "this", "it", "it's", "sounds"})


def _names(word: str) -> bool:
    """Whether a content word names a thing (not a yes or a no, nor a number)."""
    return word not in _UNNAMING and not any(map(str.isdigit, word))


def worded_to_ask(message: str, text: str, end: int) -> bool:
    """Whether the piece ``text`` of ``message`` (its own words ending at ``end``) is worded as a
    request (see the module's docstring). The caller reads it only where the message answers no
    question of the bot's and has another piece."""
    words = [w.lower() for w in WORD.findall(text)]
    if len(words) < 2 or words[0] in _REACTING or not any(map(_names, content_words(text))):
        return False
    if words[-1] == "please" or (words[0] in _MODALS and _polite(message, text, end)):
        return True
    if _wishes(words) and _STANDS_ALONE.match(message, end):
        return True
    after = message[end : end + 4].lstrip(" \"')")
    return after.startswith("?")


# What follows a wish that stands as a request of its own: its sentence's end, or a comma and a
# word that joins another request. A wish that runs on without one ("I want a ride to the
# station and a cab", "I want to go to Leeds - can you find a bus") leads into what follows.
_STANDS_ALONE = re.compile(r"[\s\"')]*+(?:[.?!]|$|,\s*+(?:and|also|plus)\b)", re.IGNORECASE)

_WISHES = (
    ("i", "want"),
    ("i", "need"),
    ("i'd", "like"),
    ("i", "would", "like"),
    ("i'm", "looking", "for"),
    ("i", "am", "looking", "for"),
    ("we", "want"),
    ("we", "need"),
    ("we'd", "like"),
)


def _wishes(words: list[str]) -> bool:
    return any(tuple(words[: len(w)]) == w for w in _WISHES)


# What ends a sentence (as :mod:`harness.detect._asked` reads it).
_SENTENCE_END = re.compile(r"[.?!]++(?=\s|$)")


def _polite(message: str, text: str, end: int) -> bool:
    """Whether ``text``, opening with a modal, asks as a polite request: its sentence ends with
    "?" or with no mark ("Will the 3 of us be fine in a double, I think so." states), and the
    modal is not before a name or an id ("can 401ks be moved" changes a detail as often, and is
    answered in words the matcher may not tie to the id; ``_asked.polar_question``)."""
    second = WORD.findall(text[:80])[1]
    if second[0].isupper() or any(map(str.isdigit, second)):
        return False
    mark = _SENTENCE_END.search(message, end)
    return mark is None or mark.group()[-1] == "?"
