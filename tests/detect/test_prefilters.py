"""The detector's patterns are scanned only over texts that may hold what they need.

A pattern whose every match holds one of a few words (``_REASK``, ``_REQUEST``,
``_CAPABILITIES``, ``_DAY``, the missed-request check's ``_APOLOGY``) is tried
only when
:func:`~harness.text.words.may_hold` finds one of them. That is exact when each match really
holds one: these tests check it on random text built from the patterns' own words in every case
(with the characters that case folding maps outside ASCII), on phrases of each alternative, and
on the dev corpus's messages.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.detect import _declines, _features, _users, load_transcript
from harness.text.words import may_hold

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"

_SAYS_REPEAT_FIRST = re.compile(
    r"\b(?:(?:as|like) (?:i|we|the|our|your) (?:[\w-]+ ){0,3}?(?:(?:just|already|previously) )?"
    r"(?:mentioned|said|noted|stated|explained|told you|shared|pointed out|confirmed)"
    r"|as (?:mentioned|noted|stated|said|discussed) (?:above|earlier|before|previously)"
    r"|(?:to )?(?:recap|summari[sz]e|reiterate)|(?:quick |follow-up )?(?:recap|summary)\s*:"
    r"|just (?:a )?reminder|reminder\s*:)",
    re.IGNORECASE,
)
"""``_features``' says-it-repeats pattern as first written (with ``\\b`` before each alternative),
the reference its one-source rewrite is compared with."""

_FILTERED = [
    ("reask", _users._REASK, _users._REASK_NEEDS),
    ("request", _users._REQUEST, _users._REQUEST_NEEDS),
    ("capabilities", _users._CAPABILITIES, _users._CAPABILITIES_NEEDS),
    ("day", _features._DAY, _features._DAY_NEEDS),
    ("apology", _declines._APOLOGY, _declines._APOLOGY_NEEDS),
]
_WORDS = " ".join(
    [
        "again repeat remind me one more time once more say that it this come didn't didnt catch get",
        "see hear understand missed the what did you they pardon resend re-send recap can go over",
        "lost track sorry huh eh excuse was were as like i we our your just already previously",
        "mentioned said noted stated explained told shared pointed out confirmed above earlier",
        "before discussed to summarise summarize reiterate quick follow-up summary a reminder day",
        "after tomorrow today tonight yesterday morning afternoon evening monday tuesday wednesday",
        "thursday friday saturday sunday weekend ok okay could would will please else do help "
        "offer assist bot services options things are is who how apologise apologize apologies",
        "unfortunately fortunately unable",
    ]
).split()
_PIECES = [
    *_WORDS,
    *(w.upper() for w in _WORDS),
    *(w.capitalize() for w in _WORDS),
    *" .,;:!?-'’\n",
    *"ſKıİ",  # case folding maps these to ASCII letters: "THİS", "thiſ"
    "é",
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=12).map(" ".join)


@cache
def _corpus_texts() -> tuple[str, ...]:
    return tuple(
        message.text
        for path in sorted(CORPUS.glob("*.transcript"))
        for conversation in load_transcript(path)
        for message in conversation.messages
    )


def _check(text: str) -> None:
    for name, pattern, needs in _FILTERED:
        if pattern.search(text) is not None:
            assert may_hold(text, needs), (name, text)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_every_match_holds_a_needed_word(text: str) -> None:
    _check(text)


@pytest.mark.parametrize(
    "text",
    [
        "Could you say that again?",
        "sorry?",
        "  Eh  ",
        "Excuse me, which one?",
        "I didnt catch the time",
        "what was the address",
        "Can you go over it",
        "I lost track",
        "To recap: two tickets.",
        "See you the day after tomorrow",
        "THİS MORNING",  # İ matches i under re.IGNORECASE, and lower() makes it two characters
        "thiſ evening",  # ſ matches s
        "Saturday works",
        "Over the weekend",
        "ok, could you book it",
        "Please hurry",
        "What else can you help with?",
        "How can you help",
        "Who are you",
        "what services",
        "Sorry, I could not find it.",
        "We apologize for the wait",
        "UNFORTUNATELY it is closed",
        "ſorry, that failed",  # ſ matches s
    ],
)
def test_each_alternative_holds_a_needed_word(text: str) -> None:
    assert any(pattern.search(text) for _, pattern, _ in _FILTERED)
    _check(text)


def test_the_needed_words_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check(text)


def test_may_hold_is_false_only_for_ascii_text_without_the_words() -> None:
    assert not may_hold("Your table is booked.", ("day", "this"))
    assert may_hold("See you THIS Friday", ("day", "this"))
    assert may_hold("Réservé pour vous", ("day",))  # not ASCII: the pattern decides
    assert not re.search(r"\bthis\b", "THİS", re.IGNORECASE) or may_hold("THİS", ("this",))


_ASCII_PIECES = [piece for piece in _PIECES if piece.isascii()] + [
    "has",
    "was",
    "bias",
    "Sum",
    "summary:",
    "RECAP:",
    "reminder :",
    "x",
    "-",
    "as-is",
]
_ASCII_TEXT = st.lists(st.sampled_from(_ASCII_PIECES), max_size=14).map(" ".join)
_GLUED_TEXT = st.lists(st.sampled_from(_PIECES), max_size=14).map("".join)
"""Pieces joined with nothing, so that a letter comes right before an alternative's first
letter (where the word boundary decides)."""


def _says_repeat_alike(text: str) -> None:
    first = _SAYS_REPEAT_FIRST.search(text) is not None
    assert _features._says_repeat(text) == first, text
    assert (_features._SAYS_REPEAT.search(text) is not None) == first, text


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_ASCII_TEXT, _TEXT, _GLUED_TEXT))
def test_says_repeat_in_lower_case_finds_what_the_pattern_finds(text: str) -> None:
    # The lower-case pattern that starts with a letter (for ASCII text) against the pattern.
    _says_repeat_alike(text)


@pytest.mark.parametrize(
    "text",
    [
        "As I mentioned, it opens at 9.",
        "like the billing agent already said, no",
        "As discussed above",
        "xto recap",
        "To recap: two tickets.",
        "Quick summary: booked.",
        "Follow-up recap : done",
        "summarize it",
        "Just a reminder that it closes early.",
        "JUST REMINDER",
        "Reminder: bring ID",
        "has I mentioned",  # no word boundary before "as"
        "bias the noted",
        "as-is",
        "Summary of your order",  # no colon
        "thiſ is a recap",  # not ASCII: the pattern itself
    ],
)
def test_says_repeat_on_each_alternative(text: str) -> None:
    _says_repeat_alike(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("it looks alike i said", False),  # a letter before each alternative's first letter
        ("please adjust a reminder", False),
        ("see the xsummary: below", False),
        ("the prerecap phase", False),
        ("Summary : done", True),  # space before the colon
        ("it looks like I said", True),
        ("please, just a reminder", True),
        ("see the summary: below", True),
        ("the recap phase", True),
        # Not ASCII: the pattern compiled with IGNORECASE, each case catching one wrong shortcut
        # (a boundary of ASCII letters only, re.ASCII, the text normalised first).
        ("érecap", False),
        ("重recap", False),
        ("١recap", False),
        ("AS İ SAID", True),
        ("as ı said", True),
        ("ſummary: done", True),
        ("summary\u00a0: x", True),
        ("ＡＳ Ｉ ＳＡＩＤ", False),
        ("Cafe\u0301as I said", True),
    ],
)
def test_says_repeat_at_each_word_boundary(text: str, says: bool) -> None:
    assert _features._says_repeat(text) is says
    _says_repeat_alike(text)


def test_says_repeat_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _says_repeat_alike(text)
