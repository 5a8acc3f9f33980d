"""Typed facts in a text: money, numbers, dates, weekdays, times, durations, ids, e-mails, names.

Facts are what make two look-alike messages different answers ("$1,250 due March 3" is not "$980
due April 3"), and what survive a rewording ("Sun, Feb 15" is "Sunday, February 15"). Each fact has
a kind and a canonical value, so that a paraphrase's facts compare equal and a template's different
facts do not.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from harness.text._records import slot_maker
from harness.text.words import STOPWORDS

__all__ = ["DATE_WORDS", "STRONG_KINDS", "WINDOW", "Fact", "extract_facts"]


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact, as found at ``text[start:end]``."""

    kind: str
    """``money``, ``percent``, ``time``, ``date``, ``weekday``, ``month``, ``year``, ``duration``,
    ``number``, ``id``, ``email``, ``url``, ``state`` (a status word) or ``name``."""
    value: str
    """The canonical value: ``18906.11``, ``02-15``, ``07:42``, ``2 hour``, ``eb57102``."""
    start: int
    end: int

    @property
    def key(self) -> str:
        """``kind:value``; numbers of every kind compare by value alone (``num:12``)."""
        if self.kind in _NUMERIC:
            return "num:" + self.value
        return f"{self.kind}:{self.value}"


@slot_maker(Fact)
def _fact(kind: str, value: str, start: int, end: int) -> Fact:
    """``Fact(kind, value, start, end)``, the same object, each field set through its slot (see
    :func:`harness.text._split._span`: 100,000 messages hold some 270,000 facts)."""
    return Fact(kind, value, start, end)


# Canonical status words: two messages that share every number but not their status ("12 days
# left" / "12 days used", "approved" / "pending") state different facts.
_STATES: dict[str, str] = {}
for _canonical, _synonyms in {
    "approved": "approved approve approves accepted granted",
    "denied": "denied deny denies declined decline rejected reject refused",
    "pending": "pending awaiting",
    "cancelled": "cancelled canceled withdrawn",
    "eligible": "eligible qualify qualifies",
    "ineligible": "ineligible",
    "enabled": "enabled activated active",
    "disabled": "disabled deactivated inactive",
    "locked": "locked",
    "unlocked": "unlocked",
    "expired": "expired",
    "paid": "paid",
    "unpaid": "unpaid overdue",
    "remaining": "left remaining remain remains",
    "used": "used taken spent",
    "accrued": "accrued accrue accrues earned accumulated",
    "open": "open opened reopened",
    "closed": "closed resolved",
}.items():
    for _word in _synonyms.split():
        _STATES[_word] = _canonical
_STATE_RE = re.compile(
    r"\b(?:" + "|".join(sorted(_STATES, key=len, reverse=True)) + r")\b", re.IGNORECASE
)

STRONG_KINDS = frozenset(
    {"money", "percent", "time", "date", "duration", "number", "id", "email", "url", "year"}
)
"""Kinds specific enough that sharing one is evidence two statements are about the same thing."""
_NUMERIC = frozenset({"money", "number", "percent"})

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1,
    "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}  # fmt: skip
_WEEKDAYS = {
    "monday": "monday", "tuesday": "tuesday", "wednesday": "wednesday", "thursday": "thursday",
    "friday": "friday", "saturday": "saturday", "sunday": "sunday", "mon": "monday",
    "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
    "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
}  # fmt: skip
DATE_WORDS = frozenset({*_MONTHS, *_WEEKDAYS.values()})
"""Month names with their abbreviations ("sept") and full weekday names: words that name a date."""
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty-five": 45, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90,
    "half an": 0.5, "half a": 0.5,
}  # fmt: skip
_UNITS = {
    "second": "second", "sec": "second", "minute": "minute", "min": "minute", "hour": "hour",
    "hr": "hour", "day": "day", "business day": "day", "working day": "day", "night": "night",
    "week": "week", "month": "month", "year": "year", "yr": "year",
}  # fmt: skip

_MONTH_RE = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_NUM = r"\d[\d,]*(?:\.\d+)?"
_NUMBER_WORD_RE = "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
_UNIT_RE = r"(?:business days?|working days?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|yrs?)"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")),
    # A URL ends before the punctuation that follows it ("see www.example.com." is the URL
    # www.example.com), and before a quote of either shape, a guillemet or a possessive
    # ("“www.example.com”", "www.example.com’s help page").
    (
        "url",
        re.compile(
            r"\b(?:https?://|www\.)[^\s<>\"')\]‘’“”«»‹›]*[^\s<>\"')\](‘’“”«»‹›.,:;!?*…—–]",
            re.IGNORECASE,
        ),
    ),
    (
        "money",
        re.compile(
            rf"(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|AUD|CAD|NZD)\s?)\s?({_NUM})(?:\s?(k|m|bn|million|billion)\b)?"
            rf"|\b({_NUM})\s?(?:USD|EUR|GBP|CHF|dollars?|euros?|pounds?|cents?)\b",
            re.IGNORECASE,
        ),
    ),
    ("percent", re.compile(rf"\b({_NUM})\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)),
    (
        "time",
        re.compile(
            r"\b(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?|\b(\d{1,2}):(\d{2})\b|\b(noon|midnight)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "date",
        re.compile(
            rf"\b(\d{{4}})-(\d{{2}})-(\d{{2}})\b"
            rf"|\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!:\d)(?:,?\s+(\d{{4}})\b)?"
            rf"|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b\.?(?:,?\s+(\d{{4}})\b)?",
            re.IGNORECASE,
        ),
    ),
    (
        "duration",
        re.compile(
            rf"\b({_NUM}|{_NUMBER_WORD_RE})(?:\s?[-–]\s?({_NUM})|\s+to\s+({_NUM}|{_NUMBER_WORD_RE}))?"
            rf"[\s-]+({_UNIT_RE})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "id",
        re.compile(
            r"(?<![\w$€£])(?<!\d,)(?<!\d\.)#?(?=[\w…./-]*\d)(?=[\w…./-]*[A-Za-z])[A-Za-z0-9][\w…./-]*[A-Za-z0-9]"
            r"|#\d{3,}\b"
            r"|(?<![\w$€£.,])\d{2,}(?:-\d{2,})+(?![\w%])"
            # A phone number written in digit groups ("+44 333 400 6116", "1 71 19 33 33",
            # "(650) 341-6888"): one id when it has seven digits or more (``_id``).
            r"|(?<![\w$€£.,])\d{1,4}(?:[ -]\d{1,6}){2,5}(?![\w%]|[.,]\d)"
            r"|(?<=\()\d{3}\) ?\d{3}[- ]\d{4}(?![\w%]|[.,]\d)"
            r"|(?<=…)\w*\d\w*"
        ),
    ),
    ("weekday", re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?", re.IGNORECASE)),
    ("month", re.compile(rf"\b{_MONTH_RE}\b", re.IGNORECASE)),
    ("year", re.compile(r"\b(?:19|20)\d{2}\b")),
    ("state", _STATE_RE),
    ("number", re.compile(rf"(?<![\w.]){_NUM}(?![\w])")),
]

_Trie = dict[str, "_Trie"]


def _one_of(words: Iterable[str]) -> str:
    """A pattern that matches exactly ``words`` (no more, no less; none: nothing), as a trie: at a
    position where none of them starts it fails on the first character or two, where a flat
    alternation tries every word."""
    trie: _Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: _Trie) -> str:
        ways = [re.escape(char) + branch(rest) for char, rest in sorted(node.items()) if char]
        if not ways:
            return ""
        if "" in node:
            return "(?:" + "|".join(ways) + ")?"
        return ways[0] if len(ways) == 1 else "(?:" + "|".join(ways) + ")"

    return branch(trie) if trie else "(?!)"


_CURRENCY_CODES = ("usd", "eur", "gbp", "chf", "aud", "cad", "nzd")
_URL_STARTS = ("http", "https", "www")
_WORD_AT = re.compile(r"[\w'’-]+")
_VOCABULARY = frozenset(
    [
        *_MONTHS,
        *_WEEKDAYS,
        *_STATES,
        *_NUMBER_WORDS,
        "half",
        "noon",
        "midnight",
        *_CURRENCY_CODES,
        *_URL_STARTS,
    ]
)
# Where the scan of ``extract_facts`` looks for a fact: at a symbol, or where a word starts, but
# not at two kinds of plain word that can start no fact, so that most words of a sentence cost no
# step in Python. Both are ASCII letters only, under 64 characters, ending before anything that
# could continue a fact:
# - a word starting lower case and not a word of the vocabulary (the scan's own rule), ending
#   before a word character, an apostrophe, a hyphen or the rest of an e-mail address
#   (``_CONTINUES``: "help@example.com"; "www", "http" and "https" are words of the vocabulary);
# - a capitalised word ending before none of a word character, an apostrophe, ``.@+…/:-``, that
#   is no word of the vocabulary in any case and does not start like a weekday: every pattern
#   needs a digit, a symbol, one of those words or such a continuation.
# The vocabulary is a trie (``_one_of``): each use is followed by a word's end, which only the
# whole word can reach, so the order in which the trie tries words changes no match.
_VOCABULARY_WORD = _one_of(w for w in _VOCABULARY if w.isalpha() and w.isascii())
_PLAIN_END = r"(?![\w'’.@+…/:-])"
_CONTINUES = r"[\w.+-]{0,64}@\w"
"""What continues a lower-case word into an e-mail address ("help@", "first.last@")."""
_CONTINUED = re.compile(_CONTINUES)
_FACT_STARTS = re.compile(
    r"[$€£¥₹#…]|(?<!\w)"
    rf"(?!(?!(?:{_VOCABULARY_WORD})(?![\w'’-]))[a-z][a-zA-Z]{{0,62}}(?![\w'’-]|{_CONTINUES}))"
    rf"(?!(?!(?i:{_VOCABULARY_WORD}){_PLAIN_END})(?!(?i:mon|tue|wed|thu|fri|sat|sun))"
    rf"[A-Z][a-zA-Z]{{0,62}}{_PLAIN_END})"
    r"\w"
)
_KINDS = [kind for kind, _ in _PATTERNS]
_BY_KIND = dict(_PATTERNS)
_COMBINED = re.compile(
    "|".join(
        f"(?P<{kind}>(?{'i' if pattern.flags & re.IGNORECASE else ''}:{pattern.pattern}))"
        if pattern.flags & re.IGNORECASE
        else f"(?P<{kind}>{pattern.pattern})"
        for kind, pattern in _PATTERNS
    )
)
_ORDINAL_OR_UNIT = re.compile(
    r"^\d+(?:\.\d+)?(?:st|nd|rd|th|x|k|gb|mb|tb|kb|km|kg|mi|lb|lbs|ml|cm|mm|m|g|h)$"
)
_LIST_NUMBER = re.compile(r"(?m)^[ \t]*\d{1,3}[.)](?=\s)")
_NUMBER_UNIT = re.compile(r"\d+(?:\.\d+)?-[a-z]+")
_INITIAL = re.compile(r"(?:\b[A-Z]|\b(?:Dr|Mr|Mrs|Ms|St|Mt|Jr|Sr))\.$")
# One way to read each run of white space (no ``\s+...\s*`` pair): linear in a long run of spaces.
# The first capital is not after a word character (``\b[A-Z]``, checked after it: a pattern that
# starts with a character class is skipped to in C).
_NAME = re.compile(
    r"[A-Z](?<!\w[A-Z])[\w'’&.-]*+(?:\s++(?:(?:of|de|la|von|van|the|&)\s*+)?[A-Z][\w'’&.-]*+)*+"
)
_NAME_END = re.compile(r"[.!?](?=\s)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;•\n]\s*|^\s*[-*•]\s+|[\"“(]\s*)$")


def _number(raw: str) -> str:
    value = raw.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value or "0"


def _money(match: re.Match[str]) -> str | None:
    raw = match.group(1) or match.group(3)
    if raw is None:
        return None
    value = float(raw.replace(",", ""))
    scale = (match.group(2) or "").lower()
    if scale in ("k",):
        value *= 1_000
    elif scale in ("m", "million"):
        value *= 1_000_000
    elif scale in ("bn", "billion"):
        value *= 1_000_000_000
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    if "cent" in match.group(0).lower() and match.group(3):
        text = f"{value / 100:.2f}".rstrip("0").rstrip(".")
    return text


def _time(match: re.Match[str]) -> str:
    if match.group(6):
        return "12:00" if match.group(6).lower() == "noon" else "00:00"
    if match.group(4):
        return f"{int(match.group(4)):02d}:{match.group(5)}"
    hour = int(match.group(1)) % 12
    if match.group(3).lower() == "p":
        hour += 12
    return f"{hour:02d}:{match.group(2) or '00'}"


def _date(match: re.Match[str]) -> str | None:
    if match.group(1):
        return f"{match.group(2)}-{match.group(3)}"
    if match.group(4):
        month, day = _MONTHS.get(match.group(4).lower().rstrip(".")), int(match.group(5))
    else:
        month, day = _MONTHS.get(match.group(8).lower().rstrip(".")), int(match.group(7))
    if month is None or not 1 <= day <= 31:
        return None
    return f"{month:02d}-{day:02d}"


def _duration(match: re.Match[str]) -> str | None:
    amount = match.group(1).lower()
    number: float | str = _NUMBER_WORDS.get(amount, 0) or _number(amount)
    unit_raw = match.group(4).lower()
    unit = next((u for k, u in _UNITS.items() if unit_raw.startswith(k)), unit_raw)
    top = match.group(2) or match.group(3)  # "3-5 days", "three to five days": one range
    upper = f"-{_NUMBER_WORDS.get(top.lower(), 0) or _number(top)}" if top else ""
    if isinstance(number, float):
        number = f"{number:g}"
    return f"{number}{upper} {unit}"


# Digit groups apart ("1 71 19 33 33", "650) 341-6888") are one id only as a phone number: as
# long as one (the shortest national numbers have seven digits), and written as one (after "+",
# in an area code's brackets, or after a word for a phone within the sentence: a closed class).
# Otherwise they stay numbers ("rooms 101 102 103 104 105 106 107", "on 12 05 2024").
_DIGIT_GROUPS = re.compile(r"[\d ()-]+")
_HYPHENATED = re.compile(r"\d{2,}(?:-\d{2,})+")
_PHONE_DIGITS = 7
_PHONE_CUE = re.compile(
    r"\b(?:call|calling|phone|telephone|tel|dial|fax|mobile|cell|contact|reach|number|ring|"
    r"text)\b[^.!?\n]{0,30}$",
    re.IGNORECASE,
)


def _phone(raw: str, text: str, start: int) -> str | None:
    """The digits of digit groups written as a phone number (see ``_PHONE_CUE``), else None."""
    digits = re.sub(r"\D", "", raw)
    if len(digits) < _PHONE_DIGITS:
        return None  # "1 2 3"
    before = text[max(0, start - 48) : start]
    if before.endswith(("+", "(")) or _PHONE_CUE.search(before):
        return digits  # "+44 333 400 6116", "(650) 341-6888", "call them at 1 71 19 33 33"
    return None


def _id(raw: str, text: str = "", start: int = 0) -> str | None:
    value = raw.lower().lstrip("#")
    if _ORDINAL_OR_UNIT.match(value) or _NUMBER_UNIT.fullmatch(value):
        return None  # "3rd", "10gb", "12-credit": a number with a unit, not an id
    if _DIGIT_GROUPS.fullmatch(raw) and not _HYPHENATED.fullmatch(raw):
        return _phone(raw, text, start)
    value = re.sub(r"[-_./…]", "", value)
    if len(value) >= 3 or (len(value) == 2 and not value.isdigit() and not value.isalpha()):
        return value  # "EB57102", and short codes that mix letters and digits ("W2", "Q3")
    return None


def _weekday(raw: str, text: str, start: int) -> str | None:
    word = raw.lower().rstrip(".")
    full = _WEEKDAYS.get(word)
    if full is None:
        return None
    # Abbreviations are also words ("sat", "wed"): only capitalised ones count.
    if len(word) <= 4 and not raw[0].isupper():
        return None
    return full


def _sentence_start(text: str, start: int) -> bool:
    return bool(_SENTENCE_START.search(text[max(0, start - 4) : start]))


WINDOW = 64
"""How far past its start a candidate fact is first looked for: every candidate is matched within
this many characters, so no pattern rescans the rest of the text and the work is linear in the
text's length. A URL, an e-mail address or an id that reaches the end of the window is then
matched whole (once: the scan continues after it)."""
_WHOLE = frozenset({"url", "email", "id"})


class _Spans:
    """Sorted, disjoint ``(start, end)`` spans, added in order; overlap found by bisection."""

    __slots__ = ("ends", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, start: int, end: int) -> None:
        self.starts.append(start)
        self.ends.append(end)

    def free(self, start: int, end: int) -> bool:
        # Spans before ``end`` are starts[:i]; being disjoint and sorted, their ends are sorted
        # too, so only the last of them can reach past ``start``.
        i = bisect_left(self.starts, end)
        return i == 0 or self.ends[i - 1] <= start


# Which ASCII texts the scan of ``extract_facts`` may find a fact in (names apart): those with a
# digit or an "@", or with a word that starts like a word the patterns need, in lower case. Every
# pattern needs one of them, at a word's start where it needs a word: an e-mail address its "@";
# a URL "http" or "www"; money, a percent, a date, a year, an id, a number and a clock time a
# digit (a list number too); "noon" and "midnight"; a duration its unit ("days", "hrs"), after
# white space or a hyphen; a weekday ("mon", "sun"...), a month ("jan", "sept"...) and a status
# word ("approved", "left") whole. On ASCII text, lower case and the patterns' IGNORECASE agree,
# and so do the word boundaries (non-ASCII text is scanned whatever it holds). Most sentences of
# real bot text have none (about 58 % of real-100000's), and this costs a tenth of the scan.
_MAY_HOLD_FACT = re.compile(
    r"[0-9@]|\b"
    + _one_of(
        [
            *_URL_STARTS,
            "noon",
            "midnight",
            *(unit.split()[-1] for unit in _UNITS),
            *_WEEKDAYS,
            *_MONTHS,
            *_STATES,
        ]
    )
)


@lru_cache(maxsize=65_536)
def extract_facts(text: str) -> tuple[Fact, ...]:
    """The typed facts of ``text``, in order of appearance, without overlaps.

    Earlier kinds win where patterns overlap: ``$12.50`` is money, not a number; ``Feb 15`` is a
    date, not a month and a number; ``EB-57102`` is an id. The work is linear in the length of
    ``text`` (see ``WINDOW``); callers bound it further with an analysis budget
    (``harness.text.claims.ANALYSIS_BUDGET``).
    """
    if text.isascii() and _MAY_HOLD_FACT.search(text.lower()) is None:
        return _facts(text, scan=False)  # names only
    return _facts(text, scan=True)


def _facts(text: str, *, scan: bool) -> tuple[Fact, ...]:
    """:func:`extract_facts` (uncached), with the scan for facts other than names or without it
    (``scan=False``: for a text where ``_MAY_HOLD_FACT`` finds nothing, the same facts)."""
    # List numbering ("1. Living room TV") states no fact.
    found_spans = _Spans()
    free = found_spans.free
    if not scan:
        return tuple(_names(text, free))
    listed = _Spans()
    for number in _LIST_NUMBER.finditer(text):
        listed.add(*number.span())
    if listed.starts:

        def free(start: int, end: int) -> bool:
            return listed.free(start, end) and found_spans.free(start, end)

    facts: list[Fact] = []
    size = len(text)

    # One regex, tried where a word or a symbol starts: the first kind (in priority order) that
    # matches there wins. Scanning every character with it costs several times more.
    done = 0
    for begin in _FACT_STARTS.finditer(text):
        position = begin.start()
        if position < done:
            continue
        window = min(size, position + WINDOW)
        word = begin.group()
        if word.isalpha() and word.islower():
            # A lower-case word starts a fact only as a word of the facts' vocabulary, or as the
            # start of an e-mail address ("help@example.com").
            whole = _WORD_AT.match(text, position, window)
            if (
                whole is not None
                and (whole.end() < window or window == size)
                and whole.group().isalpha()
                and whole.group() not in _VOCABULARY
                and _CONTINUED.match(text, whole.end(), whole.end() + 66) is None
            ):
                continue
        match = _COMBINED.match(text, position, window)
        if match is None:
            continue
        start, end = match.span()
        if not free(start, end):
            done = end
            continue
        first = match.lastgroup
        for kind in _KINDS[_KINDS.index(first) if first else 0 :]:
            found = _BY_KIND[kind].match(text, start, window)
            if found is None:
                continue
            if kind in _WHOLE and window < size and found.end() >= window - 2:
                found = _BY_KIND[kind].match(text, start) or found  # a long one, whole
            value = _value(kind, found, text, facts)
            if value is not None:
                span = found.span()
                found_spans.add(*span)
                facts.append(_fact(kind, value, span[0], span[1]))
                done = span[1]
                break
        # When no kind holds here ("W-2" is too short an id), the words inside may ("2").
    names = _names(text, free)
    if names:  # the scan's facts are in order already (a date's year before the date)
        facts.extend(names)
        facts.sort(key=lambda f: f.start)
    return tuple(facts)


def _value(kind: str, match: re.Match[str], text: str, facts: list[Fact]) -> str | None:
    """The canonical value of one match of ``kind`` (None: not a fact after all)."""
    raw = match.group(0)
    start = match.start()
    if kind == "money":
        return _money(match)
    if kind == "percent":
        return _number(match.group(1))
    if kind == "time":
        return _time(match)
    if kind == "date":
        value = _date(match)
        year = match.group(1) or match.group(6) or match.group(9)
        if value is not None and year:
            facts.append(_fact("year", year, start, match.end()))
        return value
    if kind == "duration":
        return _duration(match)
    if kind == "id":
        return _id(raw, text, start)
    if kind == "weekday":
        return _weekday(raw, text, start)
    if kind == "month":
        lower = raw.lower()
        if not raw[0].isupper() or (
            lower in ("may", "march", "mar") and _sentence_start(text, start)
        ):
            return None
        # IGNORECASE lets a long s or the Kelvin sign stand for "s"/"k" ("Auguſt"): no month
        number = _MONTHS.get(lower)
        return None if number is None else f"{number:02d}"
    if kind == "number":
        return _number(raw)
    if kind == "state":
        return _STATES.get(raw.lower())  # None for "CLOſED" (a long s matched as "s")
    if kind == "url":
        return raw.lower().rstrip("/")  # "www.example.com/" is www.example.com
    return raw.lower()


def _common(word: str) -> bool:
    """A word a name does not start with: a stop word, a weekday or a month."""
    lower = word.lower()
    return lower.strip("'’") in STOPWORDS or lower in _WEEKDAYS or lower.rstrip(".") in _MONTHS


def _names(text: str, free: Callable[[int, int], bool]) -> list[Fact]:
    """Capitalised words and runs of them that are not sentence-initial common words."""
    names: list[Fact] = []
    for match in _NAME.finditer(text):
        run = match.group(0)
        words = run.split()
        if len(words) > 1:  # a sentence's end needs white space after its mark
            cut = _NAME_END.search(run)
            if cut and not _INITIAL.search(run[: cut.start() + 1]):
                run = run[: cut.start()]  # a name ends with its sentence: "The Lanterns. Support"
                words = run.split()
        start = match.start()
        # Drop leading words a sentence starts with ("Your", "The", "Parking").
        first = 0
        while first < len(words) and _common(words[first]):
            if first + 1 < len(words):
                start = text.index(words[first + 1], start + len(words[first]))
            else:
                start = match.end()
            first += 1
        if first:
            words = words[first:]
            if not words:
                continue
        # A lone capitalised word that starts a sentence is most often a common word.
        elif len(words) == 1 and not words[0].isupper() and _sentence_start(text, start):
            continue
        joined = " ".join(words)
        end = start + len(joined) if text.startswith(joined, start) else match.end()
        if not free(start, end):
            continue
        # A trailing full stop or quote is not part of the name ("HSA." is the HSA); a
        # possessive stays in it ("the Blue Ridge Tavern's patio" gives "blue ridge tavern's").
        value = " ".join(w.strip(".'’").lower() for w in words)
        if len(value) < 2 or value.isdigit():
            continue
        # A lone upper-case word is an acronym: a plan, a product, an account type ("HSA").
        kind = (
            "acronym" if len(words) == 1 and words[0].isupper() and words[0].isalpha() else "name"
        )
        names.append(_fact(kind, value, start, end))
    return names
