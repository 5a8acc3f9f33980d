"""What a request asks for and what a sentence the bot said gives, by kind of value: a "when"
asks for a date or a time, a "how much" for an amount, a phone number for an id, a yes/no
question for a yes or a no (the features ``asked_kind`` and ``own_kind`` of
:mod:`harness.detect.answers`, and the missed-request check's yes/no rules)."""

from __future__ import annotations

import re
from functools import lru_cache

from harness.text import extract_facts
from harness.text._shapes import AUX_WORDS, LEAD, VERBS

__all__ = [
    "WHEN_KINDS",
    "asked_kinds",
    "asks_a_count",
    "asks_back",
    "asks_back_in",
    "asks_yes_or_no",
    "classified",
    "facts_of",
    "given_kinds",
    "only_counts",
    "says_yes_or_no",
]

# What a question asks for, by the facts that answer it (harness.text.facts kinds).
WHEN_KINDS = frozenset({"date", "weekday", "month", "time", "year"})
"""The kinds of value that answer a "when"."""
_LONG = frozenset({"duration", "number"})
_AMOUNT = frozenset({"money", "number", "percent"})
_PLACE = frozenset({"name", "number"})
# A "where" is answered by a name or an address, or by a phrase of place ("in the old mill by
# the river"): ``place`` (:func:`given_kinds`). A phone number, an e-mail or a web address is no
# place: it says how to get in touch, not where something is.
_WHERE_KINDS = _PLACE | {"place"}
_ID = frozenset({"id"})
_NAMED = frozenset({"name", "class"})
_ASKS = (
    (re.compile(r"\bwhen\b|\bwhat (?:time|day|date|year)\b", re.I), WHEN_KINDS),
    (re.compile(r"\bhow long\b", re.I), _LONG),
    (
        re.compile(
            r"\bhow (?:much|many)\b|\b(?:cost|price|fees?|balance|amount|owe|total|rate|salary)\b",
            re.I,
        ),
        _AMOUNT,
    ),
    (re.compile(r"\bwhere\b|\baddress\b", re.I), _WHERE_KINDS),
    (re.compile(r"\bwho\b|\bwhich\b", re.I), _PLACE),
    # A phone number or a reference is read as an id ("+44 333 400 6116", "AA123"); "the number
    # of stops" asks for an amount.
    (re.compile(r"\b(?:phone|telephone|contact|dial)\b|\bnumber\b(?!\s+of\b)", re.I), _ID),
    # A class of thing ("what kind of movie", "which genre") is most often named: "a Comedy".
    (re.compile(r"\b(?:kind|type|genre|category|sort|style)\b", re.I), _NAMED),
)

# Words that name what a request asks for, but only where it asks for that thing: a "what" or a
# "which" a few words before ("what will be my travel time", "which venue"), "tell me", "give
# me", "get me", "provide me", "find out" or "to know" ("can you tell me the location", "may I
# know the venue"), or the word as the head of a short request of no verb ("Average rating?",
# "and the ETA please", "duration of the ride").
# Elsewhere the word asks nothing: "Send my location to Priya", "Reserve a venue", "Update my
# commute time", and a yes/no question keeps its yes/no ("Is the venue open on Sundays"). An "if"
# or "whether" between asks a yes/no in other words ("tell me if the venue has a cloakroom").
_ASKING = (
    r"\b(?:what(?:'s|s)?|which)|\b(?:tell|give|get|show|send) me|\blet me know|\bfind out"
    r"|\b(?:to|wanna|may i|can i|could i) know|\bprovide me(?: with)?"
)
_NAMES = (
    # An arrival or departure time, or an ETA, is a clock time or how long until it.
    (r"(?:arrival|departure) time|eta", WHEN_KINDS | {"duration"}),
    # A length, a duration, and a travel, wait or drive "time" are how long it takes ("It will
    # be a 22 minute ride"), not a clock time; "what time" stays a "when".
    (r"length|duration|(?:travel|journey|wait|waiting|commute|drive) time", _LONG),
    (r"ratings?", _AMOUNT),
    # "What is the location" and "the venue" ask "where" in other words.
    (r"location|venue", _WHERE_KINDS),
)
# A noun phrase the word heads: two modifiers at most, after a determiner ("the average rating",
# "approximate ride duration", "duration of the ride"; not "Shorten the length of it" or "I know
# the venue").
_DETERMINER = r"(?:the|a|an|this|that|its|their|your|his|her|our|my)\s+"
_HEAD = rf"(?:{_DETERMINER})?(?:(?!{_DETERMINER})[\w'-]+\s+){{0,2}}"
_ASKS_NAMED = tuple(
    (
        re.compile(rf"(?:{_ASKING})(?:\s+(?!(?:if|whether)\b)\S+){{0,3}}?\s+(?:{words})\b", re.I),
        re.compile(rf"^{_HEAD}(?:{words})(?:$|\s+(?:of|for|at|to|in)\b)", re.I),
        answer,
    )
    for words, answer in _NAMES
)
# A short request of no verb is a noun phrase: words of up to six, none a request verb or an
# auxiliary (closed classes of English), after a connective and before a "please".
_NO_PHRASE = frozenset(VERBS.split("|")) | frozenset(AUX_WORDS.split("|"))
_PLEASE = re.compile(r"[\W_]*(?:\bplease\b[\W_]*)?$", re.I)


def _noun_phrase(request: str) -> str:
    """``request`` if it is a short noun phrase ("Average rating", "and the ETA please": then
    without its connective and its "please"), else ''."""
    phrase = _PLEASE.sub("", LEAD.sub("", request)).strip()
    words = phrase.lower().split()
    return phrase if 0 < len(words) <= 6 and _NO_PHRASE.isdisjoint(words) else ""


# A yes/no question: it opens with an auxiliary verb and asks no wh-word ("Is it free", "Do
# they serve alcohol", "Can I bring my dog"); a reply's yes or no (``_YES``, ``_NO``) is what it
# asks for. A modal before "you" asks the bot to do something ("Can you book it"), not a yes or
# a no. Closed classes of English.
_POLAR = re.compile(
    r"^\W*(?:so\W+)?(?:(?:is|are|was|were|do|does|did|has|have|should)\b"
    r"|(?:can|could|will|would)\b(?!\s+(?:you|u)\b))"
    r"(?!.*\b(?:what|where|when|which|who|whom|whose|how|why)\b)",
    re.IGNORECASE,
)


def asks_yes_or_no(request: str) -> bool:
    """Whether a request is a yes/no question ("Is it free", "Do they serve alcohol")."""
    return "polar" in asked_kinds(request)


def says_yes_or_no(sentence: str) -> bool:
    """Whether a sentence the bot said has a yes or a no in it ("They don't", "Yes, both")."""
    return "polar" in given_kinds(sentence)


# A word (lower case) that every match of one of the patterns holds: of :data:`_ASKS`, and of
# :data:`_ASKS_NAMED` (each of its two patterns needs one of :data:`_NAMES`' words). Most requests
# hold none, and one scan in C of the request in lower case spares them the patterns' scans (an
# ASCII text only: outside ASCII, case folding under ``re.IGNORECASE`` goes wider than
# ``str.lower``, and the patterns run as they are).
_MAY_ASK = re.compile(
    "when|what |how |cost|price|fee|balance|amount|owe|total|rate|salary|where|address|who|which"
    "|phone|contact|dial|number|kind|type|genre|category|sort|style"
)
_MAY_NAME = re.compile(
    "arrival|departure|eta|length|duration|travel|journey|wait|commute|drive|rating|location|venue"
)


@lru_cache(maxsize=16_384)
def asked_kinds(request: str) -> frozenset[str]:
    kinds: frozenset[str] = frozenset()
    lower = request.lower() if request.isascii() else None
    if lower is None or _MAY_ASK.search(lower) is not None:
        for pattern, answer in _ASKS:
            if pattern.search(request):
                kinds |= answer
    if _POLAR.search(request):
        return kinds | {"polar"}
    if lower is not None and _MAY_NAME.search(lower) is None:
        return kinds  # no word any of _ASKS_NAMED's patterns needs
    said = request.replace("’", "'")
    phrase = _noun_phrase(said)
    for asking, alone, answer in _ASKS_NAMED:
        if asking.search(said) or (phrase and alone.search(phrase)):
            kinds |= answer
    return kinds


@lru_cache(maxsize=16_384)
def facts_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The kinds of facts in ``text`` and their values (lower case)."""
    facts = extract_facts(text)
    return frozenset(f.kind for f in facts), frozenset(f.value.lower() for f in facts)


# Values a year beside them qualifies: "26 vacation days left for 2026", "withheld in 2025 is $618".
_QUALIFIED = frozenset({"number", "money", "percent", "duration"})


@lru_cache(maxsize=16_384)
def given_kinds(text: str) -> frozenset[str]:
    """The kinds of value a sentence gives as answers (what a "when" or a "how much" looks for).

    A year beside another value says which year that value is of ("You have 26 vacation days
    left for 2026"), not when something happens, so it counts only when it is the value the
    sentence gives ("It came out in 2019")."""
    kinds = _without_contacts(text)
    if "year" in kinds and kinds & _QUALIFIED:
        kinds -= {"year"}
    said = text.replace("’", "'")
    if classified(said):
        kinds |= {"class"}
    if _MAY_PLACE.search(said) is not None and _PLACED.search(said) is not None:
        kinds |= {"place"}
    return kinds | {"polar"} if _NO.search(said) or _YES.search(said) else kinds


# A phone number written in groups of digits ("01632 960 555", "07700 900123") is read by the
# text reader as one number per group; seven digits or more in groups joined by one space, dash
# or dot are one phone number, a contact (an id), not an amount, a count or a house number. A
# name straight after a verb of getting in touch ("call Hollow Oak Zoo on ...", "email the Box
# Office") is whom to contact, not a place or a thing the sentence tells of. Closed classes.
_GROUPED = re.compile(r"\d[ .-]\d")
_JOINS = frozenset({" ", "-", "."})
_CONTACT_VERB = re.compile(
    r"\b(?:call|ring|phone|telephone|dial|text|e-?mail|contact|reach)\s+(?:us\s+at\s+|the\s+)?$",
    re.IGNORECASE,
)
_MAY_CONTACT = re.compile(r"call|ring|phone|dial|text|mail|contact|reach", re.IGNORECASE)


@lru_cache(maxsize=16_384)
def _without_contacts(text: str) -> frozenset[str]:
    """The kinds of the facts in ``text``, a phone number in groups of digits read as one id and
    the name of whom to contact left out (see above)."""
    kinds, _ = facts_of(text)
    grouped = "number" in kinds and _GROUPED.search(text) is not None
    named = "name" in kinds and _MAY_CONTACT.search(text) is not None
    if not grouped and not named:
        return kinds
    facts = sorted(extract_facts(text), key=lambda f: f.start)
    out: set[str] = set()
    run: list[int] = []  # the digits of each group of the run of numbers read so far

    def close() -> None:
        if len(run) >= 2 and sum(run) >= 7:
            out.add("id")
        elif run:
            out.add("number")
        run.clear()

    end = -1
    for f in facts:
        if f.kind == "number" and f.value.isdigit():
            if run and text[end : f.start] not in _JOINS:
                close()
            run.append(len(f.value))
            end = f.end
            continue
        close()
        if f.kind == "name" and _CONTACT_VERB.search(text, 0, f.start):
            continue
        out.add(f.kind)
    close()
    return frozenset(out)


# A phrase of place: a preposition of place and a noun phrase of no time ("in the old mill",
# "next to the ferry terminal", "behind the reptile house", "on the second floor"; not "in a
# minute", "at the moment", "on the weekend", "by the way", "in the spring", "on the second
# Tuesday", "by the deadline", "on the bank holiday"), or a word that places on its own
# ("upstairs", "next door"). Not after "your" or "my": "on your calendar", "in your diary" say
# where a user's own record is, not where to go. Closed classes of English.
_MAY_PLACE = re.compile(
    r"\b(?:in|at|on|near|by|beside|behind|opposite|inside|outside|under|above|below|beyond"
    r"|past|next|across|upstairs|downstairs|door|floor|level|aisle|corner|entrance|gate)\b",
    re.IGNORECASE,
)
_TIME_NOUNS = (
    r"moment|minute|minutes|hour|hours|day|days|week|weeks|weekend|weekends|fortnight|month"
    r"|months|year|years|morning|mornings|afternoon|afternoons|evening|evenings|night|nights"
    r"|spring|summer|autumn|fall|winter|season|seasons|holiday|holidays|deadline|deadlines"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekdays|party"
    r"|time|way|meantime|end|start|beginning|future|past|least"
    r"|most|latest|earliest|same|whole|total|average|rate|price|cost|list|phone|line|email"
    r"|website|site|web|app|portal|page|form|basis|case|event|mail|post"
)
_PLACED = re.compile(
    r"\b(?:(?:in|at|on|near|by|beside|behind|opposite|inside|outside|under|above|below|beyond"
    r"|past|next\s+to|across\s+from|across|close\s+to|in\s+front\s+of|at\s+the\s+back\s+of)"
    r"\s+(?:the|a|an|our|their|its|this|that|each|every)\s+"
    rf"(?!(?:[a-z][\w-]*\s+){{0,2}}(?:{_TIME_NOUNS})\b)[a-z][\w-]*"
    r"|upstairs|downstairs|next\s+door|floor\s+\d+|level\s+\d+|aisle\s+\d+)\b",
    re.IGNORECASE,
)


# A classification: a copula, an indefinite article, at least one modifier and the noun it
# classifies ("It's a folk festival by the river", "This is a non-refundable ticket", "it is a pop
# song by Inna"): it says what kind of thing something is, which answers "what genre" and, when a
# modifier speaks to the property asked, "is it a redeye flight" ("It is an overnight flight").
# The noun phrase ends at a preposition, a conjunction or a relative word (closed classes of
# English), at punctuation, or at a verb form in -ing or -ed after the noun that opens a phrase of
# its own ("a Biographical movie directed by", "a cheap morning flight landing at 5 pm"), one with
# a word after it (:func:`_opens_phrase`); at the end it is the noun ("a beautiful old building").
# An existential "there is" ("There is a small fee") classifies nothing.
_CLASS = re.compile(
    r"\b(?:is|was|are|were|be|'s)\s+(?:a|an)\s+([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){1,3})",
    re.IGNORECASE,
)
_PHRASE_END = re.compile(
    r"(?:at|in|on|by|from|to|for|with|of|about|off|and|or|but|nor|that|which|who|whose|where"
    r"|when|while|so)",
    re.IGNORECASE,
)


@lru_cache(maxsize=16_384)
def classified(text: str) -> str | None:
    """The noun a sentence classifies with a modifier ("It's a pop song" -> "song"), if any."""
    found = classification(text)
    return found[2] if found else None


_THERE = re.compile(r"\bthere\s*$", re.IGNORECASE)


@lru_cache(maxsize=16_384)
def classification(text: str) -> tuple[int, int, str] | None:
    """Where a sentence classifies something (the start and end of the modifiers and the noun)
    and the noun, if it does."""
    said = text.replace("’", "'")
    for m in _CLASS.finditer(said):
        if _THERE.search(said, 0, m.start()):
            continue  # "There is a small fee": nothing is classified
        words: list[str] = []
        end = m.start(1)
        for word in re.finditer(r"\S+", m.group(1)):
            low = word.group().lower()
            if _PHRASE_END.fullmatch(low) or (
                len(words) >= 2 and _opens_phrase(said, low, m.start(1) + word.end())
            ):
                break
            words.append(low)
            end = m.start(1) + word.end()
        if len(words) >= 2:
            return m.start(1), end, words[-1]
    return None


def _opens_phrase(said: str, word: str, at: int) -> bool:
    """Whether ``word``, ending at ``at``, is a verb form in -ing or -ed that opens a phrase of its
    own: its stem has a vowel ("landing", "directed"; not "thing" or "red"), an -ed is no "-eed"
    ("speed"), and a word follows it in the sentence (at the end it is the noun: "a new
    building.")."""
    if word.endswith("ing"):
        stem = word[:-3]
    elif word.endswith("ed") and not word.endswith("eed"):
        stem = word[:-2]
    else:
        return False
    return bool(_VOWEL.search(stem)) and bool(re.match(r"\s+\w", said[at:]))


_VOWEL = re.compile(r"[aeiouy]")


# Words that say yes or no in a reply ("They don't", "Nope, neither"): closed classes of English.
_NO = re.compile(r"\b(?:no|not|nope|neither|nor|never|none)\b|n't\b", re.IGNORECASE)
_YES = re.compile(r"\b(?:yes|yeah|yep|indeed|certainly)\b", re.IGNORECASE)


# A question back written without its question mark ("Where are you leaving from", "When do you
# need it", "Which city should I look in", "Would you like a table outside", "In which city"): a
# question word (a preposition may lead it) with at most two words of what it asks about and then
# an auxiliary and its subject, or an auxiliary and a personal pronoun or "there" at the head; a
# question word standing alone ("Where"), or with one word that makes it a question on its own
# ("How many", "Which city"; not "How lovely", "Who knows").
_SUBJECT = r"(?:you|u|i|we|they|it|he|she|there|your|the|this|that)"
_AUXILIARY = r"(?:" + AUX_WORDS + r")"
_LEAD = r"(?:(?:in|at|for|from|to|on|by|with)\s+)?"
_ASKS_BACK = re.compile(
    r"^(?:"
    + _LEAD
    + r"(?:what|when|where|which|who|whom|whose|how|why)(?:\s+[\w']+){0,2}\s+"
    + _AUXILIARY
    + r"\s+"
    + _SUBJECT
    + r"\b|"
    + _AUXILIARY
    + r"\s+(?:you|u|i|we|they|there)\b|"
    + _LEAD
    + r"(?:(?:what|which)(?:\s+(?!an?\b)[\w']+)?|(?:when|where|who|why)(?:\s+else)?"
    + r"|how(?:\s+(?:much|many|long|old|far|often|soon|come|about|big|early|late)(?:\s+[\w']+)?)?)\s*$)",
    re.IGNORECASE,
)
# Statements that open as a question does: a condition put first ("Should you need anything else,
# just ask", "Had you booked earlier, ...", "Were you to cancel, ..."), news or an offer ("Did you
# know the museum opens at 9", "May I suggest the salmon", "Did I mention ...").
_NOT_ASKING = re.compile(
    r"^(?:(?:should|had|were)\s+(?:you|u|i|we|they)\b[^,;]*[,;]"
    r"|did\s+(?:you|u)\s+know\b|did\s+i\s+(?:mention|say|tell)\b"
    r"|(?:may|might|can|could|let)\s+(?:i|me|we|us)\s+(?:just\s+)?"
    r"(?:suggest|recommend|add|say|mention|remind|point\s+out|propose)\b)",
    re.IGNORECASE,
)
# An acknowledgement before it ("Sure, in which city", "Ok. when will you get it").
_ACKNOWLEDGED = re.compile(r"^\s*(?:[\w']+\s*){1,2}[,.!:]\s*")


@lru_cache(maxsize=16_384)
def asks_back(sentence: str) -> bool:
    """Whether a sentence the bot said is a question to the user: it ends with a question mark,
    or reads as one without it ("Where are you leaving from", "when would you like to return
    it", "Where")."""
    text = sentence.strip()
    if text.endswith("?"):
        return True
    text = text.rstrip(".! ")
    if _asks(text):
        return True
    rest = _ACKNOWLEDGED.sub("", text, count=1)
    return rest != text and _asks(rest)


def asks_back_in(part: str, whole: str) -> bool:
    """Whether a part of a sentence the bot said asks back (:func:`asks_back`) and the sentence it
    was cut from does not open as a statement does ("Should you have any allergies" of "Should
    you have any allergies, tell the waiter")."""
    if not asks_back(part):
        return False
    if part == whole:
        return True
    text = whole.strip()
    rest = _ACKNOWLEDGED.sub("", text, count=1)
    return _NOT_ASKING.match(text) is None and _NOT_ASKING.match(rest) is None


def _asks(text: str) -> bool:
    return _ASKS_BACK.match(text) is not None and _NOT_ASKING.match(text) is None


# A number that counts what the bot found ("I found 10.", "There are 7 movies available", "I have
# 5 possibilities for you", "Search yielded 10 results"): a whole number after a verb of finding,
# or after the bot's own "there are" / "I have" / "we found" that brings in what it found. A
# number in any other frame may be an amount or a measure ("It is 180 per person", "Rent is
# 1200 a month", "It is 3 miles away") or the user's own balance ("You have 12 days left"), so
# it is not read as a count. Closed classes of English.
_FOUND_COUNT = re.compile(r"\b(?:found|yielded|returned)\s+(\d+)\b(?![.,:/-]\d)", re.I)
_COUNTED = re.compile(
    r"\b(?:there\s+(?:are|is|were|was)|there's|there're|(?:i|we)\s+(?:have|got|see|can\s+see)"
    r"|(?:i|we)'ve\s+(?:got|found))\s+(?:(?:about|around|over|only|just|exactly)\s+)?"
    r"(\d+)\b(?![.,:/-]\d)",
    re.I,
)
# "how many", "the number of": a count is what is asked.
_ASKS_COUNT = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.I)


def asks_a_count(request: str) -> bool:
    """Whether a request asks how many of something there are ("how many seats are left")."""
    return _ASKS_COUNT.search(request) is not None


@lru_cache(maxsize=16_384)
def only_counts(sentence: str) -> bool:
    """Whether every number a sentence gives counts what the bot found or lists ("I found 10.",
    "There are 7 movies available", "I have 5 possibilities for you"), so it gives no amount of
    money, no measure and no address: such a number answers "how many", not "what is my
    balance" or "how much is the total"."""
    numbers = [f for f in extract_facts(sentence) if f.kind == "number"]
    if not numbers:
        return False
    counted = {m.start(1) for m in _FOUND_COUNT.finditer(sentence)}
    counted |= {m.start(1) for m in _COUNTED.finditer(sentence)}
    return all(f.start in counted for f in numbers)
