"""Whether a piece of a user's message is worded as a request, where the needs model reads it as
asking for nothing (:mod:`harness.detect._needs`, read by :mod:`harness.detect.missed`), and
whether the bot asked the user for a detail just before it.

The needs model learned from Schema-Guided Dialogue, where a short phrase with a time, a number
or "please" is most often the user's answer to the bot's question ("for 4 people", "at 11
please"): such a phrase asks for nothing. Said unprompted, beside another request of the same
message, the same shape is a request of its own: "Room service at 8 please and a wake-up call at
6:30", "Could housekeeping bring two extra towels, and a late checkout at 1pm please?". So a piece
is read as asking when the bot did not just ask the user for a detail (:func:`asked_for_detail`),
the message has another piece, and the piece

- ends with "please" ("a late checkout at 1pm please");
- is followed by a question mark ("Parking permit for my new car?");
- or opens with a modal ("could housekeeping bring two extra towels", "can the vet see her") in
  a sentence that ends with "?" or no mark, not before a name or an id.

A wish ("I'd like a kayak", "we need to leave by noon") is not read so: said before a question it
is most often the context of that question ("I want it in blue. Do you have size 10?").

The piece must not react to what was said ("That suits me well?"), nor open with a "no" ("No
rush please": it declines or holds back, and asks for nothing), and must name something: a
content word besides a yes, a no, a number, a greeting, thanks, a sign-off or a word that asks
without naming (the classes :mod:`harness.detect._together` and
:mod:`harness.detect._request_words` read courtesy with: "yes please", "Thank you kindly please",
"sure, 2 please" and "One, zero?" name nothing).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.detect._asked import _PERSONAL, _SENTENCE_END
from harness.detect._request_words import _GENERIC
from harness.detect._together import _COURTESY
from harness.detect.acts import greeting, sentence_acts
from harness.text import content_words, split_sentences
from harness.text._shapes import WORD
from harness.text.spelled import NUMBER_WORDS

# The modals a polite request opens with (a closed class).
_MODALS = frozenset({"can", "could", "would", "will"})
# Words that say yes or no, and numbers spelled out: no thing a request names ("Yes please",
# "One, zero?" guess at an answer).
_UNNAMING = frozenset({"yes", "no", "yeah", "yep", "nope", "sure", "okay", "ok"}) | NUMBER_WORDS
# The words of courtesy and of asking without naming (the check's classes for a piece that asks
# for nothing beside other requests: greetings, thanks, sign-offs, "please", "kindly", "help").
_COURTEOUS = _COURTESY | _GENERIC
# The words a piece that declines or holds back opens with ("No rush please", "No thanks").
_DECLINING = frozenset({"no", "nope", "nah"})


# The words a reaction to what was said opens with ("That suits me well?", "It sounds good,
# please"): it refers back, and asks for nothing new (a closed class).
_REACTING = frozenset({"that", "that's", "this", "it", "it's", "sounds"})


def _names(word: str) -> bool:
    """Whether a word (lower case) may name a thing: not a yes or a no, a number, courtesy nor a
    word that asks without naming (the stop words are left to :func:`content_words`)."""
    return word not in _UNNAMING and word not in _COURTEOUS and not any(map(str.isdigit, word))


def worded_to_ask(message: str, text: str, end: int) -> bool:
    """Whether the piece ``text`` of ``message`` (its own words ending at ``end``) is worded as a
    request (see the module's docstring). The caller reads it only where the bot did not just
    ask for a detail and the message has another piece."""
    found = WORD.findall(text)
    words = [w.lower() for w in found]
    if len(words) < 2 or words[0] in _REACTING or words[0] in _DECLINING:
        return False
    named = " ".join(w for w, low in zip(found, words, strict=True) if _names(low))
    naming = len(content_words(named))
    if not naming:
        return False
    if words[-1] == "please" and naming >= 2:
        return True
    if words[0] in _MODALS and _polite(message, found[1], end):
        return True
    after = message[end : end + 4].lstrip(" \"')")
    return after.startswith("?")


def _polite(message: str, second: str, end: int) -> bool:
    """Whether a piece opening with a modal and going on with the word ``second`` asks as a
    polite request: its sentence ends with "?" or with no mark ("Will the 3 of us be fine in a
    double, I think so." states), and the modal is not before a name or an id ("can 401ks be
    moved" changes a detail as often, and is answered in words the matcher may not tie to the
    id; ``_asked.polar_question``). "Could I" is not a name."""
    if second.lower() not in _PERSONAL and (second[0].isupper() or any(map(str.isdigit, second))):
        return False
    mark = _SENTENCE_END.search(message, end)
    return mark is None or mark.group()[-1] == "?"


# The acts with which the bot offers help without asking for a detail ("How can I help you
# today?", "Anything else?", "Would you like to book it?"): a request beside them is not an
# answer to them.
_OPEN = frozenset({"REQ_MORE", "OFFER", "OFFER_INTENT", "GOODBYE"})


def asked_for_detail(said: Sequence[str]) -> bool:
    """Whether the bot, in ``said`` (every message it sent since the user's previous message),
    asked the user for a detail: a sentence the act tagger (:mod:`harness.detect.acts`, learned
    from SGD's system turns) reads as a ``REQUEST`` and not as an open offer of help, a closing
    or a greeting ("Which day suits you?", "Please tell me which day suits you."; not "How can I
    help you today?" nor "Anything else?"), or a prompt the tagger did not learn, SGD's bots
    asking with questions: an imperative of choosing or telling ("Choose a size: small, medium
    or large.", "Please pick a delivery slot.", "Let me know the car class you want.")."""
    for message in said:
        for sentence in split_sentences(message):
            acts = sentence_acts(sentence.text)
            if greeting(sentence.text) or not acts.isdisjoint(_OPEN):
                continue
            if "REQUEST" in acts or _prompts(sentence.text):
                return True
    return False


# The verbs of a bot's imperative that asks the user to choose or tell (a closed class), those
# that ask only with "me" or "us" after them ("tell me", "let us know"), and the words that may
# come before the verb.
_CHOOSING = frozenset({"choose", "pick", "select", "enter", "specify", "state", "type"})
_TELLING = frozenset({"tell", "give", "send", "let", "share", "provide"})
_TOLD = frozenset({"me", "us"})
_POLITE = frozenset({"please", "kindly", "just", "now", "first", "so"})


def _prompts(sentence: str) -> bool:
    """Whether ``sentence`` is an imperative asking the user to choose or tell something."""
    words = [w.lower() for w in WORD.findall(sentence[:120])]
    while words and words[0] in _POLITE:
        words = words[1:]
    if len(words) < 2:
        return False
    if words[0] in _CHOOSING:
        return True
    return words[0] in _TELLING and words[1] in _TOLD and (words[0] != "let" or "know" in words)
