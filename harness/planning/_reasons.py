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
from harness.text._shapes import VERBS, WANTS, word_class

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
# Modals between a subject and its verb ("I will pay ...", "we shall take ..."; closed class).
_MODALS = word_class("will would shall")
_REQUEST_VERBS = frozenset(VERBS.split("|"))


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
    (``_REASON_SUBJECTS``), it asks no question and wants nothing itself (no word of
    ``_WANTING``: "I need a hotel in Boston, so find me a flight there" asks for two things), and
    a personal subject's verb is no request verb (``harness.text._shapes.VERBS``, after a modal: "I'll pay my phone
    bill now, so ..." and "We'll take the 7:30 table, so ..." tell the bot to act)."""
    words = _WORDS.findall(head.lower())
    verb = (
        ""
        if words[:1] in (["my"], ["our"])
        else next((w for w in words[1:3] if w not in _MODALS), "")
    )
    return (
        bool(words)
        and words[0] in _REASON_SUBJECTS
        and "?" not in head
        and not any(w in _WANTING for w in words)
        and verb not in _REQUEST_VERBS
    )
