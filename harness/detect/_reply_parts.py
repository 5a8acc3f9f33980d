"""The parts of the bot's messages the missed-request check matches to the requests.

A reply often answers two requests in one sentence ("It starts at 6 pm and the address is 12 Oak
Road"), while the user's requests are segmented by rules that keep a statement whole. So the
check (:mod:`harness.detect.missed`) cuts each sentence the bot said further: where a coordinator
joins two clauses, and between two values, so that each part can answer a request of its own.
Closing boilerplate ("Let me know if you need anything else") is left out."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import lru_cache

from harness.detect._units import VALUE_KINDS, value_groups
from harness.detect.answers import words_of
from harness.detect.findings import DEFAULT_BOILERPLATE
from harness.detect.requests import segment_requests
from harness.text import extract_facts, normalise, split_claims, split_sentences, strip_markdown

__all__ = ["part_clauses", "reply_parts"]


def reply_parts(
    said: Sequence[str], *, clauses: bool = True
) -> list[tuple[str, frozenset[str], bool, str]]:
    """Each sentence the bot said, boilerplate closers left out, with its content words and
    whether it opens its message; with ``clauses``, each sentence cut further where "and" or a
    comma opens a clause of its own, read as :func:`~harness.detect.requests.segment_requests`
    reads a user's message, and between two values: "It starts at 6 pm and the address is 12 Oak
    Road", "It starts at 7 pm at 24 Willie Mays Plaza" answer two requests, one part each. Each
    part comes with the sentence it was cut from."""
    out = []
    for text in said:
        first = True
        for claim in split_claims(strip_markdown(text)):
            if _is_boilerplate(claim.text):
                continue
            for part in _clauses(claim.text) if clauses else (claim.text,):
                if any(ch.isalnum() for ch in part):  # "$34." answers "what's the total"
                    out.append((part, words_of(part), first, claim.text))
                    first = False
    return out


def part_clauses(said: Sequence[str]) -> list[tuple[int, int]]:
    """For each part of :func:`reply_parts` (with clauses), in order, the sentence it was cut
    from and the clause, both numbered across the messages. A sentence cut where ", and" joins
    two claims ("It leaves from Dulles International Airport, and arrives at SFO International
    Airport.") is one sentence here; a clause is a piece before the cuts between values, so
    "Booking a table for 2" and "at Kirin in Mountain View" are one clause."""
    out: list[tuple[int, int]] = []
    sentence = clause = 0
    for text in said:
        plain = strip_markdown(text)
        starts = [span.start for span in split_sentences(plain)]
        for claim in split_claims(plain):
            if _is_boilerplate(claim.text):
                continue
            at = sentence + sum(1 for start in starts if start <= claim.start)
            pieces = _clause_pieces(claim.text)
            for part, piece in pieces:
                if any(ch.isalnum() for ch in part):
                    out.append((at, clause + piece))
            clause += len(pieces)
        sentence += len(starts) + 1
    return out


@lru_cache(maxsize=16_384)
def _clauses(sentence: str) -> tuple[str, ...]:
    """The clauses of one sentence the bot said, in its own words (nothing carried over), each
    cut again between two values ("It starts at 7 pm" / "at 24 Willie Mays Plaza"): a value
    most often answers one request."""
    return tuple(part for part, _ in _clause_pieces(sentence))


@lru_cache(maxsize=16_384)
def _clause_pieces(sentence: str) -> tuple[tuple[str, int], ...]:
    """:func:`_clauses`, each part with the number of its clause in the sentence (the piece it
    was cut from between values)."""
    parts = segment_requests(sentence, statement=True)
    spans = [(p.start, p.end) for p in parts] if len(parts) > 1 else [(0, len(sentence))]
    out: list[tuple[str, int]] = []
    n = 0
    for a, b in spans:
        for piece in _by_joins(sentence[a:b]):
            out += [(value, n) for value in _by_values(piece)]
            n += 1
    return tuple(out)


# Where a statement goes on to a second thing: a coordinator, a yes or a no set off by commas
# (", No, entry is not free") or a sentence end with no space after it ("furnished.Phone
# number is ..."). A closed class of English; a coordinator's word in a hyphened compound joins
# nothing ("plus-size", "also-ran").
_JOIN = re.compile(
    r"(?:,\s*|\s+)(?=(?:and|but|however|while|whereas|plus|also|nor)\b(?![-'\u2019]\w))|;\s*"
    r"|,\s*(?=(?:yes|yeah|yep|no|nope)\b\s*,)"
    r"|(?<=[a-z]{2}[.?!])(?=[A-Z][a-z])",
    re.IGNORECASE,
)


def _by_joins(clause: str) -> list[str]:
    """A statement cut where a coordinator joins two clauses of three words or more each ("The
    number is 925-788-7105 and it's unisex", "They don't have live music but they do serve
    alcohol"), or by one value alone ("no, it's not furnished and 925-686-6868"): the user's
    requests are segmented by their own rules, which keep a statement whole, while a reply
    often answers two requests in one sentence this way."""
    bounds = [0]
    for m in _JOIN.finditer(clause):
        rest = clause[m.end() :]
        if _words(clause[bounds[-1] : m.start()]) >= 3 and (_words(rest) >= 3 or _only_value(rest)):
            bounds.append(m.end())
    bounds.append(len(clause))
    return [piece for x, y in itertools.pairwise(bounds) if (piece := clause[x:y].strip())]


# Words that lead into a value's phrase ("at 24 Willie Mays Plaza", "and 18 minutes"): a closed
# class of English (coordinators and prepositions).
_LEADS = frozenset(
    ["and", "but", "with", "at", "in", "on", "for", "from", "to", "by", "of", "about"]
)


def _cut(clause: str, end: int, start: int) -> int:
    """Where to cut between a value ending at ``end`` and the next starting at ``start``: before
    the first joining word or preposition between them, else right after the first value."""
    for m in re.finditer(r"\S+", clause[end:start]):
        if m.group().lower().strip(",;") in _LEADS:
            return end + m.start()
    return end


def _by_values(clause: str) -> list[str]:
    """A clause cut between two values with words between them: values of other kinds, or of
    the same kind three words or more apart ("leaving LAX and arriving at O'Hare", not "Dec 22
    to Dec 24"), when each piece keeps three words. Values with only spaces or punctuation
    between them ("(415) 555-0142", "24 Willie Mays Plaza") are one."""
    groups = value_groups(clause)
    cuts = [
        _cut(clause, first[1], then[0])
        for first, then in itertools.pairwise(groups)
        if not first[2] & then[2] or len(clause[first[1] : then[0]].split()) >= 3
    ]
    bounds = [0]
    for cut in cuts:  # a piece of one or two words ("of 20).") stays with the one before it
        left, right = clause[bounds[-1] : cut], clause[cut:]
        # a value alone, where a joining word or preposition leads into the next ("7 minutes
        # and $40.48", "a Metal song from 2017"), is a piece too; "301 Hartz Avenue #105" is one
        # (a year says which year a number beside it is of: "340 points for 2027" is one)
        led = right.split()[0].lower() in _LEADS - {"of"} and not _qualifies(left, right)
        if (_words(left) >= 3 or (led and _only_value(left))) and (
            _words(right) >= 3 or (led and _only_value(right))
        ):
            bounds.append(cut)
    bounds.append(len(clause))
    return [piece for x, y in itertools.pairwise(bounds) if (piece := clause[x:y].strip())]


# What may lead into a value given alone (a closed class: coordinators and prepositions; not
# "of", which leads into part of a value: "the 2nd of 20").
_COORDINATOR = re.compile(
    r"^\W*(?:(?:and|but|however|while|whereas|plus|also)\b\W*)?"
    r"(?:(?:with|at|in|on|for|from|to|by|about)\b\W*)?",
    re.IGNORECASE,
)


_AMOUNTS = frozenset({"number", "money", "percent", "duration"})


def _qualifies(left: str, right: str) -> bool:
    """Whether one side gives a year and the other an amount it is of."""
    a = {f.kind for f in extract_facts(left)}
    b = {f.kind for f in extract_facts(right)}
    return ("year" in a and bool(b & _AMOUNTS)) or ("year" in b and bool(a & _AMOUNTS))


def _only_value(text: str) -> bool:
    """Whether ``text`` is one value, after a coordinator or a preposition maybe, nothing more
    ("and 925-686-6868", "from 2017", "7 minutes"): a value given alone answers a request of
    its own."""
    body = _COORDINATOR.sub("", text).rstrip(" .!?;,")
    values = [f for f in extract_facts(body) if f.kind in VALUE_KINDS - {"name"}]
    if not values:
        return False
    covered = [False] * len(body)
    for f in values:
        covered[f.start : f.end] = [True] * (f.end - f.start)
    return not any(ch.isalnum() and not c for ch, c in zip(body, covered, strict=True))


def _words(text: str) -> int:
    return sum(1 for word in text.split() if any(ch.isalnum() for ch in word))


_BOILERPLATE = frozenset(normalise(text) for text in DEFAULT_BOILERPLATE)


def _is_boilerplate(text: str) -> bool:
    return normalise(text) in _BOILERPLATE
