"""The analysis's fast paths give what the plain steps give.

Each fast path replaces a step in Python by a pattern or by arithmetic in C; each test states the
slow step it stands for and compares the two on random text (hypothesis) and on the dev corpus's
messages.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import harness.text._split as _split
import harness.text.facts as facts
from harness.detect import load_transcript
from harness.detect.acts import act_features, feature_set, tagger
from harness.text import analyse, split_sentences
from harness.text.claims import message_facts
from harness.text.words import (
    NEGATIONS,
    STOPWORDS,
    content_words,
    stem,
    tokens,
    words_and_negation,
)

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "duplicates-dev"

# Pieces that reach every branch: words of the facts' vocabulary in both cases, words that start
# like weekdays, ids, money, dates, URLs, e-mail addresses, list marks, separators, non-ASCII.
_PIECES = [
    *"aAbBzZ09 .,;:!?-'’$€#@/…\n\t*_`()%+",
    "Feb", "feb", "March", "may", "MAY", "Monday", "monitor", "Sunshine", "Sat", "half", "Half an",
    "a", "A", "an", "one", "Forty-five", "USD", "usd", "noon", "Approved", "left", "www.", "http",
    "https://x.io/a", "a@b.co", "T-5521", "INC0042", "$1,250", "12", "3.5", "2026", "day", "days",
    "hours", " and ", "; ", " — ", "\n- ", "1. ", "Dr.", "a.m.", "é", "Ünïcode", "ſ", "K", "²", "x" * 70,
]  # fmt: skip
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)
_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _corpus_texts() -> tuple[str, ...]:
    return tuple(
        message.text
        for path in sorted(CORPUS.glob("*.transcript"))
        for conversation in load_transcript(path)
        for message in conversation.messages
    )


# --- the act tagger -------------------------------------------------------------------------


def _slow_totals(sentence: str) -> list[float]:
    """The log-odds as the plain sum: the bias plus every feature's float weights."""
    model = tagger()
    totals = list(model.bias)
    for feature in sorted(set(act_features(sentence))):
        for k, weight in enumerate(model.weights.get(feature, ())):
            totals[k] += weight
    return totals


def _slow_tag(sentence: str) -> frozenset[str]:
    scores = {
        act: 1 / (1 + math.exp(-max(-30.0, min(30.0, t))))
        for act, t in zip(tagger().acts, _slow_totals(sentence), strict=True)
    }
    found = frozenset(a for a, p in scores.items() if p >= 0.5)
    return found or frozenset({max(scores, key=scores.__getitem__)})


def _check_tagger(sentence: str) -> None:
    assert feature_set(sentence) == set(act_features(sentence))
    fast, slow = tagger().totals(sentence), _slow_totals(sentence)
    assert all(
        math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12) for a, b in zip(fast, slow, strict=True)
    )
    assert tagger().tag(sentence) == _slow_tag(sentence)


@_SETTINGS
@given(_TEXT)
def test_packed_tagger_is_the_plain_sum(text: str) -> None:
    _check_tagger(text)


def test_packed_tagger_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check_tagger(text)


# --- where the fact scan looks --------------------------------------------------------------

_EVERY_START = re.compile(r"[$€£¥₹#…]|(?<!\w)\w")
_WORD_AT = re.compile(r"[\w'’-]+")


def _skipped_by_the_loop(text: str, position: int) -> bool:
    """The scan loop's own rule for a start: a plain lower-case word outside the vocabulary is
    skipped, and a start where the combined pattern matches nothing does nothing."""
    window = min(len(text), position + facts.WINDOW)
    first = text[position]
    if first.isalpha() and first.islower():
        whole = _WORD_AT.match(text, position, window)
        if (
            whole is not None
            and (whole.end() < window or window == len(text))
            and whole.group().isalpha()
            and whole.group() not in facts._VOCABULARY
        ):
            return True
    return facts._COMBINED.match(text, position, window) is None


def _check_starts(text: str) -> None:
    kept = {m.start() for m in facts._FACT_STARTS.finditer(text)}
    for start in _EVERY_START.finditer(text):
        if start.start() not in kept:
            assert _skipped_by_the_loop(text, start.start()), (text, start.start())
    assert kept <= {m.start() for m in _EVERY_START.finditer(text)}


@_SETTINGS
@given(_TEXT)
def test_fact_scan_passes_over_only_starts_that_hold_no_fact(text: str) -> None:
    _check_starts(text)


def test_fact_scan_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check_starts(text)


# --- a user's facts without the claims -------------------------------------------------------


@_SETTINGS
@given(_TEXT)
def test_message_facts_are_the_analysis_facts(text: str) -> None:
    assert message_facts(text) == analyse(text).facts


def test_message_facts_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        assert message_facts(text) == analyse(text).facts


# --- words counted in C, one tokenising per claim ----------------------------------------------

_ANY_TEXT = st.one_of(_TEXT, st.text(), st.lists(st.sampled_from([*_PIECES, "\x1c", "\u2003", "\u00a0", "\x85", "_", "__a_"]), max_size=40).map("".join))  # fmt: skip
_ALNUM = re.compile(r"[^\W_]")


def _slow_words(piece: str) -> int:
    """The plain count: the white-space separated words that hold a letter or digit."""
    return sum(1 for w in piece.split() if _ALNUM.search(w))


def _slow_content_words(text: str) -> frozenset[str]:
    """Content words as the plain loop over the tokens worked them out."""
    out: set[str] = set()
    for t in tokens(text):
        if t in NEGATIONS or t in STOPWORDS:
            continue
        if "'" in t:
            t = t.partition("'")[0]
            if t in STOPWORDS:
                continue
        if len(t) > 1 and not t.isdigit():
            out.add(stem(t))
    return frozenset(out)


def _check_words(text: str) -> None:
    assert _split._words(text) == _slow_words(text)
    negated = any(t in NEGATIONS or t.endswith("n't") for t in tokens(text))
    assert words_and_negation(text) == (_slow_content_words(text), negated)
    assert content_words(text) == _slow_content_words(text)


@_SETTINGS
@given(_ANY_TEXT)
def test_word_counts_and_content_words_are_the_plain_loops(text: str) -> None:
    _check_words(text)


def test_word_counts_and_content_words_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        for sentence in split_sentences(text):
            _check_words(sentence.text)
        _check_words(text)


def test_a_long_run_without_letters_is_counted_in_linear_work() -> None:
    # One pass per run: 200,000 characters with no letter or digit take no quadratic work.
    assert _split._words("-" * 200_000 + " a") == 1
