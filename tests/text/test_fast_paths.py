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
from harness.text import (
    CLAIM_BUDGET,
    STRONG_KINDS,
    Analysis,
    Claim,
    Span,
    analyse,
    normalise,
    split_claims,
    split_sentences,
    strip_markdown,
)
from harness.text.claims import message_facts
from harness.text.words import (
    _TOKEN,
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
            and facts._CONTINUED.match(text, whole.end(), whole.end() + 66) is None
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


# --- texts the fact scan passes over --------------------------------------------------------

# Plain words (most sentences hold no fact but names), words that start like or contain the words
# the patterns need ("Decide", "inactive", "unpaid", "weekend", "midnight"), and what makes a fact.
_PLAIN_PIECES = [
    "the", "The", "your", "request", "Request", "Priya", "Halverson University", "HSA", "we", "Dr.",
    "decide", "Decide", "monitor", "Sunshine", "inactive", "unpaid", "reopened", "refused",
    "weekend", "holiday", "midnight", "noon", "business days", "working day", "hrs", "seconds",
    "a", "an", "half an", "Forty-five", "three", "to", "www", "http", "Mon", "SEPT", "May", "march",
    "left", "Approved", "K", "ſ", "é", "@", "7", "1.", "#", "$", "-", " ", " ", ". ", ", ", "\n",
]  # fmt: skip
_PLAIN_TEXT = st.lists(st.sampled_from(_PLAIN_PIECES), max_size=30).map(" ".join)


def _check_passed_over(text: str) -> None:
    """The facts of ``text`` are those of the whole scan; a text the scan passes over holds no
    fact but names (and is ASCII)."""
    whole = facts._facts(text, scan=True)
    assert facts.extract_facts.__wrapped__(text) == whole, text
    if text.isascii() and facts._MAY_HOLD_FACT.search(text.lower()) is None:
        assert all(f.kind in ("name", "acronym") for f in whole), text


@_SETTINGS
@given(st.one_of(_PLAIN_TEXT, _TEXT))
def test_texts_passed_over_hold_the_facts_of_the_whole_scan(text: str) -> None:
    _check_passed_over(text)


def test_texts_passed_over_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        for sentence in split_sentences(text):
            _check_passed_over(sentence.text)


def test_a_text_without_digits_or_fact_words_is_passed_over() -> None:
    said = "The Registrar of Halverson University will review your housing request."
    assert facts._MAY_HOLD_FACT.search(said.lower()) is None
    assert [(f.kind, f.value) for f in facts.extract_facts(said)] == [
        ("name", "registrar of halverson university")
    ]
    for held in ("in three business days", "on Sundays", "it is unpaid", "by midnight", "decide"):
        assert facts._MAY_HOLD_FACT.search(held.lower()) is not None, held


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


# --- the vocabulary as a trie ------------------------------------------------------------------

_WORDS = st.lists(st.text(alphabet="abcAB'", min_size=1, max_size=5), max_size=12)


@_SETTINGS
@given(_WORDS, st.text(alphabet="abcAB' ", max_size=8))
def test_a_trie_matches_exactly_its_words(words: list[str], text: str) -> None:
    flat = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True)) or "(?!)"
    trie = facts._one_of(words)
    assert (re.fullmatch(f"(?:{trie})", text) is not None) == (text in words)
    # Followed by a word's end, the trie and the flat alternation match the same text.
    for template in ("(?:{})(?![\\w'])", "(?i:{})(?![\\w'])"):
        pattern, plain = template.format(trie), template.format(flat)
        for at in range(len(text) + 1):
            found, expected = re.match(pattern, text[at:]), re.match(plain, text[at:])
            assert (found and found.group()) == (expected and expected.group())


# --- names, claims and the analysis against their plain steps ----------------------------------


def _plain_names(text: str) -> list[facts.Fact]:
    """The name scan as a plain loop: the sentence-start test made for every run, the cut
    searched in every run."""
    names: list[facts.Fact] = []
    for match in facts._NAME.finditer(text):
        run = match.group(0)
        cut = facts._NAME_END.search(run)
        if cut and not facts._INITIAL.search(run[: cut.start() + 1]):
            run = run[: cut.start()]
        words = run.split()
        start = match.start()
        initial = facts._sentence_start(text, start)
        first = 0
        while first < len(words) and (
            words[first].lower().strip("'’") in STOPWORDS
            or words[first].lower() in facts._WEEKDAYS
            or words[first].lower().rstrip(".") in facts._MONTHS
        ):
            if first + 1 < len(words):
                start = text.index(words[first + 1], start + len(words[first]))
            else:
                start = match.end()
            first += 1
            initial = False
        words = words[first:]
        if not words or (initial and len(words) == 1 and not words[0].isupper()):
            continue
        joined = " ".join(words)
        end = start + len(joined) if text.startswith(joined, start) else match.end()
        value = " ".join(w.strip(".'’").lower() for w in words)
        if len(value) < 2 or value.isdigit():
            continue
        kind = (
            "acronym" if len(words) == 1 and words[0].isupper() and words[0].isalpha() else "name"
        )
        names.append(facts.Fact(kind, value, start, end))
    return names


def _plain_claims(text: str) -> tuple[Span, ...]:
    """``split_claims`` with every sentence split by the clause loop (no short cut for a
    sentence without a clause mark)."""
    claims: list[Span] = []
    for sentence in split_sentences(text):
        regions = _split.protected_spans(sentence.text)
        begin, parts = 0, []
        for match in _split._CLAUSE.finditer(sentence.text):
            if not (regions and _split._inside(match.start(), regions)):
                parts.append((begin, match.start()))
                begin = match.end()
        parts.append((begin, len(sentence.text)))
        kept: list[tuple[int, int]] = []
        counts: list[int] = []
        for a, b in parts:
            words = _slow_words(sentence.text[a:b])
            if kept and (words < 3 or counts[-1] < 3):
                counts[-1] += _slow_words(sentence.text[kept[-1][1] : a]) + words
                kept[-1] = (kept[-1][0], b)
            else:
                kept.append((a, b))
                counts.append(words)
        if len(kept) < 2:
            claims.append(sentence)
            continue
        for a, b in kept:
            start = sentence.start + a
            claims.append(Span(start, sentence.start + b, text[start : sentence.start + b]))
    return tuple(claims)


def _plain_keys(found: list[facts.Fact]) -> tuple[frozenset[str], frozenset[str]]:
    keys = {f.key for f in found} | {
        "num:" + f.value.split()[0] for f in found if f.kind == "duration"
    }
    strong = {f.key for f in found if f.kind in STRONG_KINDS}
    strong |= {"num:" + f.value.split()[0] for f in found if f.kind == "duration"}
    return frozenset(keys), frozenset(strong)


def _plain_analysis(text: str) -> Analysis:
    """The analysis as plain steps, for a text within both budgets: every fact made anew at its
    offset in the text, every claim's keys made from its facts, every sentence's context
    gathered from every claim."""
    sentences = split_sentences(text)
    located = [
        facts.Fact(f.kind, f.value, f.start + s.start, f.end + s.start)
        for s in sentences
        for f in facts.extract_facts(s.text)
    ]
    rows = []
    for span in _plain_claims(text):
        at = max(i for i, s in enumerate(sentences) if s.start <= span.start)
        inside = [f for f in located if span.start <= f.start < span.end]
        plain = strip_markdown(span.text)
        keys, strong = _plain_keys(inside)
        words = _slow_content_words(plain)
        for fact in inside:
            if fact.kind not in ("name", "acronym", "state"):
                words -= content_words(text[fact.start : fact.end])
        negated = any(t in NEGATIONS or t.endswith("n't") for t in tokens(plain))
        head = next((f.key for f in inside if f.kind in ("money", "number", "percent")), None)
        rows.append((span, normalise(plain), words, keys, strong, negated, at, head))
    context: dict[int, set[str]] = {}
    for row in rows:
        context.setdefault(row[6], set()).update(
            row[4]
            | {k for k in row[3] if k.startswith(("state:", "acronym:", "weekday:", "month:"))}
        )
    claims = tuple(Claim(*row, context=frozenset(context[row[6]])) for row in rows)
    keys, strong = _plain_keys(located)
    return Analysis(
        text=text,
        norm=normalise(strip_markdown(text)),
        claims=claims,
        facts=keys,
        strong=strong,
        words=frozenset().union(*(c.words for c in claims)),
    )


def _check_analysis(text: str) -> None:
    assert tokens(text) == [t.replace("’", "'") for t in _TOKEN.findall(text.lower())]
    assert strip_markdown(text) == _split._MARKDOWN.sub(lambda m: m.group(1) or "", text)
    for sentence in split_sentences(text):
        found = facts.extract_facts(sentence.text)
        assert list(found) == sorted(found, key=lambda f: f.start)
        names = facts._names(sentence.text, lambda start, end: True)
        assert names == _plain_names(sentence.text), sentence.text
    assert split_claims(text) == _plain_claims(text)
    if len(text) <= 2 * CLAIM_BUDGET:
        assert analyse(text) == _plain_analysis(text)


@_SETTINGS
@given(_ANY_TEXT)
def test_the_analysis_is_its_plain_steps(text: str) -> None:
    _check_analysis(text)


def test_the_analysis_is_its_plain_steps_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check_analysis(text)


# --- the awkward acknowledgement ------------------------------------------------------------------

# Pieces of the acknowledgement patterns' own phrases, in mixed case, with the characters that
# match ASCII letters only when case is ignored (U+017F for "s", the Kelvin sign for "k", the
# dotless and dotted capital i).
_ACK_PIECES = [
    "As ", "as", "AS", "like ", "Like", " the ", "The billing ", "agent", "Agent's", " team",
    " mentioned", " said", "Said", " earlier", " above", "already ", "just ", "Just", " told you",
    "per ", "Per my ", "message", " reply", "to reiterate", "Reiterating ", "what ", "let me ",
    "recap", "see above", "Same answer", "it was ", " the same information", "you've ", "been ",
    "given", "in case you missed it", "building on ", "following up on", " again", ". ", ", ",
    "!", "?", "'", "-", "\u2019", "\u017f", "\u212a", "\u0131", "\u0130", "\u00e9", "x", "\n",
]  # fmt: skip


def _check_acknowledgement(text: str) -> None:
    from harness.text import _acknowledge

    plain = _acknowledge._acknowledgement(text.replace("\u2019", "'"))
    assert _acknowledge.acknowledgement.__wrapped__(text) == plain


@_SETTINGS
@given(st.lists(st.sampled_from(_ACK_PIECES), max_size=24).map("".join))
def test_acknowledgement_in_lower_case_is_the_pattern_ignoring_case(text: str) -> None:
    _check_acknowledgement(text)


def test_acknowledgement_in_lower_case_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check_acknowledgement(text)


# --- patterns that start with a character class -----------------------------------------------

# Each pattern as it was written first, with a look-behind or a word boundary where it starts: the
# engine tries those at every position, and skips to a character class in C. Every match, its
# span and its text, must be the same.
_STARTS_PLAIN = {
    "sentence end": (_split._END, r"(?<![.!?…])[.!?…]+[\"'”’)\]*_]*(?=\s)|\n"),
    "clause cut": (
        _split._CLAUSE,
        r";\s+|(?<!\s)\s+[—–]\s+|,\s+(?:and|but|plus|so|while)\s+|\.\s+(?=[a-z])",
    ),
    "name": (
        facts._NAME,
        r"\b[A-Z][\w'’&.-]*+(?:\s++(?:(?:of|de|la|von|van|the|&)\s*+)?[A-Z][\w'’&.-]*+)*+",
    ),
}
_STARTS_PIECES = [
    *".!?…\n\t ;,—–-\"'”’)]*_aAzZ9éÉ", "  ", " — ", " – ", ";  ", ", and ", ",  but\t", ". a",
    ". A", "...", "?!", ".”", ".)*", "Dr. ", "New York", " of the ", "O'Neil", "é", "ÉTÉ", "x" * 5,
]  # fmt: skip


def _check_starts(text: str) -> None:
    for fast, plain in _STARTS_PLAIN.values():
        slow = re.compile(plain)
        assert [(m.span(), m.group()) for m in fast.finditer(text)] == [
            (m.span(), m.group()) for m in slow.finditer(text)
        ]


@_SETTINGS
@given(st.lists(st.sampled_from(_STARTS_PIECES), max_size=40).map("".join))
def test_patterns_that_start_with_a_class_match_as_written_first(text: str) -> None:
    _check_starts(text)


@_SETTINGS
@given(st.lists(st.sampled_from(_STARTS_PIECES), max_size=24).map("".join))
def test_the_sentence_end_matches_as_written_first_from_any_position(text: str) -> None:
    fast, plain = _STARTS_PLAIN["sentence end"]
    slow = re.compile(plain)
    for pos in range(len(text) + 1):
        assert [m.span() for m in fast.finditer(text, pos)] == [
            m.span() for m in slow.finditer(text, pos)
        ]


def test_a_scan_that_starts_at_a_runs_second_mark_finds_no_end_there() -> None:
    assert [m.span() for m in _split._END.finditer("Stop?! Then go.", 5)] == []
    assert [m.span() for m in _split._END.finditer("Stop?! Then go.", 4)] == [(4, 6)]


def test_patterns_that_start_with_a_class_on_the_dev_corpus() -> None:
    for text in _corpus_texts():
        _check_starts(text)


# --- spans and facts made through their slots ------------------------------------------------


@_SETTINGS
@given(st.integers(), st.integers(), st.text(max_size=8), st.text(max_size=8))
def test_spans_and_facts_made_through_their_slots_are_the_constructed_ones(
    start: int, end: int, text: str, value: str
) -> None:
    span = _split._span(start, end, text)
    assert type(span) is Span
    assert span == Span(start, end, text)
    assert hash(span) == hash(Span(start, end, text))
    assert repr(span) == repr(Span(start, end, text))
    fact = facts._fact(text, value, start, end)
    assert type(fact) is facts.Fact
    assert fact == facts.Fact(text, value, start, end)
    assert hash(fact) == hash(facts.Fact(text, value, start, end))
    assert repr(fact) == repr(facts.Fact(text, value, start, end))
