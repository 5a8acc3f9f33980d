"""Text features for the duplicate detector: normalised text, sentences, content words and facts.

Everything the detector compares is computed once per message here, so that comparing two messages
is a handful of set operations. Facts (numbers, amounts, dates, ids, names, status words, negation)
are what make two look-alike messages different answers: "You have 12 PTO days left" and "You have
used 12 PTO days" share every number but not their status word, and are not duplicates.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial

__all__ = [
    "FEATURES_CACHE_SIZE",
    "BoilerplateIndex",
    "Facts",
    "Sentence",
    "TextFeatures",
    "boilerplate_index",
    "coverage",
    "facts_agree",
    "facts_compatible",
    "facts_conflict",
    "features",
    "jaccard",
    "normalise",
    "split_sentences",
]


def _words(text: str) -> list[str]:
    return text.split()


_STOPWORDS = frozenset(
    _words(
        """
        a about above after again all also am an and any are as at be been before being below
        both but by could did do does doing down during each few for from further had has have
        having he her here hers herself him himself his how i if in into is it its itself just
        let me more most my myself of off on once only or other our ours ourselves out over own
        same she should so some such than that the their theirs them themselves then there these
        they this those through to too under until up very was we were what when where which
        while who whom why will with would you your yours yourself yourselves s t ll ve re d m
        can may might must shall us okay ok sure please hi hello hey thanks thank great good
        news well right now currently
        """
    )
)

_NEGATIONS = frozenset(
    _words(
        """
        not no never none nothing nobody cannot cant wont isnt arent doesnt dont didnt hasnt
        havent hadnt wasnt werent couldnt shouldnt wouldnt aint nor without unable
        """
    )
)

# Canonical status and quantity words. Two messages that share every number but differ in one of
# these state different facts ("12 days left" vs "12 days used", "approved" vs "pending").
_STATES: dict[str, str] = {}
for _canonical, _synonyms in {
    "approved": "approved approve approves accepted granted",
    "denied": "denied deny denies declined decline rejected reject refused",
    "pending": "pending awaiting",
    "submitted": "submitted submit filed",
    "cancelled": "cancelled canceled cancel withdrawn",
    "completed": "completed complete done finished processed",
    "resolved": "resolved closed",
    "open": "open opened reopened",
    "eligible": "eligible qualify qualifies",
    "ineligible": "ineligible",
    "enabled": "enabled enable activated active",
    "disabled": "disabled disable deactivated inactive",
    "locked": "locked",
    "unlocked": "unlocked",
    "expired": "expired expires",
    "paid": "paid",
    "unpaid": "unpaid",
    "remaining": "left remaining remain remains",
    "used": "used taken spent",
    "accrued": "accrued accrue accrues earned accumulated",
    "scheduled": "scheduled booked",
}.items():
    for _word in _synonyms.split():
        _STATES[_word] = _canonical

_WEEKDAYS = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
)
_RELATIVE_DAYS = frozenset(["today", "tomorrow", "yesterday", "tonight", "weekend"])
_MONTHS = {
    "january": "january",
    "february": "february",
    "march": "march",
    "april": "april",
    "may": "may",
    "june": "june",
    "july": "july",
    "august": "august",
    "september": "september",
    "october": "october",
    "november": "november",
    "december": "december",
    "jan": "january",
    "feb": "february",
    "mar": "march",
    "apr": "april",
    "jun": "june",
    "jul": "july",
    "aug": "august",
    "sep": "september",
    "sept": "september",
    "oct": "october",
    "nov": "november",
    "dec": "december",
}
_AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar", "jan", "dec", "sept", "sep"})
_NUMBER_WORDS = {
    "zero": "0",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "hundred": "100",
}
_NOT_NAMES = frozenset(
    {"i", "ok", "am", "pm", "a", "faq", "id", "tl", "dr", "fyi", "asap", "eta"}
    | set(_WEEKDAYS)
    | set(_MONTHS)
)

_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9$€£#*•-])|\s*\n+\s*")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s+")
_CLAUSE = re.compile(r"\s*(?:;|:\s|,\s*(?:and|but|so|plus|while)\s|\s+and also\s|\s+[-–—]\s+)\s*")
_WORD = re.compile(r"[#$€£]?[a-z0-9]+(?:[-'’.,:/][a-z0-9]+)*(?:\([a-z]\))?%?", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_FACT_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)(?:st|nd|rd|th|am|pm|%|-[a-z]+)?$")
_WORD_CHARS = re.compile(r"\w+")
# Where a sentence may end (``_SENTENCE_END`` needs one of these): a much cheaper first test.
_MAY_END = re.compile(r"[.!?…][\"')\]]*\s|\n")
# A character or phrase every ``_CLAUSE`` separator contains.
_MAY_JOIN = re.compile(r"[;:,\-–—]|and also")


def normalise(text: str) -> str:
    """Lower case, Unicode NFKC, punctuation removed, white space collapsed: the ``exact`` key."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("'", "")
    # Punctuation and white space both separate words: the runs of word characters remain.
    return " ".join(_WORD_CHARS.findall(text))


def split_sentences(text: str) -> list[str]:
    """Split a message into sentences (and list items), keeping decimals and abbreviations whole."""
    text = unicodedata.normalize("NFKC", text).strip()
    parts: list[str] = []
    chunks = _SENTENCE_END.split(text) if _MAY_END.search(text) else [text]
    for chunk in chunks:
        chunk = _BULLET.sub("", chunk).strip()
        if chunk and any(ch.isalnum() for ch in chunk):
            parts.append(chunk)
    return parts


def _stem(word: str) -> str:
    """A light suffix stripper: plurals, then -ing / -ed, then a final -e."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def _fact_value(token: str) -> str:
    """Canonical form of a token holding a digit: ``$1,200.00`` → ``1200``, ``13th`` → ``13``."""
    raw = token.lower().replace(",", "").rstrip(".").lstrip("$€£#")
    match = _FACT_NUMBER.match(raw)
    if match:
        value = match.group(1)
        if "." in value:
            value = value.rstrip("0").rstrip(".")
        return value
    if re.fullmatch(r"[\d-]+", raw):
        return raw  # a range or an ISO date: "1-2", "2026-03-13"
    return re.sub(r"[^a-z0-9:/.]", "", raw).strip(".")  # ids: "W-2" -> "w2", "401(k)" -> "401k"


@dataclass(frozen=True, slots=True)
class Facts:
    """The facts a sentence or message states."""

    values: frozenset[str] = frozenset()
    """Numbers, amounts, dates, times, ids, weekdays and months, canonicalised."""
    names: frozenset[str] = frozenset()
    """Capitalised names and acronyms, lower-cased."""
    states: frozenset[str] = frozenset()
    """Canonical status words (``approved``, ``remaining``, ...) and ``not`` for negation."""
    ids: frozenset[str] = field(init=False, repr=False, compare=False)
    """Values and names together."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", self.values | self.names)

    def __or__(self, other: Facts) -> Facts:
        return Facts(
            values=self.values | other.values,
            names=self.names | other.names,
            states=self.states | other.states,
        )

    @property
    def empty(self) -> bool:
        return not (self.values or self.names or self.states)

    def describe(self) -> str:
        """A short human-readable list of the facts, for evidence strings."""
        items = sorted(self.values) + sorted(self.names) + sorted(self.states)
        return ", ".join(items) if items else "none"


def facts_agree(a: Facts, b: Facts) -> bool:
    """True when two messages do not state different facts (the rule for whole-message and
    same-size sentence comparisons).

    They differ when each states a value or name the other does not ("12 days" vs "11 days",
    "HSA" vs "FSA"), when each has a status word the other lacks ("approved" vs "pending"), or
    when only one is negated. One side adding a fact ("... for 2026") is a rewording.
    """
    if ("not" in a.states) != ("not" in b.states):
        return False
    return not facts_conflict(a, b)


def facts_conflict(a: Facts, b: Facts) -> bool:
    """True when each side states a value, name or status the other does not: two statements
    about different things, even if a clause of each reads the same."""
    a_ids, b_ids = a.ids, b.ids
    if a_ids != b_ids and not (a_ids <= b_ids or b_ids <= a_ids):
        return True
    a_states, b_states = a.states, b.states
    return a_states != b_states and not (a_states <= b_states or b_states <= a_states)


def facts_compatible(part: Facts, whole: Facts) -> bool:
    """True when ``whole`` states every fact of ``part`` (the rule for containment): every value,
    name and status word of the part, and the same negation."""
    if not part.values <= whole.values:
        return False
    if not part.states <= whole.states or ("not" in part.states) != ("not" in whole.states):
        return False
    return part.names <= whole.names


# What a plain lower-case word is, looked up once: (kind, canonical form).
_LEXICON: dict[str, tuple[str, str]] = {}
for _word in _STOPWORDS:
    _LEXICON[_word] = ("stop", _word)
for _word, _state in _STATES.items():
    _LEXICON[_word] = ("state", _state)
for _word in _WEEKDAYS | _RELATIVE_DAYS:
    _LEXICON[_word] = ("value", _word)
for _word, _number in _NUMBER_WORDS.items():
    _LEXICON[_word] = ("value", _number)
for _word in _NEGATIONS:
    _LEXICON[_word] = ("not", "not")


_Effect = tuple[str | None, str | None, str | None, str | None]
"""What one word adds to a sentence: (value, status, name, content token); None for nothing."""
_NOTHING: _Effect = (None, None, None, None)


def _word_effect(raw: str, at_start: bool) -> _Effect:
    """What the word ``raw`` (first in its sentence or not) adds to the sentence's features."""
    if raw.isalpha():
        lower = raw.lower()
    elif _DIGIT.search(raw):
        value = _fact_value(raw)
        return (value, None, None, value) if value else _NOTHING
    else:
        lower = raw.lower()
        if "'" in lower:
            lower, _, clitic = lower.partition("'")
            if clitic == "t":
                return (None, "not", None, None)
    month = lower in _MONTHS and raw[0].isupper()
    if month and not (lower in _AMBIGUOUS_MONTHS and at_start):
        return (_MONTHS[lower], None, None, _MONTHS[lower])
    known = _LEXICON.get(lower)
    if known is not None:
        kind, canonical = known
        if kind == "stop":
            return _NOTHING
        if kind == "not":
            return (None, "not", None, None)
        if kind == "state":
            return (None, canonical, None, canonical)
        return (canonical, None, None, canonical)
    word = lower.strip("#$€£%.")
    if not word or word in _STOPWORDS:
        return _NOTHING
    acronym = raw.isupper() and len(raw) >= 2
    name = raw[0].isupper() and word not in _NOT_NAMES and (acronym or not at_start)
    return (None, None, word if name else None, _stem(word))


_EFFECTS: tuple[dict[str, _Effect], dict[str, _Effect]] = ({}, {})
"""Word effects seen before, for words inside a sentence and for first words (a vocabulary, so
small; emptied when it grows past ``_EFFECTS_SIZE`` from numbers and ids)."""
_EFFECTS_SIZE = 50_000


@lru_cache(maxsize=65_536)
def _extract(sentence: str) -> tuple[frozenset[str], Facts]:
    """Content-word stems and facts of one sentence."""
    tokens: set[str] = set()
    values: set[str] = set()
    names: set[str] = set()
    states: set[str] = set()
    inside, first = _EFFECTS
    effects = first
    for raw in _WORD.findall(sentence.replace("’", "'")):
        effect = effects.get(raw)
        if effect is None:
            if len(effects) >= _EFFECTS_SIZE:
                effects.clear()
            effect = effects[raw] = _word_effect(raw, effects is first)
        effects = inside
        if effect is _NOTHING:
            continue
        value, state, name, token = effect
        if value is not None:
            values.add(value)
        if state is not None:
            states.add(state)
        if name is not None:
            names.add(name)
        if token is not None:
            tokens.add(token)
    return frozenset(tokens), Facts(
        values=frozenset(values), names=frozenset(names), states=frozenset(states)
    )


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence (or a clause of one) and what it says."""

    text: str
    norm: str
    """Normalised text (the exact key); empty for a clause."""
    tokens: frozenset[str]
    facts: Facts
    boilerplate: bool = False
    """A closer or another phrase from the boilerplate list."""
    holding: bool = False
    """A holding message ("Let me check that") with no facts."""
    clauses: tuple[Sentence, ...] = ()
    """Its clauses, when it joins several ("..., and ...", "...; ...")."""
    whole: Facts | None = None
    """For a clause, the facts of the whole sentence it belongs to."""

    @property
    def sentence_facts(self) -> Facts:
        return self.whole if self.whole is not None else self.facts


@dataclass(frozen=True, slots=True)
class TextFeatures:
    """Everything the detector needs to know about one message's text."""

    sentences: tuple[Sentence, ...]
    """Content sentences: neither boilerplate nor holding phrases."""
    units: tuple[Sentence, ...]
    """Content sentences and their clauses, the units a restated sentence is matched against."""
    boilerplate: tuple[Sentence, ...]
    """Boilerplate sentences (closers), compared only within a turn."""
    holding: bool
    """The whole message is a holding message."""
    key: str
    """Normalised content text (boilerplate removed): the ``exact`` key; empty when no content."""
    tokens: frozenset[str]
    facts: Facts
    weight: int
    """The number of content tokens; short messages are compared only exactly."""


_HOLDING = re.compile(
    r"^(?:ok(?:ay)?[,!. ]+|sure[,!. ]+|got it[,!. ]+|alright[,!. ]+)?"
    r"(?:let me (?:check|look|see|find|pull|get|verify|confirm|take a look|look into|ask|route|"
    r"connect|hand|transfer|bring)|one (?:moment|sec(?:ond)?)|just a (?:moment|sec(?:ond)?|minute)|"
    r"give me (?:a|one) (?:moment|sec(?:ond)?|minute)|hold on|bear with me|please (?:wait|hold)|"
    r"i(?:'| wi)ll (?:check|look|find|see|get|pull|ask|connect|hand|route|transfer|verify)|"
    r"i am (?:checking|looking)|i'm (?:checking|looking)|checking|looking (?:into|up|that)|"
    r"working on (?:it|that)|on it)\b",
    re.IGNORECASE,
)


def _is_holding(text: str, norm: str, facts: Facts) -> bool:
    return bool(_HOLDING.match(text.strip())) and len(norm.split()) <= 14 and not facts.values


FEATURES_CACHE_SIZE = 16_384
"""How many texts' features each :class:`BoilerplateIndex` keeps (least recently used first out)."""


class BoilerplateIndex:
    """Matches sentences against the configured boilerplate phrases (closers, sign-offs), and
    caches the features of texts seen before (closers and relayed answers recur).

    :func:`boilerplate_index` gives the shared index of a phrase list, so the cache lives across
    conversations (the simulator checks thousands of them with the same config).
    """

    __slots__ = ("_features", "_keys", "_sentences", "_tokens", "_vocabulary")

    def __init__(self, phrases: Sequence[str]) -> None:
        self._keys = frozenset(normalise(p) for p in phrases)
        self._tokens = [t for t in (_extract(p)[0] for p in phrases) if t]
        self._vocabulary: frozenset[str] = frozenset().union(*self._tokens)
        self._features: Callable[[str], TextFeatures] = lru_cache(maxsize=FEATURES_CACHE_SIZE)(
            partial(_features, boilerplate=self)
        )
        self._sentences: Callable[[str], tuple[int, Sentence] | None] = lru_cache(
            maxsize=2 * FEATURES_CACHE_SIZE
        )(partial(_sentence, boilerplate=self))

    def matches(self, norm: str, tokens: frozenset[str], facts: Facts) -> bool:
        if norm in self._keys:
            return True
        if facts.values or not tokens or len(tokens) > 12 or tokens.isdisjoint(self._vocabulary):
            return False
        return any(len(tokens & phrase) / len(tokens | phrase) >= 0.6 for phrase in self._tokens)


@lru_cache(maxsize=32)
def boilerplate_index(phrases: tuple[str, ...]) -> BoilerplateIndex:
    """The shared :class:`BoilerplateIndex` of a phrase list (a config's ``boilerplate``)."""
    return BoilerplateIndex(phrases)


def _clauses(sentence: str) -> list[str]:
    if not _MAY_JOIN.search(sentence):
        return []
    parts = [p for p in _CLAUSE.split(sentence) if p and any(ch.isalnum() for ch in p)]
    return parts if len(parts) > 1 else []


def features(text: str, boilerplate: BoilerplateIndex) -> TextFeatures:
    """The comparable features of a message's text (cached per boilerplate index)."""
    return boilerplate._features(text)


_CLOSER, _HOLDING_SENTENCE, _CONTENT = 0, 1, 2
"""What a sentence is to its message: a boilerplate closer, a holding phrase, or content."""


def _sentence(raw: str, boilerplate: BoilerplateIndex) -> tuple[int, Sentence] | None:
    """One sentence's role and features (None when it has no words); cached per index, since
    relays and closers repeat sentences of other messages."""
    norm = normalise(raw)
    if not norm:
        return None
    tokens, facts = _extract(raw)
    holding = _is_holding(raw, norm, facts)
    if boilerplate.matches(norm, tokens, facts):
        return _CLOSER, Sentence(raw, norm, tokens, facts, boilerplate=True)
    if holding:
        return _HOLDING_SENTENCE, Sentence(raw, norm, tokens, facts, holding=True)
    clauses = []
    for clause in _clauses(raw):
        clause_tokens, clause_facts = _extract(clause)
        clauses.append(Sentence(clause, "", clause_tokens, clause_facts, whole=facts))
    return _CONTENT, Sentence(raw, norm, tokens, facts, clauses=tuple(clauses))


def _features(text: str, boilerplate: BoilerplateIndex) -> TextFeatures:
    content: list[Sentence] = []
    units: list[Sentence] = []
    closers: list[Sentence] = []
    raw_sentences = split_sentences(text)
    all_holding = bool(raw_sentences)
    sentence_of = boilerplate._sentences
    for raw in raw_sentences:
        found = sentence_of(raw)
        if found is None:
            continue
        role, sentence = found
        if role == _CLOSER:
            closers.append(sentence)
            continue
        if role == _HOLDING_SENTENCE:
            continue
        all_holding = False
        content.append(sentence)
        units.append(sentence)
        units.extend(sentence.clauses)
    holding_message = all_holding and not content and len(closers) < len(raw_sentences)
    tokens_all: frozenset[str] = frozenset().union(*(s.tokens for s in content))
    if len(content) == 1:
        facts_all = content[0].facts
    else:
        facts_all = Facts(
            values=frozenset().union(*(s.facts.values for s in content)),
            names=frozenset().union(*(s.facts.names for s in content)),
            states=frozenset().union(*(s.facts.states for s in content)),
        )
    return TextFeatures(
        sentences=tuple(content),
        units=tuple(units),
        boilerplate=tuple(closers),
        holding=holding_message,
        key=" ".join(s.norm for s in content),
        tokens=tokens_all,
        facts=facts_all,
        weight=len(tokens_all),
    )


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard similarity of two token sets (0 when both are empty)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def coverage(part: frozenset[str], whole: frozenset[str]) -> float:
    """The share of ``part``'s tokens that ``whole`` also has."""
    if not part:
        return 0.0
    return len(part & whole) / len(part)
