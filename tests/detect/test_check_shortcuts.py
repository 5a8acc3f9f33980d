"""The missed-request check's shortcuts give what the plain steps give (speed work, issue 24).

Each shortcut is tested against the plain computation it stands for, on random text and on the
multi-intent development set's messages and answers (``dev``): the pre-checks in C before the
patterns (a list's "1", the words of what a request asks), the best of the other requests' values
read once per sentence, the whole sentences' features without the act tagger, and requests made
through their slots."""

from __future__ import annotations

import math
import pickle
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.detect import _kinds
from harness.detect._answer_terms import association, reply_terms, words_of
from harness.detect._request_tokens import _FIRST_ITEM, _GREETED_ITEM
from harness.detect.answers import FEATURES, _others_best, matcher, pair_features
from harness.detect.requests import Request, _request, segment_requests
from tests.detect.multi_intent import load

_ACTS = {FEATURES.index("claim_closing"), FEATURES.index("claim_asks")}


def _dev() -> list[dict]:
    return list(load("dev"))


def _dev_texts() -> list[str]:
    """The dev set's user messages, their requests and the answers written for them."""
    out: list[str] = []
    for record in _dev():
        out.append(record["text"])
        for request in record["requests"]:
            out += [request["text"], request.get("answer", ""), request.get("answer_own_terms", "")]
    return [text for text in out if text]


def _plain_asked_kinds(request: str) -> frozenset[str]:
    """:func:`~harness.detect._kinds.asked_kinds` without its pre-checks: every pattern run."""
    kinds: frozenset[str] = frozenset()
    for pattern, answer in _kinds._ASKS:
        if pattern.search(request):
            kinds |= answer
    if _kinds._POLAR.search(request):
        return kinds | {"polar"}
    said = request.replace("’", "'")
    phrase = _kinds._noun_phrase(said)
    for asking, alone, answer in _kinds._ASKS_NAMED:
        if asking.search(said) or (phrase and alone.search(phrase)):
            kinds |= answer
    return kinds


# Words that the patterns read (in several cases), with others and punctuation between them.
_WORDS = [
    "when", "What", "time", "how", "LONG", "much", "many", "cost", "fees", "Balance", "owe",
    "rate", "where", "address", "who", "which", "phone", "number", "of", "kind", "Genre",
    "arrival", "departure", "ETA", "length", "duration", "travel", "wait", "commute", "drive",
    "rating", "ratings", "location", "venue", "the", "my", "tell", "me", "give", "find", "out",
    "know", "is", "can", "you", "it", "please", "and", "whether", "if", "a", "an", "ſort",
    "\u212aind", "café", "’s", "what's", "whats", "provide", "with", "to", "so",
]  # fmt: skip
_TEXT = st.lists(
    st.one_of(st.sampled_from(_WORDS), st.sampled_from([",", "?", ".", "'s", "-", "’"])),
    max_size=14,
).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_asked_kinds_equals_every_pattern_run_on_random_text(text: str) -> None:
    assert _kinds.asked_kinds.__wrapped__(text) == _plain_asked_kinds(text)


def test_asked_kinds_equals_every_pattern_run_on_dev_texts() -> None:
    texts = _dev_texts()
    assert len(texts) > 1000
    for text in texts:
        for variant in (text, text.upper(), text.title()):
            assert _kinds.asked_kinds.__wrapped__(variant) == _plain_asked_kinds(variant), variant


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=string.printable.replace("1", "") + "ı’“”…\u00a0", max_size=60))
def test_no_list_item_pattern_matches_a_text_without_a_1(text: str) -> None:
    # segment_requests runs the two patterns only on a message with a "1"
    assert _FIRST_ITEM.search(text) is None
    assert _GREETED_ITEM.search(text) is None


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["1", "1.", "(1)", "1)", "#1", "1-", "1 -", "2.", "hi", "Hello"]),
            st.sampled_from(["book a cab", "what time", ":", "!", "\n", "Sam,", "and"]),
        ),
        max_size=10,
    ).map(" ".join)
)
def test_list_patterns_need_a_1_in_lists_too(text: str) -> None:
    without = text.replace("1", "3")
    assert _FIRST_ITEM.search(without) is None and _GREETED_ITEM.search(without) is None


_VALUES = st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0, 0.3333333333333333, 2.0])


@settings(max_examples=500, deadline=None)
@given(st.lists(_VALUES, max_size=6))
def test_others_best_equals_the_best_of_the_others(column: list[float]) -> None:
    plain = [
        max((column[m] for m in range(len(column)) if m != k), default=0.0)
        for k in range(len(column))
    ]
    assert _others_best(column) == plain


def test_rival_features_equal_a_plain_scan_on_dev_turns() -> None:
    table = matcher().associations
    share_at, margin_at = FEATURES.index("best"), FEATURES.index("associated_margin")
    checked = 0
    for record in _dev()[:300]:
        requests = [r["text"] for r in record["requests"]]
        claims = [r["answer"] for r in record["requests"] if r.get("answer")]
        claims += [r["answer_own_terms"] for r in record["requests"] if r.get("answer_own_terms")]
        features = pair_features(requests, claims, table)
        shares = [[x[FEATURES.index("prefix")] for x in row] for row in features]
        assoc = [[x[FEATURES.index("associated")] for x in row] for row in features]
        for i, row in enumerate(features):
            for j, x in enumerate(row):
                others = [k for k in range(len(requests)) if k != i]
                best_other = max((shares[k][j] for k in others), default=0.0)
                assert x[share_at] == (1.0 if shares[i][j] > best_other else 0.0)
                assert x[FEATURES.index("margin")] == shares[i][j] - best_other
                rival = max((assoc[k][j] for k in others), default=0.0)
                assert x[margin_at] == assoc[i][j] - rival
                checked += 1
    assert checked > 1000


def test_features_without_acts_differ_only_in_the_act_features() -> None:
    table = matcher().associations
    for record in _dev()[:200]:
        requests = [r["text"] for r in record["requests"]]
        claims = [r["answer"] for r in record["requests"] if r.get("answer")]
        with_acts = pair_features(requests, claims, table)
        without = pair_features(requests, claims, table, with_acts=False)
        for row, other in zip(with_acts, without, strict=True):
            for x, y in zip(row, other, strict=True):
                assert [v for k, v in enumerate(x) if k not in _ACTS] == [
                    v for k, v in enumerate(y) if k not in _ACTS
                ]
                assert all(y[k] == 0.0 for k in _ACTS)


def test_association_equals_the_plain_mean_on_dev_pairs() -> None:
    table = matcher().associations
    records = _dev()[:150]
    requests = [words_of(r["text"]) for record in records for r in record["requests"]]
    claims = [reply_terms(r["answer"]) for record in records for r in record["requests"]]
    for request in requests:
        for claim in claims[:60]:
            rows = [row for row in map(table.get, claim) if row]
            best = [max([row.get(r, 0.0) for r in request]) for row in rows]
            plain = math.fsum(best) / len(claim) if claim and request else 0.0
            assert association(request, claim, table) == plain


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20), st.integers(0, 500), st.integers(0, 500), st.text(max_size=8))
def test_requests_made_through_their_slots_equal_plain_ones(
    text: str, start: int, end: int, carried: str
) -> None:
    plain = Request(text=text, start=start, end=end, carried=carried, carried_after=carried[:2])
    fast = _request(text, start, end, carried, carried[:2])
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert pickle.loads(pickle.dumps(fast)) == plain


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # an announcement before a colon is no request (read only in a sentence with a colon)
        (
            "Quick questions: what time does the museum open, and where do I park?",
            ["what time does the museum open", "where do I park"],
        ),
        (
            "A few things: book a cab to the airport and check my balance",
            ["book a cab to the airport", "check my balance"],
        ),
        (
            "Book a cab to the airport and check my balance",
            ["Book a cab to the airport", "check my balance"],
        ),
    ],
)
def test_colons_are_read_where_there_are_some(message: str, expected: list[str]) -> None:
    assert [r.text for r in segment_requests.__wrapped__(message)] == expected


def _every_match_holds(pattern: object, words: object) -> None:
    ascii_text = st.from_regex(pattern, alphabet=st.characters(codec="ascii"))  # type: ignore[arg-type]

    @settings(max_examples=150, deadline=None, database=None)
    @given(ascii_text)
    def holds(text: str) -> None:
        assert words.search(text.lower()), (getattr(pattern, "pattern", pattern), text)  # type: ignore[attr-defined]

    holds()


@pytest.mark.parametrize("index", range(len(_kinds._ASKS)))
def test_every_text_a_pattern_of_what_is_asked_matches_holds_a_word_of_the_pre_check(
    index: int,
) -> None:
    """``_MAY_ASK`` must hold a word of every match of every ``_ASKS`` pattern: text generated
    from each pattern itself, so a pattern given a new word the pre-check lacks fails here."""
    _every_match_holds(_kinds._ASKS[index][0], _kinds._MAY_ASK)


@pytest.mark.parametrize("index", range(2 * len(_kinds._ASKS_NAMED)))
def test_every_text_a_named_pattern_matches_holds_a_word_of_its_pre_check(index: int) -> None:
    """As above for both patterns of each ``_ASKS_NAMED`` entry and ``_MAY_NAME``."""
    entry = _kinds._ASKS_NAMED[index // 2]
    _every_match_holds(entry[index % 2], _kinds._MAY_NAME)
