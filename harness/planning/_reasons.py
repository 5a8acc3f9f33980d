"""The keep-together tests of :mod:`harness.planning.split` for a request's details, lead-ins and
reasons (issue 25, s48-plan; moved out of ``split`` to keep it short): a question for a fact that
takes no details after "and" (``_asks_what``), a lead-in cut off by its own comma read with its
sentence (``_lead_ins_joined``), and a statement that gives the reason for a request before ", so"
(``_so_after``, ``_gives_reason``). Every word class here is a closed class of English.
"""

from __future__ import annotations

import re

from harness.planning._asking import WH as _WH
from harness.planning._conditions import leads_in
from harness.text._shapes import WANTS, word_class

_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "my", "our", "i'm", "we're"})


def _asks_what(text: str) -> bool:
    """Whether ``text`` opens with a question word ("what has gas cost me"): a question for a
    fact, which takes no details after "and" (what follows is a request or a plan of its own)."""
    words = text.split(maxsplit=1)
    return bool(words) and words[0].lower() in _WH


def _lead_ins_joined(pieces: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """``pieces`` with a lead-in that says the sentence after it narrows the request before it
    ("To be specific,", "If you can,": ``harness.planning._conditions.leads_in``) joined to the
    piece after its comma, so that the two are read as one sentence."""
    out: list[tuple[str, str, str]] = []
    for kind, cut_text, raw in pieces:
        if out and kind == "comma" and leads_in(out[-1][2]):
            before_kind, before_cut, lead = out.pop()
            kind, cut_text, raw = before_kind, before_cut, f"{lead}{cut_text}{raw}"
        out.append((kind, cut_text, raw))
    return out


# The subjects of a statement that gives the reason for a request after ", so" ("I will be in
# New York", "My boss is sending me to Philadelphia", "We're going out tonight"; closed class).
_REASON_SUBJECTS = _PRONOUNS | word_class("i'll we'll i'd we'd i've we've im")
# Words of wanting (``harness.text._shapes.WANTS`` and "prefer", "wish"): a statement with one
# is a request of its own ("I need a hotel in Boston", "I'd like to pay my bill"), no reason.
_WANTING = WANTS | word_class("prefer wish")
# The speaker telling the bot what they will do, which the bot does for them ("I'll pay my phone
# bill now", "We'd gladly take the 8 pm slot"; closed classes): a future or conditional subject,
# or "I"/"we" and a modal, then at most a few adverbs, then a verb of a transaction the bot makes.
# Any other statement may give a reason ("I take the train at 8", "I'll bring the kids").
_FUTURE = word_class("i'll we'll i'd we'd")
_MODALS = word_class("will would shall")
_ADVERBS = word_class("just also then now gladly probably definitely quickly really go ahead and")
_TRANSACTIONS = word_class(
    "pay transfer book reserve order buy cancel send schedule renew move take"
)


def _so_after(cut_text: str, opening: re.Match[str] | None) -> bool:
    """Whether the piece after the comma ``cut_text`` opens with "so" alone (``opening``, the
    piece's lead-in): it says what the statement before it makes the speaker ask for."""
    return (
        cut_text.strip() == ","
        and opening is not None
        and opening.group(0).strip(" ,").lower() == "so"
    )


def _gives_reason(head: str) -> bool:
    """Whether the request opened by ``head`` is a statement that may give the reason for one
    ("I will be in New York on the 2nd", "My sister is visiting"): its first word is a subject
    (``_REASON_SUBJECTS``), it asks no question, wants nothing itself (no word of ``_WANTING``:
    "I need a hotel in Boston, so find me a flight there" asks for two things) and does not tell
    the bot to act (:func:`_acts_for_speaker`: "I'll pay my phone bill now, so ...")."""
    words = _WORDS.findall(head.lower())
    return (
        bool(words)
        and words[0] in _REASON_SUBJECTS
        and "?" not in head
        and not any(w in _WANTING for w in words)
        and not _acts_for_speaker(words)
    )


def _acts_for_speaker(words: list[str]) -> bool:
    """Whether ``words`` say what the speaker will do that the bot does for them: a future or
    conditional subject ("I'll", "we'd", "I will"), at most four adverbs ("just", "go ahead and"),
    then a verb of ``_TRANSACTIONS`` ("I'll just pay my phone bill now", "We'll take the 7:30
    table"; not "I'll be in Rome", "I take the train at 8")."""
    rest = words[1:6]
    if words[0] in ("i", "we") and rest[:1] and rest[0] in _MODALS:
        rest = rest[1:]
    elif words[0] not in _FUTURE:
        return False
    while rest and rest[0] in _ADVERBS:
        rest = rest[1:]
    return bool(rest) and rest[0] in _TRANSACTIONS
