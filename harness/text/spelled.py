"""Values read in one form whatever their wording: amounts in words, durations in any unit.

The fact extractor (:mod:`harness.text.facts`) reads each value in one format per kind, as it is
written: "£35" is the amount 35, "30 minutes" the duration 30 minutes. A message that says the
same values in other forms states none of those facts: amounts in words ("thirty-five pounds",
"a twelve-hundred-dollar crown"), a duration in another unit ("half an hour" for "30 minutes",
"six months" for "26 weeks", "a month" for "30 days", "an hour and a half" for "90 minutes") or an
hour without its minutes ("at 11" in the morning for "11:00 am"). :func:`spelled_values` reads a
text's values in one form (numbers by value, durations in minutes or in days, times of day on a
12-hour clock, dates), so that two wordings of one value agree (:func:`agree`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from harness.text.facts import extract_facts

__all__ = [
    "NUMBER_WORDS",
    "Value",
    "agree",
    "all_stated",
    "count_of",
    "fewer_stated",
    "key_value",
    "may_differ",
    "same_values",
    "spelled_values",
    "stated",
    "values_of",
    "weight",
]

_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
_MONEY_WORDS = frozenset({"dollar", "dollars", "pound", "pounds", "euro", "euros", "bucks"})
_PERCENT_WORDS = frozenset({"percent", "per cent"})
_MINUTES = {"second": 1 / 60, "sec": 1 / 60, "minute": 1.0, "min": 1.0, "hour": 60.0, "hr": 60.0}
_DAYS = {
    "day": 1.0, "night": 1.0, "week": 7.0, "fortnight": 14.0, "month": 30.44, "year": 365.25,
    "yr": 365.25,
}  # fmt: skip
_UNIT = re.compile(
    r"(?:business |working )?(second|sec|minute|min|hour|hr|day|night|week|fortnight|month|year|"
    r"yr)s?\b"
)
_ARTICLE = re.compile(r"\b(half an?|an?) " + _UNIT.pattern)
_AND_A_HALF = re.compile(
    r"\b(?:(an?|one|\d+) )?(second|minute|hour|day|night|week|month|year)s? and a half\b"
)
_LETTERS = re.compile(r"[a-z]+")
_NUMBER_WORDS = frozenset({*_ONES, *_TENS})
NUMBER_WORDS = frozenset({*_ONES, *_TENS, *_SCALES})
"""Numbers spelled out as words ("zero" ... "nineteen", the tens, "hundred", "thousand",
"million")."""
_UNIT_WORDS = frozenset(f"{unit}{end}" for unit in (*_MINUTES, *_DAYS) for end in ("", "s"))
_AT_DIGIT = re.compile(r"\bat \d")
_TOKEN = re.compile(r"[a-z]+|\d[\d,]*(?:\.\d+)?")
_PART_OF_DAY = re.compile(r"\b(?:morning|afternoon|evening|tonight)\b")
_AT_HOUR = re.compile(
    r"\bat (\d{1,2})\b(?![:.,]\d|\s*(?:%|[ap]\.?m\b|percent|o'clock|" + _UNIT.pattern + "))"
)
_TOLERANCE = 0.025
"""How far two durations in one base unit may differ and be one ("26 weeks", 182 days, and "six
months", 183): calendar units convert only roughly."""

Value = tuple[str, float, float]
"""A value in one form: its kind (``n`` a number or an amount, ``m`` a duration in minutes,
``d`` a duration in days, ``t`` a time of day in minutes after 00:00 on a 12-hour clock, ``date``
a date as month * 100 + day), its amount and its weight."""


def _number_runs(text: str) -> list[tuple[float, int, int, int]]:
    """Numbers written in words ("six hundred twenty-five", "twelve-hundred", "fourteen"): each
    as (value, how many number words, start, end) in ``text`` (lower case)."""
    runs: list[tuple[float, int, int, int]] = []
    tokens = list(_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        word = tokens[i].group()
        if word not in _ONES and word not in _TENS:
            i += 1
            continue
        start = tokens[i].start()
        total, current, count, end = 0.0, 0.0, 0, tokens[i].end()
        j = i
        while j < len(tokens):
            w = tokens[j].group()
            if w in _ONES:
                rest = current % 100  # units follow nothing or a ten: "twenty-five"
                if rest and not (rest % 10 == 0 and rest >= 20 and _ONES[w] < 10):
                    break
                current += _ONES[w]
            elif w in _TENS:
                if current % 100:
                    break
                current += _TENS[w]
            elif w in _SCALES and count:
                current = (current or 1) * _SCALES[w]
                if _SCALES[w] >= 1_000:
                    total, current = total + current, 0.0
            elif w == "and" and count and j + 1 < len(tokens):
                following = tokens[j + 1].group()
                if following not in _ONES and following not in _TENS:
                    break
            else:
                break
            if w != "and":
                count += 1
                end = tokens[j].end()
            j += 1
        runs.append((total + current, count, start, end))
        i = max(j, i + 1)
    return runs


def _after(text: str, end: int) -> str:
    """The words after position ``end`` (a hyphen or spaces skipped: "fifty-dollar")."""
    return text[end:].lstrip(" -")


def _duration(amount: float, unit: str, weight: float) -> Value:
    if unit in _MINUTES:
        return ("m", amount * _MINUTES[unit], weight)
    return ("d", amount * _DAYS[unit], weight)


@lru_cache(maxsize=65_536)
def count_of(word: str) -> int | None:
    """The whole number one word of a request counts, or None: digits ("12"), a number spelled
    out ("twelve", "twenty-one"), or the article "a"/"an" ("a child" is one child)."""
    word = word.lower().strip()
    if word.isdigit():
        return int(word)
    if word in ("a", "an"):
        return 1
    if word in _ONES:
        return _ONES[word]
    if word in _TENS:
        return _TENS[word]
    tens, _, ones = word.partition("-")
    if tens in _TENS and ones in _ONES and 0 < _ONES[ones] < 10:
        return _TENS[tens] + _ONES[ones]
    return None


@lru_cache(maxsize=65_536)
def spelled_values(text: str) -> frozenset[Value]:
    """The values ``text`` states, each in one form whatever its wording (see :data:`Value`).
    The numbers 0 and 1 state too little to count; a number written in words counts when a unit,
    a currency or "percent" follows it, or when it is 13 or more."""
    return values_of(text, frozenset(fact.key for fact in extract_facts(text)))


def may_differ(text: str, other: str, keys: frozenset[str], other_keys: frozenset[str]) -> bool:
    """Whether two texts may state one value in two forms (a cheap test before their values
    are read): one of them words a value (a number in words, "a month", "and a half", "at 11"),
    or both state durations (in two units) or times (on two clocks). Otherwise each value both
    state has one fact key on both sides."""
    if _words_a_value(text) or _words_a_value(other):
        return True
    return any(any(k.startswith(kind) for k in keys) for kind in ("duration:", "time:")) and any(
        any(k.startswith(kind) for k in other_keys) for kind in ("duration:", "time:")
    )


@lru_cache(maxsize=65_536)
def _words_a_value(text: str) -> bool:
    """Whether ``text`` may word a value :func:`_worded_values` reads (or more): a number word,
    "a"/"an" beside a unit word, "and a half", "at" before a digit. Word sets, not a pattern
    of many words tried at every position."""
    lower = text.lower()
    if "and a half" in lower or ("at " in lower and _AT_DIGIT.search(lower) is not None):
        return True
    words = set(_LETTERS.findall(lower))
    if not words.isdisjoint(_NUMBER_WORDS):
        return True
    return ("a" in words or "an" in words) and not words.isdisjoint(_UNIT_WORDS)


def values_of(text: str, keys: frozenset[str]) -> frozenset[Value]:
    """:func:`spelled_values` of ``text`` whose facts' keys (``Analysis.facts``, ``Claim.facts``)
    are ``keys``: made from the facts already read, and what only the wording says."""
    added, superseded = _worded_values(text)
    base = _key_values(keys)
    if superseded:
        base = frozenset(v for v in base if (v[0], v[1]) not in superseded)
    return base | added if added else base


@lru_cache(maxsize=65_536)
def _key_values(keys: frozenset[str]) -> frozenset[Value]:
    """The values of facts' keys (a number that is only a duration's length left out: "30 days"
    states the duration, "a month" states no number 1)."""
    lengths = {"num:" + k[9:].split()[0] for k in keys if k.startswith("duration:")}
    out = set()
    for key in keys:
        if key not in lengths:
            value = key_value(key)
            if value is not None:
                out.add(value)
    return frozenset(out)


@lru_cache(maxsize=65_536)
def _worded_values(text: str) -> tuple[frozenset[Value], frozenset[tuple[str, float]]]:
    """The values only the wording of ``text`` states (numbers in words, "half an hour", "an
    hour and a half", "at 11" in the morning), and the values of its facts they stand for
    (kind and amount: "a month" is a duration at half weight, "at 11" is no number 11)."""
    out: set[Value] = set()
    superseded: set[tuple[str, float]] = set()
    lower = text.lower()
    if not _words_a_value(text):
        return frozenset(), frozenset()
    runs = _number_runs(lower) if not _NUMBER_WORDS.isdisjoint(_LETTERS.findall(lower)) else ()
    for amount, count, _start, end in runs:
        after = _after(lower, end)
        unit = _UNIT.match(after)
        if unit is not None:
            out.add(_duration(amount, unit.group(1), 1.0))
        elif (
            after.startswith(tuple(_MONEY_WORDS))
            or after.startswith(tuple(_PERCENT_WORDS))
            or amount >= 13
            or count >= 2
        ):
            out.add(("n", amount, 1.0))
    for unit_of in _ARTICLE.finditer(lower):
        half = unit_of.group(1).startswith("half")
        value = _duration(0.5 if half else 1.0, unit_of.group(2), 1.0 if half else 0.5)
        out.add(value)
        if not half:
            superseded.add((value[0], value[1]))
    for more in _AND_A_HALF.finditer(lower):
        # "an hour and a half", "2 days and a half": the whole, not the unit alone
        units = _float(more.group(1)) if more.group(1) and more.group(1)[0].isdigit() else 1.0
        if units is not None:
            whole = _duration(units, more.group(2), 0.5)
            out.discard(whole)
            superseded.add((whole[0], whole[1]))
            out.add(_duration(units + 0.5, more.group(2), 1.0))
    if _PART_OF_DAY.search(lower):
        for at in _AT_HOUR.finditer(lower):
            hour = int(at.group(1))
            if 1 <= hour <= 12:
                superseded.add(("n", float(hour)))  # the hour, not a number of its own
                out.add(("t", float((hour % 12) * 60), 1.0))
    return frozenset(out), frozenset(superseded)


def _float(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def agree(a: Value, b: Value) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] in ("m", "d"):
        return abs(a[1] - b[1]) <= _TOLERANCE * max(a[1], b[1])
    return a[1] == b[1]


def stated(value: Value, values: frozenset[Value]) -> bool:
    return any(agree(value, other) for other in values)


def weight(values: frozenset[Value] | set[Value]) -> float:
    """The weight of ``values``, each amount counted once (the heavier of its forms)."""
    best: dict[tuple[str, float], float] = {}
    for kind, amount, counts in values:
        key = (kind, round(amount, 2))
        best[key] = max(best.get(key, 0.0), counts)
    return sum(best.values())


def same_values(a: str, b: str) -> bool:
    """Whether two texts state values and the one stating fewer states nothing the other does
    not, in whatever form ("a 24-month warranty" and "covered for two years"; not "2 guests" and
    "3 guests", nor "until 1 pm" and "until noon")."""
    va, vb = spelled_values(a), spelled_values(b)
    return bool(va) and bool(vb) and fewer_stated(va, vb)


def fewer_stated(va: frozenset[Value], vb: frozenset[Value]) -> bool:
    """Whether the lighter of two sets of values (:func:`weight`) is :func:`all_stated` in the
    other: what :func:`same_values` asks of two texts' values."""
    smaller, larger = (va, vb) if weight(va) <= weight(vb) else (vb, va)
    return all_stated(smaller, larger)


def all_stated(values: frozenset[Value] | set[Value], within: frozenset[Value]) -> bool:
    """Whether every one of ``values`` is :func:`stated` in ``within``: the same verdict as
    ``all(stated(v, within) for v in values)``, read through an index of ``within`` (a set for
    the kinds compared exactly, a sorted list per kind for the durations compared with a
    tolerance) rather than by comparing every pair, so two long texts' values cost about their
    number, not its square."""
    if len(values) * len(within) <= 64:  # the detector's pairs: a few values each, no index
        return all(stated(v, within) for v in values)
    exact: set[tuple[str, float]] = set()
    tolerant: dict[str, list[float]] = {}
    for kind, amount, _ in within:
        if kind in ("m", "d"):
            tolerant.setdefault(kind, []).append(amount)
        else:
            exact.add((kind, amount))
    for amounts in tolerant.values():
        amounts.sort()
    for value in values:
        kind, amount = value[0], value[1]
        if kind not in ("m", "d"):
            if (kind, amount) not in exact:
                return False
            continue
        amounts = tolerant.get(kind, [])
        # |a - b| <= T * max(a, b) puts b within T * |a| / (1 - T) of a: read that window only
        reach = _TOLERANCE * abs(amount) / (1 - _TOLERANCE) * (1 + 1e-9) + 1e-12
        start = bisect_left(amounts, amount - reach)
        end = bisect_right(amounts, amount + reach, lo=start)
        if not any(agree(value, (kind, b, 1.0)) for b in amounts[start:end]):
            return False
    return True


def key_value(key: str) -> Value | None:
    """A fact's key (``num:30``, ``duration:30 minute``, ``time:14:05``, ``date:04-05``) as a
    value in one form; None for other kinds (ids, names, states) and for 0 and 1."""
    kind, _, raw = key.partition(":")
    if kind == "num":
        amount = _float(raw)
        return None if amount is None or amount in (0.0, 1.0) else ("n", amount, 1.0)
    if kind == "duration":
        number, _, measure = raw.partition(" ")
        amount = _float(number)
        if amount is None or (measure not in _MINUTES and measure not in _DAYS):
            return None
        return _duration(amount, measure, 1.0)
    if kind == "time":
        hours, _, minutes = raw.partition(":")
        return ("t", float((int(hours) % 12) * 60 + int(minutes)), 1.0)
    if kind == "date":
        month, _, day = raw.partition("-")
        return ("date", float(int(month) * 100 + int(day)), 1.0)
    return None
