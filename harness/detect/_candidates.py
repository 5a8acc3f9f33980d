"""Which earlier bot messages a new one is compared with, and the comparisons already made.

One index of the conversation's bot messages by fact, by content word (words common to many
messages are left out of it) and by exact text gives each message a bounded number of candidates,
the most similar first, so the cost grows with the number of messages, not with its square.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import itemgetter

from harness.detect._spelled import spelled_restatement
from harness.detect.findings import Scope, request_key
from harness.detect.restate import Restatement, Thresholds, borderline, compare
from harness.detect.transcript import Message
from harness.text import Analysis, analyse

__all__ = ["Entry", "Pair"]

_MAX_CANDIDATES = 64
"""Candidates compared per message, the most similar first."""
_COMMON_POSTING = 48
"""A content word already in this many messages is too common to find candidates by."""
_RARE = 16
"""A fact in at most this many earlier messages is rare: alone, it makes a message a candidate."""
_COMMON_RECENT = 32
"""How many of the latest messages stating a common fact are candidates by that fact."""
_EXACT_RECENT = 8
"""How many of the latest copies of the same text are candidates."""
_LINKED = 3
"""What a message before the previous turn must share with a new one to be its candidate (a rare
fact counts 2, an uncommon content word or a common fact 1): one rare fact or two uncommon words
alone link most pairs of a long conversation, and few of them are repeats (in a real-text
conversation of 10,000 messages, 62 % of the candidates and 10 of 161 restating pairs; see
docs/journal/detector.md, "Speed")."""
_SMALL = 8
"""A message without specific facts and with at most this many content words is small (a closer,
a holding message): it only counts as a duplicate within one turn."""


@dataclass(slots=True, eq=False)
class Entry:
    """A bot message with its analysis."""

    index: int
    """Its position among the transcript's messages."""
    message: Message
    text: Analysis
    request: str = ""
    small: bool = False


@dataclass(frozen=True, slots=True)
class Pair:
    """A later message restating an earlier one."""

    earlier: Entry
    later: Entry
    scope: Scope
    found: Restatement


_MEMO_SIZE = 65_536


class _Memo:
    """Comparisons already made: relays, closers and repeated answers meet the same texts again.

    Keys are the analyses' ids; the entry holds the analyses, so their ids cannot be reused."""

    def __init__(self) -> None:
        self.found: dict[
            tuple[int, int, bool], tuple[Analysis, Analysis, Restatement | None, bool]
        ] = {}

    def _compare(
        self, earlier: Analysis, later: Analysis, limits: Thresholds, strict: bool
    ) -> tuple[Analysis, Analysis, Restatement | None, bool]:
        key = (id(earlier), id(later), strict)
        known = self.found.get(key)
        if known is not None and known[0] is earlier and known[1] is later:
            return known
        found, checked = compare(earlier, later, limits, strict=strict)
        if len(self.found) >= _MEMO_SIZE:
            self.found.clear()
        known = self.found[key] = (earlier, later, found, checked)
        return known

    def restates(
        self, earlier: Analysis, later: Analysis, limits: Thresholds, strict: bool
    ) -> Restatement | None:
        return self._compare(earlier, later, limits, strict)[2]

    def borderline(
        self, earlier: Analysis, later: Analysis, limits: Thresholds
    ) -> Restatement | None:
        """:func:`borderline`, skipping the template test the comparison already made."""
        checked = self._compare(earlier, later, limits, False)[3]
        return borderline(earlier, later, templates_checked=checked)

    def spelled(self, earlier: Analysis, later: Analysis, limits: Thresholds) -> Restatement | None:
        """:func:`~._spelled.spelled_restatement`, for a pair whose claims the rules compared
        without finding a restatement or one template filled twice ("2 guests" / "3 guests":
        values that differ, which no other wording of them makes the same)."""
        checked = self._compare(earlier, later, limits, False)[3]
        if not checked:
            return None
        return spelled_restatement(earlier, later, limits.cover)


class _Index:
    """The conversation's bot messages so far, by fact, content word and exact text."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.postings: dict[str, list[int]] = {}
        self.exact: dict[str, list[int]] = {}
        self.first: dict[int, int] = {}
        """The position of each turn's first message."""

    def add(self, entry: Entry) -> None:
        position = len(self.entries)
        self.entries.append(entry)
        self.first.setdefault(entry.message.turn, position)
        for key in entry.text.strong | entry.text.words:
            self.postings.setdefault(key, []).append(position)
        if entry.text.norm:
            self.exact.setdefault(entry.text.norm, []).append(position)

    def candidates(self, entry: Entry, *, weak: bool = False) -> list[Entry]:
        """The messages ``entry`` is compared with: the most similar, at most
        :data:`_MAX_CANDIDATES`, in order (``weak``: with those before the previous turn that share
        less than :data:`_LINKED` with it, for fitting and for a judge, which see every pair the
        scorer may meet)."""
        text = entry.text
        postings = self.postings
        # The positions each key points to, in one list counted at once (one pass in C rather
        # than one ``Counter.update`` per key; the same counts in the same first-seen order).
        # Sorted keys: the counter's order, and so the choice among tied candidates, is the same
        # in every run.
        seen: list[int] = []
        for key in sorted(text.strong):
            posting = postings.get(key)
            if posting is None:
                continue
            if len(posting) <= _RARE:
                # A rare fact ("T-5521") says more than one many messages state ("2026"), which
                # only counts for the latest messages that state it.
                seen += posting
                seen += posting
            else:
                seen += posting[-_COMMON_RECENT:]
        for key in sorted(text.words):
            posting = postings.get(key)
            if posting is not None and len(posting) <= _COMMON_POSTING:
                seen += posting
        counts = Counter(seen)
        # The latest copies of the same text: older copies join the finding through them.
        for position in self.exact.get(text.norm, ())[-_EXACT_RECENT:]:
            counts[position] += 100
        # The messages of this turn and the one before are always compared (relays, retries).
        entries = self.entries
        for position in range(len(entries) - 1, max(-1, len(entries) - 1 - _MAX_CANDIDATES), -1):
            if entries[position].message.turn < entry.message.turn - 1:
                break
            counts[position] += 2
        if weak:
            return [entries[p] for p in _most_similar(counts)]
        turn = entry.message.turn
        recent = self.first.get(turn - 1, self.first.get(turn, len(entries)))
        return [entries[p] for p in _most_similar(counts, recent)]


def _most_similar(counts: Counter[int], recent: int = 0) -> list[int]:
    """The positions counted at least 2, from ``recent`` on (this turn's and the previous
    one's), and before it those counted at least :data:`_LINKED`; at most
    :data:`_MAX_CANDIDATES` of them (the highest counts, ties in the counter's order, as
    ``counts.most_common``), in order."""
    scored = [
        item
        for item in counts.items()
        if item[1] >= _LINKED or (item[1] >= 2 and item[0] >= recent)
    ]
    if len(scored) > _MAX_CANDIDATES:
        scored = sorted(scored, key=itemgetter(1), reverse=True)[:_MAX_CANDIDATES]
    return sorted(p for p, _ in scored)


def _entry(index: int, message: Message, text: Analysis | None = None) -> Entry:
    """``message`` as an entry of the index (``text``: its analysis, when already made)."""
    if text is None:
        text = analyse(message.text)
    small = not text.strong and len(text.words) <= _SMALL
    return Entry(
        index=index,
        message=message,
        text=text,
        request=request_key(message.request) if message.request else "",
        small=small,
    )
