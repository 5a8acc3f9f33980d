"""What instructions and descriptions say, as the linter asks it.

The text rules (HC005, HC006, HC009, HC010, HC011, HC016, HC017) and Copilot Studio's mode
inference read free text with the SDK's one instruction reader, :mod:`harness.text.instructions`,
which the offline rules model and the simulator's awkward-acknowledgement finder use too; this
module re-exports its predicates for the rules.

HC013 compares descriptions with :func:`description_similarity`: the cosine similarity of the sets of
stemmed content words, generic routing words left out; :data:`OVERLAP_THRESHOLD` (0.7) or more is a
near-duplicate.
"""

from __future__ import annotations

import math
import re

from harness.text import stem
from harness.text.instructions import (
    anchors_scope,
    checks_answered,
    claims_only_speaker,
    forbids_user_messages,
    hints_answered,
    repeats_answers,
    user_address,
)

__all__ = [
    "OVERLAP_THRESHOLD",
    "anchors_scope",
    "checks_answered",
    "claims_only_speaker",
    "content_words",
    "description_similarity",
    "forbids_user_messages",
    "hints_answered",
    "repeats_answers",
    "user_address",
]

OVERLAP_THRESHOLD = 0.7
"""Descriptions at or above this similarity are near-duplicates (HC013)."""

_TRANSLATE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)

# -- description similarity (HC013) -----------------------------------------------------------

_STOP_WORDS = """
a about above after again against all also am an and any are as at be been before being below
between both but by can could did do does doing down during each few for from further had has
have having he her here hers him his how i if in into is it its itself just me more most my no
nor not now of off on once only or other our ours out over own same she should so some such than
that the their theirs them then there these they this those through to too under until up very
was we were what when where which while who whom why will with would you your yours
agent agents subagent subagents assistant bot bots handle handles handling answer answers
answering question questions request requests user users help helps helping provide provides
providing information info use used uses using route routes routing ask asks asking related
relating regarding task tasks perform performs performing give gives get gets able ability
anything everything something specific general various etc e g ie via like including
"""
_STOP = frozenset(_STOP_WORDS.split())
_WORD = re.compile(r"[a-z0-9]+")


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text``, generic routing words ("agent", "questions") left out."""
    words = _WORD.findall(text.lower().translate(_TRANSLATE).replace("'s", ""))
    return frozenset(stem(w) for w in words if w not in _STOP)


def description_similarity(a: str, b: str) -> float:
    """How alike two routing descriptions are, from 0.0 to 1.0.

    The cosine similarity of their sets of stemmed content words: ``|A ∩ B| / sqrt(|A| * |B|)``.
    Identical texts (ignoring case, spacing and punctuation) score 1.0 even when they hold only
    generic words.
    """
    if _WORD.findall(a.lower()) == _WORD.findall(b.lower()) and a.strip():
        return 1.0
    wa, wb = content_words(a), content_words(b)
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / math.sqrt(len(wa) * len(wb))
