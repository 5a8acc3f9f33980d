"""The text layer's work grows linearly with the text, whatever the text holds (issue 27).

Work is counted, not timed: every compiled pattern of the text layer and of the detector is wrapped
in a counter that adds one per call plus the number of characters the call is given (``endpos -
pos`` for an anchored match, the rest of the text for a scan). A pattern that rescans the rest of
the text at every candidate, or a Python loop that walks everything found so far, makes that count
grow with the square of the length: at four times the length, sixteen times the work. The linear
code stays near four.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

import harness.detect.duplicates as duplicates
import harness.text._split as split
import harness.text.claims as claims
import harness.text.facts as facts
import harness.text.words as words
from harness.detect.guard import DuplicateGuard
from harness.detect.transcript import Message

# One unit each of the pattern families a user can send: separators that start a candidate at
# every character pair, ids, e-mail addresses, URLs, money, dates, names, Markdown, white space.
FAMILIES: dict[str, str] = {
    "1-": "1-",
    "1/": "1/",
    "a.": "a.",
    "a/": "a/",
    "ids": "ab12-",
    "long id": "a1",
    "e-mail local parts": "a.b",
    "e-mail domains": "a@b.",
    "urls": "http://a.b/",
    "www": "www.",
    "money": "$1 ",
    "digit groups": "1,",
    "dates": "Jan 1, 2020 ",
    "durations": "1 day ",
    "percent": "1% ",
    "hash ids": "#1",
    "ellipsis ids": "…1",
    "initials": "A.",
    "names": "The Ab ",
    "no spaces": "a",
    "spaces": " ",
    "dots": ".",
    "bangs": "! ",
    "clauses": "a; ",
    "dashes": " — a",
    "link targets": "](",
    "brackets": "[a](",
    "braces": "{a",
    "list items": "\n1. a",
}


def _text(unit: str, size: int) -> str:
    text = (unit * (size // len(unit) + 1))[:size]
    # A tail that makes the scans that wait for it ("@" for an address, a capital after spaces)
    # look through the whole run before it.
    return text + " A@b.com sorry" + " " * 8 + "x"


@dataclass
class Work:
    calls: int = 0
    chars: int = 0

    @property
    def total(self) -> int:
        return self.calls + self.chars


class _Counted:
    """A compiled pattern that counts its calls and the characters each is given."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self._pattern = pattern
        self._work = work
        self.pattern = pattern.pattern
        self.flags = pattern.flags

    def _count(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> None:
        self._work.calls += 1
        self._work.chars += max(0, min(endpos, len(string)) - pos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._count(string, pos, endpos)
        return self._pattern.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._count(string, pos, endpos)
        return self._pattern.fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._count(string, pos, endpos)
        return self._pattern.search(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[Any]:
        self._count(string, pos, endpos)
        for found in self._pattern.finditer(string, pos, endpos):
            self._work.calls += 1
            yield found

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        self._count(string, pos, endpos)
        return self._pattern.findall(string, pos, endpos)

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        self._count(string)
        return self._pattern.sub(repl, string, count)


class _CountedRe:
    """The ``re`` module as the text layer's own inline calls see it (``re.search(r"...", s)``)."""

    def __init__(self, work: Work) -> None:
        self._work = work

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    def _wrap(self, name: str) -> Callable[..., Any]:
        def call(pattern: str, string: str, *args: Any, **kwargs: Any) -> Any:
            return getattr(_Counted(re.compile(pattern), self._work), name)(string, *args, **kwargs)

        return call

    def search(self, pattern: str, string: str) -> Any:
        return self._wrap("search")(pattern, string)

    def sub(self, pattern: str, repl: Any, string: str) -> Any:
        return _Counted(re.compile(pattern), self._work).sub(repl, string)


_MODULES: tuple[ModuleType, ...] = (facts, split, claims, words, duplicates)


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Work:
    """Every pattern of the text layer and the detector, counted."""
    counter = Work()
    for module in _MODULES:
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, name, _Counted(value, counter))
    for kind, pattern in list(facts._BY_KIND.items()):
        monkeypatch.setitem(facts._BY_KIND, kind, _Counted(pattern, counter))
    monkeypatch.setattr(facts, "re", _CountedRe(counter))
    return counter


def _clear_caches() -> None:
    for function in (
        facts.extract_facts,
        split.split_sentences,
        split.split_claims,
        claims.analyse,
        words.content_words,
    ):
        function.cache_clear()


def _measure(work: Work, run: Callable[[str], object], text: str) -> int:
    _clear_caches()
    before = work.total
    run(text)
    return work.total - before


def _growth(work: Work, run: Callable[[str], object], unit: str, size: int) -> float:
    small = _measure(work, run, _text(unit, size))
    large = _measure(work, run, _text(unit, 4 * size))
    return large / small


@pytest.mark.parametrize("family", list(FAMILIES))
def test_fact_extraction_is_linear(work: Work, family: str) -> None:
    """Four times the text, about four times the work (quadratic: sixteen)."""
    assert _growth(work, facts.extract_facts, FAMILIES[family], 3_000) < 4.6


@pytest.mark.parametrize("family", list(FAMILIES))
def test_splitting_is_linear(work: Work, family: str) -> None:
    def run(text: str) -> None:
        split.split_claims(text)
        split.strip_markdown(text)

    assert _growth(work, run, FAMILIES[family], 3_000) < 4.6


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_megabyte_message_is_analysed_within_the_budget(work: Work, family: str) -> None:
    """1 MB of each family: the claims and facts come from the budget's worth of text only."""
    unit = FAMILIES[family]
    analysis = claims.analyse(_text(unit, 1_000_000))
    assert analysis.partial
    assert analysis.analysed <= claims.ANALYSIS_BUDGET
    assert all(c.span.end <= claims.ANALYSIS_BUDGET for c in analysis.claims)
    assert len(analysis.claims) <= claims.CLAIM_BUDGET
    # Past the budget only linear passes over the whole text remain (normalising it): the work
    # at 1 MB is at most about four times the work at 256 KB.
    assert _growth(work, claims.analyse, unit, 250_000) < 4.6


def test_the_budget_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    claims.analyse.cache_clear()
    claims.analyse("word " * 10_000)
    assert any("analysis budget" in r.getMessage() for r in caplog.records)


def test_a_short_message_is_analysed_whole() -> None:
    analysis = claims.analyse("Your refund of $1,250 was approved on March 3. Anything else?")
    assert not analysis.partial
    assert {"num:1250", "date:03-03"} <= analysis.facts


@pytest.mark.parametrize("family", ["1-", "a.", "clauses", "e-mail domains", "spaces"])
def test_the_guard_on_a_megabyte_exchange_is_linear(work: Work, family: str) -> None:
    """The user sends 1 MB; a bot that quotes it back drafts 1 MB: the guard's work stays linear."""
    guard = DuplicateGuard("drop")

    def run(text: str) -> None:
        sent = [
            Message(id="u1", turn=1, role="user", sender="user", text=text),
            Message(id="b1", turn=1, role="bot", sender="it", text=f"You said {text}"),
        ]
        guard.check(f"You said {text}", sent=sent, turn=1)

    assert _growth(work, run, FAMILIES[family], 250_000) < 4.6


def test_the_guard_quotes_a_long_duplicate_briefly(caplog: pytest.LogCaptureFixture) -> None:
    text = "Your ticket EB-57102 is open and assigned to the network team. " * 2_000
    sent = [Message(id="b1", turn=1, role="bot", sender="it", text=text)]
    decision = DuplicateGuard("warn").check(text, sent=sent, turn=1)
    assert decision.findings
    assert all(len(f.evidence) < 1_000 for f in decision.findings)
    assert all(len(r.getMessage()) < 1_000 for r in caplog.records)
