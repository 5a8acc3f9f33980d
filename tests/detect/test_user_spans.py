"""``_Users.spanning`` reads the user's messages between two turns in place (a pair may stand
thousands of turns apart); these tests compare the view with ``_Users.between``'s list: the same
messages in the same order, by length, iteration, index (negative too), slice and truth."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.detect._users import _User, _Users, says_any


def _users(turns: list[int]) -> _Users:
    users = _Users()
    for k, turn in enumerate(sorted(turns)):
        users.add(_User(text=f"message {k}", turn=turn, norm=f"message {k}"))
    return users


@given(
    st.lists(st.integers(0, 30), max_size=25),
    st.integers(-2, 32),
    st.integers(-2, 32),
)
def test_the_view_holds_the_list_of_between(turns: list[int], after: int, upto: int) -> None:
    users = _users(turns)
    listed = users.between(after, upto)
    view = users.spanning(after, upto)
    assert len(view) == len(listed)
    assert bool(view) == bool(listed)
    assert list(view) == listed
    assert list(reversed(view)) == listed[::-1]
    for k in range(-len(listed), len(listed)):
        assert view[k] is listed[k]
    for bad in (len(listed), -len(listed) - 1):
        with pytest.raises(IndexError):
            view[bad]
    assert view[1:] == listed[1:]
    assert view[-4:] == listed[-4:]
    assert view[::-1] == listed[::-1]


def test_messages_added_after_the_view_are_not_in_it() -> None:
    users = _users([1, 2, 3])
    view = users.spanning(0, 10)
    users.add(_User(text="later", turn=4, norm="later"))
    assert [u.text for u in view] == ["message 0", "message 1", "message 2"]


_WORDS = ["an", "ban", "banana", "nab", "a", "n", "b", "", " ", "a n", "an\nb", "ß", "ss"]


@given(
    st.lists(
        st.lists(st.sampled_from(_WORDS), max_size=5).map(" ".join)
        | st.text(alphabet="abn \t\n", max_size=12),
        max_size=12,
    ),
    st.frozensets(st.sampled_from(_WORDS) | st.text(alphabet="abn \n", max_size=4), max_size=4),
    st.integers(0, 13),
    st.integers(0, 13),
)
def test_words_said_in_between_are_found_as_the_plain_scan(
    norms: list[str], words: frozenset[str], after: int, upto: int
) -> None:
    users = _Users()
    for k, norm in enumerate(norms):
        users.add(_User(text=norm, turn=k + 1, norm=norm))
    listed = users.between(after, upto)
    plain = any(words.intersection(u.norm.split()) for u in listed)
    assert says_any(users.spanning(after, upto), words) is plain
    assert says_any(listed, words) is plain


def test_a_word_inside_a_longer_one_or_across_two_texts_is_not_said() -> None:
    users = _users([1, 2])
    users.items[0].norm, users.items[1].norm = "bananas to", "go"
    view = users.spanning(0, 2)
    assert not says_any(view, frozenset({"banana", "togo", "o\ngo"}))
    assert says_any(view, frozenset({"banana", "go"}))
