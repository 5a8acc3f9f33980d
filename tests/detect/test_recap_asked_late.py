"""Whether a message says itself it says something again (``_recaps.says_again``) is worked out
only when one of its pairs asks (``_Around.recaps``: a pair at most ``RECAP_TURNS`` turns apart
that the screen or the bound rules out, or whose claims restate): about three messages in four
never ask (real-100000: 11,298 searches instead of 49,816). The answer is the plain one, the
search done at most once per message, and not at all for a pair further apart.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.detect import _around
from harness.detect._around import _Around
from harness.detect._candidates import _entry
from harness.detect._recaps import RECAP_TURNS, says_again
from harness.detect._users import _User, _Users
from harness.detect.transcript import Message

_PIECES = [
    "as I mentioned",
    "just to recap",
    "to sum up",
    "quick reminder:",
    "as the billing agent said earlier",
    "your refund of $42.10",
    "is approved",
    "the order T-5521",
    "shipped on Friday",
    "again",
    "as",
    "same",
    "Anything else?",
    "Thanks!",
    "—",
]
_TEXT = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map(" ".join)


def _around_of(text: str, turn: int) -> _Around:
    entry = _entry(5, Message(id="b", turn=turn, role="bot", sender="agent", text=text))
    users = _Users()
    users.add(_User.of(Message(id="u", turn=turn, role="user", sender="user", text="and?")))
    return _Around(entry, users)


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.lists(st.integers(min_value=0, max_value=RECAP_TURNS + 4), max_size=5))
def test_recaps_is_the_plain_test(text: str, distances: list[int]) -> None:
    turn = RECAP_TURNS + 5
    around = _around_of(text, turn)
    plain = says_again(text, around.entry.text.words)
    for distance in distances:
        other = _entry(1, Message(id="a", turn=turn - distance, role="bot", sender="x", text="ok"))
        assert around.recaps(other) == (plain and distance <= RECAP_TURNS)


def test_searched_once_and_only_when_a_near_pair_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counted(text: str, words: frozenset[str] | None = None) -> bool:
        calls.append(text)
        return says_again(text, words)

    monkeypatch.setattr(_around, "says_again", counted)
    turn = RECAP_TURNS + 5
    around = _around_of("Just to recap, your refund of $42.10 is approved.", turn)
    far = _entry(1, Message(id="a", turn=turn - RECAP_TURNS - 1, role="bot", sender="x", text="x"))
    near = _entry(2, Message(id="c", turn=turn - 1, role="bot", sender="x", text="x"))
    assert calls == []  # made without the search
    assert not around.recaps(far)
    assert calls == []  # a pair too far apart does not need it
    assert around.recaps(near)
    assert around.recaps(near)
    assert len(calls) == 1
