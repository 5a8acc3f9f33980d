"""Reading a user message's sentence into tokens for the request segmenter
(:mod:`harness.detect.requests`).

A token is a word (lower-cased, its edge punctuation stripped) with the mark that ends it ("?",
".", or none), or a comma or semicolon standing alone. What is no word of a request becomes a
mark of its own: a list item's number ("(1)", "#2", "3-", "2 -" inside a numbered line) is "#",
a run of dashes or a slash standing alone is ";", and in a user's message so is a lone dash
between words before a part that asks on its own (:func:`_dash_asks`: "call my landlord - it
is urgent" is one request). A "+" or "&" standing alone is the word it stands for, and a title's
dot before a name ("Dr. Okafor") ends nothing. An emoticon or emoji after a word is a full stop
(:data:`_SMILEY`, :func:`_stopped`).
"""

from __future__ import annotations

import re

from harness.detect._needs import needs_probability
from harness.detect._request_words import _LEAD_OPENERS, _PREPOSITIONS, _Tok
from harness.text._shapes import (
    ASKS_FIRST,
    AUXILIARIES,
    TITLES,
    VERBS,
    WANTS,
    WH_SET,
    WORD,
    word_class,
)

# A run of dashes or a slash standing alone joins two parts as a semicolon does.
_DASH = re.compile(r"-{2,}|[—–/]")

_TOKEN = re.compile(r"[^\s,;]+|[,;]")
_EDGE = ".,;:!?\"'()“”‘’"


_DASH_STARTS = frozenset("-—–/")
"""The characters a :data:`_DASH` token starts with (the pattern is tried on those only)."""


_MARKS = {"?": "?", ".": ".", "!": "."}
"""The mark of a token by its last character."""


# A question or an exclamation with no space before the next sentence ("the price?Where is it").
_GLUED = re.compile(r"[?!](?=[^\W\d_])")


# A list item's number standing alone ("1.", "2)", "(3)", "#4", "5-"), and the first one of a list.
_ITEM = re.compile(r"\(?\d{1,2}[.)]|#\d{1,2}|\d{1,2}-")
_ITEM_STARTS = frozenset("(#0123456789")
_FIRST_ITEM = re.compile(r"(?:^|\s)(?:\(1\)|1\)|#1|1-)(?=\s)|(?:^|[:\n])\s*1(?:\.|\s-)(?=\s)")
"""A list's first item: "(1)", "1)", "#1", "1-" anywhere, "1." or "1 -" opening the message, a
line or what follows a colon (not "the number of tickets is 1.")."""
# The greetings a numbered message may open with ("hi 1 - ...", "hey there, 1 - ...", "good
# morning 1 - ..."; a closed class), each with up to two names or a group's word and then a comma,
# colon, "!", full stop or nothing (``_ADDRESSEE``: "Hi Sam, 1 - ...", "Hello team: 1. ...", "Hi
# there Anna! 1 - ...", "Hi Sam 1) ..."): one list for the message's test and the token's.
_HELLO_WORDS = (
    r"(?:hi|hiya|hello|hey|heya|howdy|greetings|good\s+(?:morning|afternoon|evening|night|day))"
)
_ADDRESSEE = r"(?:[A-Z][\w'’]*+|(?i:team|all|everyone|everybody|folks|guys))"
"""A capitalised word (a name) or a group's word (a closed class) after a greeting ("Sam",
"team"); not a request's own words ("Hi check balance: 1. ...", "Hello I need: 1. ...")."""
_HELLO = rf"(?i:{_HELLO_WORDS})(?:\s+(?i:there))?(?:\s++{_ADDRESSEE}){{0,2}}[,!:.]?\s+"
_GREETED_ITEM = re.compile(
    rf"(?:[!?.]\s+|^\s*{_HELLO})1\s-(?=\s)|^\s*{_HELLO}1\.(?=\s)(?=[\s\S]*?\s2\.\s)"
)
"""In a user's message, a list's first item "1 -" after a sentence's end or a greeting that opens
the message ("Good morning! 1 - ...", "hi 1 - ..."; not "version 2.1 - ..."), or "1." after such
a greeting when a "2." follows ("hello, 1. ... 2. ..."; not "Hello, 1. Find me a 2- or 3-bedroom
flat", a choice answered)."""
_GREETED = re.compile(rf"\s*{_HELLO}")
"""All that stands before a list's first item "1 -" or "1." that opens a sentence with a
greeting."""
_GREETED_LEAD = re.compile(rf"\s*{_HELLO}(?=(?:1(?:\s-|[.)-])|\(1\)|#1)\s)")
"""A greeting that opens a user's message before its list's first item (it ends where the item
stands): a sentence of it alone ("Hi there Anna! 1 - ...", "Good day! 1) ...") is no request."""
_NAMED_HELLO = re.compile(
    rf"\s*+(?i:{_HELLO_WORDS})(?:\s+(?i:there))?(?:\s++{_ADDRESSEE}){{1,2}}[,!:]"
)
"""A greeting of the closed class that opens a user's message with up to two capitalised words
(a name) or a group's word (a closed class), then a comma, "!" or ":" ("Hi Sam,", "Hello team!",
"Good morning Dr Lee,"; not "Hi, Sam needs a ride", a clause, nor "Hello Kitty backpacks, ...",
whose lowercase word names no one, nor "Hey Jude plus ...", a title with no punctuation)."""
_GREETING_TOKENS = 7
"""The most tokens a greeting before "1 -" has ("good morning there Sam Lee ," and the number):
the test reads no further, so a long numbered message stays linear."""
_NUMBER = re.compile(r"\d{1,2}")
_DIGIT_NEXT = re.compile(r"\s*+\d")
_LETTER_NEXT = re.compile(r"\s++[^\W\d_]")
_DASHED = re.compile(r"(?<![^\s,;])(\d{1,2})\s++-(?=[\s,;]|$)(?!\s*+\d)")
"""A number and a dash standing alone ("2 - ..."; not "2 - 3 nights"), with the number's group."""


def _dashed_items(message: str) -> frozenset[int]:
    """Where the numbers of a numbered message's items written "N -" stand: each the next number
    of its list, the last one before the number after it ("1 - a room for 2 - a quiet one 2 -
    a gym": the second "2"), so a quantity before a dash ("a table for 4 - outdoor") numbers
    nothing; a "1 -" starts a list again."""
    items: list[int] = []
    number, pending = 1, -1  # the last item's number, where the next one stands (-1: not seen)
    for m in _DASHED.finditer(message):
        n = int(m.group(1))
        if n == 1:
            if pending >= 0:
                items.append(pending)
            number, pending = 1, -1
        elif n == number + 1:
            pending = m.start(1)  # a later one replaces it: the earlier was a quantity
        elif n == number + 2 and pending >= 0:
            items.append(pending)
            number, pending = number + 1, m.start(1)
    if pending >= 0:
        items.append(pending)
    return frozenset(items)


_DOTTED = re.compile(r"(?<![^\s,;:(])(\d{1,2})\.(?=\s|$)")
"""A number and its dot standing alone ("2. ..."), with the number's group."""
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s,]*+$")
_BEFORE_READS = 40
"""How many characters before a number :func:`_numbered_items` reads for the word before it."""
_COUNTED = _PREPOSITIONS | WANTS | AUXILIARIES | frozenset({"of", "than", "only", "just", "around"})
"""Words a count follows ("a table for 2.", "I need 2.", "the total is 2."; closed classes)."""


def _numbered_items(message: str) -> frozenset[int]:
    """Where the numbers of a numbered message's items stand: those written "N -"
    (:func:`_dashed_items`) and those written "N." that are each the next number of their list
    ("1. renew my passport 2. Step 1 - ..."), not a count after a word a count follows ("1. book
    a table for 2. Then ..."); a "1." starts a list again. Each number's word before is read in a
    bounded window: the work stays linear."""
    items = set(_dashed_items(message))
    number = 0  # the last "N." item's number (0: none yet)
    for m in _DOTTED.finditer(message):
        n = int(m.group(1))
        if n == 1:
            number = 1
        elif n == number + 1:
            before = _WORD_BEFORE.search(message, max(0, m.start() - _BEFORE_READS), m.start())
            if before is None or before.group(1).lower() not in _COUNTED:
                items.add(m.start(1))
                number = n
    return frozenset(items)


_SIGNS = {"+": "plus", "&": "and"}
"""A sign standing alone between two words is the word it stands for ("Barnes & Noble" stays one
request as "Barnes and Noble" does: what follows opens no request)."""
_NAME = re.compile(r"\s*+([A-Z][\w']*+)")
"""What follows a title's dot before a name: a word with a capital letter (its group)."""


# An emoticon (":)", ";-(", ":D", "<3") or a run of emoji and pictographs (with their variation
# selector and joiner) after a word: it ends the sentence as a full stop does. An emoticon glued
# to what comes before follows a word of two letters or more, not a number or a single letter
# ("a 2:3 split", "7:3", "C:/" are no faces; "balance:)" and "for 2 :)" are); a heart may also
# be "less than 3" (:func:`_stopped`).
_SMILEY = re.compile(
    r"(?:(?<=[^\W\d_]{2})|(?<=\w)\s++)(?:[:;=][-'^]?[()\[\]DPpOo3|/\\*]++|<3++|\^_*+\^)(?=\s|$)"
    r"|(?<=\w)\s*+"
    "[\u2600-\u27bf\U0001f000-\U0001faff][\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]*+"
)


_SMILEY_MARKS = frozenset(":;=<^")
"""The characters an emoticon starts with (:data:`_SMILEY` is tried only on a sentence with one,
or with a character past ASCII)."""


def _without_emoji_end(text: str) -> str:
    """``text`` without the emoji and pictographs at its end (their variation selector and
    joiner too; one pass from the end: a pattern anchored at the end re-read a long run of emoji
    from each of its characters)."""
    k = len(text)
    while k and (
        "\u2600" <= text[k - 1] <= "\u27bf"
        or "\U0001f000" <= text[k - 1] <= "\U0001faff"
        or text[k - 1] in "\ufe0f\u200d"
    ):
        k -= 1
    return text[:k]


_AFTER = re.compile(r"\s*+([\w']*+)")
"""The word after an emoticon (its group; empty at the end or before a sign)."""


def _stopped(match: re.Match[str]) -> str:
    """A full stop for an emoticon or emoji (:data:`_SMILEY`), at its place in the message; a
    "<3" is a heart only at the end or before a word a request opens with ("love you <3 can
    you ..."), and "less than 3" before anything else ("in <3 days")."""
    face = match.group()
    if face.lstrip()[0] == "<":
        after = _AFTER.match(match.string, match.end())
        word = after.group(1).lower() if after else ""
        if word and word not in _LEAD_OPENERS:
            return face
    return "." + " " * (len(face) - 1)


def _tokens(
    text: str,
    offset: int,
    *,
    listed: bool = False,
    items: frozenset[int] = frozenset(),
    dashes: bool = False,
) -> list[_Tok]:
    """The tokens of ``text`` (at ``offset`` in the message); with ``listed`` (the message
    numbers its items from 1), a list item's number is a token of its own that ends the item
    before it (its word empty, its mark "#"); one written "N -" inside a line, or "N." ending
    the text, only where ``items`` has it (:func:`_numbered_items`); a greeting before a list's
    "1." is dropped."""
    out: list[_Tok] = []
    append = out.append
    new = tuple.__new__  # about half the cost of the named tuple's own constructor, per token
    for m in _TOKEN.finditer(text):
        raw = m.group()
        start, end = m.span()
        if raw.isalpha():  # most tokens: a plain word, no mark, nothing to strip
            append(new(_Tok, (raw.lower(), offset + start, offset + end, "")))
            continue
        if ("?" in raw or "!" in raw) and (glued := _GLUED.search(raw)):
            cut = glued.end()  # two tokens, the first ending its sentence
            out += _tokens(raw[:cut], offset + start, listed=listed, items=items, dashes=dashes)
            out += _tokens(
                raw[cut:], offset + start + cut, listed=listed, items=items, dashes=dashes
            )
            continue
        if raw in ",;":
            append(new(_Tok, ("", offset + start, offset + end, raw)))
            continue
        if (listed or start == 0) and raw[0] in _ITEM_STARTS and _ITEM.fullmatch(raw):
            if (
                raw == "1."
                and listed
                and 0 < len(out) < _GREETING_TOKENS
                and _GREETED.fullmatch(text, 0, start) is not None
            ):
                out.clear()  # "hello, 1. ...": the greeting before the list is no request's part
            append(new(_Tok, ("", offset + start, offset + end, "#")))
            continue
        if raw[0] in _DASH_STARTS and _DASH.fullmatch(raw):
            append(new(_Tok, ("", offset + start, offset + end, ";")))
            continue
        if raw == "-" and out and _NUMBER.fullmatch(out[-1].word):
            # "1 - ..." opening a line or after a greeting ("hi 1 - ..."), or "2 - ..." inside a
            # numbered message's line: the number and its dash (not "1 - 2", not "for 2 - 3
            # nights", not "for 4 - outdoor"); a greeting before the list is no request's part
            greeted = (
                listed
                and 1 < len(out) <= _GREETING_TOKENS
                and out[-1].word == "1"
                and _GREETED.fullmatch(text, 0, out[-1].start - offset) is not None
                and not _DIGIT_NEXT.match(text, end)
            )
            if (
                len(out) == 1
                or greeted
                or (listed and out[-1].start in items and not _DIGIT_NEXT.match(text, end))
            ):
                item = out.pop()
                if greeted:
                    out.clear()
                append(new(_Tok, ("", item.start, offset + end, "#")))
                continue
        if (
            dashes
            and raw == "-"
            and out
            and out[-1].word[-1:].isalpha()
            and _LETTER_NEXT.match(text, end)
            and _dash_asks(text, end)
        ):
            # with ``dashes`` (a user's message), a dash standing alone between words joins two
            # parts as a run of dashes does ("any meetings today - I am looking for a salon";
            # not "1 - 2", "for 4 - outdoor", "call my landlord - it is urgent")
            append(new(_Tok, ("", offset + start, offset + end, ";")))
            continue
        if raw in _SIGNS:  # "... right now + schedule a flight", "... my mastercard & what is"
            append(new(_Tok, (_SIGNS[raw], offset + start, offset + end, "")))
            continue
        word = raw.lower()
        if "’" in word:
            word = word.replace("’", "'")
        word = word.strip(_EDGE)
        if not word:
            continue
        mark = _MARKS.get(raw[-1], "")
        if mark == "." and word in TITLES and raw[0].isupper() and _names(text, end):
            mark = ""  # "Dr. Patel": the title's dot ends nothing (not "... my dr. What is ...")
        append(new(_Tok, (word, offset + start, offset + end, mark)))
    if (
        len(out) > 1
        and out[-1].mark == "#"
        and text[out[-2].end - offset - 1] != ":"
        and out[-1].start not in items
    ):
        # A number ending its sentence ("I need 2."), not an item after a colon ("Question: 1.")
        # nor the next item of a list ("1. renew my passport 2. Step 1 - ...")
        last = out.pop()
        raw = text[last.start - offset : last.end - offset]
        append(new(_Tok, (raw.lower().strip(_EDGE), last.start, last.end, _MARKS.get(raw[-1], ""))))
    return out


_DASH_VERBS = frozenset(VERBS.split("|"))
_DASH_QUESTION = WH_SET | AUXILIARIES | word_class("please id i'd")
"""How a question or a polite request after a dash opens (not "it's", "that's", "I'm": they
state)."""
_POINTERS = frozenset({"it", "that", "this", "them", "those", "these"})
"""Pronouns by which an imperative after a dash points back to what the part before it names
("reserve a table - make it at 8 pm": one request; a closed class)."""
_DASH_READS = 80
_LIKING = frozenset({"i", "we", "would", "i'd", "id", "we'd", "really", "also"})
"""What "like" follows when it wishes ("I'd like", "we would like"; not "it looks like rain")."""
_PART_END = re.compile(r"\s-\s|--|[,;—–/]")
"""Where the part after a dash ends (the next comma, semicolon, dash or slash)."""
_PART_READS = 200
"""How many characters of the part after a dash the needs model reads at most (a bounded window:
the work stays linear in a message of many dashes)."""
_EVEN = 0.5
"""A statement after a dash the needs model gives at least these odds of asking is a request."""
"""How many characters after a dash :func:`_dash_asks` reads (its first words)."""


def _dash_asks(text: str, end: int) -> bool:
    """Whether what follows a lone dash at ``end`` of ``text`` asks on its own (closed classes): a
    question word, an auxiliary or "please" first ("... - what time does the library open", "...
    - can you transfer 500"), an imperative that points back to nothing in its first three words
    ("... - cancel my dentist visit"; not "... - make it at 8 pm"), or a wish in its first four
    ("... - I want to book a massage"); a statement only when the model of what needs an answer
    gives it at least even odds ("... - my visa card got stolen"; not "... - it is urgent", "... -
    I have a flight at 10")."""
    words = WORD.findall(text[end : end + _DASH_READS].lower())
    if not words:
        return False
    if words[0] in _DASH_VERBS:
        return _POINTERS.isdisjoint(words[1:3])
    if words[0] in _DASH_QUESTION or any(
        w in WANTS and (w != "like" or words[k - 1] in _LIKING) for k, w in enumerate(words[1:4], 1)
    ):
        return True
    stop = _PART_END.search(text, end, end + _PART_READS)
    part = text[end : stop.start() if stop else end + _PART_READS].strip()
    return needs_probability(part) >= _EVEN


def _names(text: str, end: int) -> bool:
    """Whether a name follows a title's dot at ``end`` of ``text``: a capitalised word that
    opens no request or question (:data:`~harness.text._shapes.ASKS_FIRST`: "Dr. What is ..."
    is a sentence ending in a title and a question)."""
    name = _NAME.match(text, end)
    return name is not None and name.group(1).lower() not in ASKS_FIRST
