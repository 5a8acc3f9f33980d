"""Which request a tool's answer answers: credit the offline model adds, decided per request.

A call is made for the requests whose words matched its tool, but a tool's answer often carries
more than the one request it was called for ("Your tune-up is booked for Tuesday; a tune-up costs
$45" answers "how much is a tune-up" too). So the offline model reads what a request asks for
when it asks for a *kind of value*:

- a price ("how much", and "cost", "fee", "price" in a question);
- a time ("when", "what time", and "open", "close", "hours" in a question);
- a length of time ("how long");
- a place ("where", "what's the address", and "located", "location" in a question).

Whether a sentence carries a value of the kind is read by the text layer's fact reader
(``harness.text.extract_facts``): an amount of money, a clock time or a date, a duration, a name.
A sentence *answers* a request when it carries the value the request asks for, has every day and
number the request names, and names the whole thing the request asks about (every word of a
compound: "the lion keeper talk" does not name "the sea lions"). A request whose only words are
those asking ("how much is it", "when does it close") is about what the call's other requests
name, so an answer made for them counts.

This only adds credit: a call made for a request keeps it. Everything here is English, closed
classes, not any one bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.models._actions import is_question
from harness.models._text import content_tokens
from harness.text import extract_facts, split_sentences
from harness.text._shapes import WH_SET

__all__ = [
    "ASKING_WORDS",
    "answers",
    "asked_kind",
    "carries",
    "names_all",
    "names_topic",
    "only_reads",
    "tells",
    "told_by_name",
]

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
# Asking words that also modify a noun when one follows them: "open swim", "late checkout",
# "the closing ceremony", "an hour-long massage", "the cheap seats".
_MODIFIERS = frozenset(
    content_tokens("open opening closing late early cheap expensive hour evening morning")
)
# The kinds of value that answer each kind asked, read by the text layer's fact reader
# (``harness.text.extract_facts``, the reader under the missed-request check's kinds): a bare
# number says no price, time, length or place on its own ("Order 12 is shipped").
_GIVES = {
    _PRICE: frozenset({"money", "percent"}),
    _TIME: frozenset({"date", "weekday", "month", "time", "year"}),
    _LENGTH: frozenset({"duration"}),
}
# A place is said by a word of place ("on Dock Street", "the second floor", "next to the lobby"),
# not by a proper name alone ("The pharmacy is run by Dr Patel" says no place).
_PLACE_WORDS = re.compile(
    r"\b(street|st|road|rd|avenue|ave|lane|boulevard|blvd|square|plaza|floor|level|wing|"
    r"building|lobby|corner|gate|terminal|platform|dock|upstairs|downstairs|basement|"
    r"next to|opposite|behind|beside|across from|near|between)\b",
    re.IGNORECASE,
)
# Words a request names that the sentence must have as well: a day, a month or a number.
_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?"
_MONTHS = r"january|february|march|april|may|june|july|august|september|october|november|december"
_NAMED = re.compile(rf"\b({_WEEKDAYS}|{_MONTHS}|\d+)\b", re.IGNORECASE)


ASKING_WORDS = _ASKING_WORDS
"""Words that only ask for a price, a time, a length or a place (content tokens)."""


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
    """Whether ``text`` carries a value of ``kind`` (``asked_kind``), as the text layer's fact
    reader reads it (``harness.text.extract_facts``); a place by a word of place ("on Dock
    Street", "the second floor"), never by a proper name alone."""
    if kind == _PLACE:
        return bool(_PLACE_WORDS.search(text))
    return any(fact.kind in _GIVES[kind] for fact in extract_facts(text))


def _topic(request: str) -> set[str]:
    """The words ``request`` names its thing with: its content words but those that only ask
    (and a question word with a clitic, "when's"). An asking word that stands before a word of
    the thing modifies it and is kept ("open swim", "late checkout", "closing ceremony")."""
    words = re.findall(r"[\w'-]+", request.lower().replace("\u2019", "'"))
    topic: set[str] = set()
    for index, word in enumerate(words):
        tokens = set(content_tokens(word)) - WH_SET
        if not tokens:
            continue
        if tokens & _ASKING_WORDS and tokens <= _MODIFIERS:
            following = words[index + 1] if index + 1 < len(words) else ""
            named = set(content_tokens(following))
            # A hyphened noun of function words ("check-in") is a thing as well.
            if (named or "-" in following) and not named & (_ASKING_WORDS | WH_SET):
                topic |= tokens
            continue
        topic |= tokens - _ASKING_WORDS
    return topic


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
        if _names_same(request, topic, sentence) if topic else siblings:
            return True
    return False


def _names_same(request: str, topic: set[str], sentence: str) -> bool:
    """Whether ``sentence`` names the thing ``request`` names, the whole of it and no other
    variant of it: every topic word of the request, modifiers and both sides of "for"/"of"
    included ("the adult pool" does not name "the pool for kids"; "the lion keeper talk" does
    not name "the sea lions"), with no other word before the words it shares ("Express delivery"
    does not answer "how much is delivery"; "the staff entrance" does not name "the entrance")."""
    said = set(content_tokens(sentence))
    if not topic <= said:
        return False
    for stretch in re.split(r"[,.;:!?()\[\]]", sentence.lower()):
        words = re.findall(r"[\w'-]+", stretch)
        for index, word in enumerate(words):
            if not set(content_tokens(word)) & topic:
                continue
            before = set(content_tokens(words[index - 1])) if index else set()
            if before and not before <= topic | _ASKING_WORDS | WH_SET:
                return False  # another variant of the thing: "Express delivery"
            after = words[index + 1 : index + 4]
            if after[:1] and after[0] in ("for", "of"):
                named = set(content_tokens(" ".join(after[1:3])))
                if named and not named & topic:
                    return False  # "the entrance for staff"
    return True


def names_topic(request: str, text: str) -> bool:
    """Whether a sentence of ``text`` names the thing the question ``request`` asks about, that
    asks for no kind of value (``asked_kind``): the request's topic words (``_topic``), in its
    order, stand together in the sentence, which has every day and number the request names
    ("Our refund policy: a full refund up to 48 hours before" names "what's your refund
    policy?"; "Booking 4021 is cancelled" names nothing of it). False for a request that is no
    question (by its form or its question mark), has no topic, or asks for a kind of value (``answers`` reads those)."""
    asks = is_question(request) or request.rstrip().endswith("?")
    if asked_kind(request) is not None or not asks:
        return False
    words = [w for w in re.findall(r"[\w'-]+", request.lower()) if set(content_tokens(w))]
    topic = [w for w in words if set(content_tokens(w)) & _topic(request)]
    if not topic:
        return False
    phrase = re.compile(r"\b" + r"\W+".join(re.escape(w) for w in topic) + r"\b")
    return any(
        phrase.search(sentence.lower()) and names_all(request, sentence)
        for sentence in _sentences(text)
    )


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


def told_by_name(name: str) -> bool:
    """Whether the last word of a tool's ``name`` is a word of a value a reading tool tells
    ("ticket_prices", "class_times", "shop_location"): such a name is a noun phrase, whatever
    its description opens with ("Ticket prices for adults" names no change of tickets)."""
    words = [w.lower() for w in _NAME_WORDS.findall(name)]
    return bool(words) and any(words[-1] in told for told in _TELLS.values())


# The closed class of verbs a tool that only reads is named or described with ("get_prices",
# "Look up the opening hours", "Returns the fares").
_READ_VERBS = frozenset(
    [
        "get",
        "gets",
        "list",
        "lists",
        "find",
        "finds",
        "show",
        "shows",
        "check",
        "checks",
        "look",
        "lookup",
        "search",
        "searches",
        "read",
        "reads",
        "view",
        "views",
        "fetch",
        "fetches",
        "query",
        "queries",
        "describe",
        "describes",
        "return",
        "returns",
        "tell",
        "tells",
        "give",
        "gives",
        "see",
    ]
)
# Words a reading tool's name may be made of alone, a noun of what it returns ("opening_hours",
# "prices", "showtimes").
_RETURNED = frozenset(
    ["info", "information", "details", "faq", "opening", "meal", "show", "movie", "menu"]
)


def only_reads(name: str, description: str) -> bool:
    """Whether a tool is known to only read. Its description opens with no verb but one of
    reading: with a reading verb ("Look up the fares"), a question word saying what it returns
    ("When group classes run"), an article or a noun of what it returns ("Opening hours and
    meal times"), or is empty. And its name opens with a reading verb ("get_prices",
    "lookup_hours"), is made only of nouns of what it returns ("opening_hours", "prices"), or
    ends with one when the description opens with a reading verb or a question word
    ("class_times": "When group classes run"). A tool merely not named with a known verb of
    change ("waive_fee", "extend_hours", "add_time") is not."""
    words = [w.lower() for w in _NAME_WORDS.findall(name)]
    if not words:
        return False
    telling = frozenset().union(*_TELLS.values()) | _RETURNED

    def returned(word: str) -> bool:
        return word in telling or word.endswith(tuple(_COMPOUND_ENDS))

    opening = [w.lower() for w in re.findall(r"[A-Za-z]+", description)[:2]]
    first = opening[0] if opening else ""
    if first == "look" and opening[1:] != ["up"]:
        return False
    says = first in _READ_VERBS or first in WH_SET
    if opening and not (says or returned(first) or first in ("the", "a", "an", "all", "our")):
        return False
    if words[0] in _READ_VERBS or all(returned(w) for w in words):
        return True
    return says and returned(words[-1])
