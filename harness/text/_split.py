"""Splitting text into sentences and claims, with offsets into the original text.

Bot messages are Markdown (bold, lists, inline code), and instructions hold Power Fx references
(``{System.Bot.DisplayName}``) and code spans: a dot inside those never ends a sentence. Every
piece keeps its ``start``/``end`` in the original text, so a report can mark exactly the passage
that was repeated.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from harness.text._records import slot_maker


def _split_words(text: str) -> list[str]:
    return text.split()


__all__ = ["Span", "protected_spans", "split_claims", "split_sentences", "strip_markdown"]


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of a text: ``text == original[start:end]``."""

    start: int
    end: int
    text: str

    def __reduce__(self) -> tuple[type[Span], tuple[int, int, str]]:
        # Pickled as the constructor's arguments, which load faster than the fields one by one
        # (analyses travel between ``harness detect``'s worker processes).
        return (Span, (self.start, self.end, self.text))


@slot_maker(Span)
def _span(start: int, end: int, text: str) -> Span:
    """``Span(start, end, text)``, the same object, each field set through its slot rather than
    by the frozen dataclass's ``__init__`` (which sets each through ``object.__setattr__``, about
    1.6 times the cost; 100,000 messages make some 300,000 spans): :func:`slot_maker`."""
    return Span(start, end, text)


# Regions a sentence never ends inside: Power Fx / template references, code spans, fenced code,
# URLs, e-mail addresses, Markdown link targets. Each alternative fails within the run it started
# (a link target ends at the next "]", an address starts where its run of characters starts), so
# scanning is linear in the text.
_PROTECTED = re.compile(
    r"```.*?```"  # fenced code
    r"|`[^`\n]+`"  # inline code
    r"|\{[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*\}"  # {…} with one level of nesting
    r"|\]\([^)\s\]]+\)"  # a Markdown link target
    r"|\b(?:https?://|www\.)[^\s<>\"')\]]+"
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    re.DOTALL,
)

# Words whose trailing dot is not a sentence end.
_ABBREVIATIONS = frozenset(
    _split_words(
        """
    e.g i.e etc vs mr mrs ms dr prof st no nos approx est dept inc ltd co corp jr sr fig vol ref
    a.m p.m u.s u.k jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur
    thurs fri sat sun
    """
    )
)

# A sentence ends at . ! ? … (with closing quotes/brackets/emphasis) before white space, or at a
# line break. The candidate end is then checked against protected regions and abbreviations.
# Written to start with a character class, which the regex engine skips to in C, rather than with
# a look-behind it tries at every position (twice as fast; the same matches as
# ``(?<![.!?…])[.!?…]+[\"'”’)\]*_]*(?=\s)|\n`` from any position: the look-behind, tried only
# after a mark, says it is not the second of a run, which matters when a scan starts mid-run).
_END = re.compile(r"[.!?…\n](?:(?<=\n)|(?<![.!?…][.!?…])[.!?…]*[\"'”’)\]*_]*(?=\s))")
_FOLLOWING = re.compile(r"\s*(\S?)")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•·▪◦–]|\d{1,3}[.)]|[a-z][.)]|#{1,6})\s+")
_TRIM = " \t\r\n"
_ALNUM = re.compile(r"[^\W_]")
"""A letter or digit: the characters ``str.isalnum`` holds (``\\w`` without the underscore)."""


def protected_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` regions of ``text`` a split never cuts: code, ``{…}``, URLs, e-mails."""
    return [m.span() for m in _PROTECTED.finditer(text)] if _may_protect(text) else []


def _may_protect(text: str) -> bool:
    return (
        "`" in text or "{" in text or "](" in text or "@" in text or "://" in text or "www." in text
    )


def _inside(pos: int, regions: list[tuple[int, int]]) -> bool:
    """Whether ``pos`` falls in one of ``regions`` (sorted and disjoint, as ``finditer`` gives)."""
    i = bisect_right(regions, pos, key=lambda region: region[0])
    return i > 0 and regions[i - 1][0] <= pos < regions[i - 1][1]


def _abbreviation_before(text: str, dot: int) -> bool:
    """Whether the dot at ``dot`` closes an abbreviation or a single initial ("J. Smith")."""
    start = dot
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "."):
        start -= 1
    word = text[start:dot].lower()
    if not word:
        return False
    if word in _ABBREVIATIONS:
        return True
    return len(word) == 1 and word.isalpha() and text[start].isupper()


def _lower_after(text: str, end: int) -> bool:
    """Whether a lower-case letter is the first thing after the white space at ``end``."""
    following = _FOLLOWING.match(text, end, end + 64)  # a dot this far from a word ends anyway
    return following is not None and following.group(1).islower()


def _pieces(text: str) -> list[tuple[int, int]]:
    """Sentence boundaries as (start, end) offsets, before trimming."""
    regions = protected_spans(text)
    cuts: list[tuple[int, int]] = []
    begin = 0
    for match in _END.finditer(text):
        end = match.end()
        if match.group() != "\n":
            if regions and _inside(match.start(), regions):
                continue
            if match.group()[0] == "." and _abbreviation_before(text, match.start()):
                continue
            # "... 3.5 days" never matches (no white space after the dot); a lower-case word
            # after a dot is most often an abbreviation we did not know ("approx. five").
            if match.group()[0] == "." and _lower_after(text, end):
                continue
        cuts.append((begin, end))
        begin = end
    cuts.append((begin, len(text)))
    return cuts


@lru_cache(maxsize=32_768)
def split_sentences(text: str) -> tuple[Span, ...]:
    """Sentences and list items of ``text``, each with its offsets; empty pieces dropped.

    A dot inside ``{…}``, a code span, a URL or an e-mail address, after an abbreviation, or
    inside a number never ends a sentence. Each line of a list is its own sentence.
    """
    spans: list[Span] = []
    for start, end in _pieces(text):
        piece = text[start:end]
        mark = _LIST_MARK.match(piece)
        if mark:
            start += mark.end()
        while start < end and text[start] in _TRIM:
            start += 1
        while end > start and text[end - 1] in _TRIM:
            end -= 1
        if end > start and _ALNUM.search(text, start, end):
            spans.append(_span(start, end, text[start:end]))
    return tuple(spans)


# Where a sentence splits into claims: semicolons, a colon that introduces a list of clauses,
# a dash between clauses, and "and"/"but" after a comma.
# ``;\s+|(?<!\s)\s+[—–]\s+|,\s+(?:and|but|plus|so|while)\s+|\.\s+(?=[a-z])``, each way told by
# its first character, written to start with a character class (see ``_END``).
_CLAUSE = re.compile(
    r"[;,.\s](?:(?<=;)\s+|(?<=\s)(?<!\s\s)\s*[—–]\s+|(?<=,)\s+(?:and|but|plus|so|while)\s+"
    r"|(?<=\.)\s+(?=[a-z]))"
)


@lru_cache(maxsize=32_768)
def split_claims(text: str) -> tuple[Span, ...]:
    """Claims of ``text``: its sentences and list items, split further at clause boundaries
    (``;``, `` — ``, ``, and``) when each side still has words of its own."""
    claims: list[Span] = []
    for sentence in split_sentences(text):
        if _CLAUSE.search(sentence.text) is None:  # one part: the sentence is the claim
            claims.append(sentence)
            continue
        regions = protected_spans(sentence.text)
        begin = 0
        parts: list[tuple[int, int]] = []
        for match in _CLAUSE.finditer(sentence.text):
            if regions and _inside(match.start(), regions):
                continue
            parts.append((begin, match.start()))
            begin = match.end()
        parts.append((begin, len(sentence.text)))
        # A part too short to stand alone ("42 sales") joins the claim before it. Word counts
        # add up as parts join (a separator's words count too), so no part is counted twice.
        kept: list[tuple[int, int]] = []
        counts: list[int] = []
        for a, b in parts:
            words = _words(sentence.text[a:b])
            if kept and (words < 3 or counts[-1] < 3):
                counts[-1] += _words(sentence.text[kept[-1][1] : a]) + words
                kept[-1] = (kept[-1][0], b)
            else:
                kept.append((a, b))
                counts.append(words)
        if len(kept) < 2:
            claims.append(sentence)
            continue
        for a, b in kept:
            start = sentence.start + a
            claims.append(_span(start, sentence.start + b, text[start : sentence.start + b]))
    return tuple(claims)


def _words(piece: str) -> int:
    """How many of ``piece.split()`` hold a letter or digit (:data:`_WORD_RUN`, in C)."""
    return len(_WORD_RUN.findall(piece))


_WORD_RUN = re.compile(r"(?<!\S)\S*?[^\W_]\S*+")
"""A run of non-space characters that holds a letter or digit, from its start (``\\s`` is the
white space ``str.split`` splits at; the lazy start and the possessive end read each run once)."""


_MARKS = re.compile(r"[*_`#\[]")
"""A character Markdown is written with: a text without one has none to strip."""
_MARKDOWN = re.compile(
    r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`|^#{1,6}\s+|\[([^\]\[]*)\]\([^)\[]*\)"
)


def strip_markdown(text: str) -> str:
    """``text`` without Markdown emphasis, code ticks, headings and link targets."""
    if _MARKS.search(text) is None:
        return text
    return _MARKDOWN.sub(lambda m: m.group(1) or "", text)
