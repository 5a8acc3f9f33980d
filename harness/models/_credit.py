"""Which request a tool's answer answers: the offline model's credit, decided per request.

A call is made for the requests whose words matched its tool, but a tool's answer often carries
more than the one request it was called for ("Your tune-up is booked for Tuesday; a tune-up costs
$45" answers "how much is a tune-up" too), and sometimes less (a call that tells opening hours
made for "how much is a day rental"). So the offline model reads what a request asks for when it
asks for a *kind of value*, and whether an answer carries one:

- a price ("how much", "cost", "fee", "price"): an amount of money, or "free";
- a time ("when", "what time", "how late", "open", "close"): a clock time, a day or a date;
- a length of time ("how long"): a number of minutes, hours, days or weeks;
- a place ("where", "address", "which floor"): a street, a floor, a building or an address.

A sentence of an answer *answers* a request when it carries the value the request asks for, and
shares a content word with it (beyond the words that ask for the kind: "tune-up" in "a tune-up
costs $45"), and has every day and number the request names ("is it open on Sunday" is not
answered by "open 8am to 8pm"). A request whose only words are those asking ("how much is it",
"when does it close") is about what the call's other requests name, so an answer made for them
counts.

A request that asks for no kind of value (a yes/no question, a change) is not read here: it is
answered by the call made for it, as before. Everything here is English, closed classes, not any
one bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.models._actions import is_question
from harness.models._text import content_tokens
from harness.text import split_sentences
from harness.text._shapes import WH_SET

__all__ = ["answers", "asked_kind", "carries", "names_all", "tells"]

_PRICE, _TIME, _LENGTH, _PLACE = "price", "time", "length", "place"

# How a request asks for each kind (lower case; the first that matches wins, so "how much time"
# and "how long" are a length, not a price or a time). A question word asks wherever it stands;
# a noun or verb of the kind ("cost", "open") asks only in a question ("what's the copay", "is the
# pool open"), not in a request to act ("open a ticket", "charge my card").
_ASKS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        _LENGTH,
        re.compile(r"\bhow (long|much time|many (minutes|hours|days|weeks))\b"),
        re.compile(r"(?!)"),
    ),
    (
        _PRICE,
        re.compile(r"\bhow much\b"),
        re.compile(
            r"\b(cost|costs|price|prices|priced|fee|fees|copay|co-pay|rates?|expensive|cheap)\b"
        ),
    ),
    (
        _PLACE,
        re.compile(r"\bwhere\b|\bwhat(?:'s| is) the address\b"),
        re.compile(r"\b(address|located|location|which floor)\b"),
    ),
    (
        _TIME,
        re.compile(r"\b(when|what time|how late|how early|until what time)\b"),
        re.compile(r"\b(hours|open|opens|close|closes|closing)\b"),
    ),
)
# Words that only ask for a kind: they are no topic a sentence must share.
_ASKING_WORDS = frozenset(
    content_tokens(
        "how much long cost costs price prices priced fee fees charge charges copay rate rates "
        "expensive cheap owe pay where address located location floor when time late early "
        "hours hour until open opens close closes closing start starts served serve tell know "
        "please"
    )
)
_MONEY = re.compile(
    r"[$€£¥]\s?\d|\d\s?(dollars?|euros?|pounds?|usd|eur|gbp|cents?)\b|\bfree\b", re.IGNORECASE
)
_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?"
_MONTHS = r"january|february|march|april|may|june|july|august|september|october|november|december"
_SHORT = r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|jan|feb|apr|jun|jul|aug|sep|sept|oct|nov|dec"
_CLOCK = re.compile(
    rf"\b\d{{1,2}}(:\d{{2}})?\s?(am|pm|a\.m\.|p\.m\.)|\b\d{{1,2}}[:/.]\d{{2}}\b|\b\d{{4}}\b|"
    rf"\b(noon|midnight|now|soon|later|today|tomorrow|tonight|yesterday|ago|morning|afternoon|"
    rf"evening|night|daily|weekly|monthly|yearly|week|month|year|{_WEEKDAYS}|{_MONTHS}|{_SHORT})\b",
    re.IGNORECASE,
)
_SPAN = re.compile(
    r"\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|half an?)\s+"
    r"(minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b",
    re.IGNORECASE,
)
# A place is open-ended ("in the payroll portal", "at the front desk", "on Elm Street"): a word
# of places, or a phrase of place (a preposition of place and what it names).
_WHERE = re.compile(
    r"(?i:\b(street|st|road|rd|avenue|ave|lane|boulevard|square|plaza|floor|level|building|"
    r"suite|wing|entrance|mall|centre|center|corner|next door|opposite|beside|behind|near|"
    r"nearby)\b)|(?i:\b(in|at|on|inside|under|from|via|through))\s+(the|your|our|my|a|an|"
    r"this|that|each|every|\d+|[A-Z]\w*)\b",
)
_CARRIES = {_PRICE: _MONEY, _TIME: _CLOCK, _LENGTH: _SPAN, _PLACE: _WHERE}
# Words a request names that the sentence must have as well: a day, a month or a number.
_NAMED = re.compile(rf"\b({_WEEKDAYS}|{_MONTHS}|\d+)\b", re.IGNORECASE)


def asked_kind(request: str, *, strong: bool = False) -> str | None:
    """The kind of value ``request`` asks for ("price", "time", "length", "place"), or None.
    ``strong``: only by a question word ("how much", "when", "where", "how long"), or in a
    question that opens with one ("what does it cost")."""
    lowered = request.lower().replace("\u2019", "'")
    question = is_question(request)
    # A question that opens with a question word asks for the value its noun names ("what does
    # the cheesecake cost", "what are your hours") as surely as "how much" or "when" does.
    opening = re.findall(r"[a-z']+", lowered)[:1]
    asked = bool(opening) and opening[0] in WH_SET
    for kind, asking, in_question in _ASKS:
        if asking.search(lowered):
            return kind
        if question and (asked or not strong) and in_question.search(lowered):
            return kind
    return None


def carries(text: str, kind: str) -> bool:
    """Whether ``text`` carries a value of ``kind`` (``asked_kind``)."""
    return bool(_CARRIES[kind].search(text))


def _topic(request: str) -> set[str]:
    return set(content_tokens(request)) - _ASKING_WORDS


def answers(request: str, text: str, *, siblings: bool = False) -> bool:
    """Whether a sentence of ``text`` answers ``request``: it carries the kind of value the
    request asks for, has every day and number the request names, and shares a content word
    with the request beyond the words that ask. ``siblings``: the answer was made for another
    request of the same call, which stands for a request that names nothing of its own ("how
    much is it"). False for a request that asks for no kind of value."""
    kind = asked_kind(request)
    if kind is None:
        return False
    topic = _topic(request)
    for sentence in _sentences(text):
        if not carries(sentence, kind) or not names_all(request, sentence):
            continue
        if topic & set(content_tokens(sentence)) if topic else siblings:
            return True
    return False


def names_all(request: str, text: str) -> bool:
    """Whether ``text`` has every day, month and number ``request`` names ("is it open on
    Sundays" needs "Sunday"; "do you open at 11" is met by "11am")."""
    lowered = text.lower()
    # A day asked about in the plural ("on Sundays") is named by its singular in an answer.
    named = {m.lower().removesuffix("s") for m in _NAMED.findall(request)}
    return all(re.search(rf"\b{re.escape(n)}", lowered) for n in named)


def _sentences(text: str) -> Sequence[str]:
    """The sentences of ``text``, each cut again at semicolons (one fact each)."""
    return [
        part
        for sentence in split_sentences(text)
        for part in sentence.text.split(";")
        if part.strip()
    ]


# Words a reading tool's name or description uses when it tells a kind of value.
_TELLS = {
    _PRICE: frozenset(
        [
            "price",
            "prices",
            "pricing",
            "cost",
            "costs",
            "fee",
            "fees",
            "rate",
            "rates",
            "tariff",
            "tariffs",
            "charges",
            "fare",
            "fares",
        ]
    ),
    _TIME: frozenset(
        [
            "hours",
            "times",
            "time",
            "schedule",
            "schedules",
            "timetable",
            "timetables",
            "opening",
            "when",
            "dates",
            "days",
        ]
    ),
    _LENGTH: frozenset(["duration", "durations", "long", "length"]),
    _PLACE: frozenset(
        ["address", "addresses", "location", "locations", "where", "directions", "map"]
    ),
}
_COMPOUND_ENDS = frozenset(["times", "hours", "prices", "fares"])
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def tells(name: str, description: str, kind: str) -> bool:
    """Whether a tool's ``name`` or ``description`` says it tells a value of ``kind`` (a word of
    that kind, or a compound ending with one: "opening_hours", "Prices of treatments",
    "GetTimesForMovie", "showtimes")."""
    words = {w.lower() for w in _NAME_WORDS.findall(name)}
    words |= {w.lower() for w in re.findall(r"[A-Za-z]+", description)}
    if words & _TELLS[kind]:
        return True
    # A compound of a plural that tells: "showtimes", "mealtimes", "airfares" ("sometimes" is
    # no time a tool tells).
    ends = tuple(_COMPOUND_ENDS & _TELLS[kind])
    return bool(ends) and any(w.endswith(ends) and w != "sometimes" for w in words)
