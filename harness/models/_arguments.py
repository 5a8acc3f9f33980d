"""Which part of a request fills which argument of a tool: what the offline model passes.

A tool's argument is filled from the request by the argument's name, as a reader of the request
would, and only with a value that fits it:

- a count (an integer argument) from the number before the argument's noun ("2 adults", "twelve
  adults", "a child" = 1: ``harness.text.spelled.count_of``);
- a date, a day or a month (an argument named ``date``, ``day``, ``month``, ``when`` ...) from a
  date the text layer reads (``harness.text.extract_facts``: "Saturday", "3 June", "Dec 22") or
  "today", "tomorrow", "tonight"; a time (``time``, ``hour``) from a time of day ("at 3pm");
- an identifier from the token with a digit that follows the argument's noun ("scooter 40213",
  "order #5512") or any such token when the name says it is one ("order_id", "ticket_number"),
  never a year, a date, a time or an amount;
- a name from the capitalised name before the argument's noun, kept whole ("King's Cross
  station", "the Basic plan"), a lower-case word there only after "the" ("the annual plan"), or a
  capitalised name after "to" following the noun ("change my plan to Premium"); a REQUIRED name
  argument found no other way takes a name the text layer reads that nothing else took ("with
  Mary Ann O'Neill"), never a day or a month;
- the free-text arguments ("request", "query", ...) get the whole clause;
- of the required string arguments left, the first gets the rest of the clause once another
  argument took a value ("scooter 7731 has a broken brake" gives ``problem`` "has a broken
  brake").

An optional argument keeps its default unless a value is found for it by its name. A required
argument with no value found is left out: the offline model does not make that call and asks
the user for the value (``lacks``; ``_asking.question_for`` words the question), rather than act
on a guess or say one back. A value the tool lists (a ``Literal`` type's choices) or the examples
its docstring gives for the argument ("an animal, e.g. penguins or otters") fill it when the
request names one, in the tool's spelling ("penguin feeding time" gives ``animal``
"penguins"). An
integer count the request does not name is 0 beside a count it names ("2 adult tickets":
``children`` 0).

Everything here is English: closed classes, not any bot's words.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from harness.models._actions import acts, asks_for_change, base_forms, is_question, request_form
from harness.models._answer import ANSWER_MARK, mask_answer, split_answer
from harness.models._answer_values import answered_args
from harness.models._arg_codes import code_arguments, find_code, takes_code
from harness.models._arg_codes import is_id as _is_id
from harness.models._arg_counts import (
    DOZEN,
    WHOLE_PARTY,
    decimal_before,
    labelled,
    lone_number,
    person,
    young,
)
from harness.models._arg_people import counts_people, described, for_people, party_of_parts
from harness.models._argnames import (
    DATE_NAMES,
    DESCRIBING,
    DURATIONS,
    GENERIC_COUNTS,
    ID_NAMES,
    PLACES,
    TIME_NAMES,
    UNIT_NAMES,
    UNITS,
    takes_money,
)
from harness.models._argnames import noun as _noun
from harness.models._argnames import stem_of as _stem_of
from harness.models._asking import choices, examples
from harness.text._shapes import AUXILIARIES, WH_SET, word_class
from harness.text.facts import DATE_WORDS, Fact, extract_facts
from harness.text.spelled import count_of
from harness.text.words import REQUEST_STOPWORDS, stem

__all__ = ["FREE_TEXT", "fill", "lacks", "names_when", "only_values"]

FREE_TEXT = frozenset({"request", "query", "text", "question", "message"})
"""Argument names that take the whole request (a tool that answers whatever is asked)."""

_RELATIVE_DAYS = frozenset({"today", "tomorrow", "tonight"})
_PREPOSITIONS = frozenset(["on", "of", "for", "with", "in", "at", "from"])
_PERSONAL = frozenset({"i", "i'd", "i'm", "i've", "i'll"})
_DATE_KINDS = frozenset({"date", "weekday"})
# Facts that are never an identifier: "cancel my order from 2024" names no order.
_NOT_ID_KINDS = frozenset({"date", "weekday", "year", "time", "money", "percent", "duration"})
_WORD = re.compile(r"#?[\w'\u2019-]+")
# Words a reader drops from the front of what is left ("I want to report that ...", "please").
_LEAD = frozenset(
    [
        "i",
        "i'd",
        "i'm",
        "we",
        "want",
        "would",
        "like",
        "to",
        "please",
        "can",
        "could",
        "you",
        "that",
        "this",
        "the",
        "my",
        "our",
        "a",
        "an",
        "and",
        "so",
        "also",
        "just",
        "hello",
        "hi",
        "hey",
    ]
)

_Span = tuple[str, int, int]


def _count(words: Sequence[str], noun: str | Collection[str]) -> int | None:
    """The count before ``noun`` (or one of the nouns ``noun``), or before up to two words that
    describe it ("2 adults", "2 large bikes", "2 stalls seats")."""
    nouns = {noun} if isinstance(noun, str) else noun
    for index, word in enumerate(words):
        if not index or _stem_of(word) not in nouns:
            continue
        for before in range(index - 1, max(-1, index - 4), -1):
            lower = words[before].lower()
            if lower == DOZEN:  # "a dozen eggs", "two dozen eggs"
                times = count_of(words[before - 1]) if before else None
                return 12 * (times or 1)
            found = count_of(words[before])
            if found is not None:
                return found
            if lower in _MORE:
                continue  # "2 more seats"
            if lower in REQUEST_STOPWORDS or lower[:1].isdigit():
                break
    return None


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"\+?\d[\d ()-]{5,}\d")


def _contact(text: str, parts: set[str]) -> str | None:
    """The email address or phone number ``text`` gives an argument named for one ("email",
    "phone_number"); None for another argument or none given."""
    if parts & {"email", "mail"}:
        found = _EMAIL.search(text)
        return found.group(0) if found else None
    if "phone" in parts or "mobile" in parts:
        found = _PHONE.search(text)
        return found.group(0) if found else None
    return None


def _measure(text: str, unit: str) -> float | None:
    """The number ``text`` gives right before ``unit`` or its name written out ("a 3 kg parcel",
    "2.5kg", "a 9.5 metre boat", "40 litres"); None."""
    names = [re.escape(unit), *(rf"{n}s?" for n in UNIT_NAMES.get(unit, "").split())]
    found = re.search(rf"(\d+(?:\.\d+)?)\s*-?\s*(?:{'|'.join(names)})\b", text, re.IGNORECASE)
    return float(found.group(1)) if found else None


_MORE = frozenset({"more", "extra", "additional", "further", "other"})


def _lone_count(words: Sequence[str], blocked: set[int]) -> int | None:
    """The one count the words name outside dates, times, amounts and identifiers ("order 4
    inner tubes"; ``_arg_counts.lone_number``), for a count whose name says nothing of what it
    counts ("quantity"); None for none or several."""
    skip = blocked | {i for i, w in enumerate(words) if _is_id(w) or w.lower() in ("a", "an")}
    found = lone_number(words, skip=skip)
    return None if found is None else int(found)


def _free_count(text: str, spans: Sequence[_Span], noun: str, blocked: set[int]) -> int | None:
    """The one number standing free in the request (no noun nor name after it, none before it:
    "add blankets to booking RS-4410, 2 please") when it names the count's ``noun`` with no
    number before it; None otherwise. A number next to a word it counts or names is that
    word's ("to 4 Birch Road", "for 2 nights", "room 12")."""
    words = [w for w, _, _ in spans]
    if not any(_stem_of(w) == noun for w in words):
        return None
    free = [
        i
        for i, w in enumerate(words)
        if i not in blocked
        and w.isdigit()
        and not _is_id(w)
        and (i + 1 == len(words) or words[i + 1].lower() in REQUEST_STOPWORDS)
        and not (i + 1 < len(words) and _capital(words[i + 1]))
        and (i == 0 or "," in _joined(text, spans, i - 1) or words[i - 1].lower() in _LEAD)
    ]
    bound = [i for i, w in enumerate(words) if w.isdigit() and i not in blocked and i not in free]
    return int(words[free[0]]) if len(free) == 1 and not bound else None


_COLLECTIVE = frozenset(stem(w) for w in ("party", "group", "team", "size"))
"""Nouns of a party as a whole: "a party of 5" counts no parties."""


def _party(words: Sequence[str]) -> int | None:
    """The count after "for" that no noun follows ("a table for four on Saturday", "for six
    tomorrow"): the size of a party; None when there is none, or a noun follows ("for 2
    nights", "for 3 suitcases", "for six friends": the project has no general reading of a
    noun of people beyond ``person``'s words, which ``_count`` reads already)."""
    for index in range(1, len(words)):
        if words[index - 1].lower() != "for":
            continue
        found = count_of(words[index])
        if found is None or words[index].lower() in ("a", "an", "one"):
            continue
        if _ends_party(words, index + 1):
            return found
    return None


def _ends_party(words: Sequence[str], index: int) -> bool:
    """Whether the phrase of a party's size ends before ``words[index]``: nothing follows, or a
    preposition, a day or a name."""
    after = words[index] if index < len(words) else ""
    return (
        not after
        or after.lower() in _PREPOSITIONS | _RELATIVE_DAYS | {"please", "under", "people"}
        or _capital(after)
        or _opens_day(" ".join(w for w in words[index : index + 3] if w != _ANSWER))
    )


def _decimal_end(text: str, spans: Sequence[_Span], index: int) -> int:
    """The end of the value that opens at word ``index``: after it, the digits its decimal point
    joins ("version 2.5" is "2.5", never "2")."""
    end = index + 1
    while (
        end < len(spans)
        and text[spans[end - 1][2] : spans[end][1]] == "."
        and spans[end][0].isdigit()
        and spans[end - 1][0][-1:].isdigit()
    ):
        end += 1
    return end


def _spans(text: str) -> list[_Span]:
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


def _range(spans: Sequence[_Span], fact: Fact) -> tuple[int, int] | None:
    """The word indexes ``fact`` covers in ``spans``."""
    inside = [i for i, (_, start, end) in enumerate(spans) if start < fact.end and end > fact.start]
    return (inside[0], inside[-1] + 1) if inside else None


def _free(span: tuple[int, int], taken: Sequence[tuple[int, int]]) -> bool:
    return all(span[1] <= start or span[0] >= end for start, end in taken)


def _capital(word: str) -> bool:
    return word[:1].isupper() and word.lower() not in _PERSONAL


def _modifier(words: Sequence[str], noun: str) -> tuple[int, int] | None:
    """The name before the argument's noun, kept whole ("King's Cross station", "the Basic
    plan", "Elm Street"; a lower-case word only after "the": "the annual plan"), or a capitalised
    name after "to" following it ("change my plan to Premium")."""
    for index, word in enumerate(words):
        if _stem_of(word) != noun:
            continue
        before = index - 1
        if before >= 0 and _capital(words[before]):
            start = before
            while start > 0 and _capital(words[start - 1]):
                start -= 1
            end = index + 1 if _capital(word) else index
            return start, end
        if (
            before >= 1
            and words[before - 1].lower() == "the"
            and words[before].lower() not in REQUEST_STOPWORDS
            and not words[before][:1].isdigit()
        ):
            return before, index
        if index + 2 < len(words) + 0 and words[index + 1].lower() == "to":
            start = index + 2
            if start < len(words) and _capital(words[start]):
                end = start + 1
                while end < len(words) and _capital(words[end]):
                    end += 1
                return start, end
    return None


# Lower-case words inside a name ("The Lord of the Rings", "Bank of England").
_NAME_JOINS = frozenset({"of", "the", "and", "de", "du", "la", "le", "von", "van", "der", "y"})
_NAME_OPENERS = frozenset({"the", "a", "an"})


def _whole_name(words: Sequence[str], span: tuple[int, int]) -> tuple[int, int]:
    """The name at ``span`` kept whole: with the capitalised words after lower-case joining
    words ("Lord" of "The Lord of the Rings" gives all of it) and a capitalised "The" before
    it."""
    start, end = span
    while True:
        after = end
        while after < len(words) and words[after] in _NAME_JOINS:
            after += 1
        if after == end or after >= len(words) or not _capital(words[after]):
            break
        end = after + 1
        while end < len(words) and _capital(words[end]):
            end += 1
    if start > 0 and words[start - 1].lower() in _NAME_OPENERS and _capital(words[start - 1]):
        start -= 1
    return start, end


def _text_of(text: str, spans: Sequence[_Span], span: tuple[int, int]) -> str:
    return text[spans[span[0]][1] : spans[span[1] - 1][2]].strip("#")


# Where a request's parts meet (not inside "£72.40" or "£1,000"): an amount in another part is
# that part's.
_PART_BREAK = re.compile(r"[,;.!?](?=\s|$)|\b(?:and|then|now|but|so|also)\b", re.IGNORECASE)
# A part with one of these has a subject of its own: a statement ("my balance says £12"), not
# the rest of the change asked for ("pay invoice 3320, the same £40 as last week").
_OWN_SUBJECTS = word_class("i we you he she they it i've i'm it's my our")


def _acted_part(text: str, tool: str) -> str:
    """The part of the clause ``text`` that asks for the change of ``tool`` by its verb
    (``_actions.asks_for_change``), with the parts after it that have no subject of their own
    ("pay invoice 3320, the same £40 as last week"); "" when no part asks for it ("my balance
    says £12, please top up" gives ``top_up`` the part "please top up"); the whole of ``text``
    when it is one part or ``tool`` is not asked for by a verb."""
    parts = [p for p in _PART_BREAK.split(text) if p and p.strip()]
    if len(parts) < 2 or not tool or not asks_for_change(text, tool):
        return text
    for index, part in enumerate(parts):
        if asks_for_change(part, tool):
            kept = [part]
            for after in parts[index + 1 :]:
                if _OWN_SUBJECTS.intersection(w.lower() for w, _, _ in _spans(after)):
                    break
                kept.append(after)
            return " ".join(kept)
    return ""


def _money(text: str) -> float | None:
    """The first amount of money the clause names; None for none. Never read from the rest of
    the request: an amount another clause names is that clause's ("top up £10 and donate to
    Oxfam" gives the donation no amount), so a money tool without one asks."""
    for fact in extract_facts(text) if text else ():
        if fact.kind == "money":
            try:
                return float(fact.value)
            except ValueError:
                continue
    return None


_PENCE = re.compile(r"(?<![\w.,])\d{1,6}\.\d{2}(?![\w.,]|\.\d)")
# A number with pence that is a day and a month ("14.06") or stands after a word of when
# ("at 10.30", "dated 12.04") is a date or a time, not money.
_DAY_MONTH = re.compile(r"(?:0?[1-9]|[12]\d|3[01])\.(?:0[1-9]|1[0-2])")
_WHEN_WORDS = word_class("on at dated by from until till before after since")
# The value of a request completed with the user's answer (``_answer.join_answer``): a number
# alone, or with a word of money after it ("20 quid").
_ANSWERED_AMOUNT = re.compile(
    r"(\d{1,6}(?:\.\d{1,2})?)(?:\s*(?:quid|pounds?|dollars?|euros?|bucks))?", re.IGNORECASE
)


# A count given alone as an answer ("3", "3 more").
_LONE_COUNT = re.compile(r"(\d{1,4})(?:\s+(?:more|extra))?")


_ORDINAL_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)", re.IGNORECASE)
# Words before a day of the month that make it a date ("on the 14th", "from 21st"), and the
# closed classes that may follow one ("the 14th at 3pm", "the 14th please"): any other word
# after it is a noun it counts ("the 2nd terminal", "for the 3rd time").
_ANSWER = ANSWER_MARK.rstrip(":")
_BEFORE_DAY = word_class(f"the on for from until till by before after {_ANSWER}")
_AFTER_DAY = (
    _PREPOSITIONS
    | DATE_WORDS
    | word_class("please thanks and or then but if so to till until by am pm")
)


def _day_of_month(text: str, spans: Sequence[_Span]) -> tuple[int, int] | None:
    """The word indexes of a day of the month named alone ("the 14th", "on the 21st", "the 3rd
    of May"), with its "the"; None when there is none. An ordinal counts something when a noun
    follows it ("the 2nd terminal", "for the 3rd time") or nothing names it a day ("my 2nd
    lesson", "it's my 1st")."""
    words = [w for w, _, _ in spans]
    for index, word in enumerate(words):
        if not _ORDINAL_DAY.fullmatch(word):
            continue
        if index + 1 < len(words):
            between = text[spans[index][2] : spans[index + 1][1]]
            after = words[index + 1].lower()
            joined = not re.search(r"[,.;:!?]", between)
            if joined and after not in _AFTER_DAY and not any(c.isdigit() for c in after):
                continue
        before = words[index - 1].lower() if index else ""
        if before not in _BEFORE_DAY:
            continue
        start = index - 1 if before == "the" else index
        return (start, index + 1)
    return None


# A house, flat, unit or gate number ("14", "14a", "2B").
_HOUSE_NUMBER = re.compile(r"\d{1,5}[A-Za-z]?")


def _joined(text: str, spans: Sequence[_Span], left: int) -> str:
    """What stands between the word ``left`` and the next: "" or spaces, or a comma."""
    return text[spans[left][2] : spans[left + 1][1]].strip()


def _counts_after(text: str, spans: Sequence[_Span], index: int) -> bool:
    """Whether the number at ``index`` counts the lower-case noun right after it ("Ash Grove 12
    boxes": 12 boxes, no house 12); "Willow Crescent 2 on Friday" keeps its number."""
    words = [w for w, _, _ in spans]
    after = index + 1
    return (
        after < len(words)
        and not _joined(text, spans, index)
        and words[after][:1].islower()
        and words[after].lower() not in REQUEST_STOPWORDS
    )


def _numbered(
    text: str, spans: Sequence[_Span], span: tuple[int, int], blocked: set[int]
) -> tuple[int, int]:
    """The place at ``span`` with the numbers that are part of it: the house number before a
    street ("31 Ash Grove", "2 The Crescent"), a flat, unit, gate or plot number after its word and
    the street after a comma ("Flat 7, 19 Quarry Road", "Unit 8, Dockside Yard"). A number is
    part of the place only right next to its capitalised words; a date's or a time's never is
    ("on 3 May", "at 9am"), nor one that counts the lower-case noun after it ("Ash Grove 12
    boxes")."""
    words = [w for w, _, _ in spans]
    start, end = span

    def number(index: int) -> bool:
        return (
            0 <= index < len(words)
            and index not in blocked
            and _HOUSE_NUMBER.fullmatch(words[index]) is not None
        )

    if number(start - 1) and not _joined(text, spans, start - 1) and _capital(words[start]):
        start -= 1  # "31 Ash Grove"
        if (
            start >= 2
            and _joined(text, spans, start - 1) == ","
            and number(start - 1)
            and _capital(words[start - 2])
            and not _joined(text, spans, start - 2)
        ):
            start -= 2  # "Flat 7, 19 Quarry Road"
    if (
        _capital(words[end - 1])
        and number(end)
        and not _joined(text, spans, end - 1)
        and not _counts_after(text, spans, end)
    ):
        end += 1  # "Flat 7"
        if end < len(words) and _joined(text, spans, end - 1) == ",":
            after = end + 1 if number(end) else end
            if after < len(words) and _capital(words[after]):
                end = after + 1
                while end < len(words) and _capital(words[end]) and end not in blocked:
                    end += 1  # ", 19 Quarry Road", ", Harbour Park"
    return start, end


def _opens_day(text: str) -> bool:
    """Whether ``text`` opens with a day of the month ("the 14th", "on the 21st")."""
    found = _day_of_month(text, _spans(text))
    return found is not None and found[0] == 0


def _bare_money(acted: str, text: str) -> float | None:
    """A number of the part ``acted`` of the clause ``text`` that can only be an amount of
    money: the value the user gave when asked (``_answer.join_answer``: "donate, answer: 20"),
    or one with pence ("12.50") that is no day and month ("14.06") and stands after no word of
    when ("at 10.30"); None otherwise."""
    joined = split_answer(text)
    if joined is not None and acted.rstrip(" .!").endswith(joined[1]):
        amount = _ANSWERED_AMOUNT.fullmatch(joined[1])
        if amount is not None:
            return float(amount.group(1))
    for pence in _PENCE.finditer(acted):
        before = acted[: pence.start()].split()[-1:]
        if _DAY_MONTH.fullmatch(pence.group(0)) or (before and before[0].lower() in _WHEN_WORDS):
            continue
        return float(pence.group(0))
    return None


def _from_whole(whole: str, kinds: frozenset[str], words: frozenset[str]) -> str | None:
    for fact in extract_facts(whole):
        if fact.kind in kinds:
            # The words it covers: no full stop after it ("on Saturday. bay: B7").
            return whole[fact.start : fact.end].rstrip(".")
    return next((w for w, _, _ in _spans(whole) if w.lower() in words), None)


def fill(
    properties: Mapping[str, Mapping[str, Any]],
    required: Sequence[str],
    text: str,
    *,
    tool: str = "",
    whole: str = "",
    strict: bool = False,
    about: str = "",
    answers: bool = True,
) -> dict[str, Any]:
    """The arguments of the tool named ``tool`` with ``properties`` (JSON schema) and
    ``required`` names for the request clause ``text`` (see the module docstring); a count, a
    date or a time the clause does not name is read from ``whole``, the message it is part of.
    With ``strict``, only the values the request names plainly: counts, dates, days, times and
    identifiers (no free text, no names, no rest). ``about`` is the tool's docstring: a value
    the request names that is one of an argument's choices (a ``Literal`` type) or of the
    examples the docstring gives for it ("an animal, e.g. penguins or otters") fills it. With
    ``answers`` (the default), each answer joined to the request also fills, detail by detail,
    what was still lacking when it was given (``_answered``)."""
    spans = _spans(text)
    words = [w for w, _, _ in spans]
    facts = extract_facts(mask_answer(text))
    located = [(fact, _range(spans, fact)) for fact in facts]
    blocked = {
        i
        for fact, span in located
        if span is not None and fact.kind in _NOT_ID_KINDS
        for i in range(*span)
    }
    joined = split_answer(text)
    answered: int | None = None
    if joined is not None:
        # The mark of the user's answer ("..., answer: Biscuit") is no part of any value.
        blocked.update(i for i, w in enumerate(words) if w.lower() == _ANSWER)
        lone = _LONE_COUNT.fullmatch(joined[1])
        answered = int(lone.group(1)) if lone is not None else None
    args: dict[str, Any] = {}
    taken: list[tuple[int, int]] = []  # word index ranges given to an argument
    counts: list[str] = []
    rest: list[str] = []
    places: dict[
        str, tuple[tuple[int, int], tuple[int, int]]
    ] = {}  # name: its span, its numbered span
    # The tool's counts (integer arguments that are no money, no measure): a party's size is
    # read from any word for people only when one count is of people; a count written after a
    # word of counting ("quantity 9") is the one count that is no length of time.
    whole_counts = [
        n
        for n, sch in properties.items()
        if sch.get("type") == "integer"
        and not takes_money(n)
        and n.lower().rsplit("_", 1)[-1] not in UNITS
    ]
    untimed = [n for n in whole_counts if _noun(n) not in DURATIONS]
    postal, ided = code_arguments(properties)
    nouns = {n: _noun(n) for n in properties}
    for name, schema in properties.items():
        kind = schema.get("type", "string")
        noun = _noun(name)
        if kind in ("integer", "number"):
            acted = _acted_part(text, tool) if takes_money(name) else ""
            money = _money(acted) if acted else None
            if money is None and acted:
                # A bare number is money only when it can be nothing else: the value the user
                # gave when asked for it ("top up my wallet, answer: 20", ``_answer``), or one
                # with pence ("12.50"); "refund 20 for order 5512" still asks.
                money = _bare_money(acted, text)
            if money is not None:
                # An amount of money ("£20", "20 pounds") for an amount.
                args[name] = int(money) if kind == "integer" and money.is_integer() else money
                continue
            unit = name.lower().rsplit("_", 1)[-1]
            if unit in UNITS:
                # A measure in the argument's unit ("a 3 kg parcel", "2.5kg"): no count.
                measured = _measure(text, unit)
                if measured is not None:
                    args[name] = int(measured) if kind == "integer" else measured
                continue
            counts.append(name)
            # A party's size from other words for people, unless the request names children
            # beside them: "2 adults and 3 children" gives a single ``people`` neither number
            # (it is asked for), in the clause or the rest of the request.
            sizes = [n for n in whole_counts if counts_people(n, about)]
            apart = {_noun(n) for n in whole_counts if n != name}
            kinds_named = young(words) or bool(whole and young([w for w, _, _ in _spans(whole)]))
            whole_party = person(noun, general=True) or described(name, about)
            people = whole_party and len(sizes) == 1 and not kinds_named
            found = decimal_before(text, spans, {noun}) if kind == "number" else None
            if found is None:
                found = _count(words, noun)
            if found is None:
                # A count written after its label ("nights: 4", "a party of 5", "quantity 9").
                labels = {noun} | (WHOLE_PARTY if people else set())
                only = untimed == [name] or (kind == "number" and not untimed)
                found = labelled(text, spans, labels, generic=only)
            if found is None and noun in GENERIC_COUNTS:
                found = _lone_count(words, blocked)
            if found is None and people:
                # A count of people named by another word for the whole party ("11 guests"
                # for ``people``, "12 passengers" for ``guests``; never "2 adults", whose
                # children may be named in another clause), as a party ("for four") or by who
                # they are ("for six friends": ``_arg_people``).
                found = _count(words, WHOLE_PARTY - _COLLECTIVE) or _party(words)
                found = found or for_people(words, apart, blocked)
            if whole_party and len(sizes) == 1:
                # A party named in parts after "for" ("for 3 adults and 2 children", "for me
                # and my 3 sisters"): the sum of its parts (``_arg_people``), when no count of
                # the whole party was read or the count read is its first part ("for three of
                # us plus a toddler").
                found = party_of_parts(words, apart, blocked, first=found) or found
            if found is None and len(untimed) == 1:
                found = _free_count(text, spans, noun, blocked)
            if found is None and whole:
                found = _count([w for w, _, _ in _spans(whole)], noun)
            if found is None and answered is not None and name in required:
                # The number the user gave when asked ("extend my rental, answer: 3"): the
                # first count still lacking takes it.
                found, answered = answered, None
            if found is not None:
                args[name] = found
            continue
        if kind != "string":
            continue
        contact = _contact(text, set(name.lower().split("_")))
        if contact is not None:
            args[name] = contact
            continue
        if name in FREE_TEXT:
            if not strict:
                args[name] = text
            continue
        span: tuple[int, int] | None = None
        parts = set(name.lower().split("_"))
        listed = choices(schema)
        if listed:
            # A value the tool lists ("Premium" of Literal["Basic", "Premium"]), in the tool's
            # own spelling, whatever its case or number in the request; nothing else fits.
            named = None if strict else _named(words, listed, taken)
            if named is not None:
                args[name] = named[1]
                taken.append(named[0])
            elif name in required and not strict:
                rest.append(name)
            continue
        if noun in DATE_NAMES or name.lower().endswith(("date", "dates", "day", "days")):
            kinds, names = _DATE_KINDS, _RELATIVE_DAYS
            if noun == "month":
                kinds, names = frozenset({"month", "date"}), frozenset()
        elif noun in TIME_NAMES or _takes_time(name):
            kinds, names = frozenset({"time"}), frozenset()
        else:
            kinds = names = frozenset()
            code = takes_code(name)
            skip = blocked | _covered(taken) if code else blocked
            coded = find_code(
                text,
                spans,
                name,
                nouns,
                (postal, ided),
                skip,
                by_name=bool(parts & ID_NAMES) or code,
                widen=lambda index: _decimal_end(text, spans, index),
                counted={nouns[n] for n in whole_counts},
            )
            if coded is not None:
                span = coded
            elif not strict and not parts & ID_NAMES and name not in postal:
                span = _modifier(words, noun)
                if span is None and name in required and noun not in DESCRIBING:
                    span = next(
                        (
                            _whole_name(words, r)
                            for fact, r in located
                            if fact.kind == "name" and r is not None and _free(r, taken)
                        ),
                        None,
                    )
        if (
            span is None
            and not kinds
            and not strict
            and not parts & ID_NAMES
            and name not in postal
        ):
            # One of the examples the tool's docstring gives for the argument ("an animal, e.g.
            # penguins or otters"), named in the request ("penguin feeding time").
            named = _named(words, examples(name, about), taken)
            if named is not None:
                args[name] = named[1]
                taken.append(named[0])
                continue
            if (
                name in required
                and tool
                and not acts(tool)
                and noun not in DESCRIBING
                and _asks_or_names(text)
            ):
                # A tool that reads: the one noun phrase the request has left once its question
                # and request words and the tool's own words are taken out ("when are the
                # penguins fed" gives ``feeding_times`` "penguins").
                span = _leftover(words, blocked | _covered(taken), tool, about, name)
        if kinds and span is None and name.lower().endswith(("dates", "days")):
            ranges = [r for fact, r in located if fact.kind in kinds and r is not None]
            span = (ranges[0][0], ranges[-1][1]) if ranges else None
        if kinds and span is None:
            span = next(
                (r for fact, r in located if fact.kind in kinds and r is not None), None
            ) or next(((i, i + 1) for i, w in enumerate(words) if w.lower() in names), None)
            if span is None and names:
                span = _day_of_month(text, spans)
            if span is None and whole:
                value = _from_whole(whole, kinds, names)
                if value is not None:
                    args[name] = value
                    continue
        if span is None or not _free(span, taken):
            if name in required and not strict:
                rest.append(name)
            continue
        if parts & PLACES:
            bare, span = span, _numbered(text, spans, span, blocked)
            if span != bare:
                places[name] = (bare, span)
        value = _text_of(text, spans, span)
        if span[1] < len(words) and value.lower().endswith(("'s", "\u2019s")):
            value = value[:-2]  # the owner of what follows: "Daisy's appointment" is Daisy's
        args[name] = value
        taken.append(span)
    for name, (bare, span) in places.items():
        # One number fills one argument: a number a place took is no count too. When a count
        # holds it and the request says it once, the place keeps its name without it.
        held = [
            w
            for i, w in enumerate(words)
            if span[0] <= i < span[1] and not bare[0] <= i < bare[1] and w.isdigit()
        ]
        if any(
            n in args and args[n] == int(w) and sum(x == w for x in words) == 1
            for w in held
            for n in counts
        ):
            args[name] = _text_of(text, spans, bare)
    if counts and any(n in args and _noun(n) not in DURATIONS for n in counts) and not strict:
        for name in counts:
            # "2 adult tickets": no children. A length of time is never 0 ("rent 3 small
            # bikes" names no hours): it is asked for; nor does one make another count 0 ("a
            # cabin for 3 nights" names no guests).
            if name in required and _noun(name) not in DURATIONS:
                args.setdefault(name, 0)
    describing = next((n for n in rest if _noun(n) in DESCRIBING), None)
    if describing is not None and taken:
        value = _rest(text, spans, taken, tool)
        if not value and whole and text in whole:
            # Nothing left in the clause: the rest of the request says it ("can you report
            # scooter 2290? the brake is loose").
            others = whole.replace(text, " ")
            value = _rest(others, _spans(others), (), tool)
        if value:
            args[describing] = value
    if joined is not None and not strict and answers:
        # The user's answers fill what the request lacked, detail by detail and each whole
        # ("next Tuesday", "Friday for 6"): ``_answer_values``.
        args.update(_answered(properties, required, text, tool=tool, about=about))
    return args


def _answered(
    properties: Mapping[str, Mapping[str, Any]],
    required: Sequence[str],
    text: str,
    *,
    tool: str,
    about: str,
) -> dict[str, Any]:
    """The values the answers joined to a request in ``text`` give, the first answer first, each
    only to the arguments still lacking when it was given: "book a boat" answered "next Sunday",
    then "4", books "next Sunday" for 4."""
    joined = split_answer(text)
    if joined is None:
        return {}
    before = _answered(properties, required, joined[0], tool=tool, about=about)
    given = {
        **fill(properties, required, joined[0], tool=tool, about=about, answers=False),
        **before,
    }
    lacking = [n for n in required if n in properties and n not in given]
    return {**before, **answered_args(properties, lacking, joined[1])}


def _asks_or_names(text: str) -> bool:
    """Whether ``text`` is a question, is worded as a request, or only names what it wants with
    no verb ("Penguin feeding time"): a statement ("bike 51877 has a flat tyre") gives no
    leftover phrase as a value."""
    if is_question(text) or request_form(text):
        return True
    return not any(w.lower() in AUXILIARIES or w.lower() in _BE for w, _, _ in _spans(text))


_BE = frozenset({"be", "been", "being", "has", "have", "had", "'s", "it's", "got", "gets"})


def _covered(taken: Sequence[tuple[int, int]]) -> set[int]:
    return {i for start, end in taken for i in range(start, end)}


_LEFT_OUT = REQUEST_STOPWORDS | frozenset(_LEAD) | WH_SET | AUXILIARIES
_MAX_PHRASE = 3


def _leftover(
    words: Sequence[str], blocked: set[int], tool: str, about: str, name: str
) -> tuple[int, int] | None:
    """The word range of the one phrase of ``words`` (outside ``blocked``) that is none of the
    request's question or request words nor a word of the tool ``tool`` (its name, its docstring
    ``about``, the argument ``name``); None when none is left, or several compete."""
    own = {
        _stem_of(w) for w in re.findall(r"[A-Za-z]+", f"{tool} {about} {name}".replace("_", " "))
    }
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for index, word in enumerate([*words, ""]):
        lower = word.lower()
        following = words[index + 1] if index + 1 < len(words) else ""
        keep = (
            bool(word)
            and index not in blocked
            and lower not in _LEFT_OUT
            and not any(c.isdigit() for c in word)
            and count_of(lower) is None  # a number in words ("a dozen bags") is no name
            and lower != DOZEN
            # nor is the label of a number ("qty 6", "no. 7")
            and not (lower in GENERIC_COUNTS | ID_NAMES and any(c.isdigit() for c in following))
            and _stem_of(lower) not in own
            and base_forms(lower) == lower  # an irregular past is a verb ("fed")
            and not (len(lower) > 4 and lower.endswith("ed"))  # so is a past ("cancelled")
            and not (len(lower) > 5 and lower.endswith("ing"))  # and a verb's "-ing" form
        )
        if keep and start is None:
            start = index
        elif not keep and start is not None:
            runs.append((start, index))
            start = None
    if len(runs) != 1 or runs[0][1] - runs[0][0] > _MAX_PHRASE:
        return None
    return runs[0]


def _named(
    words: Sequence[str], values: Sequence[str], taken: Sequence[tuple[int, int]]
) -> tuple[tuple[int, int], str] | None:
    """The first of ``values`` the words name, word by word (stems, any case), with its word
    range; None when none is named or its words are taken."""
    stems = [_stem_of(w) for w in words]
    for value in values:
        wanted = [_stem_of(w) for w in _WORD.findall(value)]
        if not wanted:
            continue
        for start in range(len(stems) - len(wanted) + 1):
            span = (start, start + len(wanted))
            if stems[span[0] : span[1]] == wanted and _free(span, taken):
                return span, value
    return None


_JOINING = frozenset({"and", "for", "on", "at", "the", "of", "in", "with", "plus"})


def only_values(properties: Mapping[str, Any], text: str) -> bool:
    """Whether ``text`` is only values for arguments of ``properties`` with their nouns, no
    verb and no other word ("2 adults", "and a child for Saturday"): a fragment of a request
    worded elsewhere in its sentence."""
    nouns = {_noun(name) for name in properties}
    spans = _spans(text)
    dated = {
        i
        for fact in extract_facts(text)
        if fact.kind in ("date", "weekday", "month", "time")
        for i in range(*(_range(spans, fact) or (0, 0)))
    }
    return bool(spans) and all(
        i in dated
        or count_of(w) is not None
        or _stem_of(w) in nouns
        or w.lower() in _JOINING
        or w.lower() in _RELATIVE_DAYS
        for i, (w, _, _) in enumerate(spans)
    )


def names_when(name: str) -> bool:
    """Whether the argument ``name`` takes a date, a day, a month or a time."""
    noun = _noun(name)
    return (
        noun in DATE_NAMES
        or noun in TIME_NAMES
        or _takes_time(name)
        or name.lower().endswith(("date", "dates"))
    )


def _takes_time(name: str) -> bool:
    """Whether the argument's last word is "time" ("time", "pickup_time"): its stem ("tim") is not
    among ``TIME_NAMES``, so the noun alone does not tell."""
    return name.lower().split("_")[-1] in ("time", "times")


def lacks(properties: Mapping[str, Any], required: Sequence[str], args: Mapping[str, Any]) -> bool:
    """Whether ``args`` lack a required argument of ``properties`` (a value the request does not
    give, which the user is asked for rather than guessed)."""
    return any(name in properties and name not in args for name in required)


def _naming(word: str, value: str) -> bool:
    """Whether ``word`` names the identifier ``value`` after it ("scooter", "number")."""
    return (_is_id(value) and word.lower() not in REQUEST_STOPWORDS) or word.lower() in ID_NAMES


def _rest(
    text: str,
    spans: Sequence[_Span],
    taken: Sequence[tuple[int, int]],
    tool: str,
) -> str:
    """The clause without the words given to other arguments (and the nouns naming each, as in
    "scooter number 40213"), its leading fillers, the tool's own words ("report ...") and
    punctuation dropped."""
    drop: set[int] = set()
    for start, end in taken:
        drop.update(range(start, end))
        index = start - 1
        while index >= 0 and index >= start - 2 and _naming(spans[index][0], spans[start][0]):
            drop.add(index)  # the noun before an identifier: "scooter 40213"
            index -= 1
        if index >= 0 and spans[index][0].lower() in _PREPOSITIONS:
            # "the bell on scooter 5520 is broken": "the bell is broken"; "a broken dock at
            # Angel": "a broken dock"
            drop.add(index)
    own = {_stem_of(w) for w in tool.split("_") if w}
    kept = [w for i, (w, _, _) in enumerate(spans) if i not in drop]
    while kept and (kept[0].lower() in _LEAD or _stem_of(kept[0]) in own):
        kept.pop(0)
    return " ".join(kept)
