"""The pair scorer's features: what :class:`harness.detect.scorer.PairScorer` reads about a
candidate pair of bot messages. How far each can move before the claim comparison (the bounds
:meth:`~harness.detect.scorer.PairScorer.may_reach` is given) is :mod:`harness.detect._pair_bounds`'.

The groups (facts, wording, dialogue acts, the user in between, distance, values the fact
extractor does not read, order-free agreement) are described in :mod:`harness.detect.scorer`;
``docs/journal/detector.md`` says how they were chosen and measured. Split from the scorer so that
each module does one thing: this one describes pairs, that one scores them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from harness.detect._aside import restated_aside
from harness.detect._wording import _rare, _tokens, _wording
from harness.detect.acts import analysis_acts
from harness.detect.restate import Restatement
from harness.text import STOPWORDS, Analysis, content_words
from harness.text._records import slot_maker
from harness.text.words import may_hold

_SUBJECT = ("id:", "name:", "acronym:", "email:", "url:")
_SAID = (
    r"(?:[\w-]+ ){0,3}?(?:(?:just|already|previously) )?"
    r"(?:mentioned|said|noted|stated|explained|told you|shared|pointed out|confirmed)"
)
_SAYS_REPEAT_LOWER = re.compile(
    r"a(?<!\w.)s (?:(?:i|we|the|our|your) " + _SAID + r"|(?:mentioned|noted|stated|said|discussed)"
    r" (?:above|earlier|before|previously))"
    r"|l(?<!\w.)ike (?:i|we|the|our|your) " + _SAID + r"|r(?<!\w.)(?:ecap|eiterate|eminder\s*:)"
    r"|s(?<!\w.)umma(?:ri[sz]e|ry\s*:)|j(?<!\w.)ust (?:a )?reminder"
)
"""A later message that says itself it repeats ("As I mentioned", "Like the billing agent said",
"To recap", "Summary:"), searched in an ASCII text's lower case: each alternative written to start
with its first letter, which the regex engine skips to in C, with the word boundary checked after
it (``(?<!\\w.)``); "to recap" and "quick summary:" are found by their "recap" and "summary:". Only
whether there is a match is read."""
_SAYS_REPEAT = re.compile(_SAYS_REPEAT_LOWER.pattern, re.IGNORECASE)
"""The same pattern (one source) for text that is not ASCII, where lower-casing and
``IGNORECASE`` may disagree ("ſ", "ı", "İ"); ``tests/detect/test_prefilters.py`` compares both
with the pattern as first written."""


def _says_repeat(text: str) -> bool:
    """Whether the message says itself it repeats (:data:`_SAYS_REPEAT`)."""
    if text.isascii():
        return _SAYS_REPEAT_LOWER.search(text.lower()) is not None
    return _SAYS_REPEAT.search(text) is not None


FEATURES = (
    "exact",
    "rule_near",
    "rule_semantic",
    "rule_containment",
    "rule_borderline",
    "rule_score",
    "earlier_cover",
    "later_cover",
    "values_shared",
    "values_earlier_only",
    "values_later_only",
    "values_conflict",
    "earlier_values_restated",
    "states_differ",
    "subjects_shared",
    "subjects_differ",
    "subject_only",
    "word_dice",
    "sequence_ratio",
    "small_substitutions",
    "rare_words_differ",
    "short",
    "length_ratio",
    "same_turn",
    "turns_apart",
    "different_requests",
    "later_confirm",
    "later_offer",
    "later_notify",
    "later_request",
    "later_closing",
    "later_count",
    "earlier_offer",
    "earlier_request",
    "earlier_confirm",
    "reask_cue",
    "reask_on_topic",
    "topic_overlap",
    "asked_fact",
    "same_question",
    "later_confirms_choice",
    "user_said",
    "later_from_user",
    "earlier_asks",
    "later_says_repeat",
    "same_request_again",
    "names_differ",
    "days_differ",
    "acts_agree",
    "both_confirm",
    "word_cover",
    "value_cover",
    "value_jaccard",
    "restated_aside",
)
"""The feature names, in the order of the weights."""

COSINE = "embedding_cosine"
"""The ``--semantic`` scorer's one extra feature: the two messages' embedding cosine."""

SEMANTIC_FEATURES = (*FEATURES, COSINE)
"""The ``--semantic`` scorer's features: :data:`FEATURES`, then the cosine (always last, so a
change to :data:`FEATURES` needs only a refit: ``python -m tools.detector.fit pairs --semantic``)."""


class UserLike(Protocol):
    """What the scorer reads of a user message."""

    @property
    def words(self) -> frozenset[str]: ...
    @property
    def facts(self) -> frozenset[str]: ...
    @property
    def reask(self) -> bool: ...
    @property
    def question(self) -> bool: ...
    @property
    def request(self) -> bool: ...
    @property
    def norm(self) -> str: ...


@dataclass(frozen=True, slots=True)
class PairContext:
    """Where the two messages stand in the conversation."""

    same_turn: bool
    turns_apart: int
    same_sender: bool
    different_requests: bool = False
    same_request_again: bool = False


def _weighted(keys: frozenset[str] | set[str]) -> float:
    return sum(0.5 if k.startswith("num:") and len(k) <= 5 else 1.0 for k in keys)


_DAY = re.compile(
    r"\b(?:day after tomorrow|today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening)|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)\b",
    re.IGNORECASE,
)
_DAY_NEEDS = ("day", "tonight", "tomorrow", "this", "weekend")
"""A word or part of one that every match of :data:`_DAY` holds (``may_hold``)."""
_SENTENCES = re.compile(r"[.!?\n]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'&-]*")


@lru_cache(maxsize=65_536)
def _days(text: str) -> frozenset[str]:
    """The days a message names by word ("today", "tomorrow", "Friday"): values that the fact
    extractor, which reads dates, does not see."""
    if not may_hold(text, _DAY_NEEDS):
        return frozenset()
    return frozenset(m.lower() for m in _DAY.findall(text))


_CALENDAR_WORDS = """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed
thu thur thurs fri sat sun january february march april may june july august september october
november december jan feb mar apr jun jul aug sep sept oct nov dec"""
_CALENDAR = frozenset(_CALENDAR_WORDS.split())
"""Weekday and month names and their abbreviations, a closed class: parts of dates (values the
fact extractor and :func:`_days` read), not names of items ("Sun, Feb 15" is "Sunday, February
15")."""
_IGNORED = STOPWORDS | _CALENDAR


@lru_cache(maxsize=65_536)
def _capitalised(text: str) -> frozenset[str]:
    """Capitalised words inside sentences (not a sentence's first word, not an acronym, not a
    stop word, not a weekday or a month: :data:`_CALENDAR`): single-word names ("Accord", "Camry", "Yankees") that the fact extractor, which
    reads multi-word names, ids and acronyms, does not see."""
    out: set[str] = set()
    for sentence in _SENTENCES.split(text):
        for word in _WORD.findall(sentence)[1:]:
            if word[0].isupper() and not word.isupper():
                lower = word.lower()
                if lower not in _IGNORED:
                    out.add(lower)
    return frozenset(out)


def _name_tokens(analysis: Analysis) -> frozenset[str]:
    """The words of the names, acronyms and ids a message states, and its capitalised words:
    what it is about and which items it names, compared word by word so that "Play Drunk Me" and
    "Drunk Me" share their name."""
    return frozenset(_name_words(analysis, _capitalised(analysis.text)))


def _name_words(analysis: Analysis, caps: frozenset[str]) -> set[str]:
    """:func:`_name_tokens` as a set, given the message's :func:`_capitalised` words."""
    out = set(caps)
    for key in analysis.facts:
        kind, _, value = key.partition(":")
        if kind in ("name", "acronym", "id"):
            out.update(w for w in _tokens(value) if w not in STOPWORDS)
    return out


def message_values(analysis: Analysis, *, names: bool = True) -> frozenset[str]:
    """Every value a message states, in one set: value facts (times, dates, amounts, numbers,
    states, read in one format whatever the wording: "2:05 pm" and "14:05" are one time), days
    named by word, and (with ``names``) the words of its names and its capitalised words."""
    values = {k for k in analysis.facts if not k.startswith(_SUBJECT)}
    values.update("day:" + d for d in _days(analysis.text))
    if names:
        values.update("word:" + w for w in _name_tokens(analysis))
    return frozenset(values)


def named_items(analysis: Analysis) -> frozenset[str]:
    """The items a message names: the words of its names and capitalised words, and the rare
    words it uses (not in the act tagger's vocabulary: "camry", "rogue", "lisinopril")."""
    return _name_tokens(analysis) | frozenset(_rare(set(_tokens(analysis.text))))


@dataclass(frozen=True, slots=True)
class _Side:
    """What the features read of one message alone, computed once per message (not per pair)."""

    values: frozenset[str]
    """Value facts (not subjects)."""
    weight: float
    """:func:`_weighted` of ``values``."""
    subjects: frozenset[str]
    acts: frozenset[str]
    caps: frozenset[str]
    days: frozenset[str]
    all_values: frozenset[str]
    """:func:`message_values`."""
    asks: bool
    """A question mark near its end."""
    says_repeat: bool
    as_later: tuple[float, ...]
    """The act features of the message as the later one (``later_confirm`` to ``later_count``)."""
    as_earlier: tuple[float, ...]
    """The act features of the message as the earlier one (``earlier_offer`` to
    ``earlier_confirm``)."""


def _flag(value: object) -> float:
    return 1.0 if value else 0.0


_SIDES: dict[int, tuple[Analysis, _Side]] = {}
_SIDES_SIZE = 65_536


def _side(analysis: Analysis) -> _Side:
    """:class:`_Side` of ``analysis``, cached by identity (the cache holds the analysis, so its id
    is not reused while the entry lives)."""
    known = _SIDES.get(id(analysis))
    if known is not None and known[0] is analysis:
        return known[1]
    text = analysis.text
    facts = analysis.facts
    values = frozenset(k for k in facts if not k.startswith(_SUBJECT))
    acts = analysis_acts(analysis)
    flags = _ACT_FLAGS.get(acts)
    if flags is None:
        flags = _ACT_FLAGS[acts] = _act_flags(acts)
    caps = _capitalised(text)
    days = _days(text)
    # message_values(analysis), from the parts made here: the same steps, so the same set (its
    # elements added in the same order: the same iteration order too).
    all_values = {k for k in facts if not k.startswith(_SUBJECT)}
    all_values.update("day:" + d for d in days)
    all_values.update("word:" + w for w in frozenset(_name_words(analysis, caps)))
    side = _new_side(
        values,
        _weighted(values),
        frozenset(k for k in facts if k.startswith(_SUBJECT)),
        acts,
        caps,
        days,
        frozenset(all_values),
        "?" in text[-200:],
        _says_repeat(text),
        *flags,
    )
    if len(_SIDES) >= _SIDES_SIZE:
        _SIDES.clear()
    _SIDES[id(analysis)] = (analysis, side)
    return side


@slot_maker(_Side)
def _new_side(
    values: frozenset[str],
    weight: float,
    subjects: frozenset[str],
    acts: frozenset[str],
    caps: frozenset[str],
    days: frozenset[str],
    all_values: frozenset[str],
    asks: bool,
    says_repeat: bool,
    as_later: tuple[float, ...],
    as_earlier: tuple[float, ...],
) -> _Side:
    """``_Side(values, weight, ...)`` (every field, in order), the same object, each field set
    through its slot rather than by the frozen dataclass's ``__init__`` (which sets each through
    ``object.__setattr__``, about 1.6 times the cost; ``tests/detect/test_side.py``);
    :func:`~harness.text._records.slot_maker`."""
    return _Side(
        values,
        weight,
        subjects,
        acts,
        caps,
        days,
        all_values,
        asks,
        says_repeat,
        as_later,
        as_earlier,
    )


def _act_flags(acts: frozenset[str]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """:attr:`_Side.as_later` and :attr:`_Side.as_earlier` of a message's acts."""
    return (
        (
            _flag("CONFIRM" in acts),
            _flag("OFFER" in acts),
            _flag(acts & {"NOTIFY_SUCCESS", "NOTIFY_FAILURE"}),
            _flag("REQUEST" in acts),
            _flag(acts & {"REQ_MORE", "GOODBYE"}),
            _flag("INFORM_COUNT" in acts),
        ),
        (_flag("OFFER" in acts), _flag("REQUEST" in acts), _flag("CONFIRM" in acts)),
    )


_ACT_FLAGS: dict[frozenset[str], tuple[tuple[float, ...], tuple[float, ...]]] = {}
""":func:`_act_flags` of each set of acts met (a few dozen sets)."""


_Wording = tuple[float, float, float, int]
_UNSEEN: _Wording = (0.0, 0.0, 0.0, 0)
"""Placeholder wording for :func:`feature_bounds` (its slots are widened afterwards)."""
_SAME: _Wording = (1.0, 0.0, 0.0, 0)


def pair_features(
    earlier: Analysis,
    later: Analysis,
    found: Restatement | None,
    context: PairContext,
    users: Sequence[UserLike],
    first: UserLike | None,
) -> list[float]:
    """The features of one candidate pair, in the order of :data:`FEATURES`."""
    exact = bool(earlier.norm) and earlier.norm == later.norm
    wording = _SAME if exact else _wording(earlier.text, later.text)
    return _pair_features(earlier, later, found, context, users, first, wording)


def _pair_features(
    earlier: Analysis,
    later: Analysis,
    found: Restatement | None,
    context: PairContext,
    users: Sequence[UserLike],
    first: UserLike | None,
    wording: _Wording,
) -> list[float]:
    """:func:`pair_features` with the word-sequence comparison (:func:`_wording`) given."""
    features = _own_features(earlier, later, found, context, users, wording)
    _add_user_features(features, earlier, later, found, users, first)
    return features


def _own_features(
    earlier: Analysis,
    later: Analysis,
    found: Restatement | None,
    context: PairContext,
    users: Sequence[UserLike],
    wording: _Wording,
) -> list[float]:
    """The features of :func:`_pair_features` but those of :data:`_USER_PAIR_FEATURES` (left
    0.0: :func:`_add_user_features` sets them). Every candidate pair's bound computes these, so
    what depends on one message alone is read from :class:`_Side`."""
    es, ls = _side(earlier), _side(later)
    if found is None:
        rules = _NO_RULES
    else:
        method = found.method
        border = found.score == 0.0 and found.earlier_cover == 0.0
        rules = (
            _flag(method == "near"),
            _flag(method == "semantic" and not border),
            _flag(method == "containment"),
            _flag(border),
            found.score,
            found.earlier_cover,
            found.later_cover,
        )
    e_values, l_values = es.values, ls.values
    shared_values = e_values & l_values
    shared_weight = _weighted(shared_values) if shared_values else 0
    # The weights of the values only one side states: a message's own total less the shared
    # values' (sums of halves and ones, so exact).
    e_only = len(e_values) > len(shared_values)
    l_only = len(l_values) > len(shared_values)
    e_only_weight = es.weight - shared_weight if e_only else 0
    l_only_weight = ls.weight - shared_weight if l_only else 0
    if e_only and l_only:
        kinds = len(
            {k.partition(":")[0] for k in e_values - l_values}
            & {k.partition(":")[0] for k in l_values - e_values}
        )
        states = any(k.startswith("state:") for k in e_values - l_values) or any(
            k.startswith("state:") for k in l_values - e_values
        )
    else:
        kinds = 0
        states = e_only and any(k.startswith("state:") for k in e_values - l_values)
        states = states or (l_only and any(k.startswith("state:") for k in l_values - e_values))
    e_subjects, l_subjects = es.subjects, ls.subjects
    subjects_shared = e_subjects & l_subjects
    ratio, small, rare, swapped = wording
    ew, lw = earlier.words, later.words
    shared_words = len(ew & lw) if ew and lw else 0
    dice = 2 * shared_words / (len(ew) + len(lw)) if ew and lw else 0.0
    words_e, words_l = len(ew) + len(earlier.facts), len(lw) + len(later.facts)
    caps_e, caps_l = es.caps, ls.caps
    days_e, days_l = es.days, ls.days
    values_e, values_l = es.all_values, ls.all_values
    values_both = len(values_e & values_l) if values_e and values_l else 0
    ea, la = es.acts, ls.acts
    acts_union = ea | la
    return [
        _flag(earlier.norm and earlier.norm == later.norm),
        *rules,
        min(shared_weight, 4.0),
        min(e_only_weight + swapped, 3.0),
        min(l_only_weight + swapped, 3.0),
        float(min(kinds + swapped, 2)),
        shared_weight / (es.weight or 1.0),
        _flag(states),
        float(min(len(subjects_shared), 3)),
        _flag(e_subjects - l_subjects and l_subjects - e_subjects),
        _flag(subjects_shared and not shared_values and dice < 0.6),
        dice,
        ratio,
        small,
        rare,
        _flag(min(words_e, words_l) <= 4),
        min(words_e, words_l) / max(words_e, words_l, 1),
        _flag(context.same_turn),
        math.log1p(context.turns_apart),
        _flag(context.different_requests),
        *ls.as_later,
        *es.as_earlier,
        _flag(any(u.reask for u in users)),
        0.0,  # reask_on_topic
        0.0,  # topic_overlap
        0.0,  # asked_fact
        0.0,  # same_question
        0.0,  # later_confirms_choice
        float(min(max((len(u.words) + len(u.facts) for u in users), default=0), 5)),
        0.0,  # later_from_user
        _flag(es.asks),
        _flag(ls.says_repeat),
        _flag(context.same_request_again),
        float(min(len(caps_e - caps_l), len(caps_l - caps_e), 3)),
        _flag(days_e and days_l and days_e.isdisjoint(days_l)),
        len(ea & la) / len(acts_union) if acts_union else 0.0,
        _flag("CONFIRM" in ea and "CONFIRM" in la),
        shared_words / min(len(ew), len(lw)) if ew and lw else 0.0,
        values_both / min(len(values_e), len(values_l)) if values_e and values_l else 0.0,
        values_both / len(values_e | values_l) if values_e or values_l else 0.0,
        0.0,  # restated_aside
    ]


_NO_RULES = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""The rules' features without a restatement."""


_USER_PAIR_FEATURES = (
    "reask_on_topic",
    "topic_overlap",
    "asked_fact",
    "same_question",
    "later_confirms_choice",
    "later_from_user",
)
"""Features of what the user said in between that also read the two messages (or, for
``same_question``, the user's message before the earlier one): the costliest to compute, and the
pair bound's second stage (:func:`add_user_bounds`)."""
_REASK_ON_TOPIC, _TOPIC_OVERLAP, _ASKED_FACT, _SAME_QUESTION, _CONFIRMS_CHOICE, _FROM_USER = (
    FEATURES.index(f) for f in _USER_PAIR_FEATURES
)
_ASIDE = FEATURES.index("restated_aside")


def _add_user_features(
    features: list[float],
    earlier: Analysis,
    later: Analysis,
    found: Restatement | None,
    users: Sequence[UserLike],
    first: UserLike | None,
) -> None:
    """Set the features of :data:`_USER_PAIR_FEATURES` in ``features``."""
    if not users:
        return  # each is 0.0 without a user message in between
    ef, lf = earlier.facts, later.facts
    ew, lw = earlier.words, later.words
    shared_facts = ef & lf
    restated = set(ew & lw)
    for key in (found.facts if found is not None else frozenset()) | shared_facts:
        restated.update(content_words(key.partition(":")[2]))
    overlap = max((len(u.words & restated) / len(u.words) for u in users if u.words), default=0.0)
    on_topic = any(u.reask and (u.words & restated or u.facts & shared_facts) for u in users)
    asked_fact = any(
        u.question and {k for k in u.facts & shared_facts if not k.startswith("state:")}
        for u in users
    )
    same_question = first is not None and any(
        u.norm == first.norm
        or (u.question and first.words and len(first.words & u.words) * 2 >= len(u.words) >= 2)
        for u in users
    )
    later_new = (lw - ew) | (lf - ef)
    said = frozenset().union(*(u.words | u.facts for u in users))
    chose = any(u.request and (u.words | u.facts) & (lw | lf) for u in users)
    la = _side(later).acts
    confirms_choice = chose and bool(later_new or "CONFIRM" in la or "NOTIFY_SUCCESS" in la)
    features[_REASK_ON_TOPIC] = float(on_topic)
    features[_TOPIC_OVERLAP] = overlap
    features[_ASKED_FACT] = float(asked_fact)
    features[_SAME_QUESTION] = float(same_question)
    features[_CONFIRMS_CHOICE] = float(confirms_choice)
    features[_FROM_USER] = float(min(len(later_new & said), 3))
    if found is not None and found.matches:
        features[_ASIDE] = restated_aside(later, found, users[-1].words | users[-1].facts)


def with_cosine(
    features: list[float],
    earlier: Sequence[float] | None,
    later: Sequence[float] | None,
) -> list[float]:
    """``features`` with the embedding cosine of the two messages appended (the order of
    :data:`SEMANTIC_FEATURES`). The vectors are unit vectors; a message without one (too short to
    embed) gives 0.0."""
    if earlier is None or later is None:
        return [*features, 0.0]
    return [*features, sum(x * y for x, y in zip(earlier, later, strict=True))]
